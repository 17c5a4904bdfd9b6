// Unit tests of the web client's pure modules (no browser needed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const js = (m) => import(path.join(root, 'web-client/js', m));
const { indexGameData } = await js('gamedata.js');
const raw = JSON.parse(fs.readFileSync(path.join(root, 'web-client/data/game-data.json'), 'utf8'));
const data = indexGameData(raw);

test("the client serves the engine's own copy of the game data", () => {
  const engine = fs.readFileSync(path.join(root, 'rules/hots/data/game-data.json'), 'utf8');
  const web = fs.readFileSync(path.join(root, 'web-client/data/game-data.json'), 'utf8');
  assert.equal(web, engine, 'run: cp rules/hots/data/game-data.json web-client/data/');
});

test("every area's stack fits inside its own shape up to six blocks", async () => {
  const { ringsOf, pointInRings, stackLayout } = await js('map/geometry.js');
  const shape = JSON.parse(fs.readFileSync(path.join(root, 'web-client/data/map.json'), 'utf8'));
  for (const a of shape.areas) {
    const rings = ringsOf(a.path);
    assert.ok(pointInRings(a.anchor, rings), `${a.id}'s anchor is inside it`);
    for (let n = 1; n <= 6; n++) {
      const { size, slots, fits } = stackLayout(n, a.anchor, rings);
      assert.ok(fits, `${n} blocks fit in ${a.id}`);
      assert.equal(slots.length, n);
      for (const [x, y] of slots) {
        for (const p of [
          [x, y],
          [x + size, y],
          [x, y + size],
          [x + size, y + size],
        ]) {
          assert.ok(pointInRings(p, rings), `${a.id}: block corner ${p} is inside the area`);
        }
      }
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          const [[xi, yi], [xj, yj]] = [slots[i], slots[j]];
          assert.ok(Math.abs(xi - xj) >= size || Math.abs(yi - yj) >= size, 'no overlap');
        }
      }
    }
  }
});

test('the arrow keys reach every area from every area', async () => {
  const { arrowTarget } = await js('map/map_keys.js');
  const shape = JSON.parse(fs.readFileSync(path.join(root, 'web-client/data/map.json'), 'utf8'));
  const anchors = new Map(shape.areas.map((a) => [a.id, a.anchor]));
  const keys = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'];
  for (const from of anchors.keys()) {
    const seen = new Set([from]);
    const queue = [from];
    while (queue.length) {
      const at = queue.shift();
      for (const k of keys) {
        const to = arrowTarget(anchors, at, k);
        if (to && !seen.has(to)) {
          seen.add(to);
          queue.push(to);
        }
      }
    }
    assert.equal(seen.size, anchors.size, `from ${from} the arrows reach every area`);
  }
  // By geography: Fife's neighbour to the north is Angus, Lothian is south of Fife, and
  // nothing lies east of the eastmost area, Buchan.
  assert.equal(arrowTarget(anchors, 'fife', 'ArrowUp'), 'angus');
  assert.equal(arrowTarget(anchors, 'fife', 'ArrowDown'), 'lothian');
  assert.equal(arrowTarget(anchors, 'buchan', 'ArrowRight'), null);
  assert.equal(arrowTarget(anchors, 'fife', 'Enter'), null);
});

