// The web client's HTTP calls when several server nodes share the games: a game-scoped request
// refused with 503 `game_moving` (the game is between two nodes; nothing was done) is asked
// again after the server's Retry-After, a bounded number of times; every other error reaches
// the caller at once. A fake fetch plays the server and a fake sleep records the waits.
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { api, call, timing, kMoveRetries, moveWaitMs, ApiError } = await import(
  path.join(root, 'web-client/js/api.js')
);

let requests = [];
let waits = [];
// The answers the fake server gives, in order; the last is repeated.
let answers = [];

function answer(status, body, headers = {}) {
  return { status, body, headers };
}
const moving = (retryAfter) =>
  answer(
    503,
    { error: { code: 'game_moving', message: 'this game is moving to another node' } },
    retryAfter === undefined ? {} : { 'Retry-After': retryAfter },
  );

beforeEach(() => {
  requests = [];
  waits = [];
  timing.sleep = async (ms) => {
    waits.push(ms);
  };
  globalThis.fetch = async (url, init) => {
    requests.push({ url, method: init.method, body: init.body });
    const a = answers[Math.min(requests.length - 1, answers.length - 1)];
    return {
      ok: a.status >= 200 && a.status < 300,
      status: a.status,
      headers: { get: (name) => a.headers[name] ?? null },
      json: async () => a.body,
    };
  };
});

test('a join that meets its game moving is asked again after Retry-After and succeeds', async () => {
  answers = [moving('2'), moving('1'), answer(200, { game: { id: 7, status: 'active' } })];
  const body = await api.join(7);
  assert.deepEqual(body, { game: { id: 7, status: 'active' } });
  assert.equal(requests.length, 3);
  // The same request each time: the same path, method and body.
  for (const r of requests) assert.deepEqual(r, requests[0]);
  assert.equal(requests[0].url, '/api/games/7/join');
  assert.deepEqual(waits, [2000, 1000]);
});

test('a game that stays moving is given up after a bounded number of retries', async () => {
  answers = [moving('1')];
  await assert.rejects(call('POST', '/api/games/7/resign', {}), (e) => {
    assert.ok(e instanceof ApiError);
    assert.equal(e.status, 503);
    assert.equal(e.code, 'game_moving');
    assert.match(e.message, /moving/);
    return true;
  });
  assert.equal(requests.length, kMoveRetries + 1);
  assert.equal(waits.length, kMoveRetries);
});

test('other refusals are not asked again, storage_unavailable included', async () => {
  for (const refusal of [
    answer(
      503,
      { error: { code: 'storage_unavailable', message: 'cannot store' } },
      { 'Retry-After': '1' },
    ),
    answer(409, { error: { code: 'illegal_action', message: 'not now' } }),
    answer(502, null),
  ]) {
    requests = [];
    answers = [refusal, answer(200, {})];
    await assert.rejects(api.dice(7, { commitment: 'ab' }), ApiError);
    assert.equal(requests.length, 1);
  }
  assert.deepEqual(waits, []);
});

test('the wait follows Retry-After in whole seconds, with a floor and a cap', () => {
  assert.equal(moveWaitMs('3'), 3000);
  assert.equal(moveWaitMs(null), 1000);
  assert.equal(moveWaitMs('0'), 1000);
  assert.equal(moveWaitMs('soon'), 1000);
  assert.equal(moveWaitMs('3600'), 10000);
});
