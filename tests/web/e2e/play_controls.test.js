// End to end in headless Chromium: cancelling an unstarted game, both clocks on the game page
// and in the lobby, resigning (with its confirmation) and a rematch offered and accepted, each
// side told over its WebSocket (docs/protocol.md, "Time controls, resignation, rematches").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, startGame, openToStart } from './helpers.js';

const running = useServerAndBrowser();
const shots = process.env.BLOCKFOG_SHOTS || outputDir();
const shot = (p, name) => p.page.screenshot({ path: path.join(shots, `${name}.png`) });

test('cancel, clocks, resign with confirmation, and a rematch with sides swapped', async () => {
  // An unstarted game is cancelled by its creator from its page.
  const erin = await newPlayer(running.browser, running.server, 'erin');
  await erin.page.click('form.create button[type=submit]');
  const line = erin.page.locator('.games.mine .game-line').first();
  await line.waitFor();
  const openId = await line.getAttribute('data-game');
  await erin.page.goto(`${running.server.url}/#/game/${openId}`);
  await erin.page.waitForSelector('.waiting:not([hidden])');
  // Cancelling asks first; keeping the game changes nothing.
  await erin.page.click('[data-act=cancel]');
  await erin.page.waitForSelector('.confirm-cancel:not([hidden])');
  const focusedAct = () => erin.page.evaluate(() => document.activeElement.dataset.act);
  assert.equal(await focusedAct(), 'confirm-cancel');
  // The question stays open, with focus, when the server's welcome redraws the controls (as it
  // does on every reconnection, and when seats are taken).
  const welcomes = () => erin.page.evaluate(() => document.getElementById('app').dataset.welcomes);
  const before = await welcomes();
  await erin.page.evaluate(() => window.blockfogConnection.drop());
  await erin.page.waitForFunction(
    (b) => document.getElementById('app').dataset.welcomes !== b,
    before,
    { timeout: 20000 },
  );
  assert.equal(await erin.page.locator('.confirm-cancel').isHidden(), false);
  assert.equal(await focusedAct(), 'confirm-cancel');
  await erin.page.click('[data-act=keep-cancel]');
  assert.equal(await erin.page.locator('.confirm-cancel').isHidden(), true);
  assert.equal(await erin.page.locator('.game-result').count(), 0);
  await erin.page.click('[data-act=cancel]');
  await erin.page.click('[data-act=confirm-cancel]');
  await erin.page.waitForSelector('.game-result');
  assert.equal(await erin.page.locator('.game-result').innerText(), 'The game was cancelled.');
  // The page no longer waits for an opponent, there or after a reload.
  for (let again = 0; again < 2; again++) {
    await erin.page.waitForSelector('.prompt .cancelled');
    assert.equal(await erin.page.locator('.waiting').isHidden(), true);
    assert.doesNotMatch(
      await erin.page.locator('#app').innerText(),
      /Waiting for an opponent|anybody may/,
    );
    if (!again) {
      await shot(erin, 'cancelled');
      await erin.page.reload();
    }
  }
  // The lobby lists it as cancelled, with nothing to play or open.
  await erin.page.goto(`${running.server.url}/#/`);
  const gone = erin.page.locator(`.games.mine .game-line[data-game="${openId}"]`);
  await gone.waitFor();
  assert.equal(await gone.locator('.g-status').innerText(), 'cancelled');
  assert.equal(await gone.locator('.g-actions a, .g-actions button').count(), 0);
  await erin.context.close();

  const alice = await newPlayer(running.browser, running.server, 'alice');
  const bob = await newPlayer(running.browser, running.server, 'bob');
  // A live game: both pages show both clocks, those of the awaited seats running.
  await alice.page.selectOption('#create-time', 'live');
  const id = await startGame(alice, bob);
  for (const p of [alice, bob]) {
    await p.page.waitForSelector('.clocks .clock-scotland .clock-time');
    const times = await p.page.locator('.clocks .clock-time').allInnerTexts();
    assert.equal(times.length, 2);
    for (const t of times) assert.match(t, /^(1:00:00|59:\d\d)$/);
    // At the start both seats choose a card: both clocks run.
    assert.equal(await p.page.locator('.clocks .clock.running').count(), 2);
  }
  await shot(alice, 'clocks-desktop');
  await bob.page.setViewportSize({ width: 390, height: 844 });
  await shot(bob, 'clocks-phone');
  await bob.page.setViewportSize({ width: 1440, height: 900 });

  // The lobby's "my games": whose turn, the opponent's activity, the clocks. Bob has the game
  // open, so he is online: never the time of something he did in it.
  const lobby = await alice.context.newPage();
  await lobby.goto(`${running.server.url}/#/`);
  const mine = lobby.locator(`.games.mine .game-line[data-game="${id}"]`);
  await mine.waitFor();
  assert.equal(await mine.locator('.g-activity').innerText(), 'bob online now');
  assert.match(await mine.locator('.g-clocks').innerText(), /Scotland .* · England /);
  assert.match(await mine.locator('.g-turn').innerText(), /to play$/);
  await lobby.screenshot({ path: path.join(shots, 'lobby-my-games.png'), fullPage: true });
  // Taking vacation days ahead, on the settings page.
  await lobby.goto(`${running.server.url}/#/settings`);
  await lobby.waitForSelector('.vacation-summary:has-text("21 of 21")');
  await lobby.fill('#vacation-days', '2');
  await lobby.click('.vacation-form button[type=submit]');
  await lobby.waitForSelector('.vacation-summary:has-text("19 of 21")');
  assert.equal(await lobby.locator('ul.vacations li').count(), 1);
  await lobby.fill('#vacation-days', '20');
  await lobby.click('.vacation-form button[type=submit]');
  await lobby.waitForSelector('.vacation .error:has-text("vacation")');
  await lobby.screenshot({ path: path.join(shots, 'settings-vacation.png'), fullPage: true });
  await lobby.setViewportSize({ width: 390, height: 844 });
  await lobby.screenshot({ path: path.join(shots, 'settings-vacation-phone.png'), fullPage: true });
  await lobby.close();

  // The connection badge does not read as a time control.
  assert.equal(await bob.page.locator('.conn').innerText(), 'Connected');
  // Before the end each seat sees the other's blocks blank; the legend shows them so, in the
  // other side's colour.
  for (const [p, other] of [
    [alice, 'england'],
    [bob, 'scotland'],
  ]) {
    await p.page.locator('.legend summary').click();
    const back = p.page.locator('.legend .lg.b-hidden');
    assert.equal(await back.count(), 1);
    assert.equal(
      await back.evaluate((el) => getComputedStyle(el).backgroundColor),
      await p.page
        .locator(`rect.block.hidden.${other}`)
        .first()
        .evaluate((el) => {
          // The map's back is an SVG fill; the legend's swatch a CSS background of that colour.
          const probe = document.createElement('span');
          probe.style.color = getComputedStyle(el).fill;
          document.body.append(probe);
          const colour = getComputedStyle(probe).color;
          probe.remove();
          return colour;
        }),
    );
    await p.page.locator('.legend summary').click();
  }
  // Before the end each seat sees the other's blocks blank.
  assert.ok((await alice.page.locator('rect.block.hidden.england').count()) > 0);
  assert.equal(await alice.page.locator('.block.own.england').count(), 0);

  // Resigning asks first; keeping on playing changes nothing.
  await bob.page.click('[data-act=resign]');
  await bob.page.waitForSelector('.confirm-resign:not([hidden])');
  await shot(bob, 'resign-confirm');
  await bob.page.click('.confirm-resign button:not(.danger)');
  assert.equal(await bob.page.locator('.confirm-resign').isHidden(), true);
  assert.equal(await bob.page.locator('.game-result').count(), 0);
  await bob.page.click('[data-act=resign]');
  await bob.page.click('[data-act=confirm-resign]');
  for (const p of [alice, bob]) {
    await p.page.waitForSelector('.game-result');
    assert.equal(await p.page.locator('.game-result').innerText(), 'Scotland wins by resignation.');
  }
  // The game is over, so each seat's map shows every block of both sides.
  for (const [p, other] of [
    [alice, 'england'],
    [bob, 'scotland'],
  ]) {
    await p.page.waitForSelector('.revealed-note:not([hidden])');
    await p.page.waitForSelector(`.block.own.${other}`);
    assert.equal(await p.page.locator('rect.block.hidden').count(), 0);
    assert.equal(await p.page.locator('.prompt .phase-text').innerText(), 'Game over');
    // The prompt gives the result, not the state of the phase the game ended in.
    assert.equal(
      await p.page.locator('.prompt .awaiting').innerText(),
      'Scotland wins by resignation.',
    );
    assert.equal(await p.page.locator('.prompt .move-info').count(), 0);
    assert.equal(await p.page.locator('.cards button:not([disabled])').count(), 0);
    assert.equal(await p.page.locator('[data-act=resign]').count(), 0);
    await p.page.waitForSelector('[data-act=rematch]');
  }
  await shot(alice, 'resigned');
  // Opened again later, the page shows the same.
  await alice.page.reload();
  await alice.page.waitForSelector('.revealed-note:not([hidden])');
  await alice.page.waitForSelector('.block.own.england');
  assert.equal(await alice.page.locator('.prompt .phase-text').innerText(), 'Game over');
  await alice.page.setViewportSize({ width: 390, height: 844 });
  await shot(alice, 'resigned-phone');
  await alice.page.setViewportSize({ width: 1400, height: 1000 });
  // The replay says how the game ended, and who won, at its last step.
  await alice.page.goto(`${running.server.url}/#/replay/${id}`);
  await alice.page.waitForSelector('.prompt .phase-text:has-text("Game over")');
  assert.equal(
    await alice.page.locator('.prompt .awaiting').innerText(),
    'Scotland wins by resignation.',
  );
  assert.equal(
    await alice.page.locator('.game-result').innerText(),
    'Scotland wins by resignation.',
  );
  await shot(alice, 'replay-resigned');
  await alice.page.goto(`${running.server.url}/#/game/${id}`);
  await alice.page.waitForSelector('[data-act=rematch]');

  // Alice offers a rematch; Bob is told at once and accepts: the new game has the sides swapped.
  await alice.page.click('[data-act=rematch]');
  await bob.page.waitForSelector('[data-act=accept]');
  await shot(bob, 'rematch-offered');
  await bob.page.click('[data-act=accept]');
  for (const p of [alice, bob]) await p.page.waitForSelector('[data-act=open-rematch]');
  const href = await alice.page.locator('[data-act=open-rematch]').getAttribute('href');
  const next = Number(href.split('/').pop());
  assert.notEqual(next, id);
  const game = await alice.page.evaluate(
    async (n) => (await (await fetch(`/api/games/${n}`)).json()).game,
    next,
  );
  assert.deepEqual(game.players, { scotland: 'bob', england: 'alice' });
  // It starts once both have rolled its dice, from its page.
  assert.equal(game.status, 'open');
  await openToStart([alice, bob], running.server, next);
  assert.equal(
    await alice.page.evaluate(
      async (n) => (await (await fetch(`/api/games/${n}`)).json()).game.status,
      next,
    ),
    'active',
  );
  assert.equal(game.time_control.kind, 'live');

  await alice.context.close();
  await bob.context.close();
});

test('a rematch can be declined', async () => {
  const carol = await newPlayer(running.browser, running.server, 'carol');
  const dave = await newPlayer(running.browser, running.server, 'dave');
  await startGame(carol, dave);
  await carol.page.click('[data-act=resign]');
  await carol.page.click('[data-act=confirm-resign]');
  await dave.page.waitForSelector('[data-act=rematch]');
  await dave.page.click('[data-act=rematch]');
  await carol.page.waitForSelector('[data-act=decline]');
  await carol.page.click('[data-act=decline]');
  for (const p of [carol, dave]) {
    await p.page.waitForFunction(() =>
      document.body.innerText.includes('The rematch was declined.'),
    );
  }
  await carol.context.close();
  await dave.context.close();
});