test('an area whose blocks would be too small to read is drawn as a chip that fits in it', async () => {
  const { ringsOf, pointInRings, chipLayout } = await js('map/geometry.js');
  const { legible, chipParts, chipSize, zoomStep, stepScale, MIN_TEXT_PX } =
    await js('map/map_chips.js');
  const { blockTextPx } = await js('map/map_blocks.js');
  const own = (name) => ({ own: { name } });
  // The longest name at full size on a desktop's first zoom reads; at a phone's Fit it does not.
  assert.ok(blockTextPx('Northumber Infantry', 56, 1.35) >= MIN_TEXT_PX);
  assert.ok(legible([own('Northumber Infantry'), { hidden: 'england' }], 56, 1.35));
  assert.ok(!legible([own('Wallace')], 56, 0.375));
  assert.ok(!legible([{ hidden: 'england' }], 24, 0.375), 'a back 9 px wide is too small');
  // The zoom steps round down, and by less than 2%.
  for (const sc of [0.375, 0.61, 1, 1.35, 3.99]) {
    const q = stepScale(zoomStep(sc));
    assert.ok(q <= sc + 1e-9 && q > sc / 1.02, `${sc} -> ${q}`);
  }
  // Both sides' chip at a phone's Fit (the narrowest: 0.36 px per unit) fits in every area.
  const shape = JSON.parse(fs.readFileSync(path.join(root, 'web-client/data/map.json'), 'utf8'));
  const parts = chipParts([
    { side: 'scotland', own: [1, 2], revealed: [], hidden: 0 },
    { side: 'england', own: [], revealed: [], hidden: 4 },
  ]);
  assert.deepEqual(
    parts.map((p) => [p.side, p.count, p.faces]),
    [
      ['scotland', 2, true],
      ['england', 4, false],
    ],
  );
  const [w, h] = chipSize(parts).map((v) => v / 0.36);
  for (const a of shape.areas) {
    const rings = ringsOf(a.path);
    const box = chipLayout(w, h, a.anchor, rings);
    assert.ok(box.fits, `the chip fits in ${a.id}`);
    for (const [u, v] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ]) {
      assert.ok(
        pointInRings([box.x + u * box.w, box.y + v * box.h], rings),
        `${a.id}: corner inside`,
      );
    }
  }
});

test('a short name says its block, and a compact stack lies inside its area', async () => {
  const { shortName, tagLayout, TAG_H } = await js('map/tag_layout.js');
  const { ringsOf, pointInRings } = await js('map/geometry.js');
  assert.equal(shortName('Wallace'), 'Wallace');
  assert.equal(shortName('Northumber Infantry'), 'Nort Inf');
  assert.equal(shortName('Wales Archers'), 'Wales Arc');
  assert.equal(shortName('French Knights'), 'Fren Kni');
  // Every block's short name is its own among its side's (the title and list give the rest).
  for (const side of ['sco_', 'eng_']) {
    const names = raw.blocks.filter((b) => b.id.startsWith(side)).map((b) => shortName(b.name));
    assert.equal(new Set(names).size, names.length, `${side} short names are distinct`);
  }
  // A battle at the desktop's Fit (0.61 px per unit): two Scottish tags against two English
  // backs, in two groups apart, each cell inside Mentieth.
  const shape = JSON.parse(fs.readFileSync(path.join(root, 'web-client/data/map.json'), 'utf8'));
  const a = shape.areas.find((x) => x.id === 'mentieth');
  const rings = ringsOf(a.path);
  const faces = ['Wallace', 'Douglas'].map((name, k) => ({ id: `b${k}`, name, strength: 3 }));
  const unit = 1 / 0.61;
  const layout = tagLayout(
    [
      { side: 'scotland', faces, backs: 0 },
      { side: 'england', faces: [], backs: 2 },
    ],
    a.anchor,
    rings,
    -Infinity,
    [[]],
    unit,
  );
  assert.ok(layout?.names, 'the tags show names');
  assert.equal(layout.groups.length, 2);
  const [g, h] = layout.groups;
  assert.ok(g.x + g.w < h.x || g.y + g.h < h.y, 'the two sides are groups apart');
  for (const grp of layout.groups) {
    for (const c of grp.cells) {
      const w = c.kind === 'tag' ? c.w : TAG_H;
      for (const [u, v] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ]) {
        const x = layout.x + (grp.x + c.x + u * w) * unit;
        const y = layout.y + (grp.y + c.y + v * TAG_H) * unit;
        assert.ok(pointInRings([x, y], rings), `a ${c.kind} lies inside Mentieth`);
      }
    }
  }
});

