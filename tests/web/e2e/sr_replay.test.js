// The replay page (index.html, #/replay/N) of a finished Scotland Rising game: its own board,
// read-only, chosen by the record's game or, when the record does not say, by the first view's.
// The server's record and replay steps are played by the test (e2e/sr_replay_mock.js) from the
// engine's views of one seeded game (tests/web/fixtures/sr/replay.json, tools/game-views
// --record). The hots replay is tested against the real server by e2e/replay.test.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser } from './harness.js';
import { axeProblems } from './helpers.js';
import { startStatic } from '../sr_static.js';
import { openGamePage } from './sr_mock.js';
import { serveSrReplay, replayFixture } from './sr_replay_mock.js';
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

const fixture = replayFixture();
const n = fixture.actions.length;
const stepView = (seq) => fixture.views[seq];
// A step's log as the page shows it: units by name (sr/wording.js), never by id.
const { line: logWords } = srNames({ ...stepView(0), board: fixture.board });
const shownLog = (seq) => stepView(seq).log.map(logWords);
const onBoard = (view) => view.units.filter((u) => u.hex && !u.eliminated && !u.exited).length;
const UNIT_ID = /\b(?:sc|en)_[a-z]+\d*\b/;

// A visitor (not logged in) opens game 9's replay; the API answers nothing else.
async function openReplay({ kind = true, width = 1366, height = 768 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const sent = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET') sent.push(`${r.method()} ${r.url()}`);
  });
  await page.route('**/api/**', (route) => {
    const url = new URL(route.request().url());
    const body = (status, b) =>
      route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(b) });
    if (url.pathname === '/api/me') return body(401, { error: { code: 'not_logged_in' } });
    return body(404, { error: { code: 'not_found', message: 'no such thing' } });
  });
  const asked = await serveSrReplay(page, 9, { kind });
  await page.goto(`${web.url}/#/replay/9`);
  await atStep(page, n);
  return { page, context, errors, asked, sent };
}

// Waits until step `seq` is drawn.
async function atStep(page, seq) {
  await page.waitForFunction(
    ([s, total]) =>
      (document.querySelector('.step-text')?.textContent || '').startsWith(`${s} / ${total}`) &&
      document.getElementById('app').dataset.shown === `${s}/observer`,
    [seq, n],
  );
}

const text = (page, sel) => page.locator(sel).innerText();
const logLines = (page) => page.$$eval('.sr-board ol.log li', (li) => li.map((l) => l.textContent));

