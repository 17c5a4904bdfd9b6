// A live game page: one WebSocket, the latest view, and the panels drawn from it. Only the
// view's legal actions are offered; an action is sent with the seq of the view it came from.
// The parts: game/state.js (what the page holds), game/intents.js (what clicks mean),
// game/sync.js (the protocol), game/header.js, game/map_panel.js, game/log_panel.js,
// game/chat.js, and the side panels in panels/.
import { h, clear } from './dom.js';
import { api } from './api.js';
import { loadGameData } from './gamedata.js';
import { classify } from './actions.js';
import { Connection } from './connection.js';
import { renderPrompt } from './panels/prompt.js';
import { renderCards } from './panels/cards.js';
import { renderBattle } from './panels/battle.js';
import { renderStatus } from './panels/status.js';
import { createNotes } from './panels/notes.js';
import { nameIndex } from './log_links.js';
import { createState } from './game/state.js';
import { createIntents } from './game/intents.js';
import { createSync } from './game/sync.js';
import { renderHeader } from './game/header.js';
import { createMapPanel } from './game/map_panel.js';
import { createLogPanel } from './game/log_panel.js';
import { createChat } from './game/chat.js';
import { createWaiting } from './game/waiting.js';
import { createDice } from './game/dice.js';
import { watchDock } from './game/dock.js';
import { mountSidePanels } from './game/side_panels.js';
import { setAwaiting } from './notify.js';
import { mountGameControls } from './game_controls.js';
import { mergeViews } from './reveal.js';
import { openSrGame } from './sr/page.js';