test("a box is inside an area only if no border's notch cuts it", async () => {
  const { ringsOf, pointInRings, boxInRings } = await js('map/geometry.js');
  const shape = JSON.parse(fs.readFileSync(path.join(root, 'web-client/data/map.json'), 'utf8'));
  const rings = ringsOf(shape.areas.find((x) => x.id === 'lothian').path);
  // Lothian's northern border dips to (632.9, 883.7) between two of its neighbours: a box whose
  // corners and edge midpoints are all inside Lothian still reaches into the dip.
  const box = [558.3, 881.3, 635, 898.4];
  for (const u of [0, 0.5, 1])
    for (const v of [0, 0.5, 1])
      assert.ok(
        pointInRings([box[0] + u * (box[2] - box[0]), box[1] + v * (box[3] - box[1])], rings),
      );
  assert.equal(boxInRings(box, rings), false, 'the dip cuts the box');
  assert.equal(boxInRings([560, 890, 620, 905], rings), true, 'a box clear of it is inside');
  assert.equal(boxInRings([400, 890, 420, 905], rings), false, 'a box outside is not inside');
});

test('in a small area the tags are placed one by one: inside, apart, two sides apart', async () => {
  const { ringsOf, boxInRings } = await js('map/geometry.js');
  const { packCells } = await js('map/tag_pack.js');
  const { TAG_H } = await js('map/tag_layout.js');
  const shape = JSON.parse(fs.readFileSync(path.join(root, 'web-client/data/map.json'), 'utf8'));
  const fife = shape.areas.find((x) => x.id === 'fife');
  const rings = ringsOf(fife.path);
  const unit = 1 / 0.6; // a 1440x900 window's Fit
  const tags = (n) => Array.from({ length: n }, () => ({ kind: 'tag', w: 44 }));
  const backs = (n) => Array.from({ length: n }, () => ({ kind: 'back', w: TAG_H }));
  const layout = packCells([tags(3), backs(2)], fife.anchor, rings, [], unit, 1);
  assert.ok(layout, 'three tags and two backs find room in Fife');
  const boxes = layout.groups.map((g) =>
    g.cells.map((c) => {
      const x = layout.x + (g.x + c.x) * unit;
      const y = layout.y + (g.y + c.y) * unit;
      return [x, y, x + c.w * unit, y + TAG_H * unit];
    }),
  );
  for (const b of boxes.flat()) assert.ok(boxInRings(b, rings), `${b} lies inside Fife`);
  const meet = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  const all = boxes.flat();
  all.forEach((a, i) => all.slice(i + 1).forEach((b) => assert.ok(!meet(a, b), 'cells apart')));
  const frame = (g) => [
    layout.x + g.x * unit,
    layout.y + g.y * unit,
    layout.x + (g.x + g.w) * unit,
    layout.y + (g.y + g.h) * unit,
  ];
  assert.ok(!meet(frame(layout.groups[0]), frame(layout.groups[1])), 'the two sides apart');
  for (const g of layout.groups) assert.ok(boxInRings(frame(g), rings), 'a frame lies inside');
  assert.equal(packCells([tags(12)], fife.anchor, rings, [], unit, 0), null, 'twelve do not fit');
});

test("a block's label is turned so that its strength is on top", async () => {
  const { edgeStrengths, nameLines } = await js('map/map_blocks.js');
  // Top, right, bottom, left: one hit turns the next lower strength to the top.
  assert.deepEqual(edgeStrengths(4, 4), [4, 3, 2, 1]);
  assert.deepEqual(edgeStrengths(2, 4), [2, 1, 4, 3]);
  assert.deepEqual(edgeStrengths(3, 3), [3, 2, 1, 0]); // a 3-step block has one blank edge
  assert.deepEqual(edgeStrengths(1, 2), [1, 0, 0, 2]);
  assert.deepEqual(nameLines('Wallace'), ['Wallace']);
  assert.deepEqual(nameLines('French Knights'), ['French', 'Knights']);
  assert.deepEqual(nameLines('Northumberland'), ['Northumberland']); // shrunk, never cut
});

