// End to end in headless Chromium: axe-core finds no serious or critical problem (WCAG 2.2 AA and
// axe's best practices, helpers.js) on any page of the site, each at a desktop (1440x900) and a
// phone (390x844) size: the lobby, a game under way (its side panels shown and folded), the same
// game once ended, its replay, the tournaments' list, a tournament under way (pairings,
// standings, crosstable), the settings, the help, the ratings and a player's page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, startGame, axeProblems } from './helpers.js';

const running = useServerAndBrowser();
const shots = outputDir();
const SIZES = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
};

// axe at both sizes on the page as it stands: [] when nothing serious is found, else each
// problem named with its page and size. A screenshot of each, to look at.
async function axeBothSizes(page, name) {
  const found = [];
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    const file = `a11y-${name.replace(/[^a-z]+/g, '-')}-${size}.png`;
    await page.screenshot({ path: path.join(shots, file) });
    for (const problem of await axeProblems(page)) found.push(`${name} (${size}): ${problem}`);
  }
  return found;
}

// A call of the site's API from the page, as its scripts make them: the status and the body.
const call = (page, method, url, body) =>
  page.evaluate(
    async ([method, url, body]) => {
      const r = await fetch(url, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, body: await r.json().catch(() => null) };
    },
    [method, url, body],
  );

async function visit(page, hash, selector) {
  await page.goto(`${running.server.url}/#/${hash}`);
  await page.waitForSelector(selector);
}

test('axe finds no serious problem on any page, at a desktop and a phone size', async () => {
  const sco = await newPlayer(running.browser, running.server, 'a11ysco', {
    viewport: SIZES.desktop,
  });
  const eng = await newPlayer(running.browser, running.server, 'a11yeng');
  const third = await newPlayer(running.browser, running.server, 'a11ythird');
  const page = sco.page;
  const problems = [];

  problems.push(...(await axeBothSizes(page, 'lobby')));

  const gameId = await startGame(sco, eng);
  await page.waitForSelector('button.card');
  problems.push(...(await axeBothSizes(page, 'game')));
  await page.setViewportSize(SIZES.desktop);
  await page.click('button.side-toggle');
  await page.waitForSelector('.board.panels-collapsed');
  problems.push(...(await axeBothSizes(page, 'game, side panels folded')));
  await page.setViewportSize(SIZES.desktop);
  await page.click('button.side-toggle');

  const resigned = await call(eng.page, 'POST', `/api/games/${gameId}/resign`, {});
  assert.equal(resigned.status, 200, 'England resigns');
  await page.waitForSelector('.prompt .finished');
  problems.push(...(await axeBothSizes(page, 'game, ended')));
  await visit(page, `replay/${gameId}`, '#app[data-shown]');
  problems.push(...(await axeBothSizes(page, 'replay')));

  // A tournament under way: three players, round 1 paired (one bye).
  await page.setViewportSize(SIZES.desktop);
  await visit(page, 'tournaments', 'form.tournament-create');
  problems.push(...(await axeBothSizes(page, 'tournaments')));
  await page.setViewportSize(SIZES.desktop);
  await page.fill('form.tournament-create input[name=name]', 'Axe Open');
  await page.fill('form.tournament-create input[name=rounds]', '2');
  await page.click('form.tournament-create button[type=submit]');
  await page.waitForSelector('h1:text("Axe Open")');
  const tid = Number(page.url().match(/#\/tournament\/(\d+)/)[1]);
  for (const p of [sco, eng, third]) {
    const r = await call(p.page, 'POST', `/api/tournaments/${tid}/register`, {});
    assert.equal(r.status, 200, `${p.name} registers`);
  }
  await page.reload();
  await page.click('button.start');
  await page.waitForSelector('section.round');
  problems.push(...(await axeBothSizes(page, 'tournament')));

  await visit(page, 'settings', '.panel.settings h1');
  problems.push(...(await axeBothSizes(page, 'settings')));
  await visit(page, 'help', 'article.help h1');
  problems.push(...(await axeBothSizes(page, 'help')));
  await visit(page, 'ratings', 'h1:text("Ratings")');
  problems.push(...(await axeBothSizes(page, 'ratings')));
  await visit(page, 'players/a11yeng', 'h1');
  problems.push(...(await axeBothSizes(page, 'player')));

  assert.deepEqual(problems, []);
  for (const p of [sco, eng, third]) await p.context.close();
});
