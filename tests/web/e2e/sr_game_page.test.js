// The game page (index.html, #/game/N) opens the Scotland Rising board for a Scotland Rising
// game, chosen by the game object's `game` or, when the object does not say, by the first
// view's. Until the server serves the game, its API and WebSocket are played by the test
// (playwright's routes): a welcome and a fixture view from the engine (tests/web/fixtures/sr/),
// then the answer to the action the page sends. The hots board's own tests cover that game.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser } from './harness.js';
import { axeProblems } from './helpers.js';
import { startStatic } from '../sr_static.js';
import { openGamePage as openWith, srFixture as fixture } from './sr_mock.js';
import { srNames } from '../../../web-client/js/sr/wording.js';

let web;
let browser;
before(async () => {
  web = await startStatic();
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await web?.stop();
});

const openGamePage = (opts) => openWith(browser, web.url, opts);

for (const kind of ['scotland_rising', null]) {
  test(`the Scotland Rising board for its game (kind from the ${kind ? 'game object' : 'view'})`, async () => {
    const { page, context, errors, actions } = await openGamePage({ kind });
    const view = fixture('turn1');
    assert.equal(await page.locator('g.counter').count(), view.units.filter((u) => u.hex).length);
    assert.ok(await page.isVisible('.game-head :text("You play Scotland")'));
    assert.equal(await page.textContent('[data-fact="AP left"]'), String(view.ap));
    // The hots board is not on the page.
    assert.equal(await page.locator('.map-viewport').count(), 0);
    // A move sent with the view's seq; the answer's log merged after ours.
    const move = view.legal_actions.find((a) => a.type === 'move' && a.unit === 'sc_hobelar1');
    const hex = view.units.find((u) => u.id === 'sc_hobelar1').hex;
    await page.click(`[data-hex="${hex}"] .cell`, { force: true });
    await page.click(`[data-hex="${move.path.at(-1)}"] .cell`, { force: true });
    await page.click(`[data-hex="${move.path.at(-1)}"] .cell`, { force: true });
    await page.waitForFunction(() => document.querySelector('#app').dataset.seq === '6');
    assert.equal(actions.length, 1);
    assert.equal(actions[0].seq, 5);
    assert.deepEqual(actions[0].action, move);
    const lines = await page.$$eval('.sr-board ol.log li', (li) => li.map((l) => l.textContent));
    // The log in the board's words: units by name, never by id.
    assert.deepEqual(lines, fixture('charged').log.map(srNames(fixture('charged')).line));
    assert.ok(lines.includes('Scotland Hobelars (Keith) moves 1106 1107 1007 0907'));
    const charge = fixture('charged').log.findLast((l) => / charges \d{4}:/.test(l));
    const target = / charges (\d{4}):/.exec(charge)[1];
    assert.match(await page.textContent('.sr-last-attack'), new RegExp(`charged ${target}`));
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the game page of Scotland Rising: axe-core on a desktop and a phone', async () => {
  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ]) {
    const { page, context } = await openGamePage({ kind: 'scotland_rising', width, height });
    assert.deepEqual(await axeProblems(page), [], `${width}x${height}`);
    await context.close();
  }
});
