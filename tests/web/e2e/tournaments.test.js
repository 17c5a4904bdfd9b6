// End to end in headless Chromium (docs/tournaments.md): an organiser creates a Swiss
// tournament on its page (a correspondence clock, vacations forbidden), three players register
// there, the organiser starts it, the game page says vacations are off, round 1's game is
// played (random legal actions through the API's WebSocket would take long: its loser
// resigns after the page showed it under way) and the bye is shown, the organiser starts
// round 2 by hand, the standings and crosstable follow, the organiser's note is logged with
// his name, round 2's game is adjudicated by the server's noble count, and the export link
// gives the tar bundle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, axeProblems, openToStart } from './helpers.js';

const running = useServerAndBrowser();
const shots = path.join(outputDir(), 'tournaments');

async function shoot(p, name) {
  const fs = await import('node:fs');
  fs.mkdirSync(shots, { recursive: true });
  await p.page.setViewportSize({ width: 1440, height: 900 });
  await p.page.screenshot({ path: path.join(shots, `${name}-desktop.png`), fullPage: true });
  await p.page.setViewportSize({ width: 390, height: 844 });
  await p.page.screenshot({ path: path.join(shots, `${name}-phone.png`), fullPage: true });
  await p.page.setViewportSize({ width: 1400, height: 1000 });
}

