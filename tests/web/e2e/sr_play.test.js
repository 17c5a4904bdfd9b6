// End to end against the real server: two players, each in a browser context of his own, play
// Scotland Rising by clicking. Wallace creates the game from the lobby and Edward joins it; the
// Scots finish the set-up and roll for AP by the prompt's buttons; a unit is moved by clicking
// it and then each hex of its route, the end again to send; both pages then show it where it
// went, and its line in the log names it. The sides close in until one of them can attack: the
// attack is made by clicking the target, and both pages show its dice. Each turn is ended by
// its button, and the other side's page is then the one awaited. The test waits only on what
// the pages publish (#app's data-seq and data-pending) and on the WebSocket frames they
// receive, never on a sleep.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, lastView } from './helpers.js';
import { distance } from '../../../web-client/js/sr/hex.js';
import { srNames } from '../../../web-client/js/sr/wording.js';

const running = useServerAndBrowser();
const shots = outputDir();
const extraShots = process.env.BLOCKFOG_SHOTS_DIR; // also kept where a report lists them

// The page as it is, at the desktop's 1366x768 and a phone's 390x844: the whole window, and the
// log and the last attack's dice brought into view.
async function shoot(p, name) {
  const save = async (file, options = {}) => {
    await p.page.screenshot({ path: path.join(shots, file), ...options });
    if (extraShots) {
      fs.mkdirSync(extraShots, { recursive: true });
      fs.copyFileSync(path.join(shots, file), path.join(extraShots, file));
    }
  };
  for (const [size, width, height] of [
    ['desktop', 1366, 768],
    ['phone', 390, 844],
  ]) {
    await p.page.setViewportSize({ width, height });
    await save(`${name}-${size}.png`);
    await p.page.locator('.sr-board ol.log').scrollIntoViewIfNeeded();
    await save(`${name}-${size}-log.png`);
    await p.page.locator('.sr-last-attack').scrollIntoViewIfNeeded();
    await save(`${name}-${size}-dice.png`);
  }
  await p.page.setViewportSize({ width: 1366, height: 900 });
}
const WAIT = 30000; // a bound on any one wait: reaching it is a failure, never a pause

// Resolves once `ok()` holds, tested at each WebSocket frame the player's page receives (the
// tracker of helpers.js has taken the frame by then); fails after WAIT.
function untilFrame(p, ok, what) {
  if (ok()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      p.waiters.delete(check);
      reject(new Error(`${p.name}: no frame brought ${what}`));
    }, WAIT);
    function check() {
      if (!ok()) return;
      clearTimeout(timer);
      p.waiters.delete(check);
      resolve();
    }
    p.waiters.add(check);
  });
}

async function player(name) {
  const p = await newPlayer(running.browser, running.server, name, {
    viewport: { width: 1366, height: 900 },
  });
  // Registered after helpers.js's tracker, so it runs after the tracker has taken each frame.
  p.waiters = new Set();
  // What the server's Content-Security-Policy refuses (an inline style, a script) is a fault.
  p.refused = [];
  p.page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) p.refused.push(msg.text());
  });
  p.page.on('websocket', (ws) =>
    ws.on('framereceived', () => {
      for (const check of [...p.waiters]) check();
    }),
  );
  return p;
}

const app = (p, name) => p.page.locator('#app').getAttribute(`data-${name}`);

// The latest view the player's page received, once the page has drawn it and no action of its
// own awaits an answer.
async function drawn(p) {
  await p.page.waitForFunction(
    () => document.getElementById('app').dataset.pending !== 'true',
    null,
    { timeout: WAIT },
  );
  const seq = Number(await app(p, 'seq'));
  await untilFrame(p, () => (p.views.at(-1)?.seq ?? -1) >= seq, `the page's view ${seq}`);
  const latest = p.views.at(-1);
  await p.page.waitForFunction(
    (s) => {
      const d = document.getElementById('app').dataset;
      return d.seq === String(s) && d.pending !== 'true';
    },
    latest.seq,
    { timeout: WAIT },
  );
  return latest.view;
}

// Waits until the player's page has received and drawn a view for which `ok(view)` holds.
async function seen(p, ok, what) {
  await untilFrame(p, () => !!lastView(p) && ok(lastView(p)), what);
  return drawn(p);
}

const clickHex = (p, hex) => p.page.click(`[data-hex="${hex}"] .cell`, { force: true });

// Clicks a button of the prompt's action bar, by its words, and waits for the answer.
async function press(p, words) {
  const seq = await app(p, 'seq');
  await p.page.click(`.sr-prompt .action-bar button:text-is("${words}")`);
  await p.page.waitForFunction((s) => document.getElementById('app').dataset.seq !== s, seq, {
    timeout: WAIT,
  });
  return drawn(p);
}

