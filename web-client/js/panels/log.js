// The seat's game log (only the lines it may read) and the chat.
import { h, clear } from '../dom.js';
import { SIDE_NAME } from '../board.js';

export function renderLog(el, view) {
  const list = el.querySelector('ol') || el.appendChild(h('ol', { class: 'log', 'aria-live': 'off' }));
  const stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  clear(list);
  for (const line of view.log || []) list.append(h('li', { 'data-i': line.i }, line.text));
  if (stick) list.scrollTop = list.scrollHeight;
}

export function chatLine(msg) {
  const who = msg.user ? `${msg.user} (${SIDE_NAME[msg.role] ?? msg.role})` : 'system';
  const time = new Date(msg.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return h('li', { class: `chat-${msg.role}`, 'data-id': msg.id },
    h('span', { class: 'chat-who' }, `${who} ${time}: `), msg.text);
}
