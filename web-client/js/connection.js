// One game's WebSocket: reconnects with exponential backoff after a drop and resynchronises
// (the server sends welcome + the current view + the chat after `chatSince` on every connect).

// Delay before reconnect attempt `attempt` (0-based): 0.5 s doubling to 15 s, with jitter.
export function backoffDelay(attempt, random = Math.random) {
  const base = Math.min(15000, 500 * 2 ** Math.min(attempt, 10));
  return Math.round(base / 2 + random() * (base / 2));
}

// `patches`: after an action, view_patch frames instead of whole views (the caller applies them).
export function socketUrl(
  location,
  gameId,
  { observe = false, chatSince = 0, patches = false } = {},
) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = [`chat_since=${chatSince}`];
  if (observe) q.push('observe=1');
  if (patches) q.push('patches=1');
  return `${scheme}//${location.host}/ws/games/${gameId}?${q.join('&')}`;
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
    });
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
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
      this.handlers.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      this.handlers.onStatus?.('closed');
      if (this.stopped) return;
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
