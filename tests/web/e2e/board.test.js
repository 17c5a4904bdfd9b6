// End to end in headless Chromium at a desktop (1440x900) and a phone (390x844) size: the whole
// map is on screen at "Fit"; every block's name and strength, every chip's count and every name
// and strength in a chip's list is at least MIN_TEXT_PX tall on the screen; every block and chip
// lies inside its own area and off the other areas' names, in a crowded position; axe-core finds
// no serious or critical problem on the lobby, the game and the replay pages; a whole game turn
// is played with the keyboard alone (the map one Tab stop, the arrows between areas and blocks);
// one log update at 3,000 lines appends its line without redrawing the others, in under 16 ms
// of the renderer's main-thread CPU (median of 25).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import {
  newPlayer,
  startGame,
  startBot,
  lastView,
  MAP_CHOICE,
  arrowTo,
  keyChooseBlock,
  axeProblems,
  waitForAnswer,
} from './helpers.js';

const running = useServerAndBrowser(['--ws-rate', '1000']);
const shots = outputDir();
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
// The least height on the screen, in CSS pixels, of the box of any text the tests read on the
// map: a block's name (each line) and strength, a chip's count, a name or strength in a chip's
// list. (Blocks are drawn with a font of at least 10 px, whose line box is about 11 px; chips
// and lists with 12 px and more.)
const MIN_TEXT_PX = 10.5;

// Screen boxes of the map frame and the land, and the text heights of each block whose face is
// shown (name lines and strength) and of each chip (its counts), of those wholly in the frame.
const measure = (page) =>
  page.evaluate(() => {
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.left, y: r.top, w: r.width, h: r.height, r: r.right, b: r.bottom };
    };
    const frame = box(document.querySelector('.map-viewport'));
    const inFrame = (b) => b.x >= frame.x && b.r <= frame.r && b.y >= frame.y && b.b <= frame.b;
    return {
      frame,
      land: box(document.querySelector('svg.map .land')),
      window: { w: window.innerWidth, h: window.innerHeight },
      blocks: [...document.querySelectorAll('.blocks .block.own, .blocks .block.revealed')]
        .map((g) => ({
          id: g.dataset.block,
          body: box(g.querySelector('.body')),
          name: box(g.querySelector('.bname')),
          lines: [...g.querySelectorAll('.bname tspan')].map((t) => box(t).h),
          strength: box(g.querySelector('.bstrength')),
          meta: [...g.querySelectorAll('.bmeta')].map((t) => ({
            text: t.textContent,
            h: box(t).h,
          })),
        }))
        .filter((b) => inFrame(b.body)),
      // The compact form's tags: the name (if drawn) and strength of each.
      tags: [...document.querySelectorAll('.blocks .block.tag')]
        .map((g) => ({
          id: g.dataset.block,
          box: box(g),
          texts: [...g.querySelectorAll('.tname, .tstrength')].map((t) => box(t).h),
        }))
        .filter((c) => inFrame(c.box)),
      chips: [...document.querySelectorAll('.blocks .chip')]
        .map((g) => ({
          area: g.dataset.chip,
          box: box(g),
          counts: [...g.querySelectorAll('.chip-count')].map((t) => box(t).h),
        }))
        .filter((c) => inFrame(c.box)),
    };
  });

// Asserts that every block and chip measured reads: text at least MIN_TEXT_PX tall.
function assertLegible(m, when) {
  for (const b of m.blocks) {
    for (const h of b.lines)
      assert.ok(h >= MIN_TEXT_PX, `${when}: ${b.id}'s name is ${h.toFixed(1)} px tall`);
    assert.ok(
      b.strength.h >= MIN_TEXT_PX,
      `${when}: ${b.id}'s strength is ${b.strength.h.toFixed(1)} px tall`,
    );
    assert.equal(b.meta.length, 3, `${when}: ${b.id} shows its rating, type or home, and move`);
    for (const { text, h } of b.meta) {
      assert.ok(h >= MIN_TEXT_PX, `${when}: ${b.id}'s rating "${text}" is ${h.toFixed(1)} px tall`);
    }
    assert.ok(
      b.name.x >= b.body.x && b.name.r <= b.body.r,
      `${when}: ${b.id}'s name fits its block`,
    );
  }
  for (const g of m.tags) {
    assert.ok(g.texts.length >= 1, `${when}: ${g.id}'s tag shows its strength`);
    for (const h of g.texts)
      assert.ok(h >= MIN_TEXT_PX, `${when}: ${g.id}'s tag text is ${h.toFixed(1)} px tall`);
  }
  for (const c of m.chips) {
    for (const h of c.counts)
      assert.ok(h >= MIN_TEXT_PX, `${when}: ${c.area}'s chip count is ${h.toFixed(1)} px tall`);
  }
}

// The text heights of the open list of an area's blocks: each name and strength (the boxes of
// their text, not of their boxes).
const measureList = (page) =>
  page.evaluate(() => {
    const textHeight = (el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return range.getBoundingClientRect().height;
    };
    const panel = document.querySelector('.stack-panel:not([hidden])');
    const r = panel?.getBoundingClientRect();
    return (
      panel && {
        onScreen:
          r.top >= 0 &&
          r.bottom <= window.innerHeight &&
          r.left >= 0 &&
          r.right <= window.innerWidth,
        rows: [...panel.querySelectorAll('.pblock')].map((row) => ({
          id: row.dataset.block,
          name: textHeight(row.querySelector('.pb-name')),
          strength: textHeight(row.querySelector('.pb-face')),
          text: row.textContent,
        })),
        hidden: [...panel.querySelectorAll('.pb-hidden')].map((row) => row.textContent),
      }
    );
  });

