// Invitation links this browser has seen (created or opened), by game id, so that their
// players can copy them again later from "My games". The server keeps only a hash of the
// token (docs/storage.md), so the link lives where it was shown: this browser's storage.
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
  } catch { /* private mode: shown once only */ }
}

export function inviteOf(gameId) {
  return load()[gameId] || null;
}

// A read-only field with the link and a Copy button that says when it copied.
export function inviteBox(h, link, label = 'Invitation link', cls = 'invite-link') {
  const input = h('input', { class: cls, readonly: true, value: link, 'aria-label': label,
    onfocus: (e) => e.target.select() });
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
  return h('span', { class: 'invite-box' }, input,
    h('button', { type: 'button', class: 'copy-invite', onclick: copy }, 'Copy link'), said);
}
