// End to end in headless Chromium: two players sign up in two browser contexts, create and
// join a game, play the card phase and a move by clicking, fight a battle, and England's page
// (its DOM and every WebSocket frame it receives) never holds a hidden Scottish block's name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import {
  ViewTracker, MAP_CHOICE, chooseOnMap, chooseBlock, arrowTo, keyChooseBlock,
} from './helpers.js';

// Scottish blocks that stay hidden from England in this game (Wallace, who attacks, and the
// nobles, whose names the public roster carries, are left out; so is Moray, an area's name).
const HIDDEN = ['Douglas', 'Barclay', 'Fraser', 'Grant', 'Campbell', 'Graham', 'MacDonald',
  'Lindsay', 'Keith', 'Etterick'];
const HIDDEN_IDS = HIDDEN.map((n) => `sco_${n.toLowerCase()}`).concat(['sco_norse']);
const leakPattern = new RegExp(`\\b(${HIDDEN.join('|')})\\b|${HIDDEN_IDS.join('|')}`);

const running = useServerAndBrowser();
const players = {};
const shots = outputDir();

async function newPlayer(name, frames) {
  const context = await running.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => assert.fail(`${name}: page error ${e.message}`));
  if (frames) {
    page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
  }
  await page.goto(`${running.server.url}/`);
  await page.fill('#signup-user', name);
  await page.fill('#signup-pass', 'correct horse battery');
  await page.click('form.signup button[type=submit]');
  await page.waitForSelector('form.create');
  return { name, context, page };
}

const isAwaited = (p) => p.page.locator('.prompt .awaiting.mine').count().then((n) => n > 0);

async function waitForAwaited(players, timeout = 20000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const p of players) if (await isAwaited(p)) return p;
    if (Date.now() > deadline) throw new Error('nobody is awaited');
    await players[0].page.waitForTimeout(100);
  }
}

// Clicks one thing and waits for the view that answers it.
async function act(p, selector) {
  const views = () => document.getElementById('app').dataset.views;
  const before = await p.page.evaluate(views);
  const target = p.page.locator(selector).first();
  if (!(await target.count())) {
    throw new Error(`${p.name}: nothing matches ${selector}; prompt: ` +
      `${await p.page.locator('.prompt').innerText()}`);
  }
  await target.click();
  await p.page.waitForFunction((b) => document.getElementById('app').dataset.views !== b,
    before, { timeout: 15000 });
}

const ACT = '.action-bar button.act:not(.cancel):not(.act-undo)';

// Answers whatever the awaited player is asked in a battle, by clicking: a revealed block and
// then fire (or take the hit, or pass, or retreat), else a button, else a block and an area.
async function playSomething(p) {
  const has = async (sel) => (await p.page.locator(sel).count()) > 0;
  const after = async () => {
    for (const sel of ['.action-bar button.act-fire', '.action-bar button.act-take_hit',
      '.action-bar button.act-pass', ACT, '.target-ring']) {
      if (await has(sel)) return act(p, sel);
    }
    throw new Error(`${p.name}: nothing to do after choosing a block`);
  };
  if (await has('button.bblock')) {
    await p.page.locator('button.bblock').first().click();
    return after();
  }
  if (await has(ACT)) return act(p, ACT);
  if (await has(MAP_CHOICE)) {
    await chooseOnMap(p.page, p.page.locator(MAP_CHOICE).first());
    return after();
  }
  return act(p, '.target-ring');
}

// Whether the page's map shows the enemy block `id`, revealed in battle, with its strength: as
// a block, or in the list its area's chip opens (then closed again).
async function showsRevealed(page, id) {
  if (await page.locator(`.block.revealed[data-block="${id}"] .bstrength`).count()) return true;
  const chip = page.locator(`.blocks .chip[data-blocks~="${id}"]`);
  if (!(await chip.count())) return false;
  await chip.dispatchEvent('click');
  const face = page.locator(`.stack-panel .pblock.revealed[data-block="${id}"] .pb-face`);
  const shown = (await face.count()) > 0 && /^[1-4]$/.test(await face.innerText());
  await page.locator('.stack-panel .pb-close').click();
  return shown;
}

// The screen box of the first element matching `selector`, and the window's height.
const onScreen = (page, selector) => page.evaluate((sel) => {
  const r = document.querySelector(sel)?.getBoundingClientRect();
  return r && { top: r.top, bottom: r.bottom, height: window.innerHeight };
}, selector);

