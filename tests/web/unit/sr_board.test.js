// Unit tests of the Scotland Rising board's pure parts (web-client/js/sr/): hex geometry, the
// sorting of legal actions, routes built by clicks, the line of sight drawn for a longbow's
// target and the dice read from the log, checked against real engine views
// (tests/web/fixtures/sr/, written by tools/game-views).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const sr = (f) => import(path.join(root, 'web-client/js/sr', f));
const { parseHex, hexId, distance, neighbours, hexCenter, stepHex, isAdjacent } =
  await sr('hex.js');
const { classify, targetsOf, unitList, stacks, terrainMap, describeAction, outcomeText } =
  await sr('model.js');
const { extendPath, routeAction } = await sr('path.js');
const { sightSteps, sightLine } = await sr('los.js');
const { parseAttack, lastAttack, attackAt, hexesIn } = await sr('dice.js');
const { mergeLog } = await import(path.join(root, 'web-client/js/view_patch.js'));

const fixture = (name) =>
  JSON.parse(fs.readFileSync(path.join(root, 'tests/web/fixtures/sr', `${name}.json`), 'utf8'))
    .view;
const NAMES = [
  'start',
  'ap',
  'turn1',
  'charge',
  'charged',
  'longbow',
  'midgame',
  'over',
  'freeform',
];

test('hex ids and their centres: odd rows (from 0) lie half a hex east', () => {
  assert.deepEqual(parseHex('0712'), { col: 6, row: 11 });
  assert.equal(hexId(6, 11), '0712');
  assert.equal(parseHex('712'), null);
  const a = hexCenter('0101', 10);
  const b = hexCenter('0102', 10);
  const c = hexCenter('0201', 10);
  assert.ok(Math.abs(b.x - a.x - (Math.sqrt(3) * 10) / 2) < 1e-9, 'row 02 shifted east');
  assert.ok(Math.abs(c.x - a.x - Math.sqrt(3) * 10) < 1e-9);
  assert.equal(b.y - a.y, 15);
});

test('neighbours: six inside the board, fewer at its edge, each at distance 1', () => {
  assert.equal(neighbours('0606', 12, 16).length, 6);
  assert.deepEqual(neighbours('0101', 12, 16).sort(), ['0102', '0201']);
  for (const n of neighbours('0707', 12, 16)) assert.equal(distance('0707', n), 1);
  assert.equal(distance('0705', '0807'), 2);
  assert.equal(distance('0101', '1216'), distance('1216', '0101'));
});

test("the geometry agrees with the engine's: every legal path goes from hex to neighbouring hex", () => {
  let steps = 0;
  for (const name of NAMES) {
    const view = fixture(name);
    const at = new Map(view.units.map((u) => [u.id, u.hex]));
    for (const a of view.legal_actions) {
      if (!a.path) continue;
      let from = at.get(a.unit);
      for (const hex of a.path) {
        assert.ok(isAdjacent(from, hex), `${name}: ${JSON.stringify(a)} steps ${from}->${hex}`);
        from = hex;
        steps += 1;
      }
      if (a.target) assert.ok(isAdjacent(from, a.target), `${name}: ${JSON.stringify(a)}`);
    }
  }
  assert.ok(steps > 500, `only ${steps} steps checked`);
});

test('attacks: adjacent, except a longbow at 2 hexes', () => {
  const view = fixture('longbow');
  const units = new Map(unitList(view).map((u) => [u.id, u]));
  const ranged = [];
  for (const a of view.legal_actions.filter((x) => x.type === 'attack')) {
    const u = units.get(a.unit);
    const d = distance(u.hex, a.target);
    if (u.type === 'longbow') assert.ok(d <= 2);
    else assert.equal(d, 1, JSON.stringify(a));
    if (d === 2) ranged.push(a);
  }
  assert.ok(ranged.length >= 1, 'the fixture holds a longbow shot at range 2');
});

test('arrow keys step to a neighbour, and stop at the edge', () => {
  for (const key of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']) {
    assert.equal(distance('0607', stepHex('0607', key, 12, 16)), 1, key);
    assert.equal(distance('0608', stepHex('0608', key, 12, 16)), 1, key);
  }
  assert.equal(stepHex('0101', 'ArrowUp', 12, 16), '0101');
  assert.equal(stepHex('1216', 'ArrowRight', 12, 16), '1216');
  // Up and down go straight: two steps up come back to the same column.
  assert.equal(stepHex(stepHex('0608', 'ArrowUp', 12, 16), 'ArrowUp', 12, 16), '0606');
});

