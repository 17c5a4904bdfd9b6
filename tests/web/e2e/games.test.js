// End to end in headless Chromium: the lobby offers each game the server plays. Choosing
// Scotland Rising shows its scenario, its optional rules and the mark of its invented board,
// and the stand-in the computer gives in it; the game created is listed with its name; the
// ratings and tournaments pages offer the game too, and the computer plays it from the lobby.
// Screenshots on a desktop and a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, lastView } from './helpers.js';

const running = useServerAndBrowser();
const shots = outputDir();

async function shoot(page, name) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(shots, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(shots, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize({ width: 1400, height: 1000 });
}

test('the lobby, the ratings and the tournaments offer Scotland Rising', async () => {
  const p = await newPlayer(running.browser, running.server, 'games_bruce');
  const { page } = p;
  // Hammer of the Scots first, as before: its scenarios and its one optional rule.
  assert.equal(await page.locator('#create-game').inputValue(), 'hots');
  assert.equal(await page.locator('#opt-schiltroms').count(), 1);
  assert.equal(await page.locator('#opt-stand-in').isVisible(), true);
  assert.equal(await page.locator('p.variant-note').isVisible(), false);

  await page.selectOption('#create-game', 'scotland_rising');
  assert.deepEqual(await page.locator('#create-scenario option').allInnerTexts(), [
    'Bannockburn variant',
  ]);
  assert.equal(await page.locator('#opt-schiltroms').count(), 0);
  for (const id of [
    'opt-longbows-vs-schiltron',
    'opt-battle-events',
    'opt-solitaire-events',
    'opt-freeform-setup',
  ]) {
    assert.equal(await page.locator(`#${id}`).count(), 1, id);
  }
  assert.equal(await page.locator('#opt-stand-in').isVisible(), true);
  assert.match(await page.locator('p.variant-note').innerText(), /invented/);
  await page.check('#opt-battle-events');
  await shoot(page, 'lobby-create-scotland-rising');

  await page.click('form.create button[type=submit]');
  const line = page.locator('.games.mine .game-line').first();
  await line.waitFor();
  assert.equal(
    await line.locator('.g-game').innerText(),
    'Scotland Rising: Bannockburn 1314 (invented variant)',
  );
  assert.match(await line.locator('.g-title').innerText(), /Bannockburn variant$/);
  const id = Number(await line.getAttribute('data-game'));
  const game = await page.evaluate(async (gameId) => {
    const res = await fetch(`/api/games/${gameId}`);
    return res.json();
  }, id);
  assert.equal(game.game.game, 'scotland_rising');
  assert.deepEqual(game.game.options, {
    longbows_vs_schiltron: false,
    battle_events: true,
    solitaire_events: false,
    freeform_setup: false,
  });
  await shoot(page, 'lobby-games-listed');

  // The ratings: one list per game.
  await page.goto(`${running.server.url}/#/ratings`);
  await page.waitForSelector('#ratings-game');
  await page.selectOption('#ratings-game', 'scotland_rising');
  await page
    .locator('p.empty', { hasText: 'Scotland Rising: Bannockburn 1314 (invented variant)' })
    .waitFor();
  await shoot(page, 'ratings-per-game');

  // A tournament of Scotland Rising.
  await page.goto(`${running.server.url}/#/tournaments`);
  await page.waitForSelector('form.tournament-create');
  await page.fill('form.tournament-create input[name=name]', 'Bannockburn cup');
  await page.selectOption('form.tournament-create select[name=kind]', 'scotland_rising');
  assert.equal(
    await page.locator('form.tournament-create input[name=option-battle_events]').count(),
    1,
  );
  await shoot(page, 'tournament-create-scotland-rising');
  await page.click('form.tournament-create button[type=submit]');
  await page.waitForSelector('h1:text("Bannockburn cup")');
  assert.match(
    await page.locator('p.tournament-facts').innerText(),
    /^Scotland Rising: Bannockburn 1314 \(invented variant\): Bannockburn variant\. /,
  );
  await p.context.close();
});

test('the computer plays Scotland Rising from the lobby: it answers on the hex board', async () => {
  const p = await newPlayer(running.browser, running.server, 'games_solo');
  const { page } = p;
  await page.waitForSelector('form.computer-game');
  await page.selectOption('#computer-game', 'scotland_rising');
  assert.deepEqual(await page.locator('#computer-scenario option').allInnerTexts(), [
    'Bannockburn variant',
  ]);
  await page.selectOption('#computer-side', 'england');
  await page.selectOption('#computer-level', 'easy');
  await page.locator('form.computer-game').scrollIntoViewIfNeeded();
  await shoot(page, 'lobby-computer-scotland-rising');
  await page.click('form.computer-game button[type=submit]');
  await page.waitForSelector('.sr-board');
  await page.waitForFunction(() =>
    document.querySelector('.players')?.textContent.includes('Computer (easy)'),
  );
  // The Scots move first: the computer sets up and plays its turn until England is awaited.
  const deadline = Date.now() + 60000;
  while (!lastView(p)?.awaiting?.includes('england')) {
    assert.ok(Date.now() < deadline, 'the computer did not play its turn');
    await page.waitForTimeout(100); // polling the pushed views for the computer's turn
  }
  const view = lastView(p);
  assert.equal(view.game, 'scotland_rising');
  assert.ok(view.log.length > 0, 'the computer acted');
  assert.ok(view.legal_actions.length > 0, 'England has something to do');
  await p.context.close();
});