// Every block, chip, tag, back and tag group's frame of the map lies inside its own area (its
// box's corners and edge midpoints, 0.5 px in, are in the area's shape) and off every other
// area's name and marks.
const stackProblems = (page) =>
  page.evaluate(() => {
    const svg = document.querySelector('svg.map');
    const toMap = svg.getScreenCTM().inverse();
    const labels = [...svg.querySelectorAll('.area-label')].map((g) => [
      g.dataset.label,
      g.getBoundingClientRect(),
    ]);
    const meet = (a, b) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const problems = [];
    // What is drawn for each area: its blocks or chip, or, for a compact stack, each tag, back
    // and group frame in it (its cells may lie apart where the area is ragged).
    const drawn = [...svg.querySelectorAll('.blocks > *')].flatMap((el) =>
      el.classList.contains('tags')
        ? [...el.querySelectorAll('.tag-frame, .block')].map((part) => [part, el.dataset.area])
        : [[el, el.dataset.area]],
    );
    const checked = svg.querySelectorAll('.blocks > *').length;
    for (const [el, area] of drawn) {
      const cell = svg.querySelector(`.cell[data-area="${area}"]`);
      const r = el.getBoundingClientRect();
      const points = [0, 0.5, 1].flatMap((u) =>
        [0, 0.5, 1].map((v) =>
          new DOMPoint(
            r.left + 0.5 + u * (r.width - 1),
            r.top + 0.5 + v * (r.height - 1),
          ).matrixTransform(toMap),
        ),
      );
      const what = el.dataset.block || el.dataset.chip || el.getAttribute('class');
      if (points.some((pt) => !cell.isPointInFill(pt))) problems.push(`${what} leaves ${area}`);
      for (const [other, lr] of labels) {
        if (other !== area && meet(r, lr))
          problems.push(`${area}'s ${what} covers ${other}'s name`);
      }
    }
    return { checked, problems: [...new Set(problems)] };
  });

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
]) {
  test(`${size}: the whole map at Fit, blocks and chips legible, no serious axe problem`, async () => {
    const sco = await newPlayer(running.browser, running.server, `fit${size}s`, { viewport });
    const eng = await newPlayer(running.browser, running.server, `fit${size}e`, { viewport });
    assert.deepEqual(await axeProblems(sco.page), [], 'lobby');
    await sco.page.screenshot({
      path: path.join(shots, `board-${size}-lobby.png`),
      fullPage: true,
    });
    // The Campaign: the most blocks on the map at the start.
    await sco.page.selectOption('#create-scenario', 'campaign');
    await startGame(sco, eng);
    await sco.page.waitForSelector('.blocks .block.own, .blocks .tags, .blocks .chip');
    await sco.page.waitForTimeout(300); // the map frame settles its first zoom

    // The first view: at desktop size, blocks as blocks, legible.
    const start = await measure(sco.page);
    await sco.page.screenshot({ path: path.join(shots, `board-${size}-start.png`) });
    if (size === 'desktop') {
      assert.ok(start.blocks.length >= 3, `Scottish blocks are in view (${start.blocks.length})`);
    }
    assertLegible(start, 'first view');
    assert.deepEqual((await stackProblems(sco.page)).problems, [], 'first view');
    // Fit: the map frame is on screen and holds the whole land.
    await sco.page.click('.zoom .fit');
    await sco.page.waitForTimeout(200);
    const fit = await measure(sco.page);
    await sco.page.screenshot({ path: path.join(shots, `board-${size}-fit.png`) });
    assert.ok(
      fit.frame.x >= 0 && fit.frame.r <= fit.window.w + 0.5,
      'the frame is as wide as the screen at most',
    );
    assert.ok(fit.frame.h <= fit.window.h, 'the frame is no taller than the screen');
    assert.ok(fit.frame.y >= 0, `the frame's top is on the screen (${fit.frame.y.toFixed(0)} px)`);
    assert.ok(
      fit.frame.b <= fit.window.h,
      `the frame's bottom is on the screen (${fit.frame.b.toFixed(0)} of ${fit.window.h} px)`,
    );
    for (const k of ['x', 'y'])
      assert.ok(fit.land[k] >= fit.frame[k] - 0.5, `land ${k} inside the frame`);
    assert.ok(
      fit.land.r <= fit.frame.r + 0.5 && fit.land.b <= fit.frame.b + 0.5,
      'land inside the frame',
    );
    assertLegible(fit, 'Fit');
    const fitStacks = await stackProblems(sco.page);
    assert.ok(fitStacks.checked >= 10, `stacks drawn at Fit (${fitStacks.checked})`);
    assert.deepEqual(fitStacks.problems, [], 'Fit');
    if (size === 'phone') {
      // At a phone's Fit the Scottish stacks are chips or tags (the compact form); a chip or a
      // tag opens the list of its area's blocks, legible.
      assert.ok(fit.chips.length + fit.tags.length >= 3, `chips and tags at Fit`);
      assert.equal(fit.blocks.length, 0, 'no face is drawn too small to read');
      const chip = sco.page
        .locator('.blocks .chip:has(.chip-side.faces), .blocks .block.tag.scotland')
        .first();
      assert.ok(await chip.count(), 'a chip or tag holds Scottish blocks');
      await chip.click();
      const list = await measureList(sco.page);
      await sco.page.screenshot({ path: path.join(shots, `board-${size}-fit-list.png`) });
      assert.ok(list && list.rows.length >= 1, 'the chip opened the list of its blocks');
      assert.ok(list.onScreen, 'the list is on the screen');
      for (const row of list.rows) {
        assert.ok(
          row.name >= MIN_TEXT_PX,
          `${row.id}'s name in the list is ${row.name.toFixed(1)} px tall`,
        );
        assert.ok(
          row.strength >= MIN_TEXT_PX,
          `${row.id}'s strength in the list is ${row.strength.toFixed(1)} px tall`,
        );
        assert.match(row.text, /strength [1-4] of [1-4]/);
      }
      await sco.page.keyboard.press('Escape');
      assert.equal(
        await sco.page.locator('.stack-panel:not([hidden])').count(),
        0,
        'Escape closed the list',
      );
      // Zoomed in by the wheel over a Scottish chip, its blocks read as the desktop's do.
      await chip.scrollIntoViewIfNeeded();
      const at = await chip.boundingBox();
      await sco.page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
      for (let k = 0; k < 3; k++) await sco.page.mouse.wheel(0, -300);
      await sco.page.waitForTimeout(200);
      const near = await measure(sco.page);
      await sco.page.screenshot({ path: path.join(shots, `board-${size}-zoomed.png`) });
      assert.ok(
        near.blocks.length >= 1,
        `Scottish blocks are drawn as blocks (${near.blocks.length})`,
      );
      assertLegible(near, 'zoomed in');
      assert.deepEqual((await stackProblems(sco.page)).problems, [], 'zoomed in');
    }
    assert.deepEqual(await axeProblems(sco.page), [], 'game page');

    // England's seat, whose blocks have the longest names: legible at its first view, and
    // Mentieth's stack (Northumber Infantry among it) zoomed in by the wheel.
    await eng.page.waitForSelector('.blocks .block.own, .blocks .tags, .blocks .chip');
    await eng.page.waitForTimeout(300);
    const engStart = await measure(eng.page);
    await eng.page.screenshot({ path: path.join(shots, `board-${size}-england-start.png`) });
    if (size === 'desktop')
      assert.ok(engStart.blocks.length >= 3, `English blocks in view (${engStart.blocks.length})`);
    assertLegible(engStart, 'England, first view');
    await eng.page.click('.zoom .fit');
    const mentieth = await eng.page.locator('.blocks [data-area="mentieth"]').first().boundingBox();
    await eng.page.mouse.move(mentieth.x + mentieth.width / 2, mentieth.y + mentieth.height / 2);
    for (let k = 0; k < 3; k++) await eng.page.mouse.wheel(0, -300);
    await eng.page.waitForTimeout(200);
    const engNear = await measure(eng.page);
    await eng.page.screenshot({ path: path.join(shots, `board-${size}-england-zoomed.png`) });
    assert.ok(
      engNear.blocks.some((b) => b.id === 'eng_northumber_infantry'),
      `Northumber Infantry is drawn as a block (${engNear.blocks.map((b) => b.id)})`,
    );
    assertLegible(engNear, 'England, zoomed in');
    await sco.context.close();
    await eng.context.close();
  });
}

