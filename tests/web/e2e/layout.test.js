// End to end in headless Chromium: the game page's layout. On a 1440x900 screen the map takes
// most of the window's width beside the dock (prompt, controls, hand), and Fit shows the whole
// map on the screen; on a 390x844 phone the dock is a sheet at the foot of the screen, so the
// prompt and every card of the hand are on the screen without scrolling past the map, and the
// map's frame ends above the sheet. Measured by the elements' boxes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, startGame } from './helpers.js';

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
    await sco.context.close();
    await eng.context.close();
  });
}
