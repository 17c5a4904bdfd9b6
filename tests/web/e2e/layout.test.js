// End to end in headless Chromium: the game page's layout. On a 1440x900 screen the map takes
// most of the window's width beside the dock (prompt, controls, hand), and Fit shows the whole
// map on the screen; on a 390x844 phone the dock is a sheet at the foot of the screen, so the
// prompt and every card of the hand are on the screen without scrolling past the map, and the
// map's frame ends above the sheet. Measured by the elements' boxes.
// The map read at Fit: on the desktop, in the Braveheart, Bruce and Campaign set-ups and in a
// late Campaign position, every block of the seat shows its strength and a short name at 10 px
// or more on the screen, inside its own area (a side of five blocks or more may show strengths
// alone), the enemy's blocks are backs in their side's colour, and each side of a battle is a
// group of its own; on the phone one tap on an area (on the area itself, on its name, or on
// what draws one of its blocks) shows its name at 12 px or more and the faces of the seat's
// blocks there (name, strength of its steps). Font sizes are the computed size
// times the text's screen scale; boxes are the elements' screen boxes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, startGame, lastView, BLOCK_NAME } from './helpers.js';
import { assertMapReads, seatBlocks, lateView, seeLatePosition } from './map_reading.js';

const running = useServerAndBrowser();
const shots = process.env.BLOCKFOG_SHOTS || outputDir();

const box = (page, selector) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width };
    });

