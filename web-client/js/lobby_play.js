// What the lobby shows of play over days (docs/protocol.md, "Time controls"): in "my games",
// whose turn it is, the opponent's last activity and the clocks; in the create form, the time
// control. Kept apart from lobby.js, which calls in here.
import { h } from './dom.js';
import { formatAgo, formatRemaining, remainingAt } from './clock_view.js';
import { SIDE_NAME } from './board.js';

// The extra parts of one game line of "my games".
export function gameLineExtras(g, now = Date.now()) {
  const bits = [];
  if (g.status === 'active') {
    const awaited = (g.awaiting || []).map((r) => SIDE_NAME[r] ?? r).join(' and ');
    if (awaited) bits.push(h('span', { class: 'g-turn' }, `${awaited} to play`));
  }
  if (g.your_role) {
    const other = g.your_role === 'scotland' ? 'england' : 'scotland';
    const name = g.players?.[other];
    if (name) {
      bits.push(h('span', { class: 'g-activity' },
        `${name} active ${formatAgo(g.last_active?.[other], now)}`));
    }
  }
  if (g.clocks) {
    const c = g.clocks;
    bits.push(h('span', { class: 'g-clocks' },
      ['scotland', 'england'].map((side) =>
        `${SIDE_NAME[side]} ${formatRemaining(remainingAt(c, side, now, now))}`
        + (c[side].vacation_until ? ' (vacation)' : '')).join(' · ')));
  }
  return bits;
}

// The create form's time control: { el, value() }.
export function timeControlField() {
  const kind = h('select', { id: 'create-time' },
    h('option', { value: 'none' }, 'No clock'),
    h('option', { value: 'live' }, 'Live: 60 min + 30 s per turn'),
    h('option', { value: 'correspondence' }, 'Correspondence: 3 days per turn + 7 days bank'));
  const el = h('div', { class: 'field' }, h('label', { for: 'create-time' }, 'Time control'), kind);
  return {
    el,
    value() {
      if (kind.value === 'live') return { kind: 'live', minutes: 60, increment_seconds: 30 };
      if (kind.value === 'correspondence') return { kind: 'correspondence', days_per_turn: 3, bank_days: 7 };
      return { kind: 'none' };
    },
  };
}
