// While a game waits for its second player (the prompt says so), its page shows the players of
// an invite game the invitation link with its Copy button (invites.js: from this browser, else
// from GET /api/games/{id}/invite), so that it can be sent from where the game is watched; a
// public game's page says where others find it.
import { h, clear } from '../dom.js';
import { fetchInvite, inviteBox } from '../invites.js';

export function createWaiting(gameId, details) {
  const el = h('section', {
    class: 'waiting panel',
    'aria-label': 'Waiting for an opponent',
    hidden: true,
  });
  let shown = false;

  // `open`: the game still waits (its welcome's status); `seated`: this visitor plays in it.
  async function update(open, seated) {
    el.hidden = !open || (details.visibility === 'invite' && !seated);
    if (!open || shown) return;
    shown = true;
    clear(el);
    if (details.visibility !== 'invite') {
      el.append(
        h(
          'p',
          {},
          'The game is listed under "Open games" in the lobby: anybody may ' + 'join it there.',
        ),
      );
      return;
    }
    if (!seated) return;
    const link = await fetchInvite(gameId);
    el.append(
      link
        ? h(
            'p',
            { class: 'invite-here' },
            'Send this invitation link to your opponent: ',
            inviteBox(h, link, `Invitation link of game ${gameId}`, 'invite-link-game'),
          )
        : h(
            'p',
            {},
            "This game's invitation link was shown only once, when it was created; " +
              'the server cannot give it again.',
          ),
    );
  }

  return { el, update };
}
