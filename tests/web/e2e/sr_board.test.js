// The Scotland Rising board in Chromium, fed real engine views (tests/web/fixtures/sr/, from
// tools/game-views) on its harness page (tests/web/harness/sr-board.html): what a player sees
// (counters with their values and markers, the turn track, AP, VP, the variant's mark, the dice
// of the last attack), what a chosen unit lights up, the actions sent by clicks and by the
// keyboard, and axe-core at a desktop's and a phone's size. No game server: the board is the
// page's part that draws views and makes actions.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startBrowser, repoRoot } from './harness.js';
import { axeProblems } from './helpers.js';
import { startStatic } from '../sr_static.js';

let web;
let browser;
before(async () => {
  web = await startStatic();
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await web?.stop();
});

const fixture = (name) =>
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'tests/web/fixtures/sr', `${name}.json`), 'utf8'))
    .view;

async function open(name, { role = null, width = 1366, height = 768 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const q = role ? `&role=${role}` : '';
  await page.goto(`${web.url}/harness/sr-board.html?fixture=${name}${q}`);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, context, errors };
}

const sent = (page) => page.evaluate(() => window.srSent);
const clickHex = (page, hex) => page.click(`[data-hex="${hex}"] .cell`, { force: true });
const hexOf = (view, unit) => view.units.find((u) => u.id === unit).hex;
const ringed = (page, kind) =>
  page.$$eval(`g.hex.mark-${kind}`, (gs) => gs.map((g) => g.dataset.hex).sort());

