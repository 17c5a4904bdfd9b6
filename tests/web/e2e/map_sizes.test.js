// End to end in headless Chromium: the map reads at Fit whatever the desktop window's size and
// whether the side panels are shown or folded. In the Braveheart, Bruce and Campaign set-ups and
// in the late Campaign position, for both seats, at 1440x900, 1280x800 and 1920x1080 with the
// panels shown and folded (and battles in Fife, Lothian, Dunbar and Teviot at the first and the
// last of these), every block of the seat shows its strength and a short name of 10 px or more
// inside its own area (strengths alone in a side of five or more), the enemy's blocks are backs
// in their side's colour inside their area, the two sides of a battle are groups apart, and no
// two things drawn for blocks overlap (map_reading.js measures).
import { test } from 'node:test';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, startGame, lastView } from './helpers.js';
import { assertMapReads, lateView, seeLatePosition, LATE, BATTLES } from './map_reading.js';

const running = useServerAndBrowser();
const shots = outputDir();
// The desktop's usual sizes down to 1280x800, whose Fit (0.54 px per map unit) still gives three
// tags room in Fife. (At 1366x768, 0.52, Fife's three and Argyll's one are strengths only.)
const SIZES = [
  [1440, 900],
  [1280, 800],
  [1920, 1080],
];

// Sets the window's size and the panels' state, then shows the whole map and waits for the
// frame to settle (its height follows the window's, and the stacks follow the zoom).
async function frameAt(page, [width, height], folded) {
  await page.setViewportSize({ width, height });
  const toggle = page.locator('button.side-toggle');
  if ((await toggle.getAttribute('aria-expanded')) === String(folded)) await toggle.click();
  await page.click('.zoom .fit');
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
}

async function assertEverySize(players, viewOf, name, sizes = SIZES) {
  for (const size of sizes) {
    for (const folded of [false, true]) {
      for (const p of players) {
        const view = viewOf(p);
        const when = `${name}, ${view.role} at ${size.join('x')}${folded ? ', folded' : ''}`;
        await frameAt(p.page, size, folded);
        const file = `sizes-${name}-${view.role}-${size[0]}${folded ? '-folded' : ''}.png`;
        await p.page.screenshot({ path: path.join(shots, file) });
        await assertMapReads(p.page, view, when);
      }
    }
  }
}

async function twoSeats(scenario, tag, position) {
  const viewport = { width: 1440, height: 900 };
  const sco = await newPlayer(running.browser, running.server, `sz${tag}s`, { viewport });
  const eng = await newPlayer(running.browser, running.server, `sz${tag}e`, { viewport });
  if (position) {
    await seeLatePosition(sco, position);
    await seeLatePosition(eng, position);
  }
  await sco.page.selectOption('#create-scenario', scenario);
  await startGame(sco, eng);
  for (const p of [sco, eng]) await p.page.waitForSelector('button.card');
  return [sco, eng];
}

for (const scenario of ['braveheart', 'the_bruce', 'campaign']) {
  test(`${scenario}: the map reads at Fit at every desktop size, panels shown or folded`, async () => {
    const players = await twoSeats(scenario, scenario.slice(0, 5), null);
    await assertEverySize(players, lastView, scenario);
    for (const p of players) await p.context.close();
  });
}

test('the late Campaign position reads at Fit at every desktop size', async () => {
  const players = await twoSeats('campaign', 'late', LATE);
  for (const p of players) await p.page.waitForSelector('.cell.battle[data-area="fife"]');
  await assertEverySize(players, (p) => lateView(lastView(p)), 'late');
  for (const p of players) await p.context.close();
});

// At 1280x800 (0.54 px per map unit) Fife has no room for three tags with names beside three
// backs: one side is then strengths only.
test('battles in the smallest areas read at Fit at 1440x900 and 1920x1080', async () => {
  const players = await twoSeats('campaign', 'bat', BATTLES);
  for (const p of players) await p.page.waitForSelector('.cell.battle[data-area="teviot"]');
  const sizes = SIZES.filter(([w]) => w !== 1280);
  await assertEverySize(players, (p) => lateView(lastView(p), BATTLES), 'battles', sizes);
  for (const p of players) await p.context.close();
});
