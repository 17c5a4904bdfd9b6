// A live game page: one WebSocket, the latest view, and the panels drawn from it. Only the
// view's legal actions are offered; an action is sent with the seq of the view it came from.
// The parts: game/state.js (what the page holds), game/intents.js (what clicks mean),
// game/map_panel.js, game/log_panel.js and the side panels in panels/, in the frame every game
// page shares (game/frame.js: the protocol, header, clocks and controls, chat and notes).
import { h, clear } from './dom.js';
import { api } from './api.js';
import { loadGameData } from './gamedata.js';
import { classify } from './actions.js';
import { renderPrompt } from './panels/prompt.js';
import { renderCards } from './panels/cards.js';
import { renderBattle } from './panels/battle.js';
import { renderStatus } from './panels/status.js';
import { nameIndex } from './log_links.js';
import { createState } from './game/state.js';
import { createIntents } from './game/intents.js';
import { createGameFrame, finishedLinks } from './game/frame.js';
import { createMapPanel } from './game/map_panel.js';
import { createLogPanel } from './game/log_panel.js';
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
  const names = nameIndex(data);
  let frame = null;
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
  const render = () => frame.render();
  const intents = createIntents(st, {
    data,
    sendAction: (action) => frame.sendAction(action),
    render,
    say,
  });
  const mapPanel = createMapPanel(st, { data, names, intents, say });
  const logPanel = createLogPanel(st, { data, names, onHighlight: () => mapPanel.render() });
  // The dock holds what is decided now: the notice, the prompt, the game's controls and the
  // hand. Beside the map on a wide screen (the map takes the rest of the window); a sheet at the
  // foot of the screen on a phone, so that none of it lies past the map. The frame adds the
  // chat and the notes to the side column, and the clocks and controls under the dock.
  const dock = h('div', { class: 'dock bottom-sheet' }, notice, prompt, cards);
  const side = h('aside', { class: 'side', id: 'game-side' }, dock, battle, status, logPanel.el);
  const board = h('div', { class: 'board' }, mapPanel.el, side);
  root.append(head, board);

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

  // A keyboard player whose focus was on a button that this drawing replaces (a destination,
  // a card) keeps it on the map, at the area the action went to, rather than on the page's
  // body, many Tabs away.
  function keepingFocus(draw) {
    const held = document.activeElement;
    const inPanels =
      !!held && held !== document.body && root.contains(held) && !held.closest('.map-holder');
    draw();
    if (inPanels && !held.isConnected && !root.contains(document.activeElement)) {
      mapPanel.focusArea(st.lastArea);
    }
  }

  function drawView() {
    const view = shownView();
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
    if (view.outcome || st.ended) prompt.append(finishedLinks(gameId, 'finished'));
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

  const game = { gameId, observe, me, details };
  frame = createGameFrame(root, game, {
    st,
    parts: { head, dock, side, layout: board },
    say,
    hooks: {
      drawView,
      drawWaiting: (text, rolling) =>
        clear(prompt).append(h('p', { class: rolling ? 'rolling' : '' }, text)),
      drawAborted: () =>
        clear(prompt).append(
          h('p', { class: 'cancelled' }, 'The game was cancelled before it started.'),
          h('p', {}, h('a', { href: '#/' }, 'Back to the lobby')),
        ),
      redraw: keepingFocus,
      // A game ended by the rules (RULES 12): its result is worded with the view's nobles, as
      // the prompt words it, and as the server's game_ended (which may come later) does: the
      // page says the same thing in both places whichever comes first.
      resultOf: (view) => (view.outcome ? { ...view.outcome, nobles: view.nobles } : null),
      // A Scotland Rising game whose kind the game object did not give: its own page.
      onFrame: (msg) => {
        if (msg.type !== 'view' || msg.view?.game !== 'scotland_rising') return false;
        becomeSr(frame.close);
        return true;
      },
      afterFrame: () => {
        if (st.ended || st.view?.outcome) reveal();
      },
    },
  });
  frame.start();
  return frame.close;
}