test('legal actions are grouped by what is clicked', async () => {
  const { classify, destinations } = await js('actions.js');
  const c = classify([
    { kind: 'play_card', card: 'move3_1' },
    { kind: 'move', block: 'sco_wallace', to: 'angus' },
    { kind: 'move', block: 'sco_wallace', to: 'atholl' },
    { kind: 'fire', block: 'sco_douglas' },
    { kind: 'step', to: 'lothian' },
    { kind: 'choose_battle', area: 'fife' },
    { kind: 'herald', noble: 'comyn' },
    { kind: 'end_move_phase' },
    { kind: 'undo' },
  ]);
  assert.deepEqual([...c.cards.keys()], ['move3_1']);
  assert.deepEqual([...c.blocks.keys()], ['sco_wallace', 'sco_douglas']);
  assert.deepEqual([...c.areas.keys()], ['lothian', 'fife']);
  assert.equal(c.nobles.length, 1);
  assert.deepEqual(
    c.buttons.map((a) => a.kind),
    ['end_move_phase', 'undo'],
  );
  assert.deepEqual([...destinations(c.blocks.get('sco_wallace')).keys()], ['angus', 'atholl']);
  assert.equal(destinations(c.blocks.get('sco_douglas')).size, 0);
  assert.equal(classify(undefined).buttons.length, 0);
});

test('actions are described in words', async () => {
  const { describe, sameAction } = await js('actions.js');
  assert.equal(
    describe({ kind: 'move', block: 'sco_wallace', to: 'lothian' }, data),
    'Move Wallace to Lothian',
  );
  assert.equal(describe({ kind: 'play_card', card: 'move2_4' }, data), 'Play Move 2');
  assert.equal(describe({ kind: 'play_card', card: 'herald' }, data), 'Play Herald');
  assert.equal(describe({ kind: 'fire', block: 'eng_edward' }, data), 'Fire with Edward');
  assert.equal(describe({ kind: 'choose_battle', area: 'fife' }, data), 'Fight the battle in Fife');
  assert.equal(describe({ kind: 'end_move_phase' }, data), 'End move phase');
  // Wallace's winter step (RULES 10.8.2, table 14 #23): its two answers in a player's words.
  assert.equal(describe({ kind: 'to_selkirk' }, data), 'Move Wallace to Selkirk to heal');
  assert.equal(describe({ kind: 'stay' }, data), 'Leave Wallace where he is');
  assert.equal(describe({ kind: 'something_new' }, data), 'Something new');
  assert.ok(sameAction({ kind: 'step', to: 'fife' }, { to: 'fife', kind: 'step' }));
  assert.ok(!sameAction({ kind: 'step', to: 'fife' }, { kind: 'step', to: 'mar' }));
});

test('reconnect backoff grows, is capped and jittered', async () => {
  const { backoffDelay, socketUrl } = await js('connection.js');
  assert.equal(
    backoffDelay(0, () => 0),
    250,
  );
  assert.equal(
    backoffDelay(0, () => 1),
    500,
  );
  assert.equal(
    backoffDelay(3, () => 1),
    4000,
  );
  assert.equal(
    backoffDelay(50, () => 1),
    15000,
  );
  assert.ok(backoffDelay(50, () => 0) >= 7500);
  assert.equal(
    socketUrl({ protocol: 'https:', host: 'h:1' }, 7, { observe: true, chatSince: 3 }),
    'wss://h:1/ws/games/7?chat_since=3&observe=1',
  );
  assert.equal(socketUrl({ protocol: 'http:', host: 'h' }, 2), 'ws://h/ws/games/2?chat_since=0');
  assert.equal(
    socketUrl({ protocol: 'http:', host: 'h' }, 2, { patches: true, chatSince: 5 }),
    'ws://h/ws/games/2?chat_since=5&patches=1',
  );
});

test('routes', async () => {
  const { parseRoute } = await js('route.js');
  assert.deepEqual(parseRoute('#/game/12'), { page: 'game', id: 12, observe: false });
  assert.deepEqual(parseRoute('#/game/12/observe'), { page: 'game', id: 12, observe: true });
  assert.deepEqual(parseRoute('#/tournaments'), { page: 'tournaments' });
  assert.deepEqual(parseRoute('#/tournament/7'), { page: 'tournament', id: 7 });
  assert.deepEqual(parseRoute('#/replay/3'), { page: 'replay', id: 3 });
  assert.deepEqual(parseRoute('#/invite/abc'), { page: 'invite', token: 'abc' });
  assert.deepEqual(parseRoute('#/help'), { page: 'help' });
  assert.deepEqual(parseRoute(''), { page: 'lobby' });
  assert.deepEqual(parseRoute('#/game/x'), { page: 'lobby' });
});