test('create, register, start, play a round to the standings, and export', async () => {
  const org = await newPlayer(running.browser, running.server, 'organiser');
  const players = [];
  for (const name of ['annie', 'bruce', 'clara']) {
    players.push(await newPlayer(running.browser, running.server, name));
  }
  await org.page.click('a.tournaments-link');
  await org.page.waitForSelector('form.tournament-create');
  await org.page.fill('form.tournament-create input[name=name]', 'Border Swiss');
  await org.page.selectOption('form.tournament-create select[name=format]', 'swiss');
  await org.page.fill('form.tournament-create input[name=rounds]', '2');
  await org.page.fill('form.tournament-create input[name=max_players]', '4');
  // A correspondence clock for every game, and no vacations.
  // A clock of the organiser's own (within the server's bounds), and The Bruce.
  await org.page.selectOption('form.tournament-create select[name=scenario]', 'the_bruce');
  await org.page.selectOption(
    'form.tournament-create select#tournament-time',
    'correspondence-own',
  );
  await org.page.fill('#tournament-time-days_per_turn', '2');
  await org.page.fill('#tournament-time-bank_days', '5');
  assert.equal(await org.page.isChecked('form.tournament-create input[name=vacation]'), true);
  await org.page.uncheck('form.tournament-create input[name=vacation]');
  // The organiser starts round 2 himself.
  await org.page.check('form.tournament-create input[name=rounds_by_hand]');
  await shoot(org, 'list-create');
  await org.page.click('form.tournament-create button[type=submit]');
  await org.page.waitForSelector('h1:text("Border Swiss")');
  const id = Number(org.page.url().match(/#\/tournament\/(\d+)/)[1]);
  assert.match(
    await org.page.locator('p.tournament-facts').innerText(),
    /^Hammer of the Scots: The Bruce \(.*\)\. .*Correspondence: 2 days per turn \+ 5 days bank, vacations do not pause it\./,
  );

  for (const p of players) {
    await p.page.goto(`${running.server.url}/#/tournaments`);
    await p.page.click(`a[href="#/tournament/${id}"]`);
    await p.page.click('button.register');
    await p.page.waitForSelector('button.withdraw');
  }
  await org.page.reload();
  await org.page.waitForSelector('ol.players li >> nth=2');
  await shoot(org, 'registered');
  await org.page.click('button.start');
  await org.page.waitForSelector('section.round');
  const line = org.page.locator('ul.pairings li').first();
  // Its game starts once both its players have rolled their dice.
  assert.match(await line.innerText(), /\(Scotland\) v .* \(England\) — open/);
  assert.match(await org.page.locator('ul.pairings').innerText(), /clara: bye/);
  await shoot(org, 'round1');

  // The game's link opens the game; its Scottish player resigns through the API.
  const href = await line.locator('a').first().getAttribute('href');
  const gameId = Number(href.match(/(\d+)$/)[1]);
  const scot = (await line.innerText()).split(' (Scotland)')[0];
  const loser = players.find((p) => p.name === scot);
  const eng = (await line.innerText()).split(' v ')[1].split(' (England)')[0];
  await openToStart([loser, players.find((p) => p.name === eng)], running.server, gameId);
  // The game has the tournament's clock, and its page tells the player vacations are off.
  await loser.page.waitForSelector('section.clocks p.clock-no-vacation');
  await shoot(loser, 'game-no-vacation');
  const resigned = await loser.page.evaluate(
    async (g) =>
      (
        await fetch(`/api/games/${g}/resign`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
        })
      ).status,
    gameId,
  );
  assert.equal(resigned, 200);

  // Round 1 is over; round 2 waits for the organiser, who starts it from the page. The
  // standings and crosstable show the result.
  await org.page.reload();
  await org.page.waitForSelector('button.next-round');
  assert.equal(
    await org.page.locator('section.round').count(),
    1,
    'round 2 waits for the organiser',
  );
  await shoot(org, 'next-round');
  await org.page.click('button.next-round');
  await org.page.waitForSelector('section.round >> nth=1');
  await org.page.fill('section.organiser input[name=note]', 'Round 2 is on');
  await org.page.click('section.organiser form button');
  await org.page.waitForFunction(() =>
    /Round 2 is on/.test(document.querySelector('ul.tournament-log')?.textContent || ''),
  );
  await org.page.reload();
  await org.page.waitForSelector('table.standings');
  const standings = await org.page.locator('table.standings tbody').innerText();
  assert.match(standings, /1\t\S+\t1\t/);
  assert.equal(await org.page.locator('table.crosstable tbody tr').count(), 3);
  assert.match(
    await org.page.locator('ul.tournament-log').innerText(),
    /organiser: note: Round 2 is on/,
  );
  await shoot(org, 'standings');
  assert.deepEqual(await axeProblems(org.page), [], 'tournament page');
  // Every table header says what its column or row holds (axe's empty-table-header is minor).
  assert.deepEqual(
    await org.page.$$eval('table th', (ths) => ths.filter((th) => !th.innerText.trim()).length),
    0,
  );

  // Round 2's game: the organiser adjudicates it; the server counts the nobles and the page
  // says who won, by how many.
  const round2 = org.page.locator('section.round').first();
  assert.match(await round2.locator('h2').innerText(), /Round 2/);
  await round2.locator('button:text("Adjudicate by nobles")').click();
  await org.page.waitForSelector(
    'section.round >> nth=0 >> ul.pairings li:has-text("adjudicated")',
  );
  assert.match(
    await org.page.locator('section.round').first().locator('ul.pairings li').first().innerText(),
    /(Scotland|England) wins: (more nobles|nobles tied) \(\d+ to \d+\)/,
  );
  await shoot(org, 'adjudicated');

  // The export link gives the bundle: a tar whose first file is the manifest.
  const link = await org.page.locator('a.export').getAttribute('href');
  const tar = await org.page.evaluate(async (url) => {
    const res = await fetch(url);
    const bytes = new Uint8Array(await res.arrayBuffer());
    return {
      type: res.headers.get('content-type'),
      size: bytes.length,
      name: new TextDecoder().decode(bytes.slice(0, 13)),
      magic: new TextDecoder().decode(bytes.slice(257, 262)),
    };
  }, link);
  assert.equal(tar.type, 'application/x-tar');
  assert.equal(tar.name, 'manifest.json');
  assert.equal(tar.magic, 'ustar');
  assert.equal(tar.size % 512, 0);
});

// docs/tournaments.md, "Replays": nobody steps through a game under way, its tournament's
// organiser included (he watches it as an observer, its hidden blocks blank); once it has
// ended, its replay's link opens for a visitor without an account.
test("nobody replays a game under way, the organiser included; a finished game's link is public", async () => {
  const org = await newPlayer(running.browser, running.server, 'marshal');
  const dora = await newPlayer(running.browser, running.server, 'dora');
  const eric = await newPlayer(running.browser, running.server, 'eric');
  const post = (p, url, body) =>
    p.page.evaluate(
      async ([u, b]) => {
        const res = await fetch(u, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(b),
        });
        return { status: res.status, body: await res.json() };
      },
      [url, body],
    );
  const created = await post(org, '/api/tournaments', {
    name: 'Replay Cup',
    scenario: 'braveheart',
    format: 'swiss',
    rounds: 1,
    sides: 'lot',
    round_deadline_minutes: 60,
    rated: false,
    registration_closes_at: Date.now() + 3600 * 1000,
    max_players: 2,
  });
  assert.equal(created.status, 201);
  const id = created.body.tournament.id;
  for (const p of [dora, eric])
    assert.equal((await post(p, `/api/tournaments/${id}/register`, {})).status, 200);
  const started = await post(org, `/api/tournaments/${id}/start`, {});
  assert.equal(started.status, 200);
  const game = started.body.tournament.rounds_played[0].games[0];
  await openToStart([dora, eric], running.server, game.game_id);

  // From the tournament page the organiser's only link to the game under way is to watch it.
  await org.page.goto(`${running.server.url}/#/tournament/${id}`);
  await org.page.waitForSelector('ul.pairings a');
  assert.equal(await org.page.locator('ul.pairings a.reveal').count(), 0);
  await org.page.click('ul.pairings a');
  await org.page.waitForSelector('rect.block.hidden');
  assert.ok(
    (await org.page.locator('rect.block.hidden').count()) > 0,
    'the enemy blocks are blank',
  );
  await shoot(org, 'organiser-watches-under-way');
  // The replay page: no step, no record, no seed; a link to watch instead.
  await org.page.goto(`${running.server.url}/#/replay/${game.game_id}`);
  await org.page.waitForSelector('p.under-way a');
  assert.equal(await org.page.locator('.map-holder').count(), 0);
  assert.equal(await org.page.locator('.seed').count(), 0);
  await shoot(org, 'organiser-replay-under-way');

  // A player of the game: no step before the end.
  await dora.page.goto(`${running.server.url}/#/replay/${game.game_id}`);
  await dora.page.waitForSelector('p.notice:has-text("under way")');
  assert.equal(await dora.page.locator('.map-holder').count(), 0);
  await shoot(dora, 'player-replay-under-way');

  // Ended (England resigns): the replay's link, opened by a visitor without an account.
  const loser = game.england === 'dora' ? dora : eric;
  assert.equal((await post(loser, `/api/games/${game.game_id}/resign`, {})).status, 200);
  const visitorContext = await running.browser.newContext({
    viewport: { width: 1400, height: 1000 },
  });
  const visitor = {
    name: 'visitor',
    context: visitorContext,
    page: await visitorContext.newPage(),
  };
  visitor.page.on('pageerror', (e) => assert.fail(`visitor: page error ${e.message}`));
  await visitor.page.goto(`${running.server.url}/#/replay/${game.game_id}`);
  await visitor.page.waitForSelector('.share-replay input#replay-link');
  await visitor.page.waitForFunction(
    () => document.getElementById('app').dataset.shown === '0/all',
  );
  assert.equal(
    await visitor.page.locator('#replay-link').inputValue(),
    `${running.server.url}/#/replay/${game.game_id}`,
  );
  assert.match(await visitor.page.locator('.game-result').innerText(), /resign/i);
  await shoot(visitor, 'public-replay');
  await visitorContext.close();
});
