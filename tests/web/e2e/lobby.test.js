// End to end in headless Chromium: the lobby refreshes by itself, an invite-only game is joined
// through its link by a player who signs up on the invitation page, both players and an
// observer read the chat (the observer cannot write), logging out ends the session, and the
// lobby lists the game under way among the games to watch.
// England's page never holds a hidden Scottish block (every frame and its DOM).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, FogWatch, PASSWORD } from './helpers.js';

const running = useServerAndBrowser();
const shots = outputDir();
const FAST = '?lobby_refresh_ms=300';

test('lobby refresh, an invitation link, chat with an observer, and logging out', async () => {
  const carolFog = new FogWatch('england');
  const bobFog = new FogWatch('england');
  const alice = await newPlayer(running.browser, running.server, 'alice', { query: FAST });
  const bob = await newPlayer(running.browser, running.server, 'bob', { query: FAST, fog: bobFog });
  const refreshesOf = async (p) =>
    Number(await p.page.evaluate(() => document.getElementById('app').dataset.refreshes));

  // An invite-only game: its link is shown once, and it is not listed in the open games.
  await alice.page.selectOption('#create-side', 'scotland');
  await alice.page.selectOption('#create-visibility', 'invite');
  await alice.page.click('form.create button[type=submit]');
  const link = await alice.page.locator('input.invite-link').inputValue();
  assert.match(link, /#\/invite\/[0-9a-f]{32}$/);
  const inviteLine = alice.page.locator('.games.mine .game-line').first();
  await inviteLine.waitFor();
  const inviteId = await inviteLine.getAttribute('data-game');
  const seen = await refreshesOf(bob);
  await bob.page.waitForFunction(
    (n) => Number(document.getElementById('app').dataset.refreshes) >= n,
    seen + 2,
  );
  assert.equal(await bob.page.locator(`.games .game-line[data-game="${inviteId}"]`).count(), 0);

  // A public game appears in Bob's open games without a reload.
  // Its clock is one of Alice's own: the presets come first, then times of one's own, each
  // field held to the server's bounds (server/clocks/time_control.h).
  await alice.page.selectOption('#create-visibility', 'public');
  const options = await alice.page
    .locator('#create-time option')
    .evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(options.slice(0, 2), ['none', 'live']);
  assert.deepEqual(options.slice(-2), ['live-own', 'correspondence-own']);
  await alice.page.selectOption('#create-time', 'live-own');
  const minutes = alice.page.locator('#create-time-minutes');
  await minutes.waitFor();
  assert.deepEqual(
    [await minutes.getAttribute('min'), await minutes.getAttribute('max')],
    ['1', '600'],
  );
  await minutes.fill('45');
  await alice.page.fill('#create-time-increment_seconds', '20');
  await alice.page.click('form.create button[type=submit]');
  await alice.page.waitForSelector('.games.mine .game-line >> nth=1');
  const publicId = await alice.page
    .locator('.games.mine .game-line')
    .first()
    .getAttribute('data-game');
  assert.notEqual(publicId, inviteId);
  const created = await alice.page.evaluate(
    async (n) => (await (await fetch(`/api/games/${n}`)).json()).game,
    publicId,
  );
  assert.deepEqual(created.time_control, { kind: 'live', minutes: 45, increment_seconds: 20 });
  await bob.page.waitForSelector(`.games.open .game-line[data-game="${publicId}"] button.join`);

  // Carol, new here, opens the link: she signs up on the invitation page and joins as England.
  const context = await running.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => assert.fail(`carol: page error ${e.message}`));
  page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => carolFog.frame(String(f.payload), ws)),
  );
  await page.goto(link);
  await page.waitForSelector('form.signup');
  assert.match(
    await page.locator('[role=status]').first().innerText(),
    new RegExp(`Game ${inviteId}: .*alice`),
  );
  await page.fill('#signup-user', 'carol');
  await page.fill('#signup-pass', PASSWORD);
  await page.click('form.signup button[type=submit]');
  await page.click('button.join-invite');
  await page.waitForSelector('.seat.england');
  assert.match(page.url(), new RegExp(`#/game/${inviteId}$`));
  await page.waitForSelector('button.card');

  // Alice's lobby, by itself, shows the invite game started and waiting for her: first,
  // before the newer public game that waits for a second player.
  await alice.page.waitForSelector(
    `.games.mine .game-line.awaiting-me[data-game="${inviteId}"] .your-turn`,
  );
  assert.deepEqual(
    await alice.page
      .locator('.games.mine .game-line')
      .evaluateAll((els) => els.map((e) => e.dataset.game)),
    [inviteId, publicId],
  );
  // The header says so on every page, and links to it.
  const countOf = (p) =>
    p.page.evaluate(
      () =>
        document.querySelector('header a.next-game:not([hidden]) .next-game-count')?.textContent,
    );
  await alice.page.waitForFunction(
    () =>
      document.querySelector('header a.next-game:not([hidden]) .next-game-count')?.textContent ===
      '1',
  );
  assert.equal(
    await alice.page.locator('header a.next-game').getAttribute('href'),
    `#/game/${inviteId}`,
  );
  await alice.page.screenshot({ path: path.join(shots, 'lobby-refreshed.png') });

  // Bob joins the public game from his lobby; Alice opens it.
  await bob.page.locator(`.games.open button.join[data-game="${publicId}"]`).click();
  await bob.page.waitForSelector('.seat.england');
  await alice.page
    .locator(`.games.mine .game-line[data-game="${publicId}"] a.button`, {
      hasText: 'Play Scotland',
    })
    .click();
  await alice.page.waitForSelector('.seat.scotland');
  // Both games await Alice now; from this one, the header leads to the other.
  await alice.page.waitForFunction(
    () => document.querySelector('header a.next-game .next-game-count')?.textContent === '2',
  );
  assert.equal(
    await alice.page.locator('header a.next-game').getAttribute('href'),
    `#/game/${inviteId}`,
  );
  assert.equal(await countOf(alice), '2');
  await alice.page.screenshot({ path: path.join(shots, 'next-game-header.png') });
  const desktop = alice.page.viewportSize();
  // On a phone the game page gives the header's room to the map; the lobby shows the link.
  await alice.page.setViewportSize({ width: 390, height: 844 });
  assert.equal(await alice.page.locator('header a.next-game').isVisible(), false);
  assert.ok(
    (await alice.page.evaluate(() => document.documentElement.scrollWidth)) <= 390,
    'the game page fits the phone',
  );
  const phoneLobby = await alice.context.newPage();
  await phoneLobby.setViewportSize({ width: 390, height: 844 });
  await phoneLobby.goto(`${running.server.url}/${FAST}#/`);
  await phoneLobby.locator('header a.next-game:not([hidden])').waitFor();
  assert.ok(
    (await phoneLobby.evaluate(() => document.documentElement.scrollWidth)) <= 390,
    'the lobby fits the phone',
  );
  await phoneLobby.screenshot({ path: path.join(shots, 'next-game-header-phone.png') });
  await phoneLobby.close();
  await alice.page.setViewportSize(desktop);

  // Chat: both players see each line, and so does an observer, who has no box to write in.
  const obsContext = await running.browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
  });
  const obs = await obsContext.newPage();
  obs.on('pageerror', (e) => assert.fail(`observer: page error ${e.message}`));
  await obs.goto(`${running.server.url}/#/game/${publicId}/observe`);
  await obs.waitForSelector('.seat.observer');
  await obs.waitForSelector('.conn-open');
  await bob.page.fill('#chat-text', 'Good luck, and mind the border.');
  await bob.page.press('#chat-text', 'Enter');
  for (const [who, p] of [
    ['bob', bob.page],
    ['alice', alice.page],
    ['observer', obs],
  ]) {
    await p
      .waitForSelector('.chat li:has-text("Good luck, and mind the border.")', { timeout: 10000 })
      .catch(async (e) =>
        assert.fail(
          `${who} does not see the chat line: ${e.message}; chat: ` +
            `${await p.locator('.chat').innerText()}`,
        ),
      );
  }
  assert.match(await alice.page.locator('.chat li').last().innerText(), /bob \(England\)/);
  await alice.page.fill('#chat-text', 'Thank you!');
  await alice.page.click('.chat-form button[type=submit]');
  await bob.page.waitForSelector('.chat li:has-text("Thank you!")');
  await obs.waitForSelector('.chat li:has-text("Thank you!")');
  assert.equal(await obs.locator('.chat-form').isVisible(), false, 'observers do not write');
  assert.equal(await obs.locator('#chat-text').isVisible(), false);
  // An observer's chat message sent anyway is refused by the server, and nobody sees it.
  const obsViews = await obs.evaluate(() => document.getElementById('app').dataset.views);
  await obs.evaluate(() => window.blockfogConnection.send({ type: 'chat', text: 'let me play' }));
  await obs.waitForFunction((b) => document.getElementById('app').dataset.views !== b, obsViews);
  assert.match(await obs.locator('.notice').innerText(), /observ|chat/i);
  assert.equal(await alice.page.locator('.chat li:has-text("let me play")').count(), 0);
  await obs.screenshot({ path: path.join(shots, 'phone-chat-observer.png') });
  await obsContext.close();

  // A reload keeps the chat.
  await bob.page.reload();
  await bob.page.waitForSelector('.chat li:has-text("Thank you!")');
  await bobFog.assertClean(bob.page, 'after chat');
  await carolFog.assertClean(page, 'after joining by invitation');

  // Logging out: back to the log-in forms, and a reload does not log in again.
  await page.goto(`${running.server.url}/#/`);
  await page.click('button.logout');
  await page.waitForSelector('form.login');
  assert.equal(await page.locator('#account').innerText(), '');
  await page.reload();
  await page.waitForSelector('form.login');
  const me = await page.evaluate(() => fetch('/api/me').then((r) => r.status));
  assert.equal(me, 401);
  // Logging in again brings the game back under "My games".
  await page.fill('#login-user', 'carol');
  await page.fill('#login-pass', PASSWORD);
  await page.click('form.login button[type=submit]');
  await page.waitForSelector(`.games.mine .game-line[data-game="${inviteId}"]`);

  // The lobby at phone size.
  await page.setViewportSize({ width: 390, height: 844 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 400, `the phone lobby fits the screen (${width}px wide)`);
  await page.screenshot({ path: path.join(shots, 'lobby-phone.png'), fullPage: true });

  // Games to watch: the public game Alice and Bob are playing, with a Watch link that opens it
  // for Carol as an observer.
  const watch = page.locator(`.games.live .game-line[data-game="${publicId}"] a`, {
    hasText: 'Watch',
  });
  await watch.waitFor();
  assert.equal(await watch.getAttribute('href'), `#/game/${publicId}/observe`);
  await watch.click();
  await page.waitForSelector('.seat.observer');
  assert.match(page.url(), new RegExp(`#/game/${publicId}/observe$`));
  await context.close();
  await alice.context.close();
  await bob.context.close();
});