// At phone size (390x844), the awaited player `p` scrolls to the bottom of the page (under the
// map, to the battle panel): the prompt is still on screen; choosing a block in the battle
// panel puts that block's buttons on screen; then the block acts and the size is restored.
async function checkPhoneBattle(p) {
  await p.page.setViewportSize({ width: 390, height: 844 });
  await p.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await p.page.waitForFunction(() => window.scrollY > 0);
  const prompt = await onScreen(p.page, '.prompt');
  assert.ok(prompt.top >= 0 && prompt.bottom <= prompt.height,
    `the prompt stays on screen when scrolled down (${prompt.top}..${prompt.bottom})`);
  await p.page.locator('button.bblock').first().click();
  const button = '.prompt .action-bar button.act:not(.cancel):not(.act-undo)';
  await p.page.waitForSelector(button);
  const b = await onScreen(p.page, button);
  assert.ok(b.top >= 0 && b.bottom <= b.height,
    `the chosen block's first button is on screen (${b.top}..${b.bottom})`);
  await p.page.screenshot({ path: path.join(shots, 'battle-phone-chosen.png') });
  for (const sel of ['.action-bar button.act-fire', '.action-bar button.act-take_hit',
    '.action-bar button.act-pass', ACT]) {
    if (await p.page.locator(sel).count()) {
      await act(p, sel);
      break;
    }
  }
  await p.page.setViewportSize({ width: 1400, height: 1000 });
}

// Waits until one of `players` is awaited in a phase whose text matches `re`.
async function waitForPhase(players, re, timeout = 20000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const p of players) {
      if (await isAwaited(p) && re.test(await p.page.locator('.phase-text').innerText())) return p;
    }
    if (Date.now() > deadline) throw new Error(`no player awaited in a phase like ${re}`);
    await players[0].page.waitForTimeout(100);
  }
}

async function assertNoLeak(p, frames, when) {
  const html = await p.page.content();
  const m = leakPattern.exec(html);
  assert.equal(m, null, `England's DOM ${when} holds "${m?.[0]}"`);
  for (const f of frames) {
    const fm = leakPattern.exec(f);
    assert.equal(fm, null, `England received a frame holding "${fm?.[0]}": ${f.slice(0, 200)}`);
  }
}

