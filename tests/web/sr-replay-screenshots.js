// Screenshots of a Scotland Rising game's replay page in Chromium, its record and steps served
// from the fixtures (e2e/sr_replay_mock.js), at the desktop's 1366x768 and a phone's 390x844:
// the set-up, the charge, and the last step after the resignation.
// Usage: node sr-replay-screenshots.js [OUT_DIR] (default /work/notes/shots-sr-replay).
import fs from 'node:fs';
import path from 'node:path';
import { startBrowser } from './e2e/harness.js';
import { startStatic } from './sr_static.js';
import { serveSrReplay } from './e2e/sr_replay_mock.js';

const out = process.argv[2] || '/work/notes/shots-sr-replay';
fs.mkdirSync(out, { recursive: true });
const sizes = [
  ['1366x768', 1366, 768],
  ['390x844', 390, 844],
];
const steps = [
  ['setup', 0],
  ['charge', 31],
  ['end', 40],
];

const web = await startStatic();
const browser = await startBrowser();
try {
  for (const [label, width, height] of sizes) {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error', e.message));
    await page.route('**/api/**', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: '{}' }),
    );
    await serveSrReplay(page, 9);
    await page.goto(`${web.url}/#/replay/9`);
    await page.waitForSelector('#replay-seq');
    for (const [name, seq] of steps) {
      await page.evaluate((s) => {
        const slider = document.getElementById('replay-seq');
        slider.value = s;
        slider.dispatchEvent(new Event('input'));
      }, seq);
      await page.waitForFunction(
        (s) => document.getElementById('app').dataset.shown === `${s}/observer`,
        seq,
      );
      await page.screenshot({ path: path.join(out, `replay-${name}-${label}.png`) });
      if (name === 'charge') {
        await page.screenshot({
          path: path.join(out, `replay-${name}-${label}-full.png`),
          fullPage: true,
        });
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
  await web.stop();
}
console.log(`screenshots in ${out}`);
