// The server's side of a Scotland Rising game page, played by a test until the server serves
// the game: the API answers (logged in as wallace, Scotland, in game 7) and the WebSocket (a
// welcome, the engine's view of tests/web/fixtures/sr/turn1.json, and for any action the view
// of charged.json, its log pushed from where turn1's ends). For e2e/sr_game_page.test.js and
// the screenshots (sr-screenshots.js).
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './harness.js';

export const srFixtureFile = (name) =>
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'tests/web/fixtures/sr', `${name}.json`), 'utf8'));
export const srFixture = (name) => srFixtureFile(name).view;

function gameObject(kind) {
  return {
    id: 7,
    ...(kind ? { game: kind } : {}),
    rules_version: 'scotland-rising-1',
    scenario: 'bannockburn_variant',
    options: {},
    status: 'active',
    visibility: 'public',
    created_by: 'wallace',
    players: { scotland: 'wallace', england: 'edward' },
    computer: { scotland: null, england: null },
    your_role: 'scotland',
    seq: 0,
    awaiting: ['scotland'],
    clocks: null,
    time_control: { kind: 'none' },
  };
}

// A page logged in as wallace (Scotland) in game 7, whose kind the game object gives as
// `kind` (or not at all); its first view is the fixture `first`. Returns the page and the
// actions it sent over the WebSocket.
export async function openGamePage(
  browser,
  url,
  { kind, width = 1366, height = 768, first = 'turn1' },
) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.route('**/api/**', (route) => {
    const url = new URL(route.request().url());
    const json = (body) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify(body) });
    if (url.pathname === '/api/me') return json({ account: { id: 1, username: 'wallace' } });
    if (url.pathname === '/api/games/7') return json({ game: gameObject(kind) });
    if (url.pathname === '/api/games/7/notes') return json({ text: '', updated_at: null });
    if (url.pathname === '/api/games/mine') return json({ games: [] });
    return route.fulfill({ status: 404, contentType: 'application/json', body: '{}' });
  });
  const actions = [];
  await page.routeWebSocket('**/ws/games/7**', (ws) => {
    const send = (msg) => ws.send(JSON.stringify({ v: 1, ...msg }));
    send({
      type: 'welcome',
      game_id: 7,
      role: 'scotland',
      status: 'active',
      seed_sha256: 'ab'.repeat(32),
      players: { scotland: 'wallace', england: 'edward' },
      computer: { scotland: null, england: null },
      dice: null,
    });
    send({ type: 'view', seq: 5, log_from: 0, view: srFixture(first) });
    ws.onMessage((text) => {
      const msg = JSON.parse(text);
      if (msg.type !== 'action') return;
      actions.push(msg);
      // The answer: the engine's view of a later step, its log pushed from log_from on.
      const next = srFixture('charged');
      const from = srFixture('turn1').log.length;
      send({
        type: 'view',
        seq: 6,
        ref: msg.ref,
        log_from: from,
        view: { ...next, log: next.log.slice(from) },
      });
    });
  });
  await page.goto(`${url}/#/game/7`);
  await page.waitForSelector('.sr-board g.counter');
  return { page, context, errors, actions };
}
