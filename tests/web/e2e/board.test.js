// End to end in headless Chromium at a desktop (1440x900) and a phone (390x844) size: the whole
// map is on screen at "Fit"; blocks' names and strengths are drawn large enough to read and
// inside their blocks; axe-core finds no serious or critical problem on the lobby, the game
// and the replay pages; a whole game turn is played with the keyboard alone; one log update at
// 3,000 lines appends its line without redrawing the others, in under 16 ms (median of 25).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, startGame, startBot, waitForViews, viewsCount, lastView } from './helpers.js';

const running = useServerAndBrowser(['--ws-rate', '1000']);
const shots = outputDir();
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

// axe-core's serious and critical violations on the page as it is.
async function axeProblems(page) {
  // Evaluated through the DevTools protocol: the page's CSP rightly refuses inline scripts.
  await page.evaluate(`${axeSource}\n;0`);
  const result = await page.evaluate(() => window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
  }));
  return result.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} nodes, e.g. ${v.nodes[0]?.target}`);
}

// Screen boxes of the map frame, the land and each own block's name and strength.
const measure = (page) => page.evaluate(() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height, r: r.right, b: r.bottom };
  };
  const frame = box(document.querySelector('.map-viewport'));
  return {
    frame,
    land: box(document.querySelector('svg.map .land')),
    window: { w: window.innerWidth, h: window.innerHeight },
    blocks: [...document.querySelectorAll('.block.own')].map((g) => ({
      id: g.dataset.block,
      body: box(g.querySelector('.body')),
      name: box(g.querySelector('.bname')),
      strength: box(g.querySelector('.bstrength')),
    })).filter((b) => b.body.x >= frame.x && b.body.r <= frame.r && b.body.y >= frame.y
      && b.body.b <= frame.b),
  };
});

for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`${size}: the whole map at Fit, blocks legible, no serious axe problem`, async () => {
    const sco = await newPlayer(running.browser, running.server, `fit${size}s`, { viewport });
    const eng = await newPlayer(running.browser, running.server, `fit${size}e`, { viewport });
    assert.deepEqual(await axeProblems(sco.page), [], 'lobby');
    await sco.page.screenshot({ path: path.join(shots, `board-${size}-lobby.png`), fullPage: true });
    await startGame(sco, eng);
    await sco.page.waitForSelector('.block.own');
    await sco.page.waitForTimeout(300); // the map frame settles its first zoom

    // The first view: at desktop size, the blocks are legible as they are.
    const start = await measure(sco.page);
    await sco.page.screenshot({ path: path.join(shots, `board-${size}-start.png`) });
    if (size === 'desktop') {
      assert.ok(start.blocks.length >= 3, `Scottish blocks are in view (${start.blocks.length})`);
      for (const b of start.blocks) {
        assert.ok(b.name.h >= 7.5, `${b.id}'s name is ${b.name.h.toFixed(1)} px tall`);
        assert.ok(b.strength.h >= 10, `${b.id}'s strength is ${b.strength.h.toFixed(1)} px tall`);
        assert.ok(b.name.x >= b.body.x && b.name.r <= b.body.r, `${b.id}'s name fits its block`);
      }
    }
    // Fit: the map frame is on screen and holds the whole land.
    await sco.page.click('.zoom .fit');
    await sco.page.waitForTimeout(200);
    const fit = await measure(sco.page);
    await sco.page.screenshot({ path: path.join(shots, `board-${size}-fit.png`) });
    assert.ok(fit.frame.x >= 0 && fit.frame.r <= fit.window.w + 0.5, 'the frame is as wide as the screen at most');
    assert.ok(fit.frame.h <= fit.window.h, 'the frame is no taller than the screen');
    for (const k of ['x', 'y']) assert.ok(fit.land[k] >= fit.frame[k] - 0.5, `land ${k} inside the frame`);
    assert.ok(fit.land.r <= fit.frame.r + 0.5 && fit.land.b <= fit.frame.b + 0.5, 'land inside the frame');
    // Zoomed in twice, the phone's blocks read as the desktop's do.
    if (size === 'phone') {
      await sco.page.click('.zoom button[aria-label="Zoom in"]');
      await sco.page.click('.zoom button[aria-label="Zoom in"]');
      await sco.page.click('.zoom button[aria-label="Zoom in"]');
      const near = await measure(sco.page);
      await sco.page.screenshot({ path: path.join(shots, `board-${size}-zoomed.png`) });
      assert.ok(near.blocks.length >= 1, 'a Scottish block is in view');
      for (const b of near.blocks) {
        assert.ok(b.name.h >= 7.5, `${b.id}'s name is ${b.name.h.toFixed(1)} px tall zoomed in`);
        assert.ok(b.name.x >= b.body.x && b.name.r <= b.body.r, `${b.id}'s name fits its block`);
      }
    }
    assert.deepEqual(await axeProblems(sco.page), [], 'game page');
    await sco.context.close();
    await eng.context.close();
  });
}

