// One game's WebSocket: reconnects with exponential backoff after a drop and resynchronises
// (the server sends welcome + the current view + the chat after `chatSince` on every connect).
// Where several server nodes share the games, a node that does not hold this game answers
// `moved` (docs/protocol.md): the connection goes where it says at once, or after its
// `retry_ms`, at most kMaxMovesInARow times in a row, then backs off as after a drop.

// Moves followed at once before backing off: two nodes that disagree must not be bounced
// between without end.
export const kMaxMovesInARow = 3;

// Delay before reconnect attempt `attempt` (0-based): 0.5 s doubling to 15 s, with jitter.
export function backoffDelay(attempt, random = Math.random) {
  const base = Math.min(15000, 500 * 2 ** Math.min(attempt, 10));
  return Math.round(base / 2 + random() * (base / 2));
}

// `patches`: after an action, view_patch frames instead of whole views (the caller applies them).
// `path`: where a `moved` frame sent the game (/n/<node>/ws/games/<id>), else the usual path.
export function socketUrl(
  location,
  gameId,
  { observe = false, chatSince = 0, patches = false, path = null } = {},
) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = [`chat_since=${chatSince}`];
  if (observe) q.push('observe=1');
  if (patches) q.push('patches=1');
  return `${scheme}//${location.host}${path ?? `/ws/games/${gameId}`}?${q.join('&')}`;
}

// What a `moved` frame asks of a connection that has followed `movesInARow` moves in a row:
// the path to open next (null: the usual one) and after how long; null when it must back off
// instead. Only a same-origin path of a game's socket is followed.
export function followMove(msg, gameId, movesInARow) {
  if (movesInARow >= kMaxMovesInARow) return null;
  if (typeof msg.ws === 'string') {
    const m = /^\/n\/[A-Za-z0-9_-]{1,63}\/ws\/games\/(\d+)$/.exec(msg.ws);
    if (!m || Number(m[1]) !== Number(gameId)) return null;
    return { path: msg.ws, delay: 0 };
  }
  if (Number.isInteger(msg.retry_ms) && msg.retry_ms >= 0) {
    return { path: null, delay: Math.min(msg.retry_ms, 60000) };
  }
  return null;
}

export class Connection {
  // handlers: onMessage(msg), onStatus('connecting' | 'open' | 'closed'), chatSince() -> id
  constructor(gameId, { observe = false, patches = false, handlers }) {
    this.gameId = gameId;
    this.observe = observe;
    this.patches = patches;
    this.handlers = handlers;
    this.attempt = 0;
    this.ws = null;
    this.stopped = false;
    this.timer = null;
    this.pingTimer = null;
    // The node that holds the game, as the last `moved` said: kept for the next connection.
    this.path = null;
    this.movesInARow = 0;
    this.move = null; // set by a `moved` frame: where and when the closing socket goes next
  }

  start() {
    this.stopped = false;
    this.open();
    return this;
  }

  open() {
    if (this.stopped) return;
    this.handlers.onStatus?.('connecting');
    const url = socketUrl(window.location, this.gameId, {
      observe: this.observe,
      patches: this.patches,
      chatSince: this.handlers.chatSince?.() ?? 0,
      path: this.path,
    });
    const ws = new WebSocket(url);
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.handlers.onStatus?.('open');
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: 'ping' }), 60000);
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg.type === 'restarting') {
        ws.close();
        return;
      }
      if (msg.type === 'moved') {
        // The server closes the socket after this frame; onclose goes where it says.
        this.move = followMove(msg, this.gameId, this.movesInARow);
        if (!this.move) {
          // Backing off, then the usual path, where up to kMaxMovesInARow moves are followed again.
          this.path = null;
          this.movesInARow = 0;
        }
        ws.close();
        return;
      }
      // Served: the backoff and the count of moves start again from nothing.
      this.attempt = 0;
      this.movesInARow = 0;
      this.handlers.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      this.handlers.onStatus?.('closed');
      if (this.stopped) return;
      const move = this.move;
      this.move = null;
      if (move) {
        this.movesInARow++;
        this.path = move.path;
        this.timer = setTimeout(() => this.open(), move.delay);
        return;
      }
      // A node that could not be reached is not tried again: the usual path finds the game.
      if (!opened) this.path = null;
      const delay = backoffDelay(this.attempt++);
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  isOpen() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  send(msg) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify({ v: 1, ...msg }));
    return true;
  }

  // Drops the socket as a network fault would (used by the reconnect test and "Reconnect").
  drop() {
    this.ws?.close();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }
}