for (const kind of [true, false]) {
  test(`a Scotland Rising game stepped through (kind from the ${kind ? 'record' : "last step's view"})`, async () => {
    const { page, context, errors, asked, sent } = await openReplay({ kind });
    // Its own board, not the hots map; one view for everybody, no choice of seat.
    assert.equal(await page.locator('.map-viewport').count(), 0);
    assert.equal(await page.locator('#replay-role').count(), 0);
    assert.match(await text(page, '.replay-same-view'), /every seat sees the same/);
    assert.equal(await text(page, '.game-result'), 'England wins by resignation.');
    // The last step: the game over by England's resignation, the last action in words.
    assert.equal(
      await text(page, '.step-text'),
      `${n} / ${n} · Scotland: Scotland Pike (Douglas) leaves schiltron`,
    );
    assert.match(await text(page, '.sr-prompt .finished'), /^England wins by resignation/);
    assert.equal(await page.locator('g.counter').count(), onBoard(stepView(n)));
    assert.deepEqual(await logLines(page), shownLog(n));
    for (const line of await logLines(page)) assert.doesNotMatch(line, UNIT_ID);
    assert.match(await text(page, '.sr-last-attack'), /charged 0510/);
    // The record's actions in words, units by name, never by id.
    const listed = await page.$$eval('.record-actions li', (li) => li.map((l) => l.textContent));
    assert.equal(listed.length, n);
    for (const line of listed) assert.doesNotMatch(line, UNIT_ID);
    assert.equal(listed[0], 'Scotland: Scotland Pike (R. Bruce) forms schiltron');
    assert.equal(listed[19], 'Scotland ends the turn');
    assert.equal(listed[29], 'Scotland: Scotland Leader (Moray) charges 0510 from 0509');

    // First, then step by step: each step's board, status and log are that step's view.
    const nextAt = () => page.locator('button[aria-label="Next action"]').boundingBox();
    const before = await nextAt();
    await page.click('button[aria-label="First position"]');
    await atStep(page, 0);
    // The step's words are shorter now, and the Next button has not moved.
    assert.deepEqual(await nextAt(), before);
    assert.equal(await text(page, '.step-text'), `0 / ${n} · set-up`);
    assert.equal(await text(page, '[data-fact="Phase"]'), 'Set-up');
    assert.deepEqual(await logLines(page), shownLog(0));
    for (let seq = 1; seq <= 5; seq++) {
      await page.click('button[aria-label="Next action"]');
      await atStep(page, seq);
    }
    assert.equal(await text(page, '[data-fact="Phase"]'), 'Actions');
    assert.equal(await text(page, '[data-fact="AP left"]'), String(stepView(5).ap));
    assert.deepEqual(await logLines(page), shownLog(5));
    assert.match(await text(page, '.step-text'), /^5 \/ 40 · Scotland rolls for action points$/);
    // Read-only: the side to act's unit chosen on the map offers nothing, sends nothing.
    const hobelar = stepView(5).units.find((u) => u.id === 'sc_hobelar1').hex;
    await page.click(`[data-hex="${hobelar}"] .cell`, { force: true });
    await page.click(`[data-hex="${hobelar}"] .cell`, { force: true });
    assert.equal(await page.locator('.sr-prompt button').count(), 0);
    assert.equal(
      await page
        .locator('.sr-board .ring-move, .sr-board .ring-attack, .sr-board .ring-charge')
        .count(),
      0,
    );
    // The keyboard steps from the controls; on the map the arrows move between hexes instead.
    await page.locator('button[aria-label="Next action"]').focus();
    await page.keyboard.press('ArrowRight');
    await atStep(page, 6);
    await page.keyboard.press('ArrowLeft');
    await atStep(page, 5);
    await page.keyboard.press('ArrowRight');
    await atStep(page, 6);
    await page.locator(`[data-hex="${hobelar}"]`).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('#app').getAttribute('data-shown'), '6/observer');
    // The list jumps to the charge: its dice in the last attack's panel.
    await page.locator('.record-actions li[data-seq="30"] button').click();
    await atStep(page, 30);
    assert.equal(await page.locator('.record-actions li.current').getAttribute('data-seq'), '30');
    assert.match(await text(page, '.sr-last-attack'), /charged 0510/);
    assert.equal(await page.locator('g.counter').count(), onBoard(stepView(30)));
    await page.click('button[aria-label="Previous action"]');
    await atStep(page, 29);
    assert.doesNotMatch(await text(page, '.sr-last-attack'), /charged 0510/);
    await page.click('button[aria-label="Last position"]');
    await atStep(page, n);
    assert.match(await text(page, '.sr-prompt .finished'), /^England wins by resignation/);

    // The steps were asked for as the observer's view (the last one, when the record did not
    // say its game, as the hots page asks: everything revealed); nothing was ever sent.
    assert.ok(asked.every((a) => a.endsWith('/observer') || (!kind && a === `${n}/all`)));
    assert.equal(asked.includes(`${n}/all`), !kind);
    assert.deepEqual(sent, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a finished game page links to its replay', async () => {
  const { page, context, errors } = await openGamePage(browser, web.url, {
    kind: 'scotland_rising',
    first: 'over',
  });
  await serveSrReplay(page, 7);
  const link = page.locator('.sr-prompt .finished-links a[href="#/replay/7"]');
  assert.equal(await link.innerText(), 'Step through this game');
  // It stays after a click on the map redraws the prompt.
  await page.click('g.counter >> nth=0', { force: true });
  await link.click();
  await page.waitForFunction(() => document.getElementById('app').dataset.shown === '40/observer');
  assert.equal(await page.locator('.record-actions li').count(), n);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Scotland Rising replay: axe-core on a desktop and a phone, the phone page fits', async () => {
  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ]) {
    const { page, context } = await openReplay({ width, height });
    await page.locator('.record-actions li[data-seq="30"] button').click();
    await atStep(page, 30);
    assert.deepEqual(await axeProblems(page), [], `${width}x${height}`);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= width + 2, `${width}x${height}: ${scroll}px wide`);
    await context.close();
  }
});