// The part of the map shown (the svg's viewBox) and the map's own size, in map units.
const shown = (page) =>
  page.evaluate(() => {
    const svg = document.querySelector('svg.map');
    const [x, y, w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
    return { x, y, w, h };
  });

// A point of `area` on the screen where a tap lands on the area itself (not on a block, a name
// or a mark drawn over it), nearest the middle of its box.
const bareSpot = (page, area) =>
  page.evaluate((a) => {
    const cell = document.querySelector(`.cell[data-area="${a}"]`);
    const r = cell.getBoundingClientRect();
    const spots = [];
    for (let x = r.left + 2; x < r.right - 2; x += 3)
      for (let y = r.top + 2; y < r.bottom - 2; y += 3)
        if (document.elementFromPoint(x, y) === cell) spots.push([x, y]);
    const [cx, cy] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
    spots.sort((p, q) => Math.hypot(p[0] - cx, p[1] - cy) - Math.hypot(q[0] - cx, q[1] - cy));
    return spots[0];
  }, area);

// Taps on the phone, on an area's name (`on` 'name'), on the area itself ('area') or on the
// element drawing one of its blocks (a block id): the list over the map names the area at 12 px
// or more, on the screen, and holds each block of the seat there with its name, strength and
// steps.
async function tapArea(page, area, on = 'name') {
  let spot;
  if (on === 'area') spot = await bareSpot(page, area);
  else {
    const selector =
      on === 'name'
        ? `.area-label[data-label="${area}"] .area-name`
        : `.blocks [data-block="${on}"], .blocks [data-chip="${area}"]`;
    const at = await page.locator(selector).first().boundingBox();
    spot = [at.x + at.width / 2, at.y + at.height / 2];
  }
  assert.ok(spot, `${area} has a spot to tap`);
  await page.mouse.click(...spot);
  const at = await page.locator(`.area-label[data-label="${area}"] .area-name`).boundingBox();
  await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
  await page.waitForSelector(`.stack-panel[data-area="${area}"]:not([hidden])`);
  return page.evaluate(() => {
    const panel = document.querySelector('.stack-panel:not([hidden])');
    const title = panel.querySelector('h2');
    const r = title.getBoundingClientRect();
    return {
      title: title.textContent,
      titlePx: parseFloat(getComputedStyle(title).fontSize),
      onScreen: r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= 390,
      rows: [...panel.querySelectorAll('.pblock')].map((row) => ({
        id: row.dataset.block,
        name: row.querySelector('.pb-name').textContent,
        namePx: parseFloat(getComputedStyle(row.querySelector('.pb-name')).fontSize),
        text: row.textContent,
      })),
      none: panel.querySelector('.pb-none')?.textContent ?? null,
    };
  });
}

// On the phone at Fit: one tap on an area with blocks of the seat (on the area itself, and on
// what draws one of its blocks) shows their faces, and one on an empty area's name its name.
async function assertTapsRead(page, view, when, shotName) {
  await page.click('.zoom .fit');
  const { own, sides } = seatBlocks(view);
  const areaName = (id) =>
    page.evaluate((a) => document.querySelector(`.cell[data-area="${a}"]`).ariaLabel, id);
  const taps = [
    [own[0].area, 'area'],
    [own.at(-1).area, own.at(-1).id],
  ];
  for (const [area, on] of taps) {
    const list = await tapArea(page, area, on);
    if (on === 'area')
      await page.screenshot({ path: path.join(shots, `layout-${shotName}-phone-tap.png`) });
    const tapped = `${when}, a tap on ${on} in ${area}`;
    assert.ok((await areaName(area)).startsWith(list.title.split(':')[0]), `${tapped}: named`);
    assert.ok(list.titlePx >= 12, `${tapped}: the area's name is ${list.titlePx} px`);
    assert.ok(list.onScreen, `${tapped}: the area's name is on the screen`);
    const here = own.filter((b) => b.area === area);
    assert.deepEqual(
      list.rows.map((r) => r.id).sort(),
      here.map((b) => b.id).sort(),
      `${tapped}: the list holds the seat's blocks`,
    );
    for (const row of list.rows) {
      assert.equal(row.name, BLOCK_NAME[row.id], `${tapped}: ${row.id}'s face is named`);
      assert.ok(row.namePx >= 12, `${tapped}: ${row.id}'s name is ${row.namePx} px`);
      assert.match(row.text, /strength [1-4] of [1-4]/, `${tapped}: ${row.id}'s strength`);
    }
    await page.click('.stack-panel .pb-close');
  }
  const empty = Object.keys(sides).find((a) => !sides[a].own && !sides[a].enemy);
  const none = await tapArea(page, empty);
  assert.match(none.title, /^[A-Z]/, `${when}: an empty area is named`);
  assert.equal(none.none, 'No blocks here.');
  assert.ok(none.titlePx >= 12 && none.onScreen, `${when}: the empty area's name reads`);
  await page.click('.stack-panel .pb-close');
}

for (const scenario of ['braveheart', 'the_bruce', 'campaign']) {
  test(`${scenario}: the map takes most of a desktop; a phone's dock holds prompt and hand`, async () => {
    const sco = await newPlayer(running.browser, running.server, `lay${scenario.slice(0, 5)}s`, {
      viewport: { width: 1440, height: 900 },
    });
    const eng = await newPlayer(running.browser, running.server, `lay${scenario.slice(0, 5)}e`, {
      viewport: { width: 390, height: 844 },
    });
    await sco.page.selectOption('#create-scenario', scenario);
    await startGame(sco, eng);

    // Desktop: the map's frame is most of the window's width, all of it on the screen.
    const desk = sco.page;
    await desk.waitForSelector('button.card');
    await desk.click('.zoom .fit');
    const frame = await box(desk, '.map-viewport');
    assert.ok(frame.width >= 0.68 * 1440, `the map is ${frame.width} px of 1440 wide`);
    assert.ok(frame.top >= 0 && frame.bottom <= 900, 'the frame is on the screen');
    const vb = await shown(desk);
    assert.ok(vb.x <= 0 && vb.y <= 0, 'Fit shows the map from its corner');
    assert.ok(vb.w >= 1000 - 1 && vb.h >= 1300 - 1, 'Fit shows the whole map');
    const prompt = await box(desk, '.prompt');
    assert.ok(prompt.left >= frame.right, 'the prompt is beside the map');
    assert.ok(prompt.bottom <= 900, 'the prompt is on the screen');
    await desk.screenshot({ path: path.join(shots, `layout-${scenario}-desktop.png`) });
    await assertMapReads(desk, lastView(sco), `${scenario} at Fit`);

    // Phone: the dock is a sheet at the foot of the screen; the prompt and every card of the
    // hand lie on the screen with the page at its top, and the map's frame ends above them.
    const phone = eng.page;
    await phone.waitForSelector('button.card');
    await phone.evaluate(() => window.scrollTo(0, 0));
    const dock = await box(phone, '.dock');
    assert.ok(
      dock.bottom <= 844 + 0.5 && dock.top >= 844 * 0.5,
      `the dock is a sheet: ${dock.top}`,
    );
    const onScreen = async (selector) => {
      for (const b of await phone
        .locator(selector)
        .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))) {
        assert.ok(b.top >= 0 && b.bottom <= 844 && b.left >= 0 && b.right <= 390, selector);
      }
    };
    await onScreen('.prompt .phase-text');
    await onScreen('.cards button.card');
    const phoneFrame = await box(phone, '.map-viewport');
    assert.ok(phoneFrame.bottom <= dock.top + 0.5, 'the map ends above the sheet');
    const pvb = await shown(phone);
    assert.ok(pvb.w >= 1000 - 1 && pvb.h >= 1300 - 1, "a phone's Fit shows the whole map");
    await phone.screenshot({ path: path.join(shots, `layout-${scenario}-phone.png`) });
    await assertTapsRead(phone, lastView(eng), `${scenario} on a phone`, scenario);
    // England's seat on the desktop reads the same way at Fit.
    await phone.setViewportSize({ width: 1440, height: 900 });
    await phone.click('.zoom .fit');
    await phone.screenshot({ path: path.join(shots, `layout-${scenario}-england-desktop.png`) });
    await assertMapReads(phone, lastView(eng), `${scenario}, England at Fit`);
    await sco.context.close();
    await eng.context.close();
  });
}

test('a late Campaign position reads at Fit: every own block, backs, battles apart', async () => {
  const sco = await newPlayer(running.browser, running.server, 'latesco', {
    viewport: { width: 1440, height: 900 },
  });
  const eng = await newPlayer(running.browser, running.server, 'lateeng', {
    viewport: { width: 1440, height: 900 },
  });
  await seeLatePosition(sco);
  await seeLatePosition(eng);
  await sco.page.selectOption('#create-scenario', 'campaign');
  await startGame(sco, eng);
  for (const p of [sco, eng]) {
    const { page } = p;
    await page.waitForSelector('button.card');
    await page.waitForSelector('.cell.battle[data-area="fife"]');
    await page.click('.zoom .fit');
    // The frames the test hears are the server's; the page drew them made late (the battle).
    const view = lateView(lastView(p));
    const role = view.role;
    await page.screenshot({ path: path.join(shots, `layout-late-${role}-desktop.png`) });
    await assertMapReads(page, view, `late Campaign, ${role} at Fit`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(shots, `layout-late-${role}-phone.png`) });
    await assertTapsRead(page, view, `late Campaign, ${role} on a phone`, `late-${role}`);
  }
  await sco.context.close();
  await eng.context.close();
});