const area = (id, sco, eng) => ({ id, scotland: sco, england: eng });

test('a seat sees its own blocks and only counts of the enemy', async () => {
  const { areaStacks, blockLabel } = await js('board.js');
  const view = {
    areas: [
      area(
        'fife',
        {
          count: 2,
          moved: 0,
          reserves: [],
          blocks: [
            { block: 'sco_wallace', strength: 4, moved: false, reserve: false },
            { block: 'sco_douglas', strength: 3, moved: true, reserve: false },
          ],
        },
        { count: 1, moved: 0, reserves: [] },
      ),
      area(
        'mar',
        { count: 0, moved: 0, reserves: [], blocks: [] },
        { count: 0, moved: 0, reserves: [] },
      ),
    ],
  };
  const stacks = areaStacks(view, data);
  const fife = stacks.get('fife').stacks;
  assert.equal(fife[0].side, 'scotland');
  assert.deepEqual(
    fife[0].own.map((b) => [b.name, b.combat, b.movement, b.strength]),
    [
      ['Wallace', 'A3', 3, 4],
      ['Douglas', 'C3', 2, 3],
    ],
  );
  assert.deepEqual(fife[1], { side: 'england', own: [], revealed: [], hidden: 1 });
  assert.equal(stacks.get('mar').stacks.length, 0);
  assert.equal(
    blockLabel(fife[0].own[1]),
    'Douglas, infantry, C3, movement 2, strength 3 of 4, moved',
  );
});

test('a noble carries its home areas by name, in full in its label and shortened on its block', async () => {
  const { blockInfo, blockLabel, homeAbbrev } = await js('board.js');
  const bruce = blockInfo(data, { block: 'sco_bruce', strength: 2 });
  assert.deepEqual(bruce.homes, ['Annan', 'Carrick']);
  assert.match(blockLabel(bruce), /^Bruce, noble, home Annan or Carrick, /);
  assert.equal(homeAbbrev(bruce.homes), 'A/C');
  const angus = blockInfo(data, { block: 'eng_angus', strength: 1 });
  assert.deepEqual(angus.homes, ['Angus']);
  assert.equal(homeAbbrev(angus.homes), 'ANG');
  assert.deepEqual(blockInfo(data, { block: 'sco_wallace', strength: 4 }).homes, []);
});

test("everything revealed merges both seats' views", async () => {
  const { mergeViews } = await js('reveal.js');
  const sco = {
    role: 'scotland',
    areas: [
      area('fife', { count: 1, blocks: [{ block: 'sco_wallace', strength: 4 }] }, { count: 1 }),
    ],
    pools: { scotland: { count: 1, blocks: ['sco_keith'] }, england: { count: 2 } },
    cards: { hand: ['move3_1'], hand_sizes: {} },
    legal_actions: [{ kind: 'undo' }],
    log: [],
  };
  const eng = {
    role: 'england',
    areas: [
      area('fife', { count: 1 }, { count: 1, blocks: [{ block: 'eng_edward', strength: 4 }] }),
    ],
    pools: {
      scotland: { count: 1 },
      england: { count: 2, blocks: ['eng_hobelars', 'eng_york_knights'] },
    },
    cards: { hand: ['herald'] },
    legal_actions: [],
    log: [],
  };
  const m = mergeViews(sco, eng);
  assert.equal(m.areas[0].scotland.blocks[0].block, 'sco_wallace');
  assert.equal(m.areas[0].england.blocks[0].block, 'eng_edward');
  assert.deepEqual(m.pools.england.blocks, ['eng_hobelars', 'eng_york_knights']);
  assert.deepEqual(m.cards.hand, ['move3_1', 'herald']);
  assert.deepEqual(m.legal_actions, []);
});

