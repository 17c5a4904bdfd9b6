// End to end in headless Chromium: two players sign up in two browser contexts, create and
// join a game, play the card phase and a move by clicking, fight a battle whose course no die
// decides, down to the attacker's retreat after the third round, and England's page (its DOM
// and every WebSocket frame it receives) never holds a hidden Scottish block's name. Each
// battle decision and each retreat says in words what it decides, on a desktop and a phone,
// and axe-core finds no serious problem on the page in the battle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import {
  ViewTracker,
  MAP_CHOICE,
  chooseBlock,
  arrowTo,
  keyChooseBlock,
  act,
  isAwaited,
  waitForAwaited,
  phaseText,
  axeProblems,
  newPlayer as signUp,
} from './helpers.js';

// Scottish blocks that stay hidden from England in this game (Wallace, who attacks, and the
// nobles, whose names the public roster carries, are left out; so is Moray, an area's name).
const HIDDEN = [
  'Douglas',
  'Barclay',
  'Fraser',
  'Grant',
  'Campbell',
  'Graham',
  'MacDonald',
  'Lindsay',
  'Keith',
  'Etterick',
];
const HIDDEN_IDS = HIDDEN.map((n) => `sco_${n.toLowerCase()}`).concat(['sco_norse']);
const leakPattern = new RegExp(`\\b(${HIDDEN.join('|')})\\b|${HIDDEN_IDS.join('|')}`);

const running = useServerAndBrowser();
const players = {};
const shots = outputDir();
const SIZE = { width: 1400, height: 1000 };
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

// A player signed up in a browser context of its own; `frames`, when given, collects the text
// of every WebSocket frame its page receives.
const newPlayer = (name, frames) =>
  signUp(running.browser, running.server, name, {
    viewport: SIZE,
    fog: frames && { frame: (text) => frames.push(text) },
  });

// Whether the page's map shows the enemy block `id`, revealed in battle, with its strength: as
// a block or a tag (the compact form), or in the list its area's chip opens (then closed again).
async function showsRevealed(page, id) {
  const strength = `.block.revealed[data-block="${id}"] :is(.bstrength, .tstrength)`;
  if (await page.locator(strength).count()) return true;
  const chip = page.locator(`.blocks .chip[data-blocks~="${id}"]`);
  if (!(await chip.count())) return false;
  await chip.dispatchEvent('click');
  const face = page.locator(`.stack-panel .pblock.revealed[data-block="${id}"] .pb-face`);
  const shown = (await face.count()) > 0 && /^[1-4]$/.test(await face.innerText());
  await page.locator('.stack-panel .pb-close').click();
  return shown;
}

// The screen boxes of the prompt and of each button of its action bar, and the window's size.
const promptBoxes = (page) =>
  page.evaluate(() => {
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    };
    const prompt = document.querySelector('.prompt');
    return {
      prompt: box(prompt),
      width: window.innerWidth,
      height: window.innerHeight,
      buttons: [...prompt.querySelectorAll('.action-bar button')].map((b) => ({
        text: b.textContent,
        ...box(b),
      })),
    };
  });

// The prompt is on the screen and every button of its action bar is inside it, wholly seen.
async function assertPromptOnScreen(page, when) {
  const { prompt, width, height, buttons } = await promptBoxes(page);
  assert.ok(
    prompt.top >= 0 && prompt.bottom <= height,
    `${when}: the prompt is on screen (${prompt.top}..${prompt.bottom} of ${height})`,
  );
  assert.ok(buttons.length > 0, `${when}: the prompt has buttons`);
  for (const b of buttons) {
    assert.ok(
      b.top >= prompt.top && b.bottom <= prompt.bottom && b.left >= 0 && b.right <= width,
      `${when}: "${b.text}" is on screen in the prompt (${b.left}..${b.right}, ${b.top}..${b.bottom})`,
    );
  }
}

// The words of the chosen block's buttons in the prompt: the block's name, its own actions and
// its retreats (the area each goes to).
const chosenWords = (page) =>
  page.evaluate(() => {
    const bar = document.querySelector('.prompt .action-bar');
    const text = (sel) => [...bar.querySelectorAll(sel)].map((b) => b.textContent);
    return {
      name: bar.querySelector('.hint strong')?.textContent,
      acts: text('button.act:not(.act-dest):not(.cancel):not(.undo)'),
      retreats: [...bar.querySelectorAll('button.act-dest.act-retreat')].map((b) => [
        b.dataset.to,
        b.textContent,
      ]),
    };
  });