test('the counters: every unit on the board, with its name and values, and the markers', async () => {
  const view = fixture('midgame');
  const { page, context, errors } = await open('midgame');
  const onBoard = view.units.filter((u) => u.hex && !u.eliminated && !u.exited);
  const counters = await page.$$eval('g.counter', (gs) =>
    gs.map((g) => ({
      id: g.dataset.unit,
      texts: [...g.querySelectorAll('text')].map((t) => t.textContent),
      box: g.getBoundingClientRect().toJSON(),
    })),
  );
  assert.deepEqual(counters.map((c) => c.id).sort(), onBoard.map((u) => u.id).sort());
  const data = new Map(view.board.units.map((u) => [u.id, u]));
  for (const c of counters) {
    const d = data.get(c.id);
    const u = view.units.find((x) => x.id === c.id);
    const v = u.reduced ? d.reduced : d.full;
    assert.ok(c.texts.includes(d.name), `${c.id} shows ${d.name}`);
    assert.ok(c.texts.includes(`${v.dice}-${v.hit}-${v.move}`), `${c.id} values`);
    assert.ok(c.box.width >= 14, `${c.id} is drawn (${c.box.width} px)`);
  }
  // Disorder and schiltron: a marker on each such counter, and no other.
  const marked = (cls) =>
    page.$$eval(`g.counter:has(.${cls})`, (gs) => gs.map((g) => g.dataset.unit).sort());
  assert.deepEqual(
    await marked('disorder-mark'),
    onBoard
      .filter((u) => u.disordered)
      .map((u) => u.id)
      .sort(),
  );
  assert.deepEqual(
    await marked('schiltron-mark'),
    onBoard
      .filter((u) => u.schiltron)
      .map((u) => u.id)
      .sort(),
  );
  assert.deepEqual(
    await page.$$eval('g.counter.reduced', (gs) => gs.map((g) => g.dataset.unit).sort()),
    onBoard
      .filter((u) => u.reduced)
      .map((u) => u.id)
      .sort(),
  );
  // The battle's state: the turn track, AP, VP, the side to act, the variant's mark.
  assert.equal(await page.textContent('.sr-turns li.now'), String(view.turn));
  assert.equal(await page.textContent('[data-fact="AP left"]'), String(view.ap));
  assert.equal(await page.textContent('[data-fact="VP: Scotland"]'), String(view.vp.scotland));
  assert.equal(await page.textContent('[data-fact="VP: England"]'), String(view.vp.england));
  assert.equal(await page.textContent('[data-fact="Side to act"]'), 'England');
  assert.ok(await page.isVisible('.sr-variant-mark:has-text("not the published map")'));
  // The red arrow, and the dice of the log's last attack (in this fixture a charge that
  // disordered the charger: the line after it).
  assert.ok(await page.isVisible('.exit-arrow'));
  const k = view.log.findLastIndex((l) => / rolled [\d,]+: \d+ hits?$/.test(l));
  const [, need, faces, hits] = / hitting on (\d)\+, rolled ([\d,]+): (\d+) hits?$/.exec(
    view.log[k],
  );
  assert.deepEqual(
    await page.$$eval('.sr-die', (ds) => ds.map((d) => d.getAttribute('aria-label'))),
    faces.split(',').map((f) => (Number(f) >= Number(need) ? `${f}, a hit` : f)),
  );
  const hitsText = await page.textContent('.sr-hits');
  assert.match(hitsText, new RegExp(`^${hits} hits?`));
  assert.match(hitsText, / is disordered$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the dice of any attack: pointing at its log line shows them', async () => {
  const view = fixture('over');
  const k = view.log.findIndex((l) => / (attacks|charges) \d{4}: /.test(l));
  const faces = / rolled ([\d,]+):/.exec(view.log[k])[1].split(',');
  const { page, context } = await open('over');
  await page.hover(`.sr-board ol.log li[data-i="${k}"]`, { force: true });
  assert.equal(await page.textContent('.sr-last-attack h2'), `Attack of log line ${k + 1}`);
  assert.deepEqual(
    await page.$$eval('.sr-die', (ds) => ds.map((d) => d.getAttribute('aria-label')[0])),
    faces,
  );
  await page.mouse.move(1, 1);
  assert.equal(await page.textContent('.sr-last-attack h2'), 'Last attack');
  await context.close();
});

test('a unit chosen lights up its destinations; a route clicked hex by hex is sent', async () => {
  const view = fixture('turn1');
  const { page, context, errors } = await open('turn1');
  const moves = view.legal_actions.filter((a) => a.type === 'move' && a.unit === 'sc_hobelar1');
  await clickHex(page, hexOf(view, 'sc_hobelar1'));
  assert.deepEqual(await ringed(page, 'move'), moves.map((a) => a.path.at(-1)).sort());
  // A far destination: its path is shown, a second click sends the engine's own action.
  const far = moves.find((a) => a.path.length === 3);
  await clickHex(page, far.path[2]);
  assert.deepEqual(await ringed(page, 'route'), [...far.path].sort());
  assert.deepEqual(await sent(page), []);
  await clickHex(page, far.path[2]);
  assert.deepEqual(await sent(page), [far]);
  assert.match(await page.textContent('.notice'), /Sent: Scotland Hobelars \(Keith\): move to/);
  await context.close();

  // By hand: two neighbouring hexes, then the last again.
  const again = await open('turn1');
  const from = hexOf(view, 'sc_hobelar1');
  const dests = new Set(moves.map((a) => a.path.at(-1)));
  const one = moves.find((a) => a.path.length === 1 && a.path[0] !== far.path[0]).path[0];
  const two = moves.find((a) => a.path.length === 2 && a.path[0] !== one && dests.has(a.path[1]))
    .path[1];
  await clickHex(again.page, from);
  await clickHex(again.page, one);
  // `two` may not be next to `one`: then the engine's path to it is taken instead.
  await clickHex(again.page, two);
  const route = await ringed(again.page, 'route');
  await clickHex(again.page, two);
  const [action] = await sent(again.page);
  assert.equal(action.type, 'move');
  assert.equal(action.unit, 'sc_hobelar1');
  assert.equal(action.path.at(-1), two);
  assert.deepEqual([...action.path].sort(), route);
  assert.deepEqual(errors, []);
  await again.context.close();
});

test("a longbow's target: the line of sight drawn, the attack sent on the second click", async () => {
  const view = fixture('longbow');
  const { page, context } = await open('longbow');
  const shot = view.legal_actions.find((a) => a.type === 'attack' && a.unit === 'sc_longbow1');
  await clickHex(page, hexOf(view, 'sc_longbow1'));
  assert.ok((await ringed(page, 'attack')).includes(shot.target));
  assert.equal(await page.locator('line.los').count(), 1);
  assert.equal(await page.locator('line.los.blocked').count(), 0);
  await clickHex(page, shot.target);
  assert.equal(await page.locator('line.los.armed').count(), 1);
  assert.match(await page.textContent('.sr-confirm'), new RegExp(`attack ${shot.target}$`));
  await page.click('.sr-confirm');
  assert.deepEqual(await sent(page), [shot]);
  await context.close();
});

test('a charge: its targets lit, the hex it ends on chosen, the action sent', async () => {
  const view = fixture('charge');
  const charges = view.legal_actions.filter((a) => a.type === 'charge');
  const unit = charges[0].unit;
  const mine = charges.filter((a) => a.unit === unit);
  const { page, context } = await open('charge');
  await clickHex(page, hexOf(view, unit));
  assert.deepEqual(await ringed(page, 'charge'), [...new Set(mine.map((a) => a.target))].sort());
  const target = mine[0].target;
  const options = mine.filter((a) => a.target === target);
  await clickHex(page, target);
  if (options.length > 1) {
    assert.deepEqual(await ringed(page, 'chargeEnd'), options.map((a) => a.path.at(-1)).sort());
    await clickHex(page, options[1].path.at(-1));
  }
  const chosen = options.length > 1 ? options[1] : options[0];
  await page.click('.sr-confirm');
  assert.deepEqual(await sent(page), [chosen]);
  await context.close();
});

test('by keyboard alone: the map one Tab stop, arrows move the focus, Enter chooses', async () => {
  const view = fixture('turn1');
  const { page, context } = await open('turn1');
  const start = hexOf(view, 'sc_hobelar1');
  await page.focus('[data-hex][tabindex="0"]');
  assert.equal(await page.locator('[data-hex][tabindex="0"]').count(), 1);
  // Walk to the hobelar's hex with the arrows.
  const at = () => page.evaluate(() => document.activeElement.dataset.hex);
  for (let n = 0; n < 40 && (await at()) !== start; n++) {
    const [c, r] = [Number((await at()).slice(0, 2)), Number((await at()).slice(2))];
    const [tc, tr] = [Number(start.slice(0, 2)), Number(start.slice(2))];
    await page.keyboard.press(
      r !== tr ? (r < tr ? 'ArrowDown' : 'ArrowUp') : c < tc ? 'ArrowRight' : 'ArrowLeft',
    );
  }
  assert.equal(await at(), start);
  await page.keyboard.press('Enter');
  assert.ok((await ringed(page, 'move')).length > 0);
  await page.keyboard.press('ArrowUp');
  const dest = await at();
  const move = view.legal_actions.find(
    (a) => a.type === 'move' && a.unit === 'sc_hobelar1' && a.path.at(-1) === dest,
  );
  assert.ok(move, `${dest} is a destination`);
  await page.keyboard.press('Enter');
  // Cancel from its button by keyboard: the focus comes back to the map, not the page's body.
  await page.getByRole('button', { name: 'Cancel', exact: true }).focus();
  await page.keyboard.press('Enter');
  assert.equal(await at(), dest);
  assert.equal(await page.locator('g.hex.mark-move').count(), 0);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  assert.deepEqual(await sent(page), [move]);
  await context.close();
});

test('buttons: End turn, Undo, Roll for AP, Scots Charge, Set-up done, schiltron', async () => {
  const cases = [
    ['turn1', 'End turn', { type: 'end_turn' }],
    ['start', 'Set-up done', { type: 'setup_done' }],
    ['ap', 'Roll for AP', { type: 'roll_ap' }],
    ['ap', 'Scots Charge!', { type: 'scots_charge' }],
    ['ap', 'Undo', { type: 'undo' }],
  ];
  for (const [name, label, action] of cases) {
    const { page, context } = await open(name);
    await page.getByRole('button', { name: label, exact: true }).click();
    assert.deepEqual(await sent(page), [action], name);
    await context.close();
  }
  const view = fixture('start');
  const pike = view.legal_actions.find((a) => a.type === 'schiltron').unit;
  const { page, context } = await open('start');
  await clickHex(page, hexOf(view, pike));
  await page.getByRole('button', { name: /form schiltron/ }).click();
  assert.deepEqual(await sent(page), [{ type: 'schiltron', unit: pike }]);
  await context.close();
});

test('not your turn, an observer, a finished game: nothing offered', async () => {
  for (const [name, role] of [
    ['turn1', 'england'],
    ['turn1', 'observer'],
    ['over', 'scotland'],
  ]) {
    const view = fixture(name);
    const { page, context } = await open(name, { role });
    await clickHex(page, hexOf(view, 'sc_hobelar1') ?? '0606');
    assert.equal(await page.locator('g.hex.mark-move').count(), 0, `${name} ${role}`);
    assert.equal(await page.locator('.sr-prompt button').count(), 0, `${name} ${role}`);
    assert.equal(await page.locator('g.counter.actionable').count(), 0);
    assert.deepEqual(await sent(page), []);
    await context.close();
  }
  const { page, context } = await open('over');
  const over = fixture('over');
  const winner = { scotland: 'Scotland', england: 'England' }[over.outcome.winner];
  assert.match(
    await page.textContent('.sr-prompt'),
    new RegExp(`${winner} wins on victory points \\(Scotland ${over.vp.scotland} VP`),
  );
  await context.close();
});

test('axe-core finds nothing serious, on a desktop and a phone, a unit chosen', async () => {
  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ]) {
    for (const name of ['turn1', 'longbow', 'midgame', 'freeform']) {
      const view = fixture(name);
      const { page, context } = await open(name, { width, height });
      if (name === 'longbow') await clickHex(page, hexOf(view, 'sc_longbow1'));
      assert.deepEqual(await axeProblems(page), [], `${name} at ${width}x${height}`);
      await context.close();
    }
  }
});