// The server answers a game it does not show this visitor (an invite-only game to anybody but
// its players) as not found, and refuses its WebSocket: say so instead of reconnecting forever.
function renderUnavailable(root, gameId, me) {
  clear(root).append(
    h(
      'section',
      { class: 'panel game-unavailable', role: 'alert' },
      h('h1', {}, `Game ${gameId}`),
      h(
        'p',
        {},
        me
          ? 'This game is private to its players, or it does not exist.'
          : 'This game is private, or it does not exist. If you play in it, log in to open it; ' +
              'if you were invited, open your invitation link.',
      ),
      h('a', { class: 'button', href: '#/' }, me ? 'Back to the lobby' : 'Log in'),
    ),
  );
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

// The page of the game's kind: Scotland Rising has a board of its own (sr/page.js); every
// other game is Hammer of the Scots. The kind is the game object's `game`, or else the first
// view's (the engine's views name their game).
export async function openGame(root, { gameId, observe = false, me = null }) {
  const [data, details] = await Promise.all([loadGameData(), gameDetails(gameId)]);
  if (!details) {
    renderUnavailable(root, gameId, me);
    return () => {};
  }
  if (details.game === 'scotland_rising') return openSrGame(root, { gameId, observe, me, details });
  let srClose = null;
  const closeHots = openHotsGame(root, { gameId, observe, me, data, details }, (close) => {
    close();
    srClose = openSrGame(root, { gameId, observe, me, details });
  });
  return () => (srClose ? srClose() : closeHots());
}

function openHotsGame(root, { gameId, observe, me, data, details }, becomeSr) {
  const st = createState();
  st.status = details.status ?? null;
  st.result = details.result ?? null;
  const names = nameIndex(data);
  let conn = null;
  let focusedFor = null; // the selected block whose prompt got the focus
  clear(root);
  const head = h('header', { class: 'game-head' });
  const notice = h('p', { class: 'notice', role: 'status', 'aria-live': 'polite' });
  const prompt = h('section', { class: 'prompt', 'aria-label': 'Prompt', 'aria-live': 'polite' });
  const cards = h('section', { class: 'panel cards', 'aria-label': 'Cards' });
  const battle = h('section', { class: 'panel battle', 'aria-label': 'Battle', hidden: true });
  const status = h('section', { class: 'panel status', 'aria-label': 'State of the war' });
  const say = (text) => {
    notice.textContent = text;
  };
  const renderHead = () => renderHeader(head, st, gameId);
  const intents = createIntents(st, { data, conn: () => conn, render, say });
  const mapPanel = createMapPanel(st, { data, names, intents, say });
  const logPanel = createLogPanel(st, { data, names, onHighlight: () => mapPanel.render() });
  const chat = createChat((msg) => conn.send(msg));
  const notes = createNotes(gameId, { loggedIn: !!me });
  // The dock holds what is decided now: the notice, the prompt, the game's controls and the
  // hand. Beside the map on a wide screen (the map takes the rest of the window); a sheet at the
  // foot of the screen on a phone, so that none of it lies past the map.
  const dock = h('div', { class: 'dock bottom-sheet' }, notice, prompt, cards);
  const side = h(
    'aside',
    { class: 'side', id: 'game-side' },
    dock,
    battle,
    status,
    logPanel.el,
    chat.el,
    notes.el,
  );
  const board = h('div', { class: 'board' }, mapPanel.el, side);
  root.append(head, board);
  mountSidePanels(board, side);
  // Clocks, resign, cancel and rematch (game_controls.js), under the dock.
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

  // The seat's view as the page draws it: a game ended by resignation or time (not by the
  // rules, whose final view says so itself) awaits nobody and offers nothing any more.
  // Its prompt then gives the server's result instead of the phase's state (move points left).
  function shownView() {
    const view = st.view;
    if (!view || !st.ended || view.outcome) return view;
    return {
      ...view,
      legal_actions: [],
      awaiting: [],
      phase_text: 'Game over',
      move: null,
      result: st.result ?? { winner: null, reason: 'ended' },
    };
  }

  function ctx() {
    const cls = classify(shownView()?.legal_actions);
    return {
      data,
      role: st.role,
      cls,
      send: intents.send,
      select: intents.select,
      selected: st.selected,
      pending: st.pending,
      choice: st.choice,
      setChoice: intents.setChoice,
    };
  }

  function render() {
    // A keyboard player whose focus was on a button that this drawing replaces (a destination,
    // a card) keeps it on the map, at the area the action went to, rather than on the page's
    // body, many Tabs away.
    const held = document.activeElement;
    const inPanels =
      !!held && held !== document.body && root.contains(held) && !held.closest('.map-holder');
    draw();
    if (inPanels && !held.isConnected && !root.contains(document.activeElement)) {
      mapPanel.focusArea(st.lastArea);
    }
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

  function draw() {
    // Whether an action of ours awaits its answer: "false" once the view (or error) answering
    // it is drawn, and how many views and errors were drawn: tests wait for these instead of
    // guessing how long a drawing takes.
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
    const view = shownView();
    if (st.status === 'aborted') {
      clear(prompt).append(
        h('p', { class: 'cancelled' }, 'The game was cancelled before it started.'),
        h('p', {}, h('a', { href: '#/' }, 'Back to the lobby')),
      );
      return;
    }
    if (!view) {
      clear(prompt).append(
        h(
          'p',
          { class: rolling ? 'rolling' : '' },
          rolling ?? (open ? 'Waiting for an opponent to take the other seat.' : 'Loading…'),
        ),
      );
      return;
    }
    const c = ctx();
    if (st.selected && !c.cls.blocks.has(st.selected)) st.selected = null;
    renderPrompt(prompt, view, ctx());
    // A block just chosen: focus goes to its first destination (else its first action) in the
    // prompt, so that a keyboard player reaches it at once. A retreat is never where focus
    // lands beside other actions: in a combat turn Enter fires (RULES 5.5).
    if (st.selected && st.selected !== focusedFor) {
      (
        prompt.querySelector('.act-dest:not(.act-retreat)') ??
        prompt.querySelector('.action-bar button.act:not(.cancel)')
      )?.focus();
    }
    focusedFor = st.selected;
    mapPanel.render();
    renderCards(cards, view, ctx());
    renderBattle(battle, view, ctx());
    renderStatus(status, view, ctx());
    logPanel.render();
    if (view.outcome || st.ended) {
      prompt.append(
        h(
          'p',
          { class: 'finished' },
          h('a', { href: `#/replay/${gameId}` }, 'Step through this game'),
          ' · ',
          h(
            'a',
            { href: `/api/games/${gameId}/record`, download: `blockfog-game-${gameId}.json` },
            'Download the record',
          ),
        ),
      );
    }
    chat.allowWriting(st.role !== 'observer' || !!(me && details.observer_chat));
  }

  // Once the game has ended, by the rules, resignation or time, its record is public to those
  // who may open it (RULES 13.1.6): the map then shows every block, as the replay's last step
  // with everything revealed does, merged from both seats' views by the server's one writer.
  let revealing = false;
  async function reveal() {
    if (revealing) return;
    revealing = true;
    try {
      const n = (await api.record(gameId)).actions.length;
      const res = await api.replayView(gameId, n, 'all');
      st.revealed = mergeViews(res.views.scotland, res.views.england);
      render();
    } catch {
      revealing = false; // tried again at the next message
    }
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
        if (msg.type === 'view' && msg.view?.game === 'scotland_rising') {
          becomeSr(close);
          return;
        }
        const statusChange = msg.type === 'game_ended' || msg.type === 'welcome';
        if (statusChange) {
          st.status = msg.status ?? st.status;
          st.ended = msg.status === 'finished';
          if (msg.result) st.result = msg.result;
        }
        controls.onMessage(msg);
        sync.onMessage(msg);
        if (msg.type === 'welcome') dice.onWelcome(msg);
        if (msg.type === 'game_ended') render();
        // A game ended by the rules (RULES 12) ends with a view: the controls hear of it from
        // that view, so that Resign goes and Rematch comes at once. Its result is worded with
        // the view's nobles, as the prompt words it, and as the server's game_ended (which may
        // come later) does: the page says the same thing in both places whichever comes first.
        const outcome = st.view?.outcome;
        if (outcome && !st.ended) {
          st.ended = true;
          st.status = 'finished';
          st.result = { ...outcome, nobles: st.view.nobles };
          controls.onMessage({ type: 'game_ended', status: 'finished', result: st.result });
        }
        if (st.ended || st.view?.outcome) reveal();
      },
    },
  });
  const unwatchDock = watchDock(dock);
  render();
  conn.start();
  window.blockfogConnection = conn; // for the reconnect test and the browser console
  function close() {
    unwatchDock();
    notes.stop();
    controls.stop();
    conn.stop();
    setAwaiting(gameId, false);
  }
  return close;
}
