// A live game page: one WebSocket, the latest view, and the panels drawn from it. Only the
// view's legal actions are offered; an action is sent with the seq of the view it came from.
import { h, clear } from './dom.js';
import { api } from './api.js';
import { loadGameData } from './gamedata.js';
import { classify, destinations, describe } from './actions.js';
import { Connection } from './connection.js';
import { applyViewPatch, mergeLog } from './view_patch.js';
import { createMap } from './map.js';
import { renderPrompt } from './panels/prompt.js';
import { renderCards } from './panels/cards.js';
import { renderBattle } from './panels/battle.js';
import { renderStatus } from './panels/status.js';
import { renderLog, chatLine } from './panels/log.js';
import { SIDE_NAME } from './board.js';
import { mountGameControls } from './game_controls.js';

const STATUS_TEXT = { connecting: 'Connecting…', open: 'Live', closed: 'Reconnecting…' };

// The server answers a game it does not show this visitor (an invite-only game to anybody but
// its players) as not found, and refuses its WebSocket: say so instead of reconnecting forever.
function renderUnavailable(root, gameId, me) {
  clear(root).append(h('section', { class: 'panel game-unavailable', role: 'alert' },
    h('h1', {}, `Game ${gameId}`),
    h('p', {}, me
      ? 'This game is private to its players, or it does not exist.'
      : 'This game is private, or it does not exist. If you play in it, log in to open it; '
        + 'if you were invited, open your invitation link.'),
    h('a', { class: 'button', href: '#/' }, me ? 'Back to the lobby' : 'Log in')));
}

// The game's details, or null when the server does not show it to this visitor. Any other
// failure (the network) is left to the connection's reconnecting.
async function gameDetails(gameId) {
  try {
    return (await api.game(gameId)).game;
  } catch (ex) {
    if (ex.status === 404) return null;
    return {};
  }
}

