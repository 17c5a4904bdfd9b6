// End to end in headless Chromium: a player's private notes on a game (docs/protocol.md,
// "Private notes"). Scotland writes a note, which is saved when the text loses focus and after
// a pause in typing, and is there after a reload; England's page shows his own notepad, empty,
// and nothing of Scotland's; an observer's page has no notepad. Screenshots and axe-core at
// 1440x900 and 390x844.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { axeProblems, newPlayer, startGame } from './helpers.js';

const running = useServerAndBrowser();
const shots = outputDir();

const NOTEPAD = '.notesp:not([hidden]) textarea';
const saved = (page) =>
  page.waitForFunction(() => document.querySelector('.notes-state')?.textContent === 'Saved');

test('a seat keeps its notes across a reload; nobody else sees them', async () => {
  const desktop = { width: 1440, height: 900 };
  const alice = await newPlayer(running.browser, running.server, 'noter', { viewport: desktop });
  const bob = await newPlayer(running.browser, running.server, 'peeker', { viewport: desktop });
  const id = await startGame(alice, bob);

  // Saved when the text loses focus.
  await alice.page.fill(NOTEPAD, 'Plan Q7: Wallace holds the north.');
  await alice.page.locator(NOTEPAD).blur();
  await saved(alice.page);
  // Saved after a pause in typing, focus kept.
  await alice.page.locator(NOTEPAD).focus();
  await alice.page.keyboard.press('End');
  await alice.page.keyboard.type(' Bait them at the border.');
  await saved(alice.page);
  assert.equal(
    await alice.page.evaluate(() => document.activeElement?.id),
    'notes-text',
    'the pause saved without taking the focus away',
  );
  const note = 'Plan Q7: Wallace holds the north. Bait them at the border.';
  await alice.page.locator('.notesp').scrollIntoViewIfNeeded();
  await alice.page.screenshot({ path: path.join(shots, 'notes-desktop.png') });
  assert.deepEqual(await axeProblems(alice.page), [], 'axe on the game page with the notepad');

  await alice.page.reload();
  await alice.page.waitForSelector(NOTEPAD);
  assert.equal(await alice.page.inputValue(NOTEPAD), note);

  // England's page: his own notepad, empty; Scotland's text nowhere on it.
  await bob.page.goto(`${running.server.url}/#/game/${id}`);
  await bob.page.waitForSelector(NOTEPAD);
  assert.equal(await bob.page.inputValue(NOTEPAD), '');
  assert.ok(!(await bob.page.content()).includes('Plan Q7'), "England's page holds the note");

  // An observer (logged in, not seated) has no notepad at all.
  const carl = await newPlayer(running.browser, running.server, 'onlooker', { viewport: desktop });
  const answered = carl.page.waitForResponse((r) => r.url().endsWith(`/api/games/${id}/notes`));
  await carl.page.goto(`${running.server.url}/#/game/${id}/observe`);
  assert.equal((await answered).status(), 403);
  await carl.page.waitForSelector('.seat.observer');
  assert.equal(await carl.page.locator(NOTEPAD).count(), 0);
  assert.ok(!(await carl.page.content()).includes('Plan Q7'));

  // On a phone the notepad is in the side panels, its text as saved.
  await alice.page.setViewportSize({ width: 390, height: 844 });
  await alice.page.locator('.notesp').scrollIntoViewIfNeeded();
  assert.equal(await alice.page.inputValue(NOTEPAD), note);
  await alice.page.screenshot({ path: path.join(shots, 'notes-phone.png') });
  assert.deepEqual(await axeProblems(alice.page), [], 'axe on a phone');
});

test('notes over the limit are refused with a message and the saved text stays', async () => {
  const alice = await newPlayer(running.browser, running.server, 'longnoter');
  const bob = await newPlayer(running.browser, running.server, 'longpeer');
  await startGame(alice, bob);
  await alice.page.fill(NOTEPAD, 'short plan');
  await alice.page.locator(NOTEPAD).blur();
  await saved(alice.page);
  await alice.page.fill(NOTEPAD, 'x'.repeat(10001));
  await alice.page.locator(NOTEPAD).blur();
  await alice.page.waitForFunction(() =>
    document.querySelector('.notes-state')?.textContent.startsWith('Not saved'),
  );
  await alice.page.reload();
  await alice.page.waitForSelector(NOTEPAD);
  assert.equal(await alice.page.inputValue(NOTEPAD), 'short plan');
});