test('two players play the card phase, a move and a battle by clicking', async () => {
  const engFrames = [];
  const sco = await newPlayer('wallace', null);
  await sco.page.screenshot({ path: path.join(shots, 'lobby-signed-in.png') });
  await sco.page.selectOption('#create-side', 'scotland');
  await sco.page.click('form.create button[type=submit]');
  await sco.page.waitForSelector('.games.mine .game-line');

  const eng = await newPlayer('edward', engFrames);
  await eng.page.locator('button.join').first().click();
  await eng.page.waitForSelector('.seat.england');
  await sco.page.reload();
  await sco.page.waitForSelector('.games.mine .game-line');
  await sco.page.screenshot({ path: path.join(shots, 'lobby.png'), fullPage: true });
  await sco.page.locator('.games.mine a.button', { hasText: 'Play Scotland' }).click();
  await sco.page.waitForSelector('.seat.scotland');

  // Card phase: both choose a move card in secret, by clicking it.
  for (const p of [sco, eng]) {
    await p.page.waitForSelector('button.card');
    const cards = await p.page.locator('button.card').evaluateAll((els) =>
      els.map((e) => e.dataset.card));
    const best = cards.filter((c) => c.startsWith('move')).sort().reverse()[0];
    assert.ok(best, `${p.name} has a move card`);
    await p.page.click(`button.card[data-card="${best}"]`);
    await p.page.waitForSelector('.my-choice, .move-info', { timeout: 15000 });
  }
  await assertNoLeak(eng, engFrames, 'in the card phase');

  // Move phases: England ends its own at once; Scotland moves Wallace from Fife into Angus.
  let attacked = false;
  for (let guard = 0; guard < 10; guard++) {
    if (attacked && (await sco.page.locator('section.battle:not([hidden])').count())) break;
    const p = await waitForAwaited([sco, eng]);
    const phase = await p.page.locator('.phase-text').innerText();
    if (attacked && !/move phase/.test(phase)) break;
    assert.match(phase, /move phase/, `expected a move phase, got ${phase}`);
    if (p === eng || attacked) {
      await act(p, 'button.act-end_move_phase');
      continue;
    }
    await chooseBlock(sco.page, 'sco_wallace');
    await sco.page.waitForSelector('.target-ring[data-target="angus"]');
    await sco.page.screenshot({ path: path.join(shots, 'move.png') });
    await act(sco, '.target-ring[data-target="angus"]');
    await sco.page.waitForSelector('.cell.battle[data-area="angus"]');
    attacked = true;
  }
  assert.ok(attacked, 'Scotland attacked Angus');

  // England's map shows where Scotland's move went (an arrow from Fife, Angus marked), and its
  // log line, pointed at or tapped, lights Angus and Fife up on the map.
  await eng.page.waitForSelector('.cell.traced[data-area="angus"]');
  assert.ok(await eng.page.locator('svg.map .traces > *').count() >= 1, 'the move is drawn as a trace');
  const moveLine = eng.page.locator('ol.log li', { hasText: /moved from Fife to Angus/ }).last();
  const lit = () => eng.page.evaluate(() => [...document.querySelectorAll('.cell.highlight')]
    .map((c) => c.dataset.area).sort());
  assert.deepEqual(await lit(), [], 'nothing is lit before a line is pointed at');
  await moveLine.hover();
  assert.deepEqual(await lit(), ['angus', 'fife'], 'hovering the line lights its areas');
  await eng.page.screenshot({ path: path.join(shots, 'log-line-pointed.png') });
  await eng.page.mouse.move(5, 5);
  assert.deepEqual(await lit(), [], 'leaving the log puts the light out');
  await moveLine.click();
  assert.deepEqual(await lit(), ['angus', 'fife'], 'tapping the line lights its areas');

  // The battle: whoever is awaited fires with a revealed block (or answers what is asked).
  await sco.page.waitForSelector('section.battle:not([hidden])', { timeout: 20000 });
  // The dice decide how long the battle lasts (Wallace's first shot may end it), so the
  // screenshot is taken at the best moment seen: both sides revealed, with dice if any.
  let revealed = false;
  let shot = false;
  let engSawWallace = false;
  let engShot = false;
  let phoneChecked = false;
  for (let guard = 0; guard < 60; guard++) {
    const battleOn = await sco.page.locator('section.battle:not([hidden])').count();
    if (!battleOn) break;
    const p = await waitForAwaited([sco, eng]).catch(() => null);
    if (!p) break;
    const phase = await p.page.locator('.phase-text').innerText();
    if (/move phase|Card choice/.test(phase)) break;
    // England's map shows the revealed attacker with its face; the rest of Scotland stays blank.
    if (await showsRevealed(eng.page, 'sco_wallace')) {
      engSawWallace = true;
      assert.equal(await eng.page.locator('.block.own.scotland').count(), 0);
      assert.ok(await eng.page.locator('rect.block.hidden.scotland').count() > 0);
      if (!engShot) {
        await eng.page.screenshot({ path: path.join(shots, 'battle-england.png') });
        await eng.page.setViewportSize({ width: 390, height: 844 });
        await eng.page.screenshot({ path: path.join(shots, 'battle-phone.png'), fullPage: true });
        const width = await eng.page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 400, `the phone battle fits the screen (${width}px wide)`);
        await eng.page.setViewportSize({ width: 1400, height: 1000 });
      }
      engShot = true;
    }
    if ((await sco.page.locator('.bblock').count()) > 1) {
      if (!revealed) await sco.page.screenshot({ path: path.join(shots, 'battle.png') });
      revealed = true;
      if (!shot && (await sco.page.locator('.battle-log .die').count()) > 0) {
        await sco.page.screenshot({ path: path.join(shots, 'battle.png') });
        shot = true;
      }
    }
    if (!phoneChecked && await p.page.locator('button.bblock').count()) {
      await checkPhoneBattle(p);
      phoneChecked = true;
      continue;
    }
    await playSomething(p);
    await assertNoLeak(eng, engFrames, 'during the battle');
  }
  assert.ok(phoneChecked, 'a block was chosen in the battle panel at phone size');
  assert.ok(revealed, 'the battle was shown with both sides revealed');
  assert.ok(engSawWallace, 'England\'s map showed Wallace, revealed in the battle, with his strength');
  const log = await sco.page.locator('.log').innerText();
  assert.match(log, /Battle in Angus/);
  assert.match(log, /fires: [1-6]/, 'dice were rolled and shown');

  // Positive control: Scotland's own page does show its hidden blocks.
  assert.match(await sco.page.content(), /Douglas/);
  await assertNoLeak(eng, engFrames, 'after the battle');
  assert.ok(engFrames.some((f) => f.includes('"type":"view"')), 'England received a whole view on joining');
  assert.ok(engFrames.some((f) => f.includes('"type":"view_patch"')), 'and view_patch frames after actions');

  // The view England's frames make, patches applied, is the whole view a sync sends of the same
  // version (ViewTracker compares them).
  const sent = engFrames.length;
  await eng.page.evaluate(() => window.blockfogConnection.send({ type: 'sync', chat_since: 0 }));
  const deadline = Date.now() + 10000;
  while (!engFrames.slice(sent).some((f) => f.includes('"type":"view"'))) {
    assert.ok(Date.now() < deadline, 'England got a view after its sync');
    await eng.page.waitForTimeout(50); // polling the frames received, not waiting for the game
  }
  const rebuilt = new ViewTracker();
  for (const f of engFrames) rebuilt.take(JSON.parse(f));
  assert.deepEqual(rebuilt.problems, [], 'England\'s views rebuilt from its frames');
  assert.ok(rebuilt.comparedRebuilt > 0, 'the sync\'s view was compared with one made by patches');

  // A reload returns to the same game, live again.
  const url = eng.page.url();
  await eng.page.reload();
  await eng.page.waitForSelector('.seat.england');
  await eng.page.waitForSelector('.conn-open');
  assert.equal(eng.page.url(), url);
  assert.match(await eng.page.locator('.game-head h1').innerText(), /Game 1/);
  await eng.page.waitForSelector('.log li');
  await assertNoLeak(eng, engFrames, 'after a reload');
  Object.assign(players, { sco, eng, engFrames });
});