const hintText = (page) => page.locator('.prompt .action-bar .hint').first().innerText();
const battleInfo = (page) => page.locator('.prompt .battle-info').innerText();

// At phone size (390x844), Scotland, awaited for Wallace's combat turn, scrolls to the bottom
// of the page (under the map, to the battle panel): the prompt is still on screen; choosing
// Wallace in the battle panel puts all his buttons, the retreat among them, on screen in the
// prompt, and axe finds no serious problem. The desktop size is then restored
// (the page scrolled to its top), Wallace chosen.
async function checkPhoneCombatTurn(p) {
  await p.page.setViewportSize(PHONE);
  await p.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await p.page.waitForFunction(() => window.scrollY > 0);
  const { prompt, height } = await promptBoxes(p.page);
  assert.ok(
    prompt.top >= 0 && prompt.bottom <= height,
    `the prompt stays on screen when scrolled down (${prompt.top}..${prompt.bottom})`,
  );
  await p.page.locator('button.bblock[data-block="sco_wallace"]').click();
  await p.page.waitForSelector('.prompt .act-dest');
  await assertPromptOnScreen(p.page, 'Wallace chosen in the battle panel on a phone');
  assert.deepEqual((await chosenWords(p.page)).retreats, [['fife', 'Retreat to Fife']]);
  await p.page.screenshot({ path: path.join(shots, 'battle-phone-chosen.png') });
  assert.deepEqual(
    await axeProblems(p.page),
    [],
    'the game page in a battle, 390x844, a block chosen',
  );
  await p.page.setViewportSize(DESKTOP);
  await p.page.evaluate(() => window.scrollTo(0, 0));
}

