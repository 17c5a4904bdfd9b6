// End to end in headless Chromium: "Play against the computer" from the lobby (scenario, side,
// level), then one whole game turn on the game page: the player's actions until the computer
// has answered through the same WebSocket views. The page names the computer's seat, and
// Scotland's page never holds what the computer's side hides (FogWatch on every frame).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, isAwaited, clickRandomAction, lastView } from './helpers.js';

const running = useServerAndBrowser();
const shots = outputDir();
// Also kept where the report lists them.
const extraShots = process.env.BLOCKFOG_SHOTS_DIR;

async function shot(page, name, options = {}) {
  const file = path.join(shots, name);
  await page.screenshot({ path: file, ...options });
  if (extraShots) {
    fs.mkdirSync(extraShots, { recursive: true });
    fs.copyFileSync(file, path.join(extraShots, name));
  }
}

async function playAgainstComputer(p, { side, level, shotName }) {
  await p.page.waitForSelector('form.computer-game');
  await p.page.selectOption('#computer-scenario', 'braveheart');
  await p.page.selectOption('#computer-side', side);
  await p.page.selectOption('#computer-level', level);
  await p.page.locator('form.computer-game').scrollIntoViewIfNeeded();
  if (shotName) await shot(p.page, shotName);
  await p.page.click('form.computer-game button[type=submit]');
  await p.page.waitForSelector(`.seat.${side}`);
  await p.page.waitForFunction(() =>
    document.querySelector('.players')?.textContent.includes('Computer ('),
  );
}

test('a game against the computer: one whole game turn in the browser', async () => {
  const alice = await newPlayer(running.browser, running.server, 'alice', {
    viewport: { width: 1440, height: 900 },
  });
  await playAgainstComputer(alice, {
    side: 'scotland',
    level: 'easy',
    shotName: 'computer-lobby-desktop.png',
  });
  assert.match(
    await alice.page.locator('.players').innerText(),
    /Scotland: alice · England: Computer \(easy\)/,
  );
  assert.match(alice.page.url(), /#\/game\/\d+$/);

  // The player acts whenever awaited, until a view shows that the computer (England), once
  // awaited, has acted: England no longer awaited after Scotland's action.
  let acted = 0;
  const answered = () => {
    const view = lastView(alice);
    return acted > 0 && view && !view.awaiting.includes('england');
  };
  const deadline = Date.now() + 120000;
  while (!answered()) {
    assert.ok(Date.now() < deadline, 'the computer did not answer');
    if (await isAwaited(alice)) {
      await clickRandomAction(alice);
      ++acted;
    } else {
      await alice.page.waitForTimeout(100); // polling the page for the computer's answer
    }
  }
  const view = lastView(alice);
  assert.ok(acted >= 1);
  // The computer's card is shown once both chose (RULES 13.2): it played from its own view.
  assert.ok(view.log.length > 0);
  await alice.page.evaluate(() => window.scrollTo(0, 0));
  await shot(alice.page, 'computer-game-desktop.png');

  // The same on a phone.
  const bob = await newPlayer(running.browser, running.server, 'bob', {
    viewport: { width: 390, height: 844 },
  });
  await playAgainstComputer(bob, {
    side: 'england',
    level: 'normal',
    shotName: 'computer-lobby-phone.png',
  });
  assert.match(
    await bob.page.locator('.players').innerText(),
    /Scotland: Computer \(normal\) · England: bob/,
  );
  await bob.page.evaluate(() => window.scrollTo(0, 0));
  await shot(bob.page, 'computer-game-phone.png');
});
