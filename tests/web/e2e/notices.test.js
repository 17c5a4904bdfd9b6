// End to end in headless Chromium: the tab title says "(n) Your turn" exactly while the game
// awaits the player; desktop notifications are asked for only from the settings page's button,
// never on load; the settings page refuses a malformed e-mail address or webhook URL with the
// server's typed error and stores nothing, and keeps what is valid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, clickRandomAction } from './helpers.js';

// An SMTP relay that is never reached: enough for the page to offer e-mail, whose bad
// addresses are refused before anything is sent.
const running = useServerAndBrowser([
  '--smtp-host',
  '127.0.0.1',
  '--smtp-port',
  '9',
  '--smtp-from',
  'turns@blockfog.example',
]);
const shots = process.env.BLOCKFOG_NOTICE_SHOTS || outputDir();
fs.mkdirSync(shots, { recursive: true });

// Counts Notification.requestPermission calls on every page of the context.
async function countPermissionRequests(context) {
  await context.addInitScript(() => {
    window.permissionRequests = 0;
    const ask = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (...args) => {
      window.permissionRequests += 1;
      return ask(...args);
    };
  });
}

// Waits until the title agrees with the player's latest view: "(1) Your turn" exactly while
// that view awaits `role`.
async function titleFollowsView(p, role) {
  await p.page.waitForFunction(() => Number(document.getElementById('app').dataset.views) >= 1);
  const last = p.views[p.views.length - 1].view;
  const want = last.awaiting.includes(role) && !last.outcome;
  await p.page.waitForFunction((w) => document.title.startsWith('(1) Your turn') === w, want);
  return want;
}

test('the title counts the games awaiting me, and only those', async () => {
  const alice = await newPlayer(running.browser, running.server, 'tina');
  const bob = await newPlayer(running.browser, running.server, 'tom');
  await alice.page.selectOption('#create-side', 'scotland');
  await alice.page.click('form.create button[type=submit]');
  const line = alice.page.locator('.games.mine .game-line').first();
  await line.waitFor();
  const id = await line.getAttribute('data-game');
  await bob.page.goto(`${running.server.url}/#/`);
  await bob.page.click(`.games.open .game-line[data-game="${id}"] button.join`);
  await bob.page.waitForSelector('.seat.england');
  await alice.page.goto(`${running.server.url}/#/game/${id}`);
  await alice.page.waitForSelector('.seat.scotland');
  const awaited = [
    await titleFollowsView(alice, 'scotland'),
    await titleFollowsView(bob, 'england'),
  ];
  assert.ok(awaited.includes(true), 'somebody is awaited at the start');
  // An awaited player acts: both titles follow their views again.
  await clickRandomAction(awaited[0] ? alice : bob);
  await titleFollowsView(alice, 'scotland');
  await titleFollowsView(bob, 'england');
  await alice.page.screenshot({ path: path.join(shots, 'game-your-turn-desktop.png') });
  // Leaving the game (to the lobby, where it is listed as awaiting or not) keeps the count honest.
  await alice.page.goto(`${running.server.url}/#/settings`);
  await alice.page.waitForSelector('form.notice-form');
  await alice.page.goto(`${running.server.url}/#/`);
  await alice.page.waitForSelector('.games.mine .game-line');
  const mine = await alice.page.evaluate(
    async () => (await (await fetch('/api/games/mine')).json()).games,
  );
  const n = mine.filter((g) => g.your_turn).length;
  await alice.page.waitForFunction(
    (k) =>
      k > 0 ? document.title.startsWith(`(${k}) Your turn`) : !document.title.includes('Your turn'),
    n,
  );
  await alice.context.close();
  await bob.context.close();
});