// Tabs until the focused element matches one of `selectors` (in order of preference among
// those on the page), then presses Enter. Returns how many Tabs it took, or -1.
async function keyTo(page, selectors, max = 80) {
  const present = [];
  for (const sel of selectors) if (await page.locator(sel).count()) present.push(sel);
  if (!present.length) return -1;
  const want = present[0];
  for (let k = 0; k <= max; k++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, want)) {
      await page.keyboard.press('Enter');
      return k;
    }
    await page.keyboard.press('Tab');
  }
  return -1;
}

// A decision taken by keyboard: when the client has already put the focus on what a chosen block
// may do (its first destination or action), Enter takes it; otherwise Tabs to the first of
// `order` on the page. Returns the Tabs it took, or -1.
async function decideByKey(page, order) {
  const atHand = '.act-dest, .action-bar button.act:not(.cancel):not(.undo)';
  if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, atHand)) {
    await page.keyboard.press('Enter');
    return 0;
  }
  return keyTo(page, order);
}

test('a whole game turn played with the keyboard alone', async () => {
  const sco = await newPlayer(running.browser, running.server, 'keysco', { viewport: DESKTOP });
  const eng = await newPlayer(running.browser, running.server, 'keyeng', { viewport: DESKTOP });
  const id = await startGame(sco, eng);
  await eng.page.goto(`${running.server.url}/#/`);
  const bot = await startBot(eng, running.server, id);
  const page = sco.page;
  await page.waitForSelector('button.card');
  const turnOf = () => lastView(sco)?.turn ?? 1;
  const order = ['button.card:not([disabled])', '.act-dest', '.block.actionable',
    'button.bblock', '.target-ring', '.action-bar button.act:not(.cancel):not(.undo)'];
  let tabsToDestination = null;
  let presses = 0;
  let stuck = 0; // checks in a row that found nothing to press while awaited
  const deadline = Date.now() + 120000;
  while (turnOf() === 1 && presses < 80 && Date.now() < deadline) {
    const awaited = await page.locator('.prompt .awaiting.mine').count();
    if (!awaited) {
      await page.waitForTimeout(150);
      continue;
    }
    const before = await viewsCount(sco);
    const isBlock = await page.locator('.block.actionable').count();
    const tabs = await decideByKey(page, order);
    if (tabs < 0) {
      // Between sending a decision and its answer the page offers nothing (its controls are
      // disabled while the action is pending): wait for the answer, for a while.
      stuck += 1;
      assert.ok(stuck < 40 || !(await page.locator('.prompt .awaiting.mine').count()),
        `something to do by keyboard; prompt: ${await page.locator('.prompt').innerText()}`);
      await page.waitForTimeout(150);
      continue;
    }
    stuck = 0;
    presses += 1;
    if (isBlock && await page.locator('.act-dest').count()) {
      // A block chosen: its destinations are at hand.
      tabsToDestination = await keyTo(page, ['.act-dest']);
      assert.ok(tabsToDestination >= 0 && tabsToDestination <= 1,
        `a destination is ${tabsToDestination} Tabs away`);
    } else if (isBlock && await page.locator('.block.actionable, .target-ring').count() === 0) {
      continue;
    }
    await waitForViews(sco, before).catch(() => {});
  }
  await page.screenshot({ path: path.join(shots, 'board-keyboard-turn.png') });
  assert.ok(turnOf() >= 2, `the game turn ended (${presses} decisions by keyboard)`);
  await bot.stop();
  await sco.context.close();
  await eng.context.close();
});

