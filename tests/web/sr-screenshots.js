// Screenshots of the Scotland Rising board in Chromium, fed the fixture views
// (fixtures/sr/), at the desktop's 1366x768 and 1920x1080 and a phone's 390x844, some with a
// unit chosen. Usage: node sr-screenshots.js [OUT_DIR] (default /work/notes/shots-sr).
import fs from 'node:fs';
import path from 'node:path';
import { startBrowser } from './e2e/harness.js';
import { startStatic } from './sr_static.js';
import { openGamePage } from './e2e/sr_mock.js';

const out = process.argv[2] || '/work/notes/shots-sr';
fs.mkdirSync(out, { recursive: true });
const sizes = [
  ['1366x768', 1366, 768],
  ['1920x1080', 1920, 1080],
  ['390x844', 390, 844],
];
// [name (fixture-what), role, what to choose first or null, how many times to zoom in]
const scenes = [
  ['start', 'scotland', null],
  ['turn1', 'scotland', null],
  ['turn1-move', 'scotland', 'unit:sc_hobelar1'],
  ['turn1-zoomed', 'scotland', 'unit:sc_hobelar1', 2],
  ['midgame', 'england', null],
  ['longbow', 'scotland', 'unit:sc_longbow1'],
  ['charge', 'scotland', 'charger'],
  ['charged', 'scotland', null],
  ['over', 'scotland', null],
  ['freeform', 'scotland', null],
];

const web = await startStatic();
const browser = await startBrowser();
try {
  for (const [label, w, hgt] of sizes) {
    const context = await browser.newContext({ viewport: { width: w, height: hgt } });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error', e.message));
    for (const [name, role, click, zoom = 0] of scenes) {
      const fixture = name.split('-')[0];
      await page.goto(`${web.url}/harness/sr-board.html?fixture=${fixture}&role=${role}`);
      await page.waitForSelector('body[data-ready="true"]');
      if (click?.startsWith('unit:')) {
        const id = click.slice(5);
        const hex = await page.evaluate((u) => {
          const v = window.srBoardView?.();
          return v?.units.find((x) => x.id === u)?.hex;
        }, id);
        if (hex) await page.click(`[data-hex="${hex}"] .cell`, { force: true });
      } else if (click === 'charger') {
        const hex = await page.evaluate(() => {
          const v = window.srBoardView?.();
          const a = v.legal_actions.find((x) => x.type === 'charge');
          return v.units.find((x) => x.id === a.unit).hex;
        });
        await page.click(`[data-hex="${hex}"] .cell`, { force: true });
      }
      for (let k = 0; k < zoom; k++) await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.screenshot({ path: path.join(out, `${name}-${label}.png`), fullPage: false });
    }
    await context.close();
    // The game page itself (header, dock, controls, chat), its server played by sr_mock.js.
    const game = await openGamePage(browser, web.url, {
      kind: 'scotland_rising',
      width: w,
      height: hgt,
    });
    await game.page.screenshot({ path: path.join(out, `game-page-${label}.png`) });
    await game.context.close();
  }
} finally {
  await browser.close();
  await web.stop();
}
console.log(`screenshots in ${out}`);
