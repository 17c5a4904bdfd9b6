// A live Scotland Rising game page: the Scotland Rising board (layout.js, board.js) in the frame
// every game page shares (game/frame.js: the protocol, header, clocks and controls, chat and
// notes). The game has no hidden information: every seat's view is the whole position, and
// nothing is revealed at the end.
import { createState } from '../game/state.js';
import { createGameFrame, finishedLinks } from '../game/frame.js';
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
  let frame = null;

  function send(action) {
    if (frame.sendAction(action)) root.dataset.pending = 'true';
    else if (!st.pending) page.board.setPending(false);
  }

  // Once the game is over, as on the other game's page: its replay and its record.
  const afterEnd = () => finishedLinks(gameId, 'finished-links');
  const page = mountSrLayout(root, { send, afterEnd });
  const { board, say } = page;
  const game = { gameId, observe, me, details };
  frame = createGameFrame(root, game, {
    st,
    parts: page,
    say,
    hooks: {
      drawView: () =>
        board.update(shownSrView(st.view, st.ended, st.result), {
          role: st.role,
          pending: st.pending,
        }),
      drawWaiting: (text) => say(text),
      drawAborted: () => say('The game was cancelled before it started.'),
      resultOf: (view) =>
        view.outcome?.finished
          ? { winner: view.outcome.winner, reason: view.outcome.reason }
          : null,
    },
  });
  frame.start();
  return () => frame.close();
}