// A crowded position drawn by the page's own map module: six blocks in every area, three of the
// seat's and three of the enemy's backs (the most a stack is drawn with: both sides).
async function drawCrowded(page) {
  return page.evaluate(async () => {
    const { createMap } = await import('/js/map/map.js');
    const { loadGameData } = await import('/js/gamedata.js');
    const { legend } = await import('/js/map/legend.js');
    const data = await loadGameData();
    const app = document.getElementById('app');
    app.replaceChildren();
    const map = createMap(data, { onArea() {}, onBlock() {}, onPinned() {} });
    const board = Object.assign(document.createElement('div'), { className: 'board' });
    const holder = Object.assign(document.createElement('div'), { className: 'map-holder' });
    holder.append(map.el, legend());
    board.append(holder);
    app.append(board);
    const scots = data.raw.blocks.filter((b) => b.id.startsWith('sco_')).map((b) => b.id);
    let k = 0;
    const view = {
      role: 'scotland',
      phase: 'move',
      legal_actions: [],
      areas: data.areas.map((a) => ({
        id: a.id,
        scotland: {
          blocks: [0, 1, 2].map(() => ({ block: scots[k++ % scots.length], strength: 2 })),
          count: 3,
        },
        england: { count: 3 },
      })),
    };
    window.crowded = () =>
      map.render(view, {
        role: 'scotland',
        selected: null,
        blockActionable: new Set(),
        pinned: new Map(),
        areaTargets: new Map(),
        traces: [],
      });
    window.crowded();
    return data.areas.length;
  });
}

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
]) {
  test(`${size}: six blocks in every area stay inside it and off the other areas' names`, async () => {
    const p = await newPlayer(running.browser, running.server, `crowd${size}`, { viewport });
    await drawCrowded(p.page);
    await p.page.waitForTimeout(300);
    const zooms = [
      ['first view', null],
      ['Fit', '.zoom .fit'],
      ['zoomed in once', '.zoom button[aria-label="Zoom in"]'],
      ['zoomed in twice', '.zoom button[aria-label="Zoom in"]'],
      ['zoomed in thrice', '.zoom button[aria-label="Zoom in"]'],
    ];
    for (const [when, button] of zooms) {
      if (button) await p.page.click(button);
      await p.page.waitForTimeout(100);
      const { checked, problems } = await stackProblems(p.page);
      await p.page.screenshot({
        path: path.join(shots, `board-${size}-crowded-${when.replace(/ /g, '-')}.png`),
      });
      assert.ok(checked >= 23, `${when}: every area's stack was checked (${checked})`);
      assert.deepEqual(problems, [], when);
      assertLegible(await measure(p.page), when);
      if (when === 'Fit') {
        // A chip's (or a tag's) list over the crowded map, and Escape gives the focus back to
        // its area.
        await p.page
          .locator('.blocks .chip[data-chip="fife"], .blocks .tags[data-area="fife"] .block.tag')
          .first()
          .click();
        const list = await measureList(p.page);
        assert.deepEqual(list.hidden, ['3 English blocks, faces hidden']);
        assert.equal(list.rows.length, 3);
        await p.page.screenshot({ path: path.join(shots, `board-${size}-crowded-list.png`) });
        await p.page.keyboard.press('Escape');
        assert.equal(await p.page.evaluate(() => document.activeElement.dataset.area), 'fife');
      }
    }
    await p.context.close();
  });
}

