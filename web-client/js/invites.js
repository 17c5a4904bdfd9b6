// Invitation links, by game id, so that their players can copy them again from "My games":
// asked from the server (GET /api/games/{id}/invite, its creator and players only, on any
// device) and kept in this browser's storage once known. A link made before the server could
// give it again (docs/protocol.md, "Invitation links") lives only where it was shown.
import { api } from './api.js';

const KEY = 'blockfog.invites';

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || '{}') || {};
  } catch {
    return {};
  }
}

export function rememberInvite(gameId, link) {
  const all = load();
  all[gameId] = link;
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    /* private mode: shown once only */
  }
}

export function inviteOf(gameId) {
  return load()[gameId] || null;
}

export const inviteLink = (token) => `${location.origin}/#/invite/${token}`;

// The game's link: from this browser's storage, else from the server (then kept); null when
// the server has none to give.
export async function fetchInvite(gameId) {
  const known = inviteOf(gameId);
  if (known) return known;
  try {
    const link = inviteLink((await api.gameInvite(gameId)).invite);
    rememberInvite(gameId, link);
    return link;
  } catch {
    return null;
  }
}

// A read-only field with the link and a Copy button that says when it copied.
export function inviteBox(h, link, label = 'Invitation link', cls = 'invite-link') {
  const input = h('input', {
    class: cls,
    readonly: true,
    value: link,
    'aria-label': label,
    onfocus: (e) => e.target.select(),
  });
  const said = h('span', { class: 'copied', role: 'status' });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      said.textContent = 'Copied.';
    } catch {
      input.focus();
      input.select();
      said.textContent = 'Press Ctrl+C (⌘C) to copy.';
    }
  };
  return h(
    'span',
    { class: 'invite-box' },
    input,
    h('button', { type: 'button', class: 'copy-invite', onclick: copy }, 'Copy link'),
    said,
  );
}
