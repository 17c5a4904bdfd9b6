// The frame of a live game page, whatever the game: what stands around the board. The
// connection and its status in the header, the protocol (sync.js), chat and notes in the side
// column, the clocks and game controls (resign, cancel, rematch) under the dock, the dice for
// sides and the waiting panel while the game is open. Each game's page (game.js for Hammer of
// the Scots, sr/page.js for Scotland Rising) builds its own board and side column, then hands
// them to the frame with the hooks below; a fix to any of these parts reaches every game.
import { Connection } from '../connection.js';
import { createNotes } from '../panels/notes.js';
import { createSync } from './sync.js';
import { renderHeader } from './header.js';
import { createChat } from './chat.js';
import { createWaiting } from './waiting.js';
import { createDice } from './dice.js';
import { watchDock } from './dock.js';
import { mountSidePanels } from './side_panels.js';
import { setAwaiting } from '../notify.js';
import { mountGameControls } from '../game_controls.js';
import { h } from '../dom.js';

// A finished game's links, under its result: its replay and its record (`cls`: the paragraph's
// class, as the page's prompt styles it).
export function finishedLinks(gameId, cls) {
  return h(
    'p',
    { class: cls },
    h('a', { href: `#/replay/${gameId}` }, 'Step through this game'),
    ' · ',
    h(
      'a',
      { href: `/api/games/${gameId}/record`, download: `blockfog-game-${gameId}.json` },
      'Download the record',
    ),
  );
}

// `game`: the page's {gameId, observe, me, details}. `st`: the page's state (state.js).
// `parts`: the page's header, dock, side column and the element holding the board and the
// column. `say(text)`: the page's notice. The hooks:
// - drawView(): draws the board from st.view;
// - drawWaiting(text, rolling): no view yet: the text says what is awaited (an opponent, the
//   dice for sides, the first view);
// - drawAborted(): the game was cancelled before it started;
// - resultOf(view): the result when the view says the rules ended the game, else null;
// - redraw(draw): calls draw() (the page may keep the keyboard focus around it);
// - onFrame(msg): true when the page took the frame itself (nothing else then happens);
// - afterFrame(msg): after the frame was taken.
export function createGameFrame(root, game, { st, parts, say, hooks }) {
  const { gameId, observe = false, me = null, details } = game;
  const { head, dock, side, layout } = parts;
  st.status = details.status ?? null;
  st.result = details.result ?? null;
  let conn = null;

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
    // The creator's cancel is answered before (or without) the server's game_ended frame.
    onStatus: (status) => {
      st.status = status;
      render();
    },
  });
  const waiting = createWaiting(gameId, details);
  extras.after(waiting.el);
  const dice = createDice(gameId, { onChange: () => render() });
  const renderHead = () => renderHeader(head, st, gameId);

  function draw() {
    // Whether an action of ours awaits its answer: "false" once the view (or error) answering
    // it is drawn, and how many views, errors and welcomes were drawn: tests wait for these
    // instead of guessing how long a drawing takes.
    root.dataset.pending = String(st.pending);
    root.dataset.views = String(st.views);
    root.dataset.welcomes = String(st.welcomes);
    if (st.view) root.dataset.seq = String(st.seq);
    renderHead();
    // Known once the server's welcome has said who this visitor is (waiting.js shows an invite
    // game's link to its players only).
    const open = !!st.welcome && st.status === 'open';
    const rolling = open ? dice.text() : null;
    waiting.update(open && !rolling, st.role !== 'observer');
    if (st.status === 'aborted') return hooks.drawAborted();
    if (!st.view) {
      const text =
        rolling ?? (open ? 'Waiting for an opponent to take the other seat.' : 'Loading…');
      return hooks.drawWaiting(text, !!rolling);
    }
    hooks.drawView();
    chat.allowWriting(st.role !== 'observer' || !!(me && details.observer_chat));
    return undefined;
  }

  function render() {
    if (hooks.redraw) hooks.redraw(draw);
    else draw();
  }

  // A frame's view is drawn before the next display frame, once however many frames came
  // meanwhile (a fast opponent, the computer, a reconnection's backlog): drawing every view of
  // such a burst would leave the page further behind the game with each one. A hidden page
  // has no display frames, so it draws at once.
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

  // Sends `action` with the seq of the view it came from; false when nothing was sent (an
  // action already awaits its answer, or the connection is down).
  function sendAction(action) {
    if (st.pending) return false;
    st.ref = `a${++st.refs}`;
    if (!conn.send({ type: 'action', seq: st.seq, ref: st.ref, action })) {
      say('Not connected; reconnecting…');
      return false;
    }
    st.pending = true;
    return true;
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
        if (hooks.onFrame?.(msg)) return;
        if (msg.type === 'game_ended' || msg.type === 'welcome') {
          st.status = msg.status ?? st.status;
          st.ended = msg.status === 'finished';
          if (msg.result) st.result = msg.result;
        }
        controls.onMessage(msg);
        sync.onMessage(msg);
        if (msg.type === 'welcome') dice.onWelcome(msg);
        if (msg.type === 'game_ended') render();
        // A game ended by its rules ends with a view: the controls hear of it from that view, so
        // that Resign goes and Rematch comes at once.
        const result = st.view && !st.ended ? hooks.resultOf(st.view) : null;
        if (result) {
          st.ended = true;
          st.status = 'finished';
          st.result = result;
          controls.onMessage({ type: 'game_ended', status: 'finished', result });
        }
        hooks.afterFrame?.(msg);
      },
    },
  });

  let unwatchDock = null;
  return {
    render,
    sendAction,
    // Draws the page once and connects.
    start() {
      unwatchDock = watchDock(dock);
      render();
      conn.start();
      window.blockfogConnection = conn; // for the reconnect test and the browser console
    },
    close() {
      unwatchDock?.();
      notes.stop();
      controls.stop();
      conn.stop();
      setAwaiting(gameId, false);
    },
  };
}