test('the view as the board reads it: units with their values, stacks, terrain', () => {
  const view = fixture('midgame');
  const units = unitList(view);
  // The mid-game stop is where some unit is reduced and some disordered (make-sr-fixtures.sh).
  const reduced = units.find((u) => u.isReduced && !u.leader);
  assert.ok(reduced, 'a reduced unit');
  assert.deepEqual(reduced.values, view.board.units.find((u) => u.id === reduced.id).reduced);
  const disordered = units.find((u) => u.disordered);
  assert.ok(disordered, 'a disordered unit');
  assert.equal(disordered.type, view.board.units.find((u) => u.id === disordered.id).type);
  const st = stacks(units);
  for (const [hex, s] of st) {
    assert.ok(s.unit || s.leader, hex);
    if (s.unit) assert.equal(s.unit.leader, false);
    if (s.leader) assert.equal(s.leader.leader, true);
  }
  assert.equal(
    [...st.values()].reduce((n, s) => n + (s.unit ? 1 : 0) + (s.leader ? 1 : 0), 0),
    units.filter((u) => u.onBoard).length,
  );
  const terrain = terrainMap(view.board);
  assert.equal(terrain.size, 12 * 16);
  assert.equal(terrain.get('0213'), 'village');
  assert.equal(terrain.get('0412'), 'bridge');
  assert.equal(terrain.get('0112'), 'burn');
  assert.equal(terrain.get('0101'), 'woods');
});

test('every legal action is sorted to one place on the board, none lost', () => {
  for (const name of NAMES) {
    const view = fixture(name);
    const cls = classify(view.legal_actions);
    let n = cls.general.length + cls.places.size;
    for (const acts of cls.byUnit.values()) {
      n += acts.moves.size + acts.attacks.size + acts.exits.length + acts.rallies.length;
      n += acts.other.length;
      for (const list of [...acts.charges.values(), ...acts.moveAttacks.values()]) n += list.length;
    }
    assert.equal(n, view.legal_actions.length, name);
  }
  const charge = classify(fixture('charge').legal_actions);
  const chargers = [...charge.byUnit.entries()].filter(([, a]) => a.charges.size);
  assert.ok(chargers.length > 0);
  const [, acts] = chargers[0];
  const marks = targetsOf(acts);
  for (const hex of acts.charges.keys()) assert.ok(marks.get(hex).has('charge'));
  for (const hex of acts.moves.keys()) assert.ok(marks.get(hex).has('move'));
});

test('a route built by clicks: neighbours extend it, a far hex takes the engine path', () => {
  const view = fixture('turn1');
  const units = new Map(unitList(view).map((u) => [u.id, u]));
  const acts = classify(view.legal_actions).byUnit.get('sc_hobelar1');
  const from = units.get('sc_hobelar1').hex;
  const far = [...acts.moves.values()].find((a) => a.path.length === 3);
  assert.ok(far, 'a destination 3 hexes away');
  // One click on a far destination: the engine's own path.
  const direct = extendPath([], far.path[2], from, acts.moves);
  assert.deepEqual(direct, far.path);
  assert.deepEqual(routeAction(direct, acts.moves), far);
  // Hex by hex along another route: each click a neighbour of the route's end.
  const first = neighbours(from, 12, 16).find((h) => acts.moves.has(h) && h !== far.path[0]);
  let route = extendPath([], first, from, acts.moves);
  assert.deepEqual(route, [first]);
  const second = neighbours(first, 12, 16).find((h) => acts.moves.has(h) && h !== from);
  route = extendPath(route, second, from, acts.moves);
  assert.deepEqual(route, [first, second]);
  const action = routeAction(route, acts.moves);
  assert.deepEqual(action, { type: 'move', unit: 'sc_hobelar1', path: [first, second] });
  // A click on a hex of the route cuts it back; on a hex the unit cannot reach, nothing.
  assert.deepEqual(extendPath(route, first, from, acts.moves), [first]);
  assert.deepEqual(extendPath(route, '0116', from, acts.moves), route);
  assert.equal(routeAction([], acts.moves), null);
});

