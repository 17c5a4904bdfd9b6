// The web client's game socket when several server nodes share the games: a `moved` frame
// sends it where the game is (docs/protocol.md), at once at most three times in a row, then it
// backs off as after a drop. A fake WebSocket and fake timers stand in for the browser's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { Connection, followMove, kMaxMovesInARow } = await import(
  path.join(root, 'web-client/js/connection.js')
);

// Every socket opened, in order; the test plays the server's part on each.
const sockets = [];
class FakeSocket {
  static OPEN = 1;
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    sockets.push(this);
  }
  serve(frames) {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
    for (const f of frames) this.onmessage?.({ data: JSON.stringify({ v: 1, ...f }) });
  }
  close() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.();
  }
  send() {}
}

// Timers run when the test says, and remember their delays.
let timers = [];
function runTimers() {
  const due = timers;
  timers = [];
  for (const t of due) t.fn();
  return due.map((t) => t.delay);
}

function withBrowser(fn) {
  const saved = {
    WebSocket: globalThis.WebSocket,
    window: globalThis.window,
    setTimeout: globalThis.setTimeout,
    setInterval: globalThis.setInterval,
    clearInterval: globalThis.clearInterval,
  };
  globalThis.WebSocket = FakeSocket;
  globalThis.window = { location: { protocol: 'https:', host: 'play.example' } };
  globalThis.setTimeout = (f, delay) => timers.push({ fn: f, delay });
  globalThis.setInterval = () => 0;
  globalThis.clearInterval = () => {};
  sockets.length = 0;
  timers = [];
  try {
    fn();
  } finally {
    Object.assign(globalThis, saved);
  }
}

test('a moved frame is followed at once to the node that holds the game, and kept', () => {
  withBrowser(() => {
    const got = [];
    const c = new Connection(7, { handlers: { onMessage: (m) => got.push(m.type) } }).start();
    assert.equal(sockets[0].url, 'wss://play.example/ws/games/7?chat_since=0');
    sockets[0].serve([{ type: 'moved', ws: '/n/node-2/ws/games/7' }]);
    assert.deepEqual(runTimers(), [0]);
    assert.equal(sockets[1].url, 'wss://play.example/n/node-2/ws/games/7?chat_since=0');
    sockets[1].serve([{ type: 'welcome' }]);
    assert.deepEqual(got, ['welcome']);
    // A drop: the next connection goes to the same node first.
    sockets[1].close();
    runTimers();
    assert.equal(sockets[2].url, 'wss://play.example/n/node-2/ws/games/7?chat_since=0');
    // That node cannot be reached: the usual path is tried next.
    sockets[2].close();
    runTimers();
    assert.equal(sockets[3].url, 'wss://play.example/ws/games/7?chat_since=0');
    c.stop();
  });
});

test('retry_ms waits that long and goes back to the usual path', () => {
  withBrowser(() => {
    const c = new Connection(7, { handlers: { onMessage() {} } }).start();
    sockets[0].serve([{ type: 'moved', retry_ms: 1200 }]);
    assert.deepEqual(runTimers(), [1200]);
    assert.equal(sockets[1].url, 'wss://play.example/ws/games/7?chat_since=0');
    c.stop();
  });
});

test('after three moves in a row the connection backs off, then follows moves again', () => {
  withBrowser(() => {
    const c = new Connection(7, { handlers: { onMessage() {} } }).start();
    const delays = [];
    for (let i = 0; i <= kMaxMovesInARow; i++) {
      sockets[i].serve([{ type: 'moved', ws: `/n/n${i % 2}/ws/games/7` }]);
      delays.push(...runTimers());
    }
    assert.deepEqual(delays.slice(0, kMaxMovesInARow), [0, 0, 0]);
    assert.ok(delays[kMaxMovesInARow] >= 250, `backed off ${delays[kMaxMovesInARow]} ms`);
    assert.equal(sockets[kMaxMovesInARow + 1].url, 'wss://play.example/ws/games/7?chat_since=0');
    sockets[kMaxMovesInARow + 1].serve([{ type: 'moved', ws: '/n/n1/ws/games/7' }]);
    assert.deepEqual(runTimers(), [0]);
    c.stop();
  });
});

test('only a same-origin path to this game is followed', () => {
  assert.equal(followMove({ ws: 'wss://elsewhere.example/ws/games/7' }, 7, 0), null);
  assert.equal(followMove({ ws: '/n/b/ws/games/8' }, 7, 0), null);
  assert.equal(followMove({ ws: '/n/b/../ws/games/7' }, 7, 0), null);
  assert.deepEqual(followMove({ ws: '/n/b/ws/games/7' }, 7, 2), {
    path: '/n/b/ws/games/7',
    delay: 0,
  });
  assert.equal(followMove({ ws: '/n/b/ws/games/7' }, 7, 3), null);
  assert.equal(followMove({}, 7, 0), null);
});
