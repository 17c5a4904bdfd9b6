// End to end in headless Chromium at a desktop (1440x900) and a phone (390x844) size: an
// invite-only game's link, with its Copy button, is under "My games" for its creator on another
// device (a fresh browser profile logged in to the same account) and still after a reload; the
// link joins; another account's lobby never shows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, PASSWORD } from './helpers.js';

const running = useServerAndBrowser();
const shots = outputDir();

// A fresh browser profile (another device) logged in to an existing account.
async function logIn(name, viewport) {
  const context = await running.browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', (e) => assert.fail(`${name}: page error ${e.message}`));
  await page.goto(`${running.server.url}/`);
  await page.fill('form.login input[name=username]', name);
  await page.fill('form.login input[name=password]', PASSWORD);
  await page.click('form.login button[type=submit]');
  await page.waitForSelector('form.create');
  return { context, page };
}

for (const [size, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
]) {
  test(`${size}: the invitation link is under My games on another device and after a reload`, async () => {
    const alice = await newPlayer(running.browser, running.server, `inv${size}a`, { viewport });
    await alice.page.selectOption('#create-side', 'scotland');
    await alice.page.selectOption('#create-visibility', 'invite');
    await alice.page.click('form.create button[type=submit]');
    const link = await alice.page.locator('input.invite-link').inputValue();
    assert.match(link, /#\/invite\/[0-9a-f]{32}$/);
    const line = alice.page.locator('.games.mine .game-line').first();
    await line.waitFor();
    const id = await line.getAttribute('data-game');

    const other = await logIn(`inv${size}a`, viewport);
    const saved = other.page.locator(
      `.games.mine .game-line[data-game="${id}"] input.invite-link-saved`,
    );
    await saved.waitFor();
    assert.equal(await saved.inputValue(), link);
    const copy = other.page.locator(`.games.mine .game-line[data-game="${id}"] button.copy-invite`);
    assert.equal(await copy.innerText(), 'Copy link');
    await other.page.screenshot({ path: path.join(shots, `invite-${size}-other-device.png`) });
    await other.page.reload();
    await other.page
      .locator(`.games.mine .game-line[data-game="${id}"] input.invite-link-saved`)
      .waitFor();
    assert.equal(
      await other.page
        .locator(`.games.mine .game-line[data-game="${id}"] input.invite-link-saved`)
        .inputValue(),
      link,
    );
    await other.page.screenshot({ path: path.join(shots, `invite-${size}-after-reload.png`) });

    // Another account's lobby neither lists the game nor holds its link.
    const bob = await newPlayer(running.browser, running.server, `inv${size}b`, { viewport });
    await bob.page.locator('.games.mine').waitFor();
    assert.equal(await bob.page.locator(`[data-game="${id}"]`).count(), 0);
    assert.equal(await bob.page.locator('input.invite-link-saved').count(), 0);

    // The link, copied from the other device, joins.
    await bob.page.goto(await saved.inputValue());
    await bob.page.click('button.join-invite');
    await bob.page.waitForURL(new RegExp(`#/game/${id}$`));
    await other.context.close();
    await alice.context.close();
    await bob.context.close();
  });
}

for (const [size, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
]) {
  test(`${size}: the open invite game's own page shows its link with a Copy button until somebody joins`, async () => {
    const alice = await newPlayer(running.browser, running.server, `gpg${size}a`, { viewport });
    await alice.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: running.server.url,
    });
    await alice.page.selectOption('#create-side', 'scotland');
    await alice.page.selectOption('#create-visibility', 'invite');
    await alice.page.click('form.create button[type=submit]');
    const link = await alice.page.locator('input.invite-link').inputValue();
    const line = alice.page.locator('.games.mine .game-line').first();
    await line.waitFor();
    const id = await line.getAttribute('data-game');
    await line.locator('a.button', { hasText: 'Open' }).click();
    await alice.page.waitForURL(new RegExp(`#/game/${id}$`));
    const onPage = alice.page.locator('.waiting input.invite-link-game');
    await onPage.waitFor();
    assert.equal(await onPage.inputValue(), link);
    assert.match(await alice.page.locator('.prompt').innerText(), /Waiting for an opponent/);
    assert.match(await alice.page.locator('.waiting').innerText(), /Send this invitation link/);
    await alice.page.locator('.waiting button.copy-invite').click();
    await alice.page.locator('.waiting .copied', { hasText: 'Copied.' }).waitFor();
    assert.equal(await alice.page.evaluate(() => navigator.clipboard.readText()), link);
    const box = await alice.page.locator('.waiting').boundingBox();
    assert.ok(
      box.x >= 0 && box.x + box.width <= viewport.width,
      "the link fits the screen's width",
    );
    await alice.page.screenshot({ path: path.join(shots, `invite-${size}-game-page.png`) });

    // Another device of the same account gets it from the server, on the game page too.
    const other = await logIn(`gpg${size}a`, viewport);
    await other.page.goto(`${running.server.url}/#/game/${id}`);
    await other.page.locator('.waiting input.invite-link-game').waitFor();
    assert.equal(await other.page.locator('.waiting input.invite-link-game').inputValue(), link);

    // A stranger who opens the game's address is shown no link (and no game: it is private).
    const bob = await newPlayer(running.browser, running.server, `gpg${size}b`, { viewport });
    await bob.page.goto(`${running.server.url}/#/game/${id}`);
    await bob.page.locator('.game-unavailable').waitFor();
    assert.equal(await bob.page.locator('input.invite-link-game').count(), 0);

    // Once Bob joins by the link, the game starts and the link leaves Alice's game page.
    await bob.page.goto(link);
    await bob.page.click('button.join-invite');
    await bob.page.waitForURL(new RegExp(`#/game/${id}$`));
    await alice.page.locator('.waiting').waitFor({ state: 'hidden' });
    await alice.page.waitForSelector('.blocks .block.own, .blocks .tags, .blocks .chip');
    assert.equal(await alice.page.locator('.waiting input.invite-link-game:visible').count(), 0);
    await alice.page.screenshot({ path: path.join(shots, `invite-${size}-game-started.png`) });
    await other.context.close();
    await alice.context.close();
    await bob.context.close();
  });
}

test("an open public game's page says where it is listed, and shows no link", async () => {
  const viewport = { width: 1440, height: 900 };
  const carol = await newPlayer(running.browser, running.server, 'gpgpublic', { viewport });
  await carol.page.click('form.create button[type=submit]');
  const line = carol.page.locator('.games.mine .game-line').first();
  await line.waitFor();
  await line.locator('a.button', { hasText: 'Open' }).click();
  await carol.page.locator('.waiting').waitFor();
  assert.match(await carol.page.locator('.waiting').innerText(), /listed under "Open games"/);
  assert.equal(await carol.page.locator('.waiting input').count(), 0);
  await carol.context.close();
});
