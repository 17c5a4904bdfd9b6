// End to end in headless Chromium: a whole game is played to its end (fast: a random player
// per seat on its own WebSocket, inside each player's browser), then stepped through in the
// replay page from England's view, Scotland's view and with everything revealed. England's
// pages never hold a hidden Scottish block before the end: not in any WebSocket frame, not in
// any replay step of England's view, and not anywhere on England's replay page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, startGame, startBot, FogWatch } from './helpers.js';

// The random players act far faster than people: lift the per-connection message rate.
const running = useServerAndBrowser(['--ws-rate', '1000']);
const shots = outputDir();

const stepText = (page) => page.locator('.step-text').innerText();

// Waits until the replay has drawn step `seq` of `n` for `role`.
async function atStep(page, seq, n, role) {
  await page.waitForFunction(
    ([s, total, r]) => {
      const t = document.querySelector('.step-text')?.textContent || '';
      return (
        t.startsWith(`${s} / ${total}`) &&
        document.getElementById('app').dataset.shown === `${s}/${r}`
      );
    },
    [seq, n, role],
  );
}

test('a finished game stepped through from either seat and with everything revealed', async () => {
  const fog = new FogWatch('england');
  const sco = await newPlayer(running.browser, running.server, 'bruce', {});
  const eng = await newPlayer(running.browser, running.server, 'edward', { fog });
  const id = await startGame(sco, eng);

  // Both seats play at random to the end, each on its own WebSocket in its player's browser
  // (England's checked frame by frame); the game pages wait in the lobby meanwhile.
  await sco.page.goto(`${running.server.url}/#/`);
  await eng.page.goto(`${running.server.url}/#/`);
  // Scotland's bot takes whole views only, England's view_patch frames as the game page does.
  const bots = [
    await startBot(sco, running.server, id, { toTheEnd: true, patches: false }),
    await startBot(eng, running.server, id, { toTheEnd: true, fog }),
  ];
  const sent = await Promise.all(bots.map((b) => b.done));
  assert.ok(sent[0] + sent[1] > 50, `the game lasted (${sent} actions sent)`);
  await eng.page.goto(`${running.server.url}/#/game/${id}`);
  await eng.page.waitForSelector('.prompt .finished a[href^="#/replay/"]', { timeout: 60000 });
  assert.match(await eng.page.locator('.prompt').innerText(), /Game over/);
  assert.ok(fog.over, 'England got the final view');
  assert.deepEqual(fog.leaks, [], 'no frame England got before the end named a hidden block');
  assert.ok(fog.patches > 0, "England's bot got view_patch frames");
  assert.deepEqual(fog.viewProblems(), [], "England's views rebuilt from its frames");

  const record = await eng.page.evaluate(
    (g) => fetch(`/api/games/${g}/record`).then((r) => r.json()),
    id,
  );
  const n = record.actions.length;
  assert.ok(n > 50);

  // England steps through from its own view: every step it is sent is checked.
  const replayFog = new FogWatch('england');
  const page = eng.page;
  page.on('response', async (r) => {
    if (!/\/replay\/\d+\?role=england$/.test(r.url()) || r.status() !== 200) return;
    replayFog.view((await r.json()).view);
  });
  await page.click('.prompt .finished a[href^="#/replay/"]');
  await page.waitForSelector('#replay-role');
  await atStep(page, n, n, 'all');
  assert.match(await page.locator('.prompt').innerText(), /Game over/);
  await page.selectOption('#replay-role', 'england');
  await page.click('button[aria-label="First position"]');
  await atStep(page, 0, n, 'england');
  assert.match(await stepText(page), /0 \/ \d+ · set-up/);
  // After a jump, England's log may name blocks revealed in battles of steps this test did
  // not fetch: from then on the log is left out of the page check.
  let jumped = false;
  const checkEngland = async (seq) => {
    await atStep(page, seq, n, 'england');
    assert.equal(
      await page.locator('.block.own.scotland').count(),
      0,
      `step ${seq}: no Scottish faces`,
    );
    assert.ok(
      (await page.locator('rect.block.hidden.scotland').count()) > 0,
      `step ${seq}: Scotland blank`,
    );
    assert.ok(
      (await page.locator('.block.own.england').count()) > 0,
      `step ${seq}: England's own blocks`,
    );
    await replayFog.assertClean(
      page,
      `at step ${seq} of England's replay`,
      jumped ? '.logp' : null,
    );
  };
  await checkEngland(0);
  for (let seq = 1; seq <= 12; seq++) {
    await page.click('button[aria-label="Next action"]');
    await checkEngland(seq);
  }
  // The keyboard steps too, and the list of the record's actions jumps to any of them.
  await page.locator('button[aria-label="Next action"]').focus();
  await page.keyboard.press('ArrowRight');
  await checkEngland(13);
  const mid = Math.floor(n / 2);
  jumped = true;
  await page.locator(`.record-actions li[data-seq="${mid}"] button`).click();
  await checkEngland(mid);
  assert.equal(
    await page.locator('.record-actions li.current').getAttribute('data-seq'),
    String(mid),
  );
  await page.click('button[aria-label="Previous action"]');
  await checkEngland(mid - 1);
  assert.deepEqual(replayFog.leaks, []);

  // The same step from Scotland's view: Scotland's blocks have faces, England's are blank.
  await page.selectOption('#replay-role', 'scotland');
  await atStep(page, mid - 1, n, 'scotland');
  await page.waitForSelector('.block.own.scotland');
  assert.equal(await page.locator('.block.own.england').count(), 0);
  assert.ok((await page.locator('rect.block.hidden.england').count()) > 0);

  // Everything revealed: both sides' blocks with their faces, none blank, both hands.
  await page.selectOption('#replay-role', 'all');
  await atStep(page, mid - 1, n, 'all');
  await page.waitForSelector('.block.own.england');
  assert.ok((await page.locator('.block.own.scotland').count()) > 0);
  assert.equal(await page.locator('rect.block.hidden').count(), 0, 'nothing is hidden');
  await page.screenshot({ path: path.join(shots, 'replay.png') });

  // Scotland's player steps through the same game at phone size, everything revealed.
  await sco.page.setViewportSize({ width: 390, height: 844 });
  await sco.page.goto(`${running.server.url}/#/replay/${id}`);
  await sco.page.waitForSelector('#replay-role');
  await atStep(sco.page, n, n, 'all');
  await sco.page.click('button[aria-label="First position"]');
  await atStep(sco.page, 0, n, 'all');
  await sco.page.click('button[aria-label="Next action"]');
  await atStep(sco.page, 1, n, 'all');
  assert.equal(await sco.page.locator('rect.block.hidden').count(), 0);
  const width = await sco.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 400, `the phone replay fits the screen (${width}px wide)`);
  await sco.page.screenshot({ path: path.join(shots, 'replay-phone.png') });
});
