// The game page's header: the way back, the game, the seat, the players, the connection.
import { h, clear } from '../dom.js';
import { SIDE_NAME } from '../board.js';
import { seatName } from '../lobby_computer.js';

// The state of this page's connection to the server, in words that cannot be read as a time
// control ("Live" is one).
const STATUS_TEXT = { connecting: 'Connecting…', open: 'Connected', closed: 'Reconnecting…' };

export function renderHeader(head, st, gameId) {
  clear(head);
  const w = st.welcome || {};
  const players = w.players || {};
  const computer = w.computer || {};
  head.append(
    h('a', { href: '#/', class: 'back' }, '← Lobby'),
    h('h1', {}, `Game ${gameId}`),
    h(
      'span',
      { class: `seat ${st.role}` },
      st.role === 'observer' ? 'Observing' : `You play ${SIDE_NAME[st.role]}`,
    ),
    h(
      'span',
      { class: 'players' },
      `Scotland: ${seatName(players.scotland, computer.scotland)} · ` +
        `England: ${seatName(players.england, computer.england)}`,
    ),
    h('span', { class: `conn conn-${st.conn}`, 'data-conn': st.conn }, STATUS_TEXT[st.conn] ?? ''),
  );
  if (w.seed_sha256) {
    head.append(
      h(
        'span',
        { class: 'seed', title: 'SHA-256 of the seed' },
        `seed sha256 ${w.seed_sha256.slice(0, 12)}…`,
      ),
    );
  }
}
