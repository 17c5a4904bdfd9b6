// End to end in headless Chromium: a correspondence game over weeks, on a server whose clock
// the test moves (BLOCKFOG_TEST_CLOCK_FILE: the server reads the time from that file,
// server/clock.h; docs/protocol.md, "Time controls"). Days pass between the turns: each page
// shows both clocks as the server computes them; a turn that takes longer than its 3 days is
// paid from the bank; the awaited player, away past his time, takes vacation days automatically
// (the opponent sees "on vacation"), and when those run out too he loses on time, both pages
// saying so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import {
  newPlayer,
  startGame,
  waitForAwaited,
  clickRandomAction,
  isAwaited,
  waitForAnswer,
} from './helpers.js';

const DAY = 24 * 3600 * 1000;
const clockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockfog-clock-'));
const clockFile = path.join(clockDir, 'now');
let fakeNow = 0;
// Moves the server's clock (written whole: the server never reads half a number).
function setClock(ms) {
  fakeNow = ms;
  fs.writeFileSync(`${clockFile}.tmp`, String(ms));
  fs.renameSync(`${clockFile}.tmp`, clockFile);
}
// A fixed start in May: the weeks of the game stay in one calendar year, whose 21 vacation
// days are all the player has (a new year would give him more). The pages' clocks count from
// the server's `now`, so the browser's own time does not matter.
setClock(Date.UTC(2026, 4, 28));
process.env.BLOCKFOG_TEST_CLOCK_FILE = clockFile;

const running = useServerAndBrowser();
const shots = process.env.BLOCKFOG_SHOTS || outputDir();
const shot = (p, name) => p.page.screenshot({ path: path.join(shots, `${name}.png`) });

const HOUR = 3600 * 1000;

// The time a clock text of web-client/js/clock_view.js stands for: "2 d 4 h" (whole hours, so
// up to an hour less than the time it shows), "1:05:09" or "4:09".
function shownMs(text) {
  const days = /^(\d+) d (\d+) h$/.exec(text ?? '');
  if (days) return Number(days[1]) * DAY + Number(days[2]) * HOUR;
  const parts = (text ?? '').split(':').map(Number);
  if (parts.length < 2 || parts.some(Number.isNaN)) return NaN;
  return parts.reduce((total, n) => total * 60 + n, 0) * 1000;
}

// The page shows each side's clock as the server has it now: at most an hour less (whole
// hours), and the page ticks on with the real time since it was told (a minute at most here).
// The server is asked again until the two agree: an answer read just before the last decision
// was stored is older than what the page was told after it.
async function clocksAgree(p, id) {
  const deadline = Date.now() + 30000;
  for (;;) {
    const game = await p.page.evaluate(
      async (n) => (await (await fetch(`/api/games/${n}`)).json()).game,
      id,
    );
    const server = {
      scotland: game.clocks.scotland.remaining_ms,
      england: game.clocks.england.remaining_ms,
    };
    const onPage = await p.page.evaluate(
      (sides) =>
        Object.fromEntries(
          sides.map((s) => [
            s,
            document.querySelector(`.clocks .clock-${s} .clock-time`)?.textContent,
          ]),
        ),
      Object.keys(server),
    );
    const agree = Object.entries(server).every(([side, ms]) => {
      const seen = shownMs(onPage[side]);
      return seen <= ms && seen >= ms - HOUR - 60000;
    });
    if (agree) return game;
    assert.ok(
      Date.now() < deadline,
      `${p.name}'s page shows ${JSON.stringify(onPage)}, the server ${JSON.stringify(server)} ms`,
    );
    await p.page.waitForTimeout(100); // polling the page and the server, not waiting for the game
  }
}

// Waits until each page has drawn the latest view the server holds for its seat (the Game
// object's `seq` is the asking seat's view version, as on the WebSocket).
async function settled(players, id) {
  for (const p of players) {
    await p.page.waitForFunction(
      async (n) => {
        const game = (await (await fetch(`/api/games/${n}`)).json()).game;
        return String(game.seq) === document.getElementById('app').dataset.seq;
      },
      id,
      { polling: 100, timeout: 20000 },
    );
  }
}

// A turn of `p`: its decisions, clicked at random, until it is no longer awaited, all at the
// server's present moment. The server charges a seat's time by the turn (docs/protocol.md: the
// stretch during which the seat stays awaited), paying what passes its 3 days from the bank
// when the turn ends; so the test moves the clock between turns, never inside one.
async function playTurn(p) {
  do {
    await clickRandomAction(p);
    await waitForAnswer(p);
  } while (await isAwaited(p));
}

