// End to end in headless Chromium at 1440x900: the game page's side column folds away. Its
// button (a disclosure: aria-expanded, reached by Tab, worked by Enter) gives the map's frame
// nearly the window's width, where it had about two thirds; at Fit the whole map is still shown
// and the prompt and the hand, left over the frame's right edge, cover none of the land (nor at
// 1280x800 and 1920x1080); the state of the war and the log are hidden. The choice outlives a
// reload, and the button opens the column again. Measured by the elements' boxes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, startGame } from './helpers.js';

const running = useServerAndBrowser();
const shots = outputDir();
const W = 1440;

const rect = (page, selector) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => el.getBoundingClientRect().toJSON());

// The part of the map shown (the svg's viewBox), in map units (the map is 1000 x 1300).
const shown = (page) =>
  page.evaluate(() =>
    document.querySelector('svg.map').getAttribute('viewBox').split(' ').map(Number),
  );

// Waits until the map's frame is `wide` (or not) and the map is fitted to it again: the whole
// map shown, in a viewBox of the frame's own shape.
const frameSettled = (page, wide) =>
  page.waitForFunction(
    ([w, wide]) => {
      const vp = document.querySelector('.map-viewport');
      const vb = document.querySelector('svg.map').getAttribute('viewBox').split(' ').map(Number);
      const share = vp.clientWidth / w;
      const shape = vp.clientWidth / vp.clientHeight / (vb[2] / vb[3]);
      return (wide ? share > 0.9 : share < 0.8) && Math.abs(shape - 1) < 0.01 && vb[3] >= 1299;
    },
    [W, wide],
  );

test('the side panels fold: the map takes the window, the prompt and hand stay', async () => {
  const sco = await newPlayer(running.browser, running.server, 'foldsco', {
    viewport: { width: W, height: 900 },
  });
  const eng = await newPlayer(running.browser, running.server, 'foldeng');
  await startGame(sco, eng);
  const page = sco.page;
  await page.waitForSelector('button.card');
  await page.click('.zoom .fit');
  const toggle = page.locator('button.side-toggle');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true', 'the panels start open');
  assert.equal(await toggle.getAttribute('aria-controls'), 'game-side');
  const open = await rect(page, '.map-viewport');
  assert.ok(open.width < 0.75 * W, `beside the panels the map is ${open.width} px wide`);
  assert.ok(await page.locator('.panel.status').isVisible(), 'the state of the war is shown');

  // Folded from the keyboard.
  await toggle.focus();
  await page.keyboard.press('Enter');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  await frameSettled(page, true);
  const folded = await rect(page, '.map-viewport');
  assert.ok(folded.width >= 0.95 * W, `folded, the map is ${folded.width} px of ${W} wide`);
  assert.ok(folded.bottom <= 900, 'the frame is on the screen');
  const [x, y, w, h] = await shown(page);
  assert.ok(x <= 0 && y <= 0 && w >= 999 && h >= 1299, `Fit shows the whole map: ${[x, y, w, h]}`);
  // The prompt and every card lie over the frame, on the screen, off the land.
  const land = await rect(page, 'svg.map .land');
  for (const selector of ['.prompt', '.cards button.card', 'button.side-toggle']) {
    for (const b of await page
      .locator(selector)
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))) {
      assert.ok(b.top >= folded.top && b.bottom <= folded.bottom, `${selector} is in the frame`);
      assert.ok(b.left >= land.right, `${selector} covers no land (${b.left} < ${land.right})`);
    }
  }
  for (const hidden of ['.panel.status', '.panel.logp', '.panel.chatp'])
    assert.ok(!(await page.locator(hidden).isVisible()), `${hidden} is hidden`);
  await page.screenshot({ path: path.join(shots, 'side-panels-folded.png') });
  // On smaller desktop windows too, what lies over the map at Fit covers no land.
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ]) {
    await page.setViewportSize({ width, height });
    await page.click('.zoom .fit');
    const over = await rect(page, '#game-side');
    const landNow = await rect(page, 'svg.map .land');
    assert.ok(over.left >= landNow.right, `at ${width}x${height} the panels cover no land`);
    await page.screenshot({ path: path.join(shots, `side-panels-folded-${width}.png`) });
  }
  await page.setViewportSize({ width: W, height: 900 });

  // Remembered in this browser.
  await page.reload();
  await page.waitForSelector('button.card');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'still folded after reload');
  await page.click('.zoom .fit');
  await frameSettled(page, true);

  // Opened again: the map gives the column its room back and is fitted to it by itself.
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  await frameSettled(page, false);
  const again = await rect(page, '.map-viewport');
  assert.ok(Math.abs(again.width - open.width) < 2, `open again, ${again.width} px wide`);
  assert.ok(await page.locator('.panel.status').isVisible(), 'the state of the war is back');
  await page.screenshot({ path: path.join(shots, 'side-panels-open.png') });
  await sco.context.close();
  await eng.context.close();
});