test('observers, phone size, reconnect after a drop, stale actions, keyboard play', async () => {
  const { sco, eng, engFrames } = players;
  assert.ok(sco && eng, 'the first test set the game up');

  // An observer without an account: only anonymous blocks, no hand, no chat box.
  const context = await running.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const obs = await context.newPage();
  obs.on('pageerror', (e) => assert.fail(`observer: page error ${e.message}`));
  await obs.goto(`${running.server.url}/#/game/1/observe`);
  await obs.waitForSelector('.seat.observer');
  await obs.waitForSelector('rect.block.hidden.scotland');
  assert.equal(await obs.locator('.block.own').count(), 0);
  assert.equal(await obs.locator('button.card').count(), 0);
  assert.equal(await obs.locator('.chat-form').isVisible(), false);
  const width = await obs.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 400, `the phone layout fits the screen (${width}px wide)`);
  await obs.screenshot({ path: path.join(shots, 'phone-observer.png'), fullPage: false });

  // England drops off; Scotland chooses a card meanwhile; England comes back up to date.
  await sco.page.waitForSelector('button.card', { timeout: 20000 });
  await eng.page.evaluate(() => window.blockfogConnection.drop());
  await eng.page.waitForSelector('.conn-closed, .conn-connecting');
  const card = sco.page.locator('button.card[data-card^="move"]').first();
  await card.focus();
  await sco.page.keyboard.press('Enter'); // keyboard: the card is a focusable button
  await sco.page.waitForSelector('.my-choice');
  await eng.page.waitForSelector('.conn-open', { timeout: 20000 });
  await eng.page.waitForFunction(() => /Scotland: \d in hand, has chosen/.test(
    document.querySelector('.card-status')?.textContent || ''), null, { timeout: 10000 });

  // A stale action (an old seq) is answered by the fresh view, without an error.
  const before = await eng.page.evaluate(() => document.getElementById('app').dataset.views);
  await eng.page.evaluate(() => window.blockfogConnection.send(
    { type: 'action', seq: 0, action: { kind: 'end_move_phase' } }));
  await eng.page.waitForFunction((b) => document.getElementById('app').dataset.views !== b, before);
  assert.equal(await eng.page.locator('.notice').innerText(), '');
  await eng.page.locator('button.card[data-card^="move"]').first().click();

  // The mover moves a block with the keyboard only: the map's stop, the arrows to the block's
  // area, Enter and the arrows to the block, Enter; then back to the map, the arrows to a
  // destination, Enter.
  // A move phase in which nothing can move waits for its end all the same (RULES 4.11): that
  // player ends it, and the next mover is taken.
  let mover = await waitForPhase([sco, eng], /move phase/);
  for (let guard = 0; guard < 4; guard++) {
    await mover.page.waitForSelector(`${MAP_CHOICE}, button.act-end_move_phase`)
      .catch(async (e) => {
        throw new Error(`${mover.name}: no movable block and no End move phase; prompt: ` +
          `${await mover.page.locator('.prompt').innerText()} (${e.message})`);
      });
    if (await mover.page.locator(MAP_CHOICE).count()) break;
    assert.match(await mover.page.locator('.prompt').innerText(), /Nothing more can move/);
    await act(mover, 'button.act-end_move_phase');
    mover = await waitForPhase([sco, eng], /move phase/);
  }
  const blockArea = await mover.page.locator(MAP_CHOICE).first().getAttribute('data-area');
  await mover.page.focus('svg.map .cell[tabindex="0"]');
  await arrowTo(mover.page, blockArea);
  await keyChooseBlock(mover.page);
  const ring = mover.page.locator('.target-ring').first();
  await ring.waitFor();
  const views = await mover.page.evaluate(() => document.getElementById('app').dataset.views);
  await mover.page.focus('svg.map .cell[tabindex="0"]');
  await arrowTo(mover.page, await ring.getAttribute('data-target'));
  await mover.page.keyboard.press('Enter');
  await mover.page.waitForFunction((b) => document.getElementById('app').dataset.views !== b, views);
  assert.match(await mover.page.locator('.log').innerText(), /moved from/);
  await assertNoLeak(eng, engFrames, 'at the end');
  await context.close();
});