const sideOf = (p, alice) => (p === alice ? 'scotland' : 'england');

test('a correspondence game over weeks: clocks, an automatic vacation, a loss on time', async () => {
  const desktop = { width: 1440, height: 900 };
  const alice = await newPlayer(running.browser, running.server, 'carla', { viewport: desktop });
  const bob = await newPlayer(running.browser, running.server, 'dylan', { viewport: desktop });
  // 3 days per turn and a bank of 7 days, vacations allowed.
  await alice.page.selectOption('#create-time', 'correspondence');
  const id = await startGame(alice, bob);
  for (const p of [alice, bob]) {
    await p.page.waitForSelector('.clocks .clock-scotland .clock-time');
    const game = await clocksAgree(p, id);
    assert.equal(game.time_control.kind, 'correspondence');
  }

  // Six turns, each two days after the one before: the clocks each page is told after every
  // turn are the server's. (While both choose their cards both clocks run: the second to
  // choose has waited both turns.)
  for (let i = 0; i < 6; i += 1) {
    const p = await waitForAwaited([alice, bob]);
    setClock(fakeNow + 2 * DAY);
    await playTurn(p);
    await settled([alice, bob], id);
    for (const q of [alice, bob]) await clocksAgree(q, id);
  }
  // Four days before the next turn: once it ends, what passed the 3 days (a day at least) has
  // come out of that seat's bank.
  const late = await waitForAwaited([alice, bob]);
  const lateSide = sideOf(late, alice);
  const bank = (await clocksAgree(late, id)).clocks[lateSide].bank_ms;
  setClock(fakeNow + 4 * DAY);
  await playTurn(late);
  await settled([alice, bob], id);
  const after = await clocksAgree(alice, id);
  await clocksAgree(bob, id);
  assert.equal(after.clocks[lateSide].running, false, `${lateSide}'s turn ended`);
  assert.ok(
    after.clocks[lateSide].bank_ms <= bank - DAY,
    `a day came out of ${lateSide}'s bank of ${bank} ms: ${JSON.stringify(after.clocks)}`,
  );
  await shot(alice, 'correspondence-clocks');

  // The awaited player stays away for 12 days: past his 3 days and 7 of bank, the server takes
  // vacation days for him, one at a time; his opponent's page shows the vacation.
  // Exactly one side awaited (both are while each chooses his card).
  let away = await waitForAwaited([alice, bob]);
  while ((await isAwaited(alice)) && (await isAwaited(bob))) {
    await clickRandomAction(away);
    away = await waitForAwaited([alice, bob]);
  }
  const other = away === alice ? bob : alice;
  const side = sideOf(away, alice);
  const otherSide = side === 'scotland' ? 'england' : 'scotland';
  const left = (await clocksAgree(other, id)).clocks[side].remaining_ms;
  assert.ok(left <= 10 * DAY, `${side} has at most 3 days and the bank: ${left}`);
  const gone = fakeNow;
  setClock(gone + 12 * DAY);
  // The clock sweep takes the vacation days (within seconds); the page shows them once opened
  // again.
  const onVacation = async () => {
    const g = await other.page.evaluate(
      async (n) => (await (await fetch(`/api/games/${n}`)).json()).game,
      id,
    );
    return g.clocks[side].vacation_until != null;
  };
  for (let i = 0; !(await onVacation()); i += 1) {
    assert.ok(i < 200, 'no vacation was taken');
    await other.page.waitForTimeout(100); // polling the server, not waiting for the game
  }
  await other.page.reload();
  await other.page.waitForSelector(`.clocks .clock-${side} .clock-vacation`);
  assert.match(
    await other.page.locator(`.clocks .clock-${side} .clock-vacation`).innerText(),
    /^on vacation until /,
  );
  await shot(other, 'correspondence-vacation');
  await other.page.setViewportSize({ width: 390, height: 844 });
  await shot(other, 'correspondence-vacation-phone');
  await other.page.setViewportSize(desktop);

  // Past the decision's 3 days, the bank and the 21 vacation days of the year: lost on time.
  // Both pages are told over their WebSockets.
  setClock(gone + left + 21 * DAY + 3600000);
  const winner = otherSide === 'scotland' ? 'Scotland' : 'England';
  for (const p of [alice, bob]) {
    await p.page.waitForSelector('.game-result', { timeout: 20000 });
    assert.equal(await p.page.locator('.game-result').innerText(), `${winner} wins on time.`);
  }
  await shot(away, 'correspondence-lost-on-time');
  await alice.context.close();
  await bob.context.close();
});
