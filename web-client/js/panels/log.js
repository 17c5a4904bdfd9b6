// The seat's game log (only the lines it may read) and the chat. Lines are added as they
// come: an update appends the new lines only (a page left open all campaign holds thousands).
// Pointing at or tapping a line lights up the areas and blocks it names on the map.
import { h, clear } from '../dom.js';
import { SIDE_NAME } from '../board.js';
import { logLineText } from '../wording.js';

function lineItem(line, data) {
  return h('li', { 'data-i': line.i }, logLineText(line.text, data));
}

// `onPoint(text | null)`: the line pointed at, tapped or focused, or none. `data`: the game
// data, for the names of the borders a line names (wording.js).
export function renderLog(el, view, onPoint = null, data = null) {
  let list = el.querySelector('ol.log');
  if (!list) {
    list = el.appendChild(
      h('ol', { class: 'log', 'aria-live': 'off', tabindex: 0, 'aria-label': 'Game log lines' }),
    );
    if (onPoint) {
      const point = (e) => {
        const li = e.target.closest?.('li');
        for (const old of list.querySelectorAll('li.pointed')) old.classList.remove('pointed');
        li?.classList.add('pointed');
        onPoint(li ? li.textContent : null);
      };
      list.addEventListener('mouseover', point);
      list.addEventListener('click', point);
      list.addEventListener('mouseleave', () => onPoint(null));
    }
    list.shown = [];
  }
  const log = view.log || [];
  const shown = list.shown;
  // The lines shown are a prefix of the new log when the log only grew: append the rest.
  const n = shown.length;
  const grew =
    n <= log.length && (n === 0 || (log[0].i === shown[0] && log[n - 1].i === shown[n - 1]));
  const stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  if (!grew) {
    clear(list);
    shown.length = 0;
  }
  const frag = document.createDocumentFragment();
  for (let k = shown.length; k < log.length; k++) {
    frag.append(lineItem(log[k], data));
    shown.push(log[k].i);
  }
  list.append(frag);
  if (stick) list.scrollTop = list.scrollHeight;
}

export function chatLine(msg) {
  const who = msg.user ? `${msg.user} (${SIDE_NAME[msg.role] ?? msg.role})` : 'system';
  const time = new Date(msg.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return h(
    'li',
    { class: `chat-${msg.role}`, 'data-id': msg.id },
    h('span', { class: 'chat-who' }, `${who} ${time}: `),
    msg.text,
  );
}
