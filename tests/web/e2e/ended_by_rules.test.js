// End to end in headless Chromium: a game played to its end by the rules (RULES 12) while
// Scotland's page stays open on it. Both seats play at random on WebSockets of their own (the
// page's player's session, so the page hears every view as it would its own moves); when the
// final view comes, the page, never reloaded, gives the result in words (the wording module's,
// no identifier), offers Rematch and no longer offers Resign.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, startGame, startBot, lastView } from './helpers.js';
import { outcomeText } from '../../../web-client/js/wording.js';

const running = useServerAndBrowser(['--ws-rate', '1000']);
const shots = outputDir();

test('a game ended by the rules: its result in words, Rematch at once, no Resign', async () => {
  const fay = await newPlayer(running.browser, running.server, 'fay');
  const gil = await newPlayer(running.browser, running.server, 'gil');
  const id = await startGame(fay, gil);
  await gil.page.goto(`${running.server.url}/#/`);
  const page = fay.page;
  await page.waitForSelector('[data-act=resign]');
  assert.equal(await page.locator('[data-act=rematch]').count(), 0, 'no rematch under way');

  const bots = [
    await startBot(fay, running.server, id, { toTheEnd: true }),
    await startBot(gil, running.server, id, { toTheEnd: true }),
  ];
  const sent = await Promise.all(bots.map((b) => b.done));
  assert.ok(sent[0] + sent[1] > 50, `the game lasted (${sent} actions sent)`);
  for (const b of bots) await b.stop();

  await page.waitForSelector('[data-act=rematch]');
  const outcome = lastView(fay)?.outcome;
  assert.ok(outcome?.reason, 'the final view the page got says how the game ended');
  // The engine's outcome in words, with the nobles' count where they decided (the final view's).
  const result = outcomeText(outcome, lastView(fay).nobles);
  assert.equal(await page.locator('.game-result').innerText(), result);
  assert.equal(await page.locator('.prompt .awaiting').innerText(), result);
  // No identifier anywhere on the page (the log's lines included), and the result not
  // prefixed twice ("Game over: Game over: …"; the log's last line is "Game over: …").
  assert.doesNotMatch(await page.locator('#app').innerText(), /Game over: Game over|_/);
  assert.equal(await page.locator('[data-act=resign]').count(), 0, 'Resign is gone');
  await page.screenshot({ path: path.join(shots, 'ended-by-rules.png') });
  await fay.context.close();
  await gil.context.close();
});