test('fire lines give dice and hits; prompts say who is awaited', async () => {
  const { parseFire } = await js('panels/battle.js');
  assert.deepEqual(parseFire('Wallace fires: 6 3 1 - 2 hits.'), {
    who: 'Wallace',
    dice: [6, 3, 1],
    hits: 2,
  });
  assert.deepEqual(parseFire('Angus fires: 4 - 1 hit.'), { who: 'Angus', dice: [4], hits: 1 });
  assert.deepEqual(parseFire('Wallace fires: 4,6,5,3 - 1 hit.'), {
    who: 'Wallace',
    dice: [4, 6, 5, 3],
    hits: 1,
  });
  assert.equal(parseFire('Angus passes.'), null);
  const { awaitingText } = await js('panels/prompt.js');
  assert.equal(awaitingText({ awaiting: ['england'] }, 'scotland'), 'Waiting for England');
  assert.equal(
    awaitingText({ awaiting: ['scotland', 'england'] }, 'scotland'),
    "Your decision (and England's)",
  );
  assert.equal(awaitingText({ awaiting: ['scotland'] }, 'observer'), 'Waiting for Scotland');
  assert.match(
    awaitingText({ outcome: { winner: 'england', reason: 'nobles' } }, 'scotland'),
    /England wins/,
  );
});

test("my games list those awaiting me first, otherwise in the server's order", async () => {
  const { awaitingFirst } = await js('lobby.js').catch(() => ({}));
  // lobby.js imports the DOM helpers only, which load without a document.
  assert.ok(awaitingFirst, 'lobby.js loads in node');
  const games = [
    { id: 5, your_turn: false },
    { id: 4, your_turn: true },
    { id: 3, your_turn: false },
    { id: 2, your_turn: true },
  ];
  assert.deepEqual(
    awaitingFirst(games).map((g) => g.id),
    [4, 2, 5, 3],
  );
});

test('enemy blocks revealed in the battle show their face; the rest of the enemy stays a count', async () => {
  const { areaStacks } = await js('board.js');
  const view = {
    areas: [
      area(
        'fife',
        { count: 1, moved: 0, reserves: [], blocks: [{ block: 'sco_wallace', strength: 4 }] },
        { count: 3, moved: 0, reserves: ['sea'] },
      ),
      area(
        'angus',
        { count: 1, moved: 0, reserves: [], blocks: [{ block: 'sco_douglas', strength: 3 }] },
        { count: 2, moved: 0, reserves: [] },
      ),
    ],
    battle: {
      area: 'fife',
      revealed: {
        scotland: [{ block: 'sco_wallace', strength: 4 }],
        england: [{ block: 'eng_edward', strength: 3 }],
      },
    },
  };
  const stacks = areaStacks(view, data);
  const [sco, eng] = stacks.get('fife').stacks;
  assert.deepEqual(
    sco.own.map((b) => b.id),
    ['sco_wallace'],
  );
  assert.deepEqual(sco.revealed, [], 'own blocks are not drawn twice');
  assert.deepEqual(
    eng.revealed.map((b) => [b.name, b.strength, b.revealed]),
    [['Edward', 3, true]],
  );
  assert.equal(eng.hidden, 2, 'the other English blocks in Fife (one a reserve) stay blank');
  assert.deepEqual(
    stacks.get('angus').stacks[1],
    { side: 'england', own: [], revealed: [], hidden: 2 },
    'no faces outside the battle',
  );
});

test("a replay from one seat's view does not say what the other seat decided", async () => {
  const { actionText } = await js('replay.js');
  const move = {
    seq: 3,
    role: 'scotland',
    action: { kind: 'move', block: 'sco_douglas', to: 'lothian' },
  };
  assert.equal(actionText(move, 'all', data), 'Scotland: Move Douglas to Lothian');
  assert.equal(actionText(move, 'scotland', data), 'Scotland: Move Douglas to Lothian');
  assert.equal(actionText(move, 'england', data), 'Scotland decides');
  assert.equal(actionText(move, 'observer', data), 'Scotland decides');
});

test('ratings as shown: rating ± twice the deviation, the change signed', async () => {
  const { ratingText, changeText } = await import('../../../web-client/js/ratings.js');
  assert.equal(ratingText({ rating: 1662.31, deviation: 290.3 }), '1662 ± 581');
  assert.equal(ratingText(null), 'unrated');
  assert.equal(changeText({ rating: 1500 }, { rating: 1662.3 }), '+162');
  assert.equal(changeText({ rating: 1500 }, { rating: 1337.7 }), '−162');
});