// The map's view: its scale (screen pixels per map unit) and the map point at its centre.
const mapView = (page) =>
  page.evaluate(() => {
    const [x, y, w, hh] = document
      .querySelector('svg.map')
      .getAttribute('viewBox')
      .split(' ')
      .map(Number);
    return {
      scale: Number(document.querySelector('.map-viewport').dataset.scale),
      cx: x + w / 2,
      cy: y + hh / 2,
    };
  });

test('the map zooms and pans by keys, a two-finger pinch and a one-finger drag', async () => {
  const p = await newPlayer(running.browser, running.server, 'zoomkeys', { viewport: PHONE });
  await drawCrowded(p.page);
  await p.page.waitForTimeout(300);
  const fitView = await mapView(p.page);
  // Keys, with the focus on the map: + zooms in, Shift with an arrow pans, − zooms out, 0 fits.
  await p.page.focus('svg.map .cell[tabindex="0"]');
  await p.page.keyboard.press('+');
  assert.ok((await mapView(p.page)).scale > fitView.scale * 1.3, '+ zoomed in');
  await p.page.keyboard.press('+'); // close enough that the map is larger than the frame both ways
  const zoomed = await mapView(p.page);
  await p.page.keyboard.press('Shift+ArrowRight');
  await p.page.keyboard.press('Shift+ArrowDown');
  const panned = await mapView(p.page);
  assert.ok(panned.cx > zoomed.cx && panned.cy > zoomed.cy, 'Shift+arrows panned right and down');
  assert.equal(panned.scale, zoomed.scale, 'panning keeps the zoom');
  await p.page.keyboard.press('Shift+ArrowLeft');
  assert.ok((await mapView(p.page)).cx < panned.cx, 'Shift+ArrowLeft panned left');
  const closer = await mapView(p.page);
  await p.page.keyboard.press('-');
  assert.ok((await mapView(p.page)).scale < closer.scale, '− zoomed out');
  await p.page.keyboard.press('0');
  assert.equal((await mapView(p.page)).scale, fitView.scale, '0 fits the whole map again');
  assert.equal(
    await p.page.evaluate(() => !!document.activeElement.closest('svg.map')),
    true,
    'the keys kept the focus on the map',
  );

  // Touch, through the DevTools protocol: two fingers spread apart zoom in about their middle,
  // one finger dragged pans.
  const cdp = await p.context.newCDPSession(p.page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 2 });
  const frame = await p.page.locator('.map-viewport').boundingBox();
  const mx = frame.x + frame.width / 2;
  const my = frame.y + frame.height / 2;
  const touch = (type, points) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: points.map(([x, y], id) => ({ x, y, id })),
    });
  await touch('touchStart', [
    [mx - 30, my],
    [mx + 30, my],
  ]);
  for (let k = 1; k <= 6; k++)
    await touch('touchMove', [
      [mx - 30 - 15 * k, my],
      [mx + 30 + 15 * k, my],
    ]);
  await touch('touchEnd', []);
  const pinched = await mapView(p.page);
  await p.page.screenshot({ path: path.join(shots, 'board-phone-pinched.png') });
  assert.ok(
    pinched.scale > fitView.scale * 1.8,
    `the pinch zoomed in (${fitView.scale} to ${pinched.scale})`,
  );
  await touch('touchStart', [[mx, my]]);
  for (let k = 1; k <= 5; k++) await touch('touchMove', [[mx - 20 * k, my - 20 * k]]);
  await touch('touchEnd', []);
  const dragged = await mapView(p.page);
  assert.equal(dragged.scale, pinched.scale, 'a drag keeps the zoom');
  assert.ok(
    dragged.cx > pinched.cx + 10 && dragged.cy > pinched.cy + 10,
    'dragging the map up and left shows what lies down and right',
  );
  await p.context.close();
});

// Tabs until the focused element matches `selector`; returns how many Tabs it took, or -1.
async function tabTo(page, selector, max = 80) {
  for (let k = 0; k <= max; k++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return k;
    await page.keyboard.press('Tab');
  }
  return -1;
}

// Tabs until the focused element matches one of `selectors` (in order of preference among
// those on the page), then presses Enter. Returns how many Tabs it took, or -1.
async function keyTo(page, selectors, max = 80) {
  const present = [];
  for (const sel of selectors) if (await page.locator(sel).count()) present.push(sel);
  if (!present.length) return -1;
  const tabs = await tabTo(page, present[0], max);
  if (tabs >= 0) await page.keyboard.press('Enter');
  return tabs;
}

