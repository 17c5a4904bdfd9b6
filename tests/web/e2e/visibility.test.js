// End to end in headless Chromium: who may see and write in a game. A visitor who is not
// logged in and opens an invite-only game's page is told it is private (not "Reconnecting…"
// forever); a game created with "Observers may chat" lets a logged-in observer write, while an
// anonymous one still only reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, openToStart } from './helpers.js';

const running = useServerAndBrowser();
const shots = outputDir();

// Creates a game from the lobby's form; returns its id.
async function createGame(p, { visibility = 'public', observerChat = false } = {}) {
  const before = await p.page.locator('.games.mine .game-line').count();
  await p.page.selectOption('#create-side', 'scotland');
  await p.page.selectOption('#create-visibility', visibility);
  await p.page.setChecked('#opt-observer-chat', observerChat);
  await p.page.click('form.create button[type=submit]');
  await p.page.waitForSelector(`.games.mine .game-line >> nth=${before}`);
  return p.page.locator('.games.mine .game-line').first().getAttribute('data-game');
}

async function anonymousPage() {
  const context = await running.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => assert.fail(`anonymous: page error ${e.message}`));
  return { context, page };
}

test('an anonymous visitor of an invite-only game is told it is private', async () => {
  const dana = await newPlayer(running.browser, running.server, 'dana');
  const id = await createGame(dana, { visibility: 'invite' });
  const { context, page } = await anonymousPage();
  let sockets = 0;
  page.on('websocket', () => {
    sockets += 1;
  });
  await page.goto(`${running.server.url}/#/game/${id}/observe`);
  const alert = page.locator('.game-unavailable');
  await alert.waitFor();
  assert.match(await alert.innerText(), /private/i);
  assert.match(await alert.innerText(), /log in/i);
  await page.waitForTimeout(1500); // long enough for a reconnecting page to have tried again
  assert.equal(await page.locator('.conn').count(), 0, 'no connection status is shown');
  assert.equal(sockets, 0, 'no WebSocket is opened to a game the server refuses');
  await page.screenshot({ path: path.join(shots, 'private-game-anonymous.png') });
  // Its "Log in" leads to the log-in form.
  await page.click('.game-unavailable a.button');
  await page.waitForSelector('form.login');
  // Its creator opens it as ever.
  await dana.page.goto(`${running.server.url}/#/game/${id}`);
  await dana.page.waitForSelector('.seat.scotland');
  assert.equal(await dana.page.locator('.game-unavailable').count(), 0);
  await context.close();
  await dana.context.close();
});

test('"Observers may chat": a logged-in observer writes, an anonymous one only reads', async () => {
  const ewan = await newPlayer(running.browser, running.server, 'ewan');
  const fiona = await newPlayer(running.browser, running.server, 'fiona');
  const gus = await newPlayer(running.browser, running.server, 'gus');
  const id = await createGame(ewan, { observerChat: true });
  const details = await ewan.page.evaluate(
    (g) => fetch(`/api/games/${g}`).then((r) => r.json()),
    id,
  );
  assert.equal(details.game.observer_chat, true);
  const plainId = await createGame(ewan);
  const plain = await ewan.page.evaluate(
    (g) => fetch(`/api/games/${g}`).then((r) => r.json()),
    plainId,
  );
  assert.equal(plain.game.observer_chat, false);
  // Fiona takes the other seat; the game starts.
  await fiona.page.evaluate(
    (g) =>
      fetch(`/api/games/${g}/join`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      }),
    id,
  );
  await openToStart([ewan, fiona], running.server, id);

  await gus.page.goto(`${running.server.url}/#/game/${id}/observe`);
  await gus.page.waitForSelector('.seat.observer');
  await gus.page.waitForSelector('.conn-open');
  await gus.page.waitForSelector('.chat-form', { state: 'visible' });
  await gus.page.fill('#chat-text', 'Watching with interest.');
  await gus.page.press('#chat-text', 'Enter');
  await ewan.page.goto(`${running.server.url}/#/game/${id}`);
  await ewan.page.waitForSelector('.chat li.chat-observer:has-text("Watching with interest.")');
  assert.match(
    await ewan.page.locator('.chat li.chat-observer').last().innerText(),
    /gus \(Observer\)/,
  );

  const { context, page } = await anonymousPage();
  await page.goto(`${running.server.url}/#/game/${id}/observe`);
  await page.waitForSelector('.seat.observer');
  await page.waitForSelector('.chat li:has-text("Watching with interest.")');
  assert.equal(await page.locator('.chat-form').isVisible(), false, 'anonymous visitors only read');
  await context.close();
  for (const p of [ewan, fiona, gus]) await p.context.close();
});