// Sends `action` (one of the view's legal actions, a move, an attack or a charge) as a player
// does: the unit, then each hex of its route (for an attack: the target), then the last hex
// again. Returns the view that answers it.
async function clickAction(p, action, view) {
  const from = view.units.find((u) => u.id === action.unit).hex;
  await clickHex(p, from);
  // A leader with his unit: the first click chooses the unit, a second the leader.
  const chosen = `g.counter.selected[data-unit="${action.unit}"]`;
  if (!(await p.page.locator(chosen).count())) await clickHex(p, from);
  assert.ok(await p.page.locator(chosen).count(), `${p.name}: ${action.unit} chosen`);
  const hexes = action.type === 'attack' ? [action.target] : action.path;
  for (const hex of hexes) await clickHex(p, hex);
  const last = hexes.at(-1);
  // The prompt says what a second click on the last hex sends.
  const words = action.type === 'attack' ? `: attack ${last}` : `: move to ${last}`;
  assert.ok(
    (await p.page.locator('.sr-prompt button.sr-confirm').innerText()).endsWith(words),
    `${p.name}: a second click on ${last} sends ${words}`,
  );
  const seq = await app(p, 'seq');
  await clickHex(p, last);
  await p.page.waitForFunction((s) => document.getElementById('app').dataset.seq !== s, seq, {
    timeout: WAIT,
  });
  return drawn(p);
}

// Whether the unit's counter is drawn on `hex` of the player's map.
const counterOn = (p, unit, hex) =>
  p.page.evaluate(
    ([u, x]) => {
      const c = document.querySelector(`g.counter[data-unit="${u}"]`)?.getBoundingClientRect();
      const cell = document.querySelector(`[data-hex="${x}"] .cell`)?.getBoundingClientRect();
      if (!c || !cell) return false;
      const [cx, cy] = [c.x + c.width / 2, c.y + c.height / 2];
      return cx > cell.left && cx < cell.right && cy > cell.top && cy < cell.bottom;
    },
    [unit, hex],
  );

const logLines = (p) => p.page.$$eval('.sr-board ol.log li', (li) => li.map((l) => l.textContent));
const turnLine = (p) => p.page.locator('.sr-turn-line').innerText();

const escapeRe = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const OTHER = { scotland: 'england', england: 'scotland' };
const SIDE = { scotland: 'Scotland', england: 'England' };

