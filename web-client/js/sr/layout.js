// The Scotland Rising game page's frame: the map beside the side column, which holds the dock
// (notice and prompt, sticky; a sheet at the foot of a phone's screen, as on the other board),
// the state of the battle, the last attack's dice, the hex pointed at and the log. The game
// page (page.js) adds the header's contents, the clocks and controls, chat and notes; the
// browser tests' harness uses it as it is.
import { h, clear } from '../dom.js';
import { createSrBoard } from './board.js';

export function mountSrLayout(root, { send, title = null, afterEnd = null }) {
  const notice = h('p', { class: 'notice', role: 'status', 'aria-live': 'polite' });
  const say = (text) => {
    notice.textContent = text;
  };
  const board = createSrBoard({ send, say, afterEnd });
  const head = h('header', { class: 'game-head' }, title ? h('h1', {}, title) : null);
  const dock = h('div', { class: 'dock bottom-sheet' }, notice, board.prompt);
  const side = h(
    'aside',
    { class: 'side', id: 'game-side' },
    dock,
    board.status,
    board.dice,
    board.details,
    board.log,
  );
  const layout = h('div', { class: 'board sr-board' }, board.map, side);
  clear(root).append(head, layout);
  return { board, head, dock, side, layout, notice, say };
}