// Waits until one of `players` is awaited in a phase whose text matches `re`.
async function waitForPhase(players, re, timeout = 20000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const p of players) {
      if ((await isAwaited(p)) && re.test(await p.page.locator('.phase-text').innerText()))
        return p;
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
    const cards = await p.page
      .locator('button.card')
      .evaluateAll((els) => els.map((e) => e.dataset.card));
    const best = cards
      .filter((c) => c.startsWith('move'))
      .sort()
      .reverse()[0];
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
  assert.ok(
    (await eng.page.locator('svg.map .traces > *').count()) >= 1,
    'the move is drawn as a trace',
  );
  const moveLine = eng.page.locator('ol.log li', { hasText: /moved from Fife to Angus/ }).last();
  const lit = () =>
    eng.page.evaluate(() =>
      [...document.querySelectorAll('.cell.highlight')].map((c) => c.dataset.area).sort(),
    );
  assert.deepEqual(await lit(), [], 'nothing is lit before a line is pointed at');
  await moveLine.hover();
  assert.deepEqual(await lit(), ['angus', 'fife'], 'hovering the line lights its areas');
  await eng.page.screenshot({ path: path.join(shots, 'log-line-pointed.png') });
  await eng.page.mouse.move(5, 5);
  assert.deepEqual(await lit(), [], 'leaving the log puts the light out');
  await moveLine.click();
  assert.deepEqual(await lit(), ['angus', 'fife'], 'tapping the line lights its areas');

  // The battle in Angus, played so that no die decides its course (RULES 5): Wallace
  // (attacker, A3, strength 4) acts first in each round (5.4) and passes; Angus (defender, B2)
  // fires in round 1 only, at most 3 hits, so Wallace lives; after round 3 both sides remain,
  // the defender wins and Scotland must retreat Wallace (5.11.1, 5.11.3).
  await sco.page.waitForSelector('section.battle:not([hidden])', { timeout: 20000 });
  await sco.page.setViewportSize(DESKTOP);
  assert.equal(await waitForAwaited([sco, eng]), sco, 'Wallace, an attacking A block, acts first');
  assert.equal(await phaseText(sco), 'Scotland: combat');
  assert.ok(
    (await sco.page.locator('.bblock').count()) > 1,
    'both sides are revealed in the battle panel',
  );

  // England's map shows the revealed attacker with its face; the rest of Scotland stays blank.
  const seen = Date.now() + 10000;
  while (!(await showsRevealed(eng.page, 'sco_wallace'))) {
    assert.ok(
      Date.now() < seen,
      "England's map shows Wallace, revealed in the battle, with his strength",
    );
    await eng.page.waitForTimeout(100); // polling England's page for the view of the reveal
  }
  assert.equal(await eng.page.locator('.block.own.scotland').count(), 0);
  assert.ok((await eng.page.locator('rect.block.hidden.scotland').count()) > 0);
  await eng.page.screenshot({ path: path.join(shots, 'battle-england.png') });
  await eng.page.setViewportSize(PHONE);
  await eng.page.screenshot({ path: path.join(shots, 'battle-phone.png'), fullPage: true });
  const engWidth = await eng.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(engWidth <= 400, `the phone battle fits the screen (${engWidth}px wide)`);
  await eng.page.setViewportSize(SIZE);

  // Wallace's combat turn, in words (RULES 5.5): fire, retreat (to Fife, whence he came: the
  // other neighbours are English) or pass; chosen in the battle panel, his buttons say so.
  assert.equal(
    await hintText(sco.page),
    'Choose a block for its combat turn: fire, retreat or pass.',
  );
  assert.equal(
    await battleInfo(sco.page),
    'A block that retreats leaves the battle at once (RULES 5.5).',
  );
  await sco.page.locator('button.bblock[data-block="sco_wallace"]').click();
  await sco.page.waitForSelector('.prompt .act-dest');
  assert.deepEqual(await chosenWords(sco.page), {
    name: 'Wallace',
    acts: ['Fire', 'Pass'],
    retreats: [['fife', 'Retreat to Fife']],
  });
  assert.equal(
    await sco.page.evaluate(() => document.activeElement?.textContent),
    'Fire',
    'the keyboard focus is on Fire, not on the retreat: Enter fires',
  );
  assert.ok(
    await sco.page.locator('.target-ring[data-target="fife"]').count(),
    'Fife is marked on the map',
  );
  await assertPromptOnScreen(sco.page, 'Wallace chosen at 1440x900');
  await sco.page.screenshot({ path: path.join(shots, 'battle-combat-turn.png') });
  assert.deepEqual(
    await axeProblems(sco.page),
    [],
    'the game page in a battle, 1440x900, a block chosen',
  );
  await sco.page.locator('.prompt button.cancel').click();
  await checkPhoneCombatTurn(sco);
  await act(sco, '.prompt .act-pass');

  // Angus's combat turn on England's page: its three retreats, each to an English neighbour
  // (RULES 5.10.1; not to Fife, across the border Wallace used: 5.10.3). It fires.
  assert.equal(await waitForAwaited([sco, eng]), eng, 'Angus, a defending B block, acts next');
  assert.equal(
    await hintText(eng.page),
    'Choose a block for its combat turn: fire, retreat or pass.',
  );
  await eng.page.locator('button.bblock[data-block="eng_angus"]').click();
  await eng.page.waitForSelector('.prompt .act-dest');
  const angus = await chosenWords(eng.page);
  assert.equal(angus.name, 'Angus');
  assert.deepEqual(angus.retreats.sort(), [
    ['atholl', 'Retreat to Atholl'],
    ['buchan', 'Retreat to Buchan'],
    ['mar', 'Retreat to Mar'],
  ]);
  await eng.page.screenshot({ path: path.join(shots, 'battle-england-combat-turn.png') });
  await act(eng, '.prompt .act-fire');
  await sco.page.waitForSelector('.battle-log .die');
  await sco.page.screenshot({ path: path.join(shots, 'battle.png') });
  await assertNoLeak(eng, engFrames, 'during the battle');

  // Rounds 2 and 3: every block passes (a hit still to allocate is taken).
  let phase = '';
  let p = null;
  for (let guard = 0; guard < 12; guard++) {
    p = await waitForAwaited([sco, eng]);
    phase = await phaseText(p);
    if (!/: (combat|allocate hits)$/.test(phase)) break;
    await p.page.locator('button.bblock').first().click();
    await act(p, '.prompt .act-pass, .prompt .act-take_hit');
  }
  assert.equal(p, sco, 'Scotland, the attacker, is awaited after round 3');
  assert.equal(phase, 'Scotland: retreat');
  await assertNoLeak(eng, engFrames, 'during the battle');

  // The retreat after round 3 (RULES 5.11.3), in words: who won, that every block must go, and
  // where Wallace, chosen on the map, may go.
  assert.equal(
    await sco.page.locator('.battle-head').innerText(),
    'Round 3: won by England; Scotland retreats every block',
  );
  assert.equal(
    await battleInfo(sco.page),
    'England won the battle in Angus: every one of your ' +
      'blocks there must retreat to an adjacent friendly or neutral area (RULES 5.11.3).',
  );
  assert.equal(
    await hintText(sco.page),
    'Choose a block to retreat, then the area it retreats to.',
  );
  await chooseBlock(sco.page, 'sco_wallace');
  await sco.page.waitForSelector('.prompt .act-dest');
  assert.deepEqual(await chosenWords(sco.page), {
    name: 'Wallace',
    acts: [],
    retreats: [['fife', 'Retreat to Fife']],
  });
  await assertPromptOnScreen(sco.page, 'the retreat at 1440x900');
  await sco.page.screenshot({ path: path.join(shots, 'retreat.png') });
  await sco.page.setViewportSize(PHONE);
  await assertPromptOnScreen(sco.page, 'the retreat at 390x844');
  await sco.page.screenshot({ path: path.join(shots, 'retreat-phone.png') });
  await sco.page.setViewportSize(DESKTOP);
  await act(sco, '.prompt .act-dest[data-to="fife"]');
  // Wallace is in Fife on Scotland's map (a block, or a name in Fife's chip), out of Angus.
  await sco.page.waitForSelector(
    '.blocks .block[data-block="sco_wallace"][data-area="fife"], ' +
      '.blocks .chip[data-chip="fife"][data-blocks~="sco_wallace"]',
  );
  assert.equal(
    await sco.page
      .locator(
        '.blocks [data-area="angus"][data-block="sco_wallace"], ' +
          '.blocks .chip[data-chip="angus"][data-blocks~="sco_wallace"]',
      )
      .count(),
    0,
  );
  assert.match(await sco.page.locator('.log').innerText(), /Wallace retreats from Angus to Fife\./);
  // England reads that Scotland must retreat, never where to (RULES 13.5).
  await eng.page
    .locator('.log li', { hasText: 'Scotland must retreat from Angus.' })
    .first()
    .waitFor();
  assert.doesNotMatch(await eng.page.locator('.log').innerText(), /retreats from Angus to/);

  // England, the victor, may regroup (RULES 5.12); it ends the regroup, and the battle.
  assert.equal(await waitForAwaited([sco, eng]), eng);
  assert.equal(await phaseText(eng), 'England: regroup');
  await act(eng, '.prompt .act-end_regroup');
  await sco.page.waitForSelector('section.battle[hidden]', { state: 'attached' });
  await sco.page.setViewportSize(SIZE);
  const log = await sco.page.locator('.log').innerText();
  assert.match(log, /Battle in Angus/);
  assert.match(log, /fires: [1-6]/, 'dice were rolled and shown');

  // Positive control: Scotland's own page does show its hidden blocks (Douglas, with Wallace
  // back in Fife: on the map, or in the list of Fife's chip when the zoom draws one).
  const fifeChip = sco.page.locator('.blocks .chip[data-chip="fife"]');
  if (await fifeChip.count()) await fifeChip.click();
  assert.match(await sco.page.content(), /Douglas/);
  if (await fifeChip.count()) await sco.page.locator('.stack-panel .pb-close').click();
  await assertNoLeak(eng, engFrames, 'after the battle');
  assert.ok(
    engFrames.some((f) => f.includes('"type":"view"')),
    'England received a whole view on joining',
  );
  assert.ok(
    engFrames.some((f) => f.includes('"type":"view_patch"')),
    'and view_patch frames after actions',
  );

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
  assert.deepEqual(rebuilt.problems, [], "England's views rebuilt from its frames");
  assert.ok(rebuilt.comparedRebuilt > 0, "the sync's view was compared with one made by patches");

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
  const context = await running.browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
  });
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
  await eng.page.waitForFunction(
    () =>
      /Scotland: \d in hand, has chosen/.test(
        document.querySelector('.card-status')?.textContent || '',
      ),
    null,
    { timeout: 10000 },
  );

  // A stale action (an old seq) is answered by the fresh view, without an error.
  const before = await eng.page.evaluate(() => document.getElementById('app').dataset.views);
  await eng.page.evaluate(() =>
    window.blockfogConnection.send({ type: 'action', seq: 0, action: { kind: 'end_move_phase' } }),
  );
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
    await mover.page
      .waitForSelector(`${MAP_CHOICE}, button.act-end_move_phase`)
      .catch(async (e) => {
        throw new Error(
          `${mover.name}: no movable block and no End move phase; prompt: ` +
            `${await mover.page.locator('.prompt').innerText()} (${e.message})`,
        );
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
  await mover.page.waitForFunction(
    (b) => document.getElementById('app').dataset.views !== b,
    views,
  );
  assert.match(await mover.page.locator('.log').innerText(), /moved from/);
  await assertNoLeak(eng, engFrames, 'at the end');
  await context.close();
});