export async function openGame(root, { gameId, observe = false, me = null }) {
  const [data, details] = await Promise.all([loadGameData(), gameDetails(gameId)]);
  if (!details) {
    renderUnavailable(root, gameId, me);
    return () => {};
  }
  const st = {
    view: null, seq: 0, ref: null, refs: 0, role: 'observer', welcome: null, chatMax: 0, selected: null,
    pending: false, choice: null, notice: '', views: 0, syncing: false,
  };
  clear(root);
  const head = h('header', { class: 'game-head' });
  const notice = h('p', { class: 'notice', role: 'status', 'aria-live': 'polite' });
  const prompt = h('section', { class: 'prompt', 'aria-label': 'Prompt', 'aria-live': 'polite' });
  const mapHolder = h('div', { class: 'map-holder' });
  const cards = h('section', { class: 'panel cards', 'aria-label': 'Cards' });
  const battle = h('section', { class: 'panel battle', 'aria-label': 'Battle', hidden: true });
  const status = h('section', { class: 'panel status', 'aria-label': 'State of the war' });
  const logPanel = h('section', { class: 'panel logp', 'aria-label': 'Game log' },
    h('h2', {}, 'Log'));
  const chatList = h('ol', { class: 'chat', 'aria-label': 'Chat messages' });
  const chatInput = h('input', { id: 'chat-text', type: 'text', maxlength: 1000,
    autocomplete: 'off', placeholder: 'Message' });
  const chatForm = h('form', { class: 'chat-form', onsubmit: (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (text && conn.send({ type: 'chat', text })) chatInput.value = '';
  } }, h('label', { for: 'chat-text', class: 'visually-hidden' }, 'Chat message'), chatInput,
  h('button', { type: 'submit' }, 'Send'));
  const chatPanel = h('section', { class: 'panel chatp', 'aria-label': 'Chat' },
    h('h2', {}, 'Chat'), chatList, chatForm);

  const map = createMap(data, {
    onArea: (area) => chooseArea(area),
    onBlock: (block) => select(block),
  });
  let zoom = 1;
  const zoomBy = (f) => {
    zoom = Math.min(3, Math.max(1, zoom * f));
    map.el.style.width = `${zoom * 100}%`;
  };
  mapHolder.append(
    h('div', { class: 'zoom', role: 'group', 'aria-label': 'Map zoom' },
      h('button', { 'aria-label': 'Zoom in', onclick: () => zoomBy(1.4) }, '+'),
      h('button', { 'aria-label': 'Zoom out', onclick: () => zoomBy(1 / 1.4) }, '−')),
    h('div', { class: 'map-scroll' }, map.el),
    h('p', { class: 'legend' },
      h('span', { class: 'lg black' }, 'black border: 6 blocks'),
      h('span', { class: 'lg red' }, 'red border: 2 blocks, stop'),
      h('span', { class: 'lg sco' }, 'Scotland'), h('span', { class: 'lg eng' }, 'England')));
  root.append(head, notice, prompt, h('div', { class: 'board' }, mapHolder,
    h('aside', { class: 'side' }, cards, battle, status, logPanel, chatPanel)));
  const extras = h('div', { class: 'game-extras' });
  prompt.after(extras);
  const controls = mountGameControls(extras, { gameId, details, me: me?.username ?? null });

  function ctx() {
    const cls = classify(st.view?.legal_actions);
    return { data, role: st.role, cls, send, select, selected: st.selected, pending: st.pending,
      choice: st.choice, setChoice: (c) => { st.choice = c; render(); } };
  }

  function send(action) {
    if (st.pending) return;
    st.ref = `a${++st.refs}`;
    if (!conn.send({ type: 'action', seq: st.seq, ref: st.ref, action })) {
      say('Not connected; reconnecting…');
      return;
    }
    st.pending = true;
    st.selected = null;
    st.choice = null;
    say(`Sent: ${describe(action, data)}`);
    render();
  }

  function select(block) {
    st.selected = st.selected === block ? null : block;
    st.choice = null;
    render();
  }

  function chooseArea(area) {
    const c = ctx();
    const acts = st.selected
      ? (destinations(c.cls.blocks.get(st.selected)).get(area) || [])
      : (c.cls.areas.get(area) || []);
    if (acts.length === 1) send(acts[0]);
    else if (acts.length > 1) {
      st.choice = acts;
      render();
    }
  }

  function say(text) {
    notice.textContent = text;
  }

  function renderHead() {
    clear(head);
    const w = st.welcome || {};
    const players = w.players || {};
    head.append(
      h('a', { href: '#/', class: 'back' }, '← Lobby'),
      h('h1', {}, `Game ${gameId}`),
      h('span', { class: `seat ${st.role}` }, st.role === 'observer' ? 'Observing'
        : `You play ${SIDE_NAME[st.role]}`),
      h('span', { class: 'players' },
        `Scotland: ${players.scotland ?? '—'} · England: ${players.england ?? '—'}`),
      h('span', { class: `conn conn-${st.conn}`, 'data-conn': st.conn }, STATUS_TEXT[st.conn] ?? ''));
    if (w.seed_sha256) {
      head.append(h('span', { class: 'seed', title: 'SHA-256 of the seed' },
        `seed sha256 ${w.seed_sha256.slice(0, 12)}…`));
    }
  }

  function render() {
    renderHead();
    const view = st.view;
    if (!view) {
      clear(prompt).append(h('p', {}, st.welcome?.status === 'open'
        ? 'Waiting for an opponent to take the other seat.' : 'Loading…'));
      return;
    }
    const c = ctx();
    if (st.selected && !c.cls.blocks.has(st.selected)) st.selected = null;
    renderPrompt(prompt, view, ctx());
    const targets = new Map();
    if (st.selected) {
      for (const [area, acts] of destinations(c.cls.blocks.get(st.selected))) {
        targets.set(area, acts.length === 1 ? describe(acts[0], data) : `${data.area[area]?.name}: choose`);
      }
    } else {
      for (const [area, acts] of c.cls.areas) {
        targets.set(area, acts.length === 1 ? describe(acts[0], data) : `${data.area[area]?.name}: choose`);
      }
    }
    map.render(view, {
      selected: st.selected,
      blockActionable: new Set(st.pending ? [] : c.cls.blocks.keys()),
      areaTargets: st.pending ? new Map() : targets,
      moving: view.move?.moving || null,
    });
    renderCards(cards, view, ctx());
    renderBattle(battle, view, ctx());
    renderStatus(status, view, ctx());
    renderLog(logPanel, view);
    if (view.outcome) {
      prompt.append(h('p', { class: 'finished' },
        h('a', { href: `#/replay/${gameId}` }, 'Step through this game'), ' · ',
        h('a', { href: `/api/games/${gameId}/record`, download: `blockfog-game-${gameId}.json` },
          'Download the record')));
    }
    // Observers write only when the game allows it, and only when logged in.
    chatForm.hidden = st.role === 'observer' && !(me && details.observer_chat);
  }

  // The view a `view` frame gives, or null if it is older than ours.
  function wholeView(msg) {
    // seq is this seat's view version: it only moves when what this seat sees changed.
    if (st.view && msg.seq < st.seq) return null;
    st.syncing = false;
    const view = msg.view;
    // A pushed view holds only the log lines from log_from on: keep ours before it.
    if (msg.log_from > 0 && st.view) view.log = mergeLog(st.view.log, msg.log_from, view.log);
    return view;
  }

  // The view a `view_patch` frame makes of ours, or null if it does not apply to ours: then
  // one sync, whose whole view also supersedes the patches that arrive before it.
  function patchedView(msg) {
    const view = st.syncing ? null : applyViewPatch(st.view, st.seq, msg);
    if (!view && !st.syncing) st.syncing = conn.send({ type: 'sync', chat_since: st.chatMax });
    return view;
  }

  function onMessage(msg) {
    controls.onMessage(msg);
    if (msg.type === 'welcome') {
      st.welcome = msg;
      st.role = msg.role;
    } else if (msg.type === 'view' || msg.type === 'view_patch') {
      const view = msg.type === 'view' ? wholeView(msg) : patchedView(msg);
      if (!view) return;
      const answer = msg.ref !== undefined && msg.ref === st.ref;
      st.view = view;
      st.seq = msg.seq;
      st.views += 1;
      root.dataset.seq = String(msg.seq);
      root.dataset.views = String(st.views); // lets tests wait for the answer to a click
      // A whole view (joining, sync) answers whatever was pending; a patch only our own action.
      if (answer || (msg.type === 'view' && msg.log_from === 0)) st.pending = false;
      st.choice = null;
      // A stale action is answered by the fresh view: choose again, no dialog.
      say(answer && msg.stale ? 'The game had moved on; here is the current position.' : '');
    } else if (msg.type === 'chat') {
      if (msg.id <= st.chatMax) return;
      st.chatMax = msg.id;
      chatList.append(chatLine(msg));
      chatList.scrollTop = chatList.scrollHeight;
      return;
    } else if (msg.type === 'error') {
      st.pending = false;
      st.views += 1;
      root.dataset.views = String(st.views);
      say(msg.message || msg.code);
    } else return;
    render();
  }

  const conn = new Connection(gameId, {
    observe,
    patches: true,
    handlers: {
      onMessage,
      onStatus: (s) => {
        st.conn = s;
        if (s !== 'open') st.pending = false;
        renderHead();
      },
      chatSince: () => st.chatMax,
    },
  });
  st.conn = 'connecting';
  render();
  conn.start();
  window.blockfogConnection = conn; // for the reconnect test and the browser console
  return () => {
    controls.stop();
    conn.stop();
  };
}