test('desktop notifications are asked for from the button only', async () => {
  const context = await running.browser.newContext({ viewport: { width: 1440, height: 900 } });
  await countPermissionRequests(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => assert.fail(`page error ${e.message}`));
  await page.goto(`${running.server.url}/`);
  await page.fill('#signup-user', 'nora');
  await page.fill('#signup-pass', 'correct horse battery');
  await page.click('form.signup button[type=submit]');
  await page.waitForSelector('form.create');
  await page.goto(`${running.server.url}/#/settings`);
  await page.waitForSelector('button.desktop-permission');
  assert.equal(await page.evaluate(() => window.permissionRequests), 0, 'never on load');
  assert.equal(
    await page.locator('button.desktop-permission').innerText(),
    'Turn desktop notifications on',
  );
  await context.grantPermissions(['notifications'], { origin: running.server.url });
  await page.click('button.desktop-permission');
  await page.waitForFunction(() => window.permissionRequests === 1);
  await page.waitForFunction(
    () =>
      document.querySelector('button.desktop-permission').textContent ===
      'Turn desktop notifications off',
  );
  assert.equal(await page.evaluate(() => localStorage.getItem('blockfog.notify.desktop')), '1');
  // The sound is a separate choice, off until ticked.
  assert.equal(await page.isChecked('#notice-sound'), false);
  await page.check('#notice-sound');
  await page.reload();
  await page.waitForSelector('#notice-sound');
  assert.equal(await page.isChecked('#notice-sound'), true);
  assert.equal(await page.evaluate(() => window.permissionRequests), 0, 'not asked again on load');
  await context.close();
});

test('the settings page refuses a malformed address or URL and stores nothing', async () => {
  for (const [label, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ]) {
    const context = await running.browser.newContext({ viewport });
    const page = await context.newPage();
    page.on('pageerror', (e) => assert.fail(`page error ${e.message}`));
    await page.goto(`${running.server.url}/`);
    await page.fill('#signup-user', `sam_${label}`);
    await page.fill('#signup-pass', 'correct horse battery');
    await page.click('form.signup button[type=submit]');
    await page.waitForSelector('form.create');
    await page.click('a.settings-link');
    await page.waitForSelector('form.notice-form');
    const stored = () =>
      page.evaluate(async () => (await (await fetch('/api/notices')).json()).notices);
    const initial = await stored();
    await page.screenshot({ path: path.join(shots, `settings-${label}.png`), fullPage: true });

    await page.fill('#notice-email', 'not an address');
    // The browser's own check of type=email is skipped: the server's answer is what counts.
    await page.evaluate(() =>
      document.querySelector('form.email-form').setAttribute('novalidate', ''),
    );
    await page.click('form.email-form button[type=submit]');
    await page.waitForSelector('[role=alert]:not([hidden])');
    assert.match(await page.locator('.settings [role=alert]').innerText(), /bad_email/);
    assert.deepEqual(await stored(), initial);

    await page.evaluate(() =>
      document.querySelector('form.notice-form').setAttribute('novalidate', ''),
    );
    await page.fill('#notice-webhook', 'http://example.org/hook');
    await page.check('#notice-webhook-on');
    await page.click('button.save-notices');
    await page.waitForFunction(() =>
      /bad_webhook_url/.test(document.querySelector('.settings [role=alert]').textContent),
    );
    assert.match(await page.locator('.settings [role=alert]').innerText(), /https/);
    assert.deepEqual(await stored(), initial);
    await page.screenshot({
      path: path.join(shots, `settings-error-${label}.png`),
      fullPage: true,
    });

    await page.fill('#notice-webhook', 'https://hooks.example.org/services/T0/B0/x');
    await page.fill('#notice-digest', '6');
    await page.click('button.save-notices');
    await page.waitForFunction(
      () => document.querySelector('.settings-status').textContent === 'Saved.',
    );
    assert.equal(await page.locator('.settings [role=alert]').isHidden(), true);
    const saved = await stored();
    assert.equal(saved.webhook_url, 'https://hooks.example.org/services/T0/B0/x');
    assert.equal(saved.channels.webhook, true);
    assert.equal(saved.digest_hours, 6);
    await page.reload();
    await page.waitForSelector('form.notice-form');
    assert.equal(
      await page.inputValue('#notice-webhook'),
      'https://hooks.example.org/services/T0/B0/x',
    );
    assert.equal(await page.isChecked('#notice-webhook-on'), true);
    await page.screenshot({
      path: path.join(shots, `settings-saved-${label}.png`),
      fullPage: true,
    });
    await context.close();
  }
});
