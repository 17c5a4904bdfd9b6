// The server's side of a finished Scotland Rising game's replay, played by a test: the record
// (GET /api/games/{id}/record) and each step's view (GET /api/games/{id}/replay/{seq}?role=R)
// from tests/web/fixtures/sr/replay.json, the engine's first 40 actions of a seeded game and
// the observer's view after each (tools/game-views --record). The game is given as ended by
// England's resignation after them. For e2e/sr_replay.test.js and sr-screenshots.js.
import { srFixtureFile } from './sr_mock.js';

export const replayFixture = () => srFixtureFile('replay');

export const RESULT = { winner: 'england', reason: 'resigned' };

// The record as the server signs it; `kind` false leaves out the game's kind (a server that
// did not say it: the page then goes by the first view's).
export function srRecord(gameId, { kind = true } = {}) {
  const r = replayFixture();
  return {
    game_id: gameId,
    rules_version: 'scotland-rising-1',
    ...(kind ? { game: r.game } : {}),
    scenario: r.scenario,
    options: {},
    seed_sha256: 'ab'.repeat(32),
    seed: 'cd'.repeat(32),
    actions: r.actions.map((a) => ({ ...a, state_hash: '00'.repeat(32) })),
    final_state_hash: '00'.repeat(32),
    result: RESULT,
    end: { at: 1765000000000, by: 'resigned' },
  };
}

// Answers game `gameId`'s record and replay steps on `page` (registered after any catch-all
// route of the test, so it goes first). Returns the list of steps asked for, as "seq/role".
export async function serveSrReplay(page, gameId, opts = {}) {
  const r = replayFixture();
  const asked = [];
  await page.route(new RegExp(`/api/games/${gameId}/(record|replay/\\d+)`), (route) => {
    const url = new URL(route.request().url());
    const json = (status, body) =>
      route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
    if (url.pathname.endsWith('/record')) return json(200, srRecord(gameId, opts));
    const seq = Number(url.pathname.split('/').at(-1));
    const role = url.searchParams.get('role');
    asked.push(`${seq}/${role}`);
    if (!(seq >= 0 && seq <= r.actions.length)) {
      return json(400, { error: { code: 'bad_field', message: 'no such step' } });
    }
    const view = (as) => ({ ...r.views[seq], board: r.board, role: as });
    const head = { game_id: gameId, seq, actions: r.actions.length, role };
    if (role === 'all') {
      return json(200, {
        ...head,
        views: { scotland: view('scotland'), england: view('england') },
      });
    }
    if (['scotland', 'england', 'observer'].includes(role))
      return json(200, { ...head, view: view(role) });
    return json(400, { error: { code: 'bad_field', message: 'role' } });
  });
  return asked;
}
