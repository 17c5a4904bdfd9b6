// The game's chat panel: the lines so far and, for those who may write, the form.
import { h } from '../dom.js';
import { chatLine } from '../panels/log.js';

export function createChat(send) {
  const list = h('ol', { class: 'chat', 'aria-label': 'Chat messages', tabindex: 0 });
  const input = h('input', {
    id: 'chat-text',
    type: 'text',
    maxlength: 1000,
    autocomplete: 'off',
    placeholder: 'Message',
  });
  const form = h(
    'form',
    {
      class: 'chat-form',
      onsubmit: (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (text && send({ type: 'chat', text })) input.value = '';
      },
    },
    h('label', { for: 'chat-text', class: 'visually-hidden' }, 'Chat message'),
    input,
    h('button', { type: 'submit' }, 'Send'),
  );
  const el = h(
    'section',
    { class: 'panel chatp', 'aria-label': 'Chat' },
    h('h2', {}, 'Chat'),
    list,
    form,
  );
  return {
    el,
    add(msg) {
      list.append(chatLine(msg));
      list.scrollTop = list.scrollHeight;
    },
    // Observers write only when the game allows it, and only when logged in.
    allowWriting(yes) {
      form.hidden = !yes;
    },
  };
}
