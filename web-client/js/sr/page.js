// A live Scotland Rising game page: the same protocol, header, clocks and controls, chat and
// notes as the Hammer of the Scots page (game.js), around the Scotland Rising board
// (layout.js, board.js). The game has no hidden information: every seat's view is the whole
// position, and nothing is revealed at the end.
import { h } from '../dom.js';
import { Connection } from '../connection.js';
import { createNotes } from '../panels/notes.js';
import { createState } from '../game/state.js';
import { createSync } from '../game/sync.js';
import { renderHeader } from '../game/header.js';
import { createChat } from '../game/chat.js';
import { createWaiting } from '../game/waiting.js';
import { createDice } from '../game/dice.js';
import { watchDock } from '../game/dock.js';
import { mountSidePanels } from '../game/side_panels.js';
import { setAwaiting } from '../notify.js';
import { mountGameControls } from '../game_controls.js';
import { mountSrLayout } from './layout.js';

// The view as the page draws it: a game ended by resignation or time (not by the rules, whose
// final view says so itself) awaits nobody and offers nothing any more.
export function shownSrView(view, ended, result) {
  if (!view || !ended || view.outcome?.finished) return view;
  const r = result ?? { winner: null, reason: 'ended' };
  return {
    ...view,
    legal_actions: [],
    awaiting: [],
    outcome: { finished: true, winner: r.winner ?? null, reason: r.reason },
  };
}

export function openSrGame(root, { gameId, observe = false, me = null, details }) {
  const st = createState();
  st.status = details.status ?? null;
  st.result = details.result ?? null;
  let conn = null;

  function send(action) {
    if (st.pending) return;
    st.ref = `a${++st.refs}`;
    if (!conn.send({ type: 'action', seq: st.seq, ref: st.ref, action })) {
      page.say('Not connected; reconnecting…');
      page.board.setPending(false);
      return;
    }
    st.pending = true;
    root.dataset.pending = 'true';
  }

  // Once the game is over, as on the other game's page: its replay and its record.
  const afterEnd = () =>
    h(
      'p',
      { class: 'finished-links' },
      h('a', { href: `#/replay/${gameId}` }, 'Step through this game'),
      ' · ',
      h(
        'a',
        { href: `/api/games/${gameId}/record`, download: `blockfog-game-${gameId}.json` },
        'Download the record',
      ),
    );
  const page = mountSrLayout(root, { send, afterEnd });
  const { board, head, dock, side, layout, say } = page;
  const chat = createChat((msg) => conn.send(msg));
  const notes = createNotes(gameId, { loggedIn: !!me });
  side.append(chat.el, notes.el);
  mountSidePanels(layout, side);
  const extras = h('div', { class: 'game-extras' });
  dock.after(extras);
  const controls = mountGameControls(extras, {
    gameId,
    details,
    me: me?.username ?? null,
    onStatus: (status) => {
      st.status = status;
      render();
    },
  });
  const waiting = createWaiting(gameId, details);
  extras.after(waiting.el);
  const dice = createDice(gameId, { onChange: () => render() });
  const renderHead = () => renderHeader(head, st, gameId);

  function render() {
    root.dataset.pending = String(st.pending);
    root.dataset.views = String(st.views);
    if (st.view) root.dataset.seq = String(st.seq);
    renderHead();
    const open = !!st.welcome && st.status === 'open';
    const rolling = open ? dice.text() : null;
    waiting.update(open && !rolling, st.role !== 'observer');
    if (st.status === 'aborted') {
      say('The game was cancelled before it started.');
      return;
    }
    if (!st.view) {
      say(rolling ?? (open ? 'Waiting for an opponent to take the other seat.' : 'Loading…'));
      return;
    }
    board.update(shownSrView(st.view, st.ended, st.result), {
      role: st.role,
      pending: st.pending,
    });
    chat.allowWriting(st.role !== 'observer' || !!(me && details.observer_chat));
  }

  let drawAsked = false;
  function renderSoon() {
    if (document.hidden) return render();
    if (drawAsked) return undefined;
    drawAsked = true;
    requestAnimationFrame(() => {
      drawAsked = false;
      render();
    });
    return undefined;
  }

  const sync = createSync(st, {
    gameId,
    conn: () => conn,
    renderSoon,
    renderHead,
    say,
    onChat: (msg) => chat.add(msg),
  });
  conn = new Connection(gameId, {
    observe,
    patches: true,
    handlers: {
      ...sync,
      onMessage: (msg) => {
        if (msg.type === 'game_ended' || msg.type === 'welcome') {
          st.status = msg.status ?? st.status;
          st.ended = msg.status === 'finished';
          if (msg.result) st.result = msg.result;
        }
        controls.onMessage(msg);
        sync.onMessage(msg);
        if (msg.type === 'welcome') dice.onWelcome(msg);
        if (msg.type === 'game_ended') render();
        // A game ended by the rules ends with a view: the controls hear of it from that view.
        const outcome = st.view?.outcome;
        if (outcome?.finished && !st.ended) {
          st.ended = true;
          st.status = 'finished';
          st.result = { winner: outcome.winner, reason: outcome.reason };
          controls.onMessage({ type: 'game_ended', status: 'finished', result: st.result });
        }
      },
    },
  });
  const unwatchDock = watchDock(dock);
  render();
  conn.start();
  window.blockfogConnection = conn;
  return () => {
    unwatchDock();
    notes.stop();
    controls.stop();
    conn.stop();
    setAwaiting(gameId, false);
  };
}
