// The leaderboards (#/ratings), one per game, and a player's ratings and history
// (#/players/NAME): Glicko-2 ratings (docs/ratings.md), kept per game, from
// GET /api/ratings?game=G and GET /api/players/{name}/ratings.
import { h, clear } from './dom.js';
import { api } from './api.js';
import { plural } from './wording.js';
import { kindsOf, gameName } from './game_kinds.js';

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

// Each game has its own leaderboard: a game's rating says nothing of another's.
export async function renderLeaderboard(root, game = 'hots') {
  let kinds = kindsOf(null);
  try {
    kinds = kindsOf(await api.scenarios());
  } catch {
    /* the default game's board alone */
  }
  const board = await api.ratings(game);
  const choose = h(
    'select',
    {
      id: 'ratings-game',
      onchange: (e) => renderLeaderboard(root, e.target.value),
    },
    kinds.map((k) => h('option', { value: k.game, selected: k.game === game }, gameName(k))),
  );
  clear(root).append(
    h('h1', {}, 'Ratings'),
    h(
      'p',
      { class: 'ratings-note' },
      'Glicko-2 ratings from finished rated games, one list per game; ± is twice the ' +
        'deviation. ',
      h('a', { href: '#/' }, 'Back to the lobby'),
    ),
    kinds.length > 1
      ? h('div', { class: 'field' }, h('label', { for: 'ratings-game' }, 'Game'), choose)
      : null,
  );
  if (board.ratings.length === 0) {
    root.append(
      h('p', { class: 'empty' }, `No rated game of ${gameName(board)} has finished yet.`),
    );
    return;
  }
  root.append(
    h(
      'table',
      { class: 'ratings', 'aria-label': `Ratings in ${gameName(board)}` },
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
  // One line per game the player was rated in (none: unrated).
  const ratings =
    player.ratings ?? (player.rating ? [{ ...player.rating, games: player.games }] : []);
  const names = Object.fromEntries(ratings.map((r) => [r.game, gameName(r)]));
  clear(root).append(
    h('h1', {}, `${player.username}’s ratings`),
    ratings.length === 0
      ? h('p', { class: 'rating-now' }, h('strong', {}, ratingText(null)))
      : h(
          'ul',
          { class: 'rating-now' },
          ratings.map((r) =>
            h(
              'li',
              {},
              `${gameName(r)}: `,
              h('strong', {}, ratingText(r)),
              ` after ${plural(r.games, 'rated game')}`,
            ),
          ),
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
          ['Finished', 'Game', 'Played', 'Side', 'Opponent', 'Result', 'Rating', 'Change'].map(
            (t) => h('th', { scope: 'col' }, t),
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
              h('td', {}, names[g.game] ?? g.game ?? ''),
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
