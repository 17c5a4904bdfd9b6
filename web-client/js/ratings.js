// The leaderboard (#/ratings) and a player's rating history (#/players/NAME): Glicko-2
// ratings (docs/ratings.md) from GET /api/ratings and GET /api/players/{name}/ratings.
import { h, clear } from './dom.js';
import { api } from './api.js';
import { plural } from './wording.js';

// Pure: a rating as shown, "1662 ± 580" (the deviation doubled: about 95% sure).
export function ratingText(r) {
  return r ? `${Math.round(r.rating)} ± ${Math.round(2 * r.deviation)}` : 'unrated';
}

// Pure: the change of one game, "+162" or "−38".
export function changeText(before, after) {
  const d = Math.round(after.rating) - Math.round(before.rating);
  return d >= 0 ? `+${d}` : `−${-d}`;
}

const SIDE = { scotland: 'Scotland', england: 'England' };
const SCORE = { 1: 'won', 0: 'lost', 0.5: 'drawn' };

function playerLink(name) {
  return h('a', { href: `#/players/${encodeURIComponent(name)}` }, name);
}

export async function renderLeaderboard(root) {
  const board = await api.ratings();
  clear(root).append(
    h('h1', {}, 'Ratings'),
    h(
      'p',
      { class: 'ratings-note' },
      'Glicko-2 ratings from finished rated games; ± is twice the deviation. ',
      h('a', { href: '#/' }, 'Back to the lobby'),
    ),
  );
  if (board.ratings.length === 0) {
    root.append(h('p', { class: 'empty' }, 'No rated game has finished yet.'));
    return;
  }
  root.append(
    h(
      'table',
      { class: 'ratings' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, '#'),
          h('th', { scope: 'col' }, 'Player'),
          h('th', { scope: 'col' }, 'Rating'),
          h('th', { scope: 'col' }, 'Games'),
        ),
      ),
      h(
        'tbody',
        {},
        board.ratings.map((r) =>
          h(
            'tr',
            {},
            h('td', {}, String(r.rank)),
            h('td', {}, playerLink(r.username)),
            h('td', { class: 'num' }, ratingText(r)),
            h('td', { class: 'num' }, String(r.games)),
          ),
        ),
      ),
    ),
  );
}

export async function renderPlayerRatings(root, name) {
  let data;
  try {
    data = await api.playerRatings(name);
  } catch (ex) {
    if (ex.code !== 'not_found') throw ex;
    clear(root).append(
      h('h1', {}, 'Ratings'),
      h('p', { class: 'error', role: 'alert' }, `There is no player called ${name}.`),
      h('p', {}, h('a', { href: '#/ratings' }, 'All ratings')),
    );
    return;
  }
  const { player, history } = data;
  clear(root).append(
    h('h1', {}, `${player.username}’s rating`),
    h(
      'p',
      { class: 'rating-now' },
      h('strong', {}, ratingText(player.rating)),
      ` after ${plural(player.games, 'rated game')}`,
    ),
    h(
      'p',
      {},
      h('a', { href: '#/ratings' }, 'All ratings'),
      ' · ',
      h('a', { href: '#/' }, 'Lobby'),
    ),
  );
  if (history.length === 0) {
    root.append(h('p', { class: 'empty' }, 'No rated game yet.'));
    return;
  }
  root.append(
    h(
      'table',
      { class: 'ratings history' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Finished', 'Game', 'Side', 'Opponent', 'Result', 'Rating', 'Change'].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        [...history]
          .reverse()
          .map((g) =>
            h(
              'tr',
              {},
              h('td', {}, new Date(g.finished_at).toISOString().slice(0, 10)),
              h(
                'td',
                {},
                g.game_id === null
                  ? 'private'
                  : h('a', { href: `#/replay/${g.game_id}` }, `#${g.game_id}`),
              ),
              h('td', {}, SIDE[g.role]),
              h('td', {}, playerLink(g.opponent)),
              h('td', {}, SCORE[g.score]),
              h('td', { class: 'num' }, ratingText(g.after)),
              h(
                'td',
                { class: `num ${g.after.rating >= g.before.rating ? 'up' : 'down'}` },
                changeText(g.before, g.after),
              ),
            ),
          ),
      ),
    ),
  );
}