test('two players play Scotland Rising by clicking: moves, an attack and its dice, the turns', async () => {
  const sco = await player('sr_wallace');
  await sco.page.selectOption('#create-game', 'scotland_rising');
  await sco.page.selectOption('#create-side', 'scotland');
  await sco.page.click('form.create button[type=submit]');
  await sco.page.waitForSelector('.games.mine .game-line');

  const eng = await player('sr_edward');
  await eng.page.locator('button.join').first().click();
  await eng.page.waitForSelector('.seat.england');
  await sco.page.reload();
  await sco.page.locator('.games.mine a.button', { hasText: 'Play Scotland' }).click();
  await sco.page.waitForSelector('.seat.scotland');
  const bySide = { scotland: sco, england: eng };

  // The printed set-up: the Scots may form schiltrons; they say they are done, then roll.
  let view = await seen(sco, (v) => v.awaiting.includes('scotland'), 'the set-up');
  assert.equal(view.phase, 'setup');
  await seen(eng, (v) => v.phase === 'setup', 'the set-up');
  assert.match(await turnLine(eng), /^Scotland to act, turn 1\./);
  assert.equal(await eng.page.locator('.sr-prompt .action-bar button').count(), 0);
  await press(sco, 'Set-up done');
  view = await press(sco, 'Roll for AP');
  assert.equal(view.phase, 'actions');
  assert.match(await turnLine(sco), new RegExp(`^Your turn \\(Scotland\\), turn 1: ${view.ap} AP`));

  const names = srNames(view);
  let attacked = null;
  for (let turn = 1; turn <= 6 && !attacked; turn++) {
    for (const side of ['scotland', 'england']) {
      const p = bySide[side];
      const other = bySide[OTHER[side]];
      view = await seen(p, (v) => v.awaiting.includes(side), 'its turn');
      // The Scots choose at the start of each turn between their AP die and the Scots Charge.
      if (view.phase === 'scots_ap') view = await press(p, 'Roll for AP');
      assert.equal(view.phase, 'actions');
      assert.equal(view.turn, turn);
      assert.match(await turnLine(p), new RegExp(`^Your turn \\(${SIDE[side]}\\), turn ${turn}`));
      assert.match(await turnLine(other), new RegExp(`^${SIDE[side]} to act, turn ${turn}\\.`));

      const attack = view.legal_actions.find((a) => a.type === 'attack');
      if (attack) {
        // The attack, clicked: its dice on both pages, its line in the log by name.
        const before = view.log.length;
        const answer = await clickAction(p, attack, view);
        const line = answer.log
          .slice(before)
          .find((l) => / attacks \d{4}: \d+ dice? hitting on \d\+, rolled /.test(l));
        assert.ok(line, `the attack's line in ${answer.log.slice(before).join(' | ')}`);
        const faces = / rolled ([\d,]+):/.exec(line)[1].split(',');
        const theirs = await seen(other, (v) => v.log.includes(line), 'the attack');
        assert.deepEqual(theirs.log, answer.log);
        for (const q of [p, other]) {
          const panel = q.page.locator('.sr-last-attack');
          assert.match(
            await panel.innerText(),
            new RegExp(`${escapeRe(names.unit(attack.unit))} attacked ${attack.target}`),
          );
          assert.equal(await panel.locator('.sr-die').count(), faces.length, q.name);
          // Each die shows its face's pips, each pip in a place of its own.
          const pips = await panel.locator('.sr-die').evaluateAll((dice) =>
            dice.map((d) =>
              [...d.querySelectorAll('circle')].map((pip) => {
                const r = pip.getBoundingClientRect();
                return `${Math.round(r.x)},${Math.round(r.y)}`;
              }),
            ),
          );
          pips.forEach((spots, k) => {
            assert.equal(spots.length, Number(faces[k]), `${q.name}: die ${k + 1}`);
            assert.equal(new Set(spots).size, spots.length, `${q.name}: die ${k + 1}'s pips`);
          });
          assert.equal(
            await panel.locator('.sr-dice').getAttribute('aria-label'),
            `Rolled ${faces.join(', ')}`,
          );
          assert.ok((await logLines(q)).includes(names.line(line)), `${q.name}: the log`);
        }
        attacked = { side, line };
      } else {
        // A move toward the enemy: of the side's units, the move that ends nearest to it.
        const enemy = view.units
          .filter(
            (u) =>
              u.hex &&
              !u.eliminated &&
              !u.exited &&
              u.id.startsWith(side === 'scotland' ? 'en_' : 'sc_'),
          )
          .map((u) => u.hex);
        const gap = (hex) => Math.min(...enemy.map((e) => distance(hex, e)));
        const moves = view.legal_actions.filter((a) => a.type === 'move');
        const move = moves.reduce((best, a) =>
          gap(a.path.at(-1)) < gap(best.path.at(-1)) ? a : best,
        );
        const to = move.path.at(-1);
        const answer = await clickAction(p, move, view);
        assert.equal(answer.units.find((u) => u.id === move.unit).hex, to);
        const theirs = await seen(
          other,
          (v) => v.units.find((u) => u.id === move.unit).hex === to,
          `the move of ${move.unit}`,
        );
        assert.deepEqual(theirs.units, answer.units);
        const line = names.line(answer.log.at(-1));
        assert.match(line, new RegExp(`moves ${move.path.join(' ')}$`));
        for (const q of [p, other]) {
          assert.ok(await counterOn(q, move.unit, to), `${q.name}: ${move.unit} drawn on ${to}`);
          assert.equal((await logLines(q)).at(-1), line, `${q.name}: the log's last line`);
        }
      }
      // The turn ended by its button: the other side is awaited, on both pages.
      view = await press(p, 'End turn');
      assert.ok(!view.awaiting.includes(side));
      await seen(other, (v) => v.awaiting.includes(OTHER[side]), 'the other side awaited');
      assert.equal(await p.page.locator('.sr-prompt .action-bar button').count(), 0);
      assert.match(await turnLine(p), new RegExp(`^${SIDE[OTHER[side]]} to act`));
      if (attacked) break;
    }
  }
  assert.ok(attacked, 'the sides came within reach of an attack');
  await shoot(sco, 'sr-play-scotland');
  await shoot(eng, 'sr-play-england');
  for (const q of [sco, eng]) assert.deepEqual(q.refused, [], `${q.name}: refused by the CSP`);
  // Nothing an id: every log line either page shows names its units.
  for (const q of [sco, eng]) {
    for (const line of await logLines(q)) assert.doesNotMatch(line, /\b(?:sc|en)_[a-z]+\d*\b/);
  }
  await sco.context.close();
  await eng.context.close();
});
