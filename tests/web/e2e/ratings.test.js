// End to end in headless Chromium: a rated game chosen in the lobby's form is resigned; the
// leaderboard (linked from the lobby) ranks its winner first, and each player's history page
// shows the game, the side, the result and the change. An unknown player's page says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, openToStart } from './helpers.js';

const running = useServerAndBrowser();
const shots = outputDir();

test("a rated game on the leaderboard and in both players' histories", async () => {
  const sco = await newPlayer(running.browser, running.server, 'rated_bruce');
  const eng = await newPlayer(running.browser, running.server, 'rated_edward');
  await sco.page.selectOption('#create-side', 'scotland');
  await sco.page.check('#opt-rated');
  await sco.page.click('form.create button[type=submit]');
  const line = sco.page.locator('.games.mine .game-line').first();
  await line.waitFor();
  const id = Number(await line.getAttribute('data-game'));
  await eng.page.reload();
  await eng.page.locator(`.games.open button.join[data-game="${id}"]`).click();
  await eng.page.waitForSelector('.seat.england');
  await openToStart([sco, eng], running.server, id);
  // England resigns: Scotland wins the rated game.
  const game = await eng.page.evaluate(async (gameId) => {
    const res = await fetch(`/api/games/${gameId}/resign`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    return res.json();
  }, id);
  assert.equal(game.game.rated, true);
  assert.equal(game.game.result.winner, 'scotland');

  // From the lobby to the leaderboard.
  await sco.page.setViewportSize({ width: 1440, height: 900 });
  await sco.page.goto(`${running.server.url}/#/`);
  await sco.page.click('a[href="#/ratings"]');
  await sco.page.waitForSelector('table.ratings tbody tr');
  const rows = await sco.page.locator('table.ratings tbody tr').allInnerTexts();
  assert.equal(rows.length, 2);
  assert.match(rows[0], /^1\s+rated_bruce\s+16\d\d ± \d+\s+1$/);
  assert.match(rows[1], /^2\s+rated_edward\s+13\d\d ± \d+\s+1$/);
  await sco.page.screenshot({
    path: path.join(shots, 'ratings-leaderboard-desktop.png'),
    fullPage: true,
  });

  // Edward's history, reached from the leaderboard.
  await sco.page.click('table.ratings a:text("rated_edward")');
  await sco.page.waitForSelector('table.history tbody tr');
  assert.equal(await sco.page.locator('h1').innerText(), 'rated_edward’s ratings');
  const cells = await sco.page.locator('table.history tbody tr td').allInnerTexts();
  assert.equal(cells[1], `#${id}`);
  assert.deepEqual(cells.slice(2, 6), ['Hammer of the Scots', 'England', 'rated_bruce', 'lost']);
  assert.match(cells[7], /^−\d+$/);
  await sco.page.screenshot({
    path: path.join(shots, 'ratings-history-desktop.png'),
    fullPage: true,
  });

  // On a phone.
  await sco.page.setViewportSize({ width: 390, height: 844 });
  await sco.page.goto(`${running.server.url}/#/players/rated_bruce`);
  // Only the hash changes: Edward's table stays on the page until Bruce's replaces it, in the
  // same task as the heading.
  await sco.page.locator('h1', { hasText: 'rated_bruce’s ratings' }).waitFor();
  await sco.page.waitForSelector('table.history tbody tr');
  assert.match(await sco.page.locator('table.history tbody tr td').last().innerText(), /^\+\d+$/);
  await sco.page.screenshot({
    path: path.join(shots, 'ratings-history-phone.png'),
    fullPage: true,
  });
  await sco.page.goto(`${running.server.url}/#/ratings`);
  await sco.page.locator('h1', { hasText: /^Ratings$/ }).waitFor();
  await sco.page.waitForSelector('table.ratings tbody tr');
  await sco.page.screenshot({
    path: path.join(shots, 'ratings-leaderboard-phone.png'),
    fullPage: true,
  });

  // A name nobody has.
  await sco.page.goto(`${running.server.url}/#/players/nobody_at_all`);
  await sco.page.waitForSelector('p.error');
  assert.equal(
    await sco.page.locator('p.error').innerText(),
    'There is no player called nobody_at_all.',
  );
  await sco.page.setViewportSize({ width: 1440, height: 900 });
  await sco.page.screenshot({
    path: path.join(shots, 'ratings-unknown-player-desktop.png'),
    fullPage: true,
  });
  await sco.context.close();
  await eng.context.close();
});