const MAP_STOP = 'svg.map .cell';
const MAP_TARGET = '.target-ring';

// A decision taken by keyboard: when the client has already put the focus on what a chosen block
// may do (its first destination or action), Enter takes it; otherwise the first of `order` on
// the page: a button is reached by Tabs; a block or a destination on the map by Tabs to the
// map (one stop), the arrows to its area and Enter (and for a block, the arrows to it and
// Enter). Returns the Tabs it took, or -1.
async function decideByKey(page, order) {
  const atHand = '.act-dest, .action-bar button.act:not(.cancel):not(.undo)';
  if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, atHand)) {
    await page.keyboard.press('Enter');
    return 0;
  }
  let first = null;
  for (const sel of order) {
    if (await page.locator(sel).count()) {
      first = sel;
      break;
    }
  }
  if (first !== MAP_CHOICE && first !== MAP_TARGET) return keyTo(page, order);
  const thing = page.locator(first).first();
  const area = await thing.getAttribute(first === MAP_TARGET ? 'data-target' : 'data-area');
  const tabs = await tabTo(page, MAP_STOP);
  if (tabs < 0) return -1;
  await arrowTo(page, area);
  if (first === MAP_TARGET) await page.keyboard.press('Enter');
  else await keyChooseBlock(page);
  return tabs;
}

test('a whole game turn played with the keyboard alone', async () => {
  const sco = await newPlayer(running.browser, running.server, 'keysco', { viewport: DESKTOP });
  const eng = await newPlayer(running.browser, running.server, 'keyeng', { viewport: DESKTOP });
  const id = await startGame(sco, eng);
  // England is played by a bot; its player's page stays on the game, to show Scotland's moves.
  const bot = await startBot(eng, running.server, id);
  const page = sco.page;
  await page.waitForSelector('button.card');
  // The map is one Tab stop: from it, Tab and Shift+Tab leave it.
  assert.ok((await tabTo(page, MAP_STOP)) >= 0, 'Tab reaches the map');
  await page.keyboard.press('Tab');
  assert.equal(
    await page.evaluate(() => !!document.activeElement.closest('svg.map')),
    false,
    'Tab leaves the map at once',
  );
  await page.keyboard.press('Shift+Tab');
  assert.ok(
    await page.evaluate((s) => document.activeElement.matches(s), MAP_STOP),
    'Shift+Tab comes back',
  );
  await page.keyboard.press('Shift+Tab');
  assert.equal(
    await page.evaluate(() => !!document.activeElement.closest('svg.map')),
    false,
    'Shift+Tab leaves the map at once',
  );
  const stops = await page.evaluate(
    () => document.querySelectorAll('svg.map [tabindex="0"]').length,
  );
  assert.equal(stops, 1, 'one element of the map is in the Tab order');
  const turnOf = () => lastView(sco)?.turn ?? 1;
  const order = [
    'button.card:not([disabled])',
    '.act-dest',
    MAP_CHOICE,
    'button.bblock',
    MAP_TARGET,
    '.action-bar button.act:not(.cancel):not(.undo)',
  ];
  let presses = 0;
  let mapChoices = 0;
  let stuck = 0; // checks in a row that found nothing to press while awaited
  const deadline = Date.now() + 120000;
  // England's map draws Scotland's moves for the rest of the game turn, which may end within
  // the frame after the last move: the page itself notes that it drew a trace, whenever that
  // was, instead of the test hoping to look at the right moment.
  await eng.page.evaluate(() => {
    window.tracesDrawn = false;
    const seen = () => {
      if (document.querySelector('svg.map .traces > *')) window.tracesDrawn = true;
    };
    new MutationObserver(seen).observe(document.getElementById('app'), {
      childList: true,
      subtree: true,
    });
    seen();
  });
  let traced = false; // a screenshot of England's map with the traces was taken
  let movedByKey = false; // the last decision moved a block to a destination
  let keptOnMap = 0;
  let axed = false;
  while (turnOf() === 1 && presses < 80 && Date.now() < deadline) {
    if (!traced && (await eng.page.locator('svg.map .traces > *').count())) {
      traced = true;
      await eng.page.screenshot({ path: path.join(shots, 'board-opponent-traces.png') });
    }
    const awaited = await page.locator('.prompt .awaiting.mine').count();
    if (!awaited) {
      await page.waitForTimeout(150);
      continue;
    }
    const isBlock = await page.locator(MAP_CHOICE).count();
    const tabs = await decideByKey(page, order);
    if (tabs < 0) {
      // Between sending a decision and its answer the page offers nothing (its controls are
      // disabled while the action is pending): wait for the answer, for a while.
      stuck += 1;
      assert.ok(
        stuck < 40 || !(await page.locator('.prompt .awaiting.mine').count()),
        `something to do by keyboard; prompt: ${await page.locator('.prompt').innerText()}`,
      );
      await page.waitForTimeout(150);
      continue;
    }
    stuck = 0;
    presses += 1;
    if (isBlock && (await page.locator('.act-dest').count())) {
      mapChoices += 1;
      if (await page.locator('.action-bar button.act-fire').count()) {
        // A block chosen for its combat turn: the focus is on Fire, so that Enter fires; its
        // retreats come after Fire and Pass (RULES 5.5).
        assert.equal(
          await page.evaluate(() => document.activeElement?.textContent),
          'Fire',
          'the focus is on Fire in a combat turn',
        );
        await page.keyboard.press('Enter');
      } else {
        // A block chosen to move: its destinations are shown on the map and at hand in the
        // prompt. axe on the game page mid-move, once (in a battle, play.test.js's).
        if (!axed) {
          axed = true;
          assert.ok(
            await page.locator(MAP_TARGET).count(),
            'the destinations are shown on the map',
          );
          assert.deepEqual(await axeProblems(page), [], 'game page with destinations shown');
        }
        const toDestination = await keyTo(page, ['.act-dest']);
        assert.ok(
          toDestination >= 0 && toDestination <= 1,
          `a destination is ${toDestination} Tabs away`,
        );
        movedByKey = true;
      }
    }
    // A decision either sent an action, answered once the page has drawn the view (or error)
    // that answers it, or only changed what the page shows (a block chosen, a choice offered).
    await waitForAnswer(sco);
    if (movedByKey) {
      // The focus stays on the map, at the area the block went to, not on the page's body.
      movedByKey = false;
      keptOnMap += 1;
      assert.ok(
        await page.evaluate(() => !!document.activeElement?.closest('svg.map')),
        `after a move by keyboard the focus is on the map, not ${await page.evaluate(
          () => document.activeElement?.tagName,
        )}`,
      );
    }
  }
  await page.screenshot({ path: path.join(shots, 'board-keyboard-turn.png') });
  assert.ok(turnOf() >= 2, `the game turn ended (${presses} decisions by keyboard)`);
  assert.ok(mapChoices >= 1, `blocks were chosen on the map by the arrow keys (${mapChoices})`);
  assert.ok(axed, 'axe ran while destinations were shown');
  assert.ok(keptOnMap >= 1, 'a block was moved by keyboard');
  // The opponent's last moves are drawn on England's map during the game turn, and are gone
  // once the next game turn begins.
  assert.ok(
    await eng.page.evaluate(() => window.tracesDrawn),
    "England's map showed the traces of Scotland's moves",
  );
  await eng.page.locator('.facts dd', { hasText: /^2 of 5$/ }).waitFor();
  assert.equal(
    await eng.page.locator('svg.map .traces > *').count(),
    0,
    'no trace at the next game turn',
  );
  assert.equal(
    await eng.page.locator('.cell.traced').count(),
    0,
    'no area marked at the next game turn',
  );
  await bot.stop();
  await sco.context.close();
  await eng.context.close();
});