for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`${size}: a pinned block has its own look, says why when tapped, and is in the legend`, async () => {
    const p = await newPlayer(running.browser, running.server, `pin${size}`, { viewport });
    // The map module drawn in the page from a view in which Wallace stands alone in Fife
    // against two English blocks (RULES 4.7: F = 1 <= E = 2; the engine marks him pinned) and
    // Bruce may move.
    const result = await p.page.evaluate(async () => {
      const { createMap } = await import('/js/map.js');
      const { loadGameData } = await import('/js/gamedata.js');
      const { pinnedBlocks } = await import('/js/pinning.js');
      const { legend } = await import('/js/legend.js');
      const data = await loadGameData();
      const app = document.getElementById('app');
      app.replaceChildren();
      window.pinTold = [];
      const map = createMap(data, { onArea() {}, onBlock() {},
        onPinned: (r) => window.pinTold.push(r) });
      // Laid out as on the game page (game.js, map_panel.js).
      const board = Object.assign(document.createElement('div'), { className: 'board' });
      const holder = Object.assign(document.createElement('div'), { className: 'map-holder' });
      holder.append(map.el, legend());
      board.append(holder);
      app.append(board);
      const own = (block, pinned) => ({ block, moved: false, reserve: false, strength: 3, pinned });
      const view = { role: 'scotland', phase: 'move', legal_actions: [{ kind: 'move', block: 'sco_bruce' }],
        areas: data.areas.map((a) => ({ id: a.id,
          scotland: a.id === 'fife' ? { blocks: [own('sco_wallace', 'pinned: 2 enemy blocks in '
            + 'this area hold your 1; a block may leave only while yours outnumber them (RULES 4.7)')],
          count: 1 }
            : a.id === 'annan' ? { blocks: [own('sco_bruce')], count: 1 } : { blocks: [], count: 0 },
          england: { count: a.id === 'fife' ? 2 : 0 } })) };
      map.render(view, { role: 'scotland', selected: null, blockActionable: new Set(['sco_bruce']),
        pinned: pinnedBlocks(view), areaTargets: new Map(), traces: [] });
      const g = document.querySelector('.block.pinned');
      return { pinned: [...document.querySelectorAll('.block.pinned')].map((b) => b.dataset.block),
        title: g?.querySelector('title')?.textContent ?? '',
        label: g?.getAttribute('aria-label') ?? '',
        stripes: g ? getComputedStyle(g.querySelector('.label')).fill : '',
        freeFill: getComputedStyle(document.querySelector('.block[data-block="sco_bruce"] .label')).fill,
        legend: document.querySelector('.legend')?.textContent ?? '' };
    });
    assert.deepEqual(result.pinned, ['sco_wallace']);
    assert.match(result.title, /pinned: 2 enemy blocks in this area hold your 1/);
    assert.match(result.label, /pinned: 2 enemy blocks/);
    assert.notEqual(result.stripes, result.freeFill, 'a pinned label looks unlike a free one');
    assert.match(result.legend, /pinned by enemy blocks/);
    // Tapped on the phone; reached and pressed by keyboard on the desktop.
    if (size === 'phone') await p.page.click('.block.pinned');
    else {
      await p.page.focus('.block.pinned');
      await p.page.keyboard.press('Enter');
    }
    const told = await p.page.evaluate(() => window.pinTold);
    assert.equal(told.length, 1, 'the pinned block, tapped or pressed, tells why');
    assert.match(told[0], /may leave only while yours outnumber them/);
    await p.page.evaluate(() => document.querySelector('.legend').open = true);
    await p.page.screenshot({ path: path.join(shots, `board-${size}-pinned.png`) });
    await p.page.locator('.block.pinned').screenshot({ path: path.join(shots, `board-${size}-pinned-block.png`) });
    await p.context.close();
  });
}

test('a log update at 3,000 lines appends one line, fast', async () => {
  const p = await newPlayer(running.browser, running.server, 'logtime', { viewport: DESKTOP });
  const result = await p.page.evaluate(async () => {
    const { renderLog } = await import('/js/panels/log.js');
    const el = document.createElement('section');
    document.getElementById('app').append(el);
    const log = Array.from({ length: 3000 }, (_, i) => ({ i, text: `A Scottish block moved from Fife to Lothian (${i}).` }));
    renderLog(el, { log });
    const first = el.querySelector('li');
    const times = [];
    for (let k = 0; k < 25; k++) {
      log.push({ i: log.length, text: `Line ${log.length}.` });
      const t0 = performance.now();
      renderLog(el, { log: log.slice() });
      el.querySelector('ol').getBoundingClientRect(); // the layout the update causes
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { median: times[12], lines: el.querySelectorAll('li').length,
      same: el.querySelector('li') === first };
  });
  console.log(`log update at 3,000 lines: median ${result.median.toFixed(2)} ms`);
  assert.equal(result.lines, 3025);
  assert.ok(result.same, 'the lines already shown are kept, not redrawn');
  assert.ok(result.median < 16, `median update ${result.median.toFixed(2)} ms`);
  await p.context.close();
});

test('the replay page has no serious axe problem', async () => {
  const sco = await newPlayer(running.browser, running.server, 'axesco', { viewport: DESKTOP });
  const eng = await newPlayer(running.browser, running.server, 'axeeng', { viewport: DESKTOP });
  const id = await startGame(sco, eng);
  await sco.page.goto(`${running.server.url}/#/`);
  await eng.page.goto(`${running.server.url}/#/`);
  // Some random play, then England resigns: a finished game with a record to step through
  // (the whole-game replay is replay.test.js's).
  const bots = [await startBot(sco, running.server, id), await startBot(eng, running.server, id)];
  await sco.page.waitForTimeout(3000);
  const sent = await Promise.all(bots.map((b) => b.stop()));
  assert.ok(sent[0] + sent[1] > 5, `the bots played (${sent} actions sent)`);
  const resigned = await eng.page.evaluate((g) => fetch(`/api/games/${g}/resign`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}',
  }).then((r) => r.status), id);
  assert.equal(resigned, 200);
  await sco.page.goto(`${running.server.url}/#/replay/${id}`);
  await sco.page.waitForFunction(() => document.getElementById('app').dataset.shown);
  await sco.page.screenshot({ path: path.join(shots, 'board-replay.png') });
  assert.deepEqual(await axeProblems(sco.page), [], 'replay page');
  await sco.context.close();
  await eng.context.close();
});