test('line of sight drawn: one hex per step, the same both ways, blocked per R8', () => {
  assert.deepEqual(sightSteps('0705', '0905'), [{ hexes: ['0805'], side: false }]);
  // Straight up the board the line runs along the hexside between two hexes.
  assert.deepEqual(sightSteps('0705', '0707'), [{ hexes: ['0606', '0706'], side: true }]);
  const there = sightSteps('0705', '0908');
  const back = sightSteps('0908', '0705');
  assert.deepEqual(
    there.map((s) => [...s.hexes].sort()),
    back.reverse().map((s) => [...s.hexes].sort()),
  );
  for (const n of [2, 3, 5]) assert.equal(sightSteps('0101', hexId(n, 0)).length, n - 1);
  const woods = new Map([['0805', 'woods']]);
  assert.equal(sightLine('0705', '0905', woods).blocked, true);
  assert.deepEqual(sightLine('0705', '0905', woods).steps[0].blocking, ['0805']);
  assert.equal(sightLine('0705', '0905', new Map()).blocked, false);
  // Along a hexside: blocked only when both hexes block.
  const one = new Map([['0706', 'village']]);
  assert.equal(sightLine('0705', '0707', one).blocked, false);
  one.set('0606', 'woods');
  assert.equal(sightLine('0705', '0707', one).blocked, true);
});

test("every longbow shot the engine allows shows an open line on the board's terrain", () => {
  let shots = 0;
  for (const name of NAMES) {
    const view = fixture(name);
    const units = new Map(unitList(view).map((u) => [u.id, u]));
    const terrain = terrainMap(view.board);
    for (const a of view.legal_actions.filter((x) => x.type === 'attack')) {
      const u = units.get(a.unit);
      if (u.type !== 'longbow' || distance(u.hex, a.target) < 2) continue;
      assert.equal(sightLine(u.hex, a.target, terrain).blocked, false, JSON.stringify(a));
      shots += 1;
    }
  }
  assert.ok(shots >= 1);
});

test("the dice of attacks from the engine's log lines", () => {
  const a = parseAttack(
    'English knight en_knight6 (Edward II) charges 0711: 3 dice hitting on 6+, rolled 5,1,1: 0 hits',
  );
  assert.deepEqual(
    { charge: a.charge, target: a.target, dice: a.dice, need: a.need, faces: a.faces },
    { charge: true, target: '0711', dice: 3, need: 6, faces: [5, 1, 1] },
  );
  assert.deepEqual(a.hitFaces, [false, false, false]);
  assert.equal(parseAttack('Turn 3'), null);
  const last = lastAttack(fixture('midgame').log);
  assert.equal(last.attacker, 'English leader en_clifford (Clifford)');
  assert.deepEqual(last.results, ['English leader en_clifford (Clifford) is disordered']);
  // Every attack line of whole games is read, and its hits agree with its faces.
  let n = 0;
  for (const line of fixture('over').log) {
    if (!/ (attacks|charges) \d{4}:/.test(line)) continue;
    const p = parseAttack(line);
    assert.ok(p, line);
    assert.equal(p.faces.length, p.dice, line);
    assert.equal(p.hitFaces.filter(Boolean).length, p.hits, line);
    n += 1;
  }
  assert.ok(n > 10);
  const log = [
    'Turn 2',
    'Scots ax sc_ax1 attacks 0506: 3 dice hitting on 5+, rolled 5,2,6: 2 hits',
  ];
  log.push('English knight en_knight1 (Gloucester) is reduced', 'Turn 3');
  assert.equal(attackAt(log, 0), null);
  assert.deepEqual(attackAt(log, 1).results, ['English knight en_knight1 (Gloucester) is reduced']);
  assert.deepEqual(attackAt(log, 1).hitFaces, [true, false, true]);
  assert.deepEqual(hexesIn('Scots leader sc_douglas (Douglas) moves 0809 0710 0711'), [
    '0809',
    '0710',
    '0711',
  ]);
});

test('actions and the end in words', () => {
  const view = fixture('midgame');
  const byId = new Map(unitList(view).map((u) => [u.id, u]));
  assert.equal(
    describeAction({ type: 'move', unit: 'en_knight1', path: ['0608'] }, byId),
    'England Knights (Gloucester): move to 0608',
  );
  assert.equal(describeAction({ type: 'end_turn' }, byId), 'End turn');
  const over = fixture('over');
  assert.equal(
    outcomeText(over.outcome, over.vp),
    'England wins on victory points (Scotland 11 VP, England 12 VP).',
  );
  assert.equal(
    outcomeText({ finished: true, winner: null, reason: 'draw' }, { scotland: 9, england: 9 }),
    'The game is drawn (Scotland 9 VP, England 9 VP).',
  );
});

test('a pushed log of plain lines (Scotland Rising) merges by place', () => {
  assert.deepEqual(mergeLog(['a', 'b', 'c'], 2, ['C', 'd']), ['a', 'b', 'C', 'd']);
  assert.deepEqual(mergeLog([{ i: 0 }, { i: 4 }], 3, [{ i: 5 }]), [{ i: 0 }, { i: 5 }]);
});