// Taps the name of `area` on the map (which opens its list when it is not a destination).
async function tapAreaName(page, area) {
  const at = await page.locator(`.area-label[data-label="${area}"] .area-name`).boundingBox();
  await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
  await page.waitForSelector(`.stack-panel[data-area="${area}"]:not([hidden])`);
}

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
]) {
  test(`${size}: a pinned block has its own look, says why when tapped, and is in the legend`, async () => {
    const p = await newPlayer(running.browser, running.server, `pin${size}`, { viewport });
    // The map module drawn in the page from a view in which Wallace stands alone in Fife
    // against two English blocks (RULES 4.7: F = 1 <= E = 2; the engine marks him pinned) and
    // Bruce may move.
    const result = await p.page.evaluate(async () => {
      const { createMap } = await import('/js/map/map.js');
      const { loadGameData } = await import('/js/gamedata.js');
      const { pinnedBlocks } = await import('/js/map/pinning.js');
      const { legend } = await import('/js/map/legend.js');
      const data = await loadGameData();
      const app = document.getElementById('app');
      app.replaceChildren();
      window.pinTold = [];
      const map = createMap(data, {
        onArea() {},
        onBlock: (id) => window.pinSelect(id),
        onPinned: (r) => window.pinTold.push(r),
      });
      // Laid out as on the game page (game.js, map_panel.js).
      const board = Object.assign(document.createElement('div'), { className: 'board' });
      const holder = Object.assign(document.createElement('div'), { className: 'map-holder' });
      holder.append(map.el, legend());
      board.append(holder);
      app.append(board);
      const own = (block, pinned) => ({ block, moved: false, reserve: false, strength: 3, pinned });
      const view = {
        role: 'scotland',
        phase: 'move',
        legal_actions: [{ kind: 'move', block: 'sco_bruce' }],
        areas: data.areas.map((a) => ({
          id: a.id,
          scotland:
            a.id === 'fife'
              ? {
                  blocks: [
                    own(
                      'sco_wallace',
                      'pinned: 2 enemy blocks in ' +
                        'this area hold your 1; a block may leave only while yours outnumber them (RULES 4.7)',
                    ),
                  ],
                  count: 1,
                }
              : a.id === 'annan'
                ? { blocks: [own('sco_bruce')], count: 1 }
                : { blocks: [], count: 0 },
          england: { count: a.id === 'fife' ? 2 : 0 },
        })),
      };
      window.chosen = [];
      map.render(view, {
        role: 'scotland',
        selected: null,
        blockActionable: new Set(['sco_bruce']),
        pinned: pinnedBlocks(view),
        areaTargets: new Map(),
        traces: [],
      });
      // Chosen from the map (a block, or a chip's list) as the game page would: drawn again.
      window.pinSelect = (id) => {
        window.chosen.push(id);
        map.render(view, {
          role: 'scotland',
          selected: id,
          blockActionable: new Set(['sco_bruce']),
          pinned: pinnedBlocks(view),
          areaTargets: new Map(),
          traces: [],
        });
      };
      return { legend: document.querySelector('.legend')?.textContent ?? '' };
    });
    assert.match(result.legend, /pinned by enemy blocks/);
    assert.match(result.legend, /Chip: the number of each side's blocks/);
    if (size === 'desktop') {
      // Drawn as blocks: Wallace's own look; reached and pressed by keyboard (the map's stop,
      // the arrows to Fife, Enter to its blocks, the arrows to Wallace, Enter).
      const look = await p.page.evaluate(() => {
        const g = document.querySelector('.block.pinned');
        return {
          pinned: [...document.querySelectorAll('.block.pinned')].map((b) => b.dataset.block),
          title: g?.querySelector('title')?.textContent ?? '',
          label: g?.getAttribute('aria-label') ?? '',
          stripes: g ? getComputedStyle(g.querySelector('.label')).fill : '',
          freeFill: getComputedStyle(
            document.querySelector('.block[data-block="sco_bruce"] .label'),
          ).fill,
        };
      });
      assert.deepEqual(look.pinned, ['sco_wallace']);
      assert.match(look.title, /pinned: 2 enemy blocks in this area hold your 1/);
      assert.match(look.label, /pinned: 2 enemy blocks/);
      assert.notEqual(look.stripes, look.freeFill, 'a pinned label looks unlike a free one');
      // A noble shows its homes on its block, shortened, and in full in its title (RULES 10.1).
      const bruce = p.page.locator('.block[data-block="sco_bruce"]');
      assert.equal(await bruce.locator('.bmeta.home').textContent(), 'A/C');
      assert.match(
        await bruce.locator('title').textContent(),
        /Bruce, noble, home Annan or Carrick/,
      );
      await p.page.focus('svg.map .cell[tabindex="0"]');
      await arrowTo(p.page, 'fife');
      await keyChooseBlock(p.page, 'sco_wallace');
    } else {
      // At a phone's Fit Fife's name, tapped, opens its list: Wallace pinned, with why.
      await tapAreaName(p.page, 'fife');
      const row = p.page.locator('.stack-panel button.pblock.pinned[data-block="sco_wallace"]');
      assert.match(await row.innerText(), /pinned: 2 enemy blocks in this area hold your 1/);
      assert.match(
        await p.page.locator('.stack-panel .pb-hidden').innerText(),
        /2 English blocks, faces hidden/,
      );
      await p.page.screenshot({ path: path.join(shots, `board-${size}-pinned-list.png`) });
      assert.deepEqual(await axeProblems(p.page), [], "a chip's list open");
      await row.click();
    }
    const told = await p.page.evaluate(() => window.pinTold);
    assert.equal(told.length, 1, 'the pinned block, tapped or pressed, tells why');
    assert.match(told[0], /may leave only while yours outnumber them/);
    if (size === 'phone') {
      // Bruce, who may move, is chosen from Annan's list as from the map.
      await p.page.locator('.stack-panel .pb-close').click();
      await tapAreaName(p.page, 'annan');
      // A noble's row names its homes (RULES 10.1).
      assert.match(
        await p.page.locator('.stack-panel .pblock[data-block="sco_bruce"]').innerText(),
        /home Annan or Carrick/,
      );
      await p.page.locator('.stack-panel button.pblock.actionable[data-block="sco_bruce"]').click();
      assert.deepEqual(await p.page.evaluate(() => window.chosen), ['sco_bruce']);
      assert.equal(
        await p.page.locator('.stack-panel:not([hidden])').count(),
        0,
        'the list closed',
      );
      assert.equal(
        await p.page
          .locator(
            '.blocks .chip.selected[data-chip="annan"], ' +
              '.blocks .tags[data-area="annan"] .block.tag.selected',
          )
          .count(),
        1,
        "Annan's chip or tag shows its block chosen",
      );
    }
    await p.page.evaluate(() => (document.querySelector('.legend').open = true));
    await p.page.screenshot({ path: path.join(shots, `board-${size}-pinned.png`) });
    if (size === 'desktop') {
      await p.page
        .locator('.block.pinned')
        .screenshot({ path: path.join(shots, `board-${size}-pinned-block.png`) });
    }
    await p.context.close();
  });
}

// Each state a block can be in is drawn its own way, and the legend names each look.
test('moved, choosable, chosen, pinned, revealed, highlighted and traced blocks look different', async () => {
  const p = await newPlayer(running.browser, running.server, 'looks', { viewport: DESKTOP });
  const looks = await p.page.evaluate(async () => {
    const { ownBlock, hiddenBlock } = await import('/js/map/map_blocks.js');
    const { legend } = await import('/js/map/legend.js');
    const { loadGameData } = await import('/js/gamedata.js');
    const { blockInfo } = await import('/js/board.js');
    const data = await loadGameData();
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('class', 'map');
    svg.setAttribute('viewBox', '0 0 800 100');
    const app = document.getElementById('app');
    app.replaceChildren(svg, legend());
    const info = (extra) => ({
      ...blockInfo(data, { block: 'sco_douglas', strength: 3 }),
      ...extra,
    });
    const states = {
      plain: [info({}), {}],
      moved: [info({ moved: true }), {}],
      choosable: [info({}), { actionable: true }],
      chosen: [info({}), { selected: true }],
      pinned: [info({}), { pinned: 'pinned (RULES 4.7)' }],
      // An enemy block revealed in battle, beside the same block as its owner sees it.
      english: [blockInfo(data, { block: 'eng_hobelars', strength: 2 }), {}],
      revealed: [
        { ...blockInfo(data, { block: 'eng_hobelars', strength: 2 }), revealed: true },
        {},
      ],
      highlighted: [info({}), { highlighted: true }],
    };
    let x = 0;
    const noop = () => {};
    for (const [name, [b, opts]] of Object.entries(states)) {
      const g = ownBlock(b, x, 0, 60, { onClick: noop, onPinned: noop, area: 'fife', ...opts });
      g.dataset.state = name;
      svg.append(g);
      x += 70;
    }
    for (const traced of [false, true]) {
      const r = hiddenBlock('england', x, 0, 60, traced, 'fife');
      r.dataset.state = traced ? 'traced' : 'hidden';
      svg.append(r);
      x += 70;
    }
    // A look: the outline, the label's fill, the marks drawn on it, how faded it is.
    const look = (el) => {
      const body = el.querySelector?.('.body') ?? el;
      const label = el.querySelector?.('.label');
      const cs = getComputedStyle(body);
      return JSON.stringify([
        cs.stroke,
        cs.strokeWidth,
        cs.strokeDasharray,
        cs.fill,
        label ? getComputedStyle(label).fill : '',
        getComputedStyle(el).opacity,
        [...(el.querySelectorAll?.('.moved-mark, .pin-mark') ?? [])].map((m) =>
          m.getAttribute('class'),
        ),
      ]);
    };
    return {
      looks: Object.fromEntries(
        [...svg.querySelectorAll('[data-state]')].map((el) => [el.dataset.state, look(el)]),
      ),
      legend: document.querySelector('.legend').textContent,
    };
  });
  const own = [
    'plain',
    'moved',
    'choosable',
    'chosen',
    'pinned',
    'highlighted',
    'english',
    'revealed',
  ];
  for (const a of own) {
    for (const b of own) {
      if (a < b) assert.notEqual(looks.looks[a], looks.looks[b], `${a} and ${b} look the same`);
    }
  }
  assert.notEqual(looks.looks.traced, looks.looks.hidden, 'a traced back looks like any back');
  for (const meaning of [
    /you can choose it/,
    /chosen/,
    /moved this turn/,
    /pinned by enemy blocks/,
    /revealed in battle/,
    /opponent's last moves/,
    /named by the log line/,
    /face hidden/,
  ]) {
    assert.match(looks.legend, meaning);
  }
  await p.page.screenshot({
    path: path.join(shots, 'board-block-looks.png'),
    clip: { x: 0, y: 0, width: 900, height: 220 },
  });
  await p.context.close();
});

// The time an update costs is the renderer's main-thread CPU time for its script, style and
// layout (the DevTools protocol's Performance metrics in thread ticks), not the wall clock: on a
// machine shared with other work the wall clock also counts the time the thread waited for a
// core, which says nothing of the page.
test('a log update at 3,000 lines appends one line, fast', async () => {
  const p = await newPlayer(running.browser, running.server, 'logtime', { viewport: DESKTOP });
  await p.page.evaluate(async () => {
    const { renderLog } = await import('/js/panels/log.js');
    const el = document.createElement('section');
    document.getElementById('app').append(el);
    const log = Array.from({ length: 3000 }, (_, i) => ({
      i,
      text: `A Scottish block moved from Fife to Lothian (${i}).`,
    }));
    renderLog(el, { log });
    window.logUpdate = { renderLog, el, log, first: el.querySelector('li') };
  });
  const cdp = await p.context.newCDPSession(p.page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const cpuSeconds = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
    return m.ScriptDuration + m.RecalcStyleDuration + m.LayoutDuration;
  };
  const times = [];
  for (let k = 0; k < 25; k++) {
    const before = await cpuSeconds();
    await p.page.evaluate(() => {
      const { renderLog, el, log } = window.logUpdate;
      log.push({ i: log.length, text: `Line ${log.length}.` });
      renderLog(el, { log: log.slice() });
      el.querySelector('ol').getBoundingClientRect(); // the layout the update causes
    });
    times.push(((await cpuSeconds()) - before) * 1000);
  }
  await cdp.detach();
  times.sort((a, b) => a - b);
  const median = times[12];
  const result = await p.page.evaluate(() => ({
    lines: window.logUpdate.el.querySelectorAll('li').length,
    same: window.logUpdate.el.querySelector('li') === window.logUpdate.first,
  }));
  console.log(`log update at 3,000 lines: median ${median.toFixed(2)} ms of main-thread CPU`);
  assert.equal(result.lines, 3025);
  assert.ok(result.same, 'the lines already shown are kept, not redrawn');
  assert.ok(median < 16, `median update ${median.toFixed(2)} ms`);
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
  const resigned = await eng.page.evaluate(
    (g) =>
      fetch(`/api/games/${g}/resign`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      }).then((r) => r.status),
    id,
  );
  assert.equal(resigned, 200);
  await sco.page.goto(`${running.server.url}/#/replay/${id}`);
  await sco.page.waitForFunction(() => document.getElementById('app').dataset.shown);
  await sco.page.screenshot({ path: path.join(shots, 'board-replay.png') });
  assert.deepEqual(await axeProblems(sco.page), [], 'replay page');
  // The same page on a phone.
  await sco.page.setViewportSize(PHONE);
  await sco.page.screenshot({ path: path.join(shots, 'board-replay-phone.png') });
  assert.deepEqual(await axeProblems(sco.page), [], 'replay page on a phone');
  await sco.context.close();
  await eng.context.close();
});
