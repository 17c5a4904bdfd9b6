// What the lobby shows of play over days (docs/protocol.md, "Time controls"): in "my games",
// whose turn it is, the opponent's last activity and the clocks; in the create form, the time
// control. Kept apart from lobby.js, which calls in here.
import { h } from './dom.js';
import { formatAgo, formatRemaining, remainingAt } from './clock_view.js';
import { SIDE_NAME } from './board.js';
import { plural } from './wording.js';
import { api } from './api.js';

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
      bits.push(
        h(
          'span',
          { class: 'g-activity' },
          g.last_active?.[other] === 'online'
            ? `${name} online now`
            : `${name} active ${formatAgo(g.last_active?.[other], now)}`,
        ),
      );
    }
  }
  if (g.time_control?.vacation === false) {
    bits.push(h('span', { class: 'g-no-vacation' }, 'vacations do not pause it'));
  }
  if (g.clocks) {
    const c = g.clocks;
    bits.push(
      h(
        'span',
        { class: 'g-clocks' },
        ['scotland', 'england']
          .map(
            (side) =>
              `${SIDE_NAME[side]} ${formatRemaining(remainingAt(c, side, now, now))}` +
              (c[side].vacation_until ? ' (vacation)' : ''),
          )
          .join(' · '),
      ),
    );
  }
  return bits;
}

// A time control in words: "Correspondence: 3 days per turn + 7 days bank", and whether
// vacations pause it (a tournament may forbid them).
export function timeControlText(tc) {
  if (!tc || tc.kind === 'none') return 'No clock';
  if (tc.kind === 'live') return `Live: ${tc.minutes} min + ${tc.increment_seconds} s per turn`;
  return (
    `Correspondence: ${plural(tc.days_per_turn, 'day')} per turn + ${plural(tc.bank_days, 'day')} bank` +
    (tc.vacation === false ? ', vacations do not pause it' : '')
  );
}

// The bounds the server accepts (server/clocks/time_control.h, parse_time_control).
export const TIME_BOUNDS = {
  minutes: [1, 600],
  increment_seconds: [0, 600],
  days_per_turn: [1, 30],
  bank_days: [0, 60],
};

// The presets offered first, then a time control of one's own within the bounds. The first live
// and correspondence presets keep the values "live" and "correspondence".
const PRESETS = [
  ['none', 'No clock', { kind: 'none' }],
  ['live', 'Live: 60 min + 30 s per turn', { kind: 'live', minutes: 60, increment_seconds: 30 }],
  ['live-30', 'Live: 30 min + 15 s per turn', { kind: 'live', minutes: 30, increment_seconds: 15 }],
  [
    'live-120',
    'Live: 120 min + 60 s per turn',
    { kind: 'live', minutes: 120, increment_seconds: 60 },
  ],
  [
    'correspondence',
    'Correspondence: 3 days per turn + 7 days bank',
    { kind: 'correspondence', days_per_turn: 3, bank_days: 7 },
  ],
  [
    'correspondence-1',
    'Correspondence: 1 day per turn + 3 days bank',
    { kind: 'correspondence', days_per_turn: 1, bank_days: 3 },
  ],
  [
    'correspondence-7',
    'Correspondence: 7 days per turn + 14 days bank',
    { kind: 'correspondence', days_per_turn: 7, bank_days: 14 },
  ],
  ['live-own', 'Live, my own times…', null],
  ['correspondence-own', 'Correspondence, my own times…', null],
];

// A whole number within [low, high], from what was typed (out of range: the nearest bound).
export function clampWhole(text, [low, high]) {
  const n = Math.round(Number(text));
  return Number.isFinite(n) ? Math.min(high, Math.max(low, n)) : low;
}

// A create form's time control (the lobby's, a tournament's): { el, value() }. A preset, or
// one's own numbers, each field limited to the server's bounds.
export function timeControlField(id = 'create-time') {
  const kind = h(
    'select',
    { id },
    PRESETS.map(([value, label]) => h('option', { value }, label)),
  );
  const number = (name, label, value) => {
    const [min, max] = TIME_BOUNDS[name];
    const input = h('input', {
      id: `${id}-${name}`,
      name,
      type: 'number',
      min,
      max,
      value,
    });
    return {
      input,
      el: h(
        'span',
        { class: 'tc-number' },
        h('label', { for: `${id}-${name}` }, label),
        input,
        h('span', { class: 'tc-bounds' }, `${min}–${max}`),
      ),
    };
  };
  const own = {
    minutes: number('minutes', 'Minutes each', 60),
    increment_seconds: number('increment_seconds', 'Seconds added per turn', 30),
    days_per_turn: number('days_per_turn', 'Days per turn', 3),
    bank_days: number('bank_days', 'Days in the bank', 7),
  };
  const live = h(
    'div',
    { class: 'tc-own live', hidden: true },
    own.minutes.el,
    own.increment_seconds.el,
  );
  const corr = h(
    'div',
    { class: 'tc-own correspondence', hidden: true },
    own.days_per_turn.el,
    own.bank_days.el,
  );
  kind.addEventListener('change', () => {
    live.hidden = kind.value !== 'live-own';
    corr.hidden = kind.value !== 'correspondence-own';
  });
  const el = h(
    'div',
    { class: 'field time-control' },
    h('label', { for: id }, 'Time control'),
    kind,
    live,
    corr,
  );
  const whole = (name) => clampWhole(own[name].input.value, TIME_BOUNDS[name]);
  return {
    el,
    value() {
      if (kind.value === 'live-own')
        return {
          kind: 'live',
          minutes: whole('minutes'),
          increment_seconds: whole('increment_seconds'),
        };
      if (kind.value === 'correspondence-own')
        return {
          kind: 'correspondence',
          days_per_turn: whole('days_per_turn'),
          bank_days: whole('bank_days'),
        };
      return { ...PRESETS.find(([value]) => value === kind.value)[2] };
    },
  };
}

// The vacation panel: days left this year, the vacations to come, and taking some ahead. A
// vacation pauses every correspondence game of the player (docs/protocol.md, "Vacations").
export function vacationPanel() {
  const summary = h('p', { class: 'vacation-summary' });
  const list = h('ul', { class: 'vacations' });
  const days = h('input', {
    id: 'vacation-days',
    type: 'number',
    min: 1,
    max: 21,
    value: 1,
  });
  const err = h('p', { class: 'error', role: 'alert' });
  const show = (v) => {
    summary.textContent = `${v.days_left} of ${v.days_per_year} vacation days left this year.`;
    list.replaceChildren(
      ...v.vacations.map((x) =>
        h(
          'li',
          {},
          `${new Date(x.starts_at).toLocaleString()} – ${new Date(x.ends_at).toLocaleString()}` +
            (x.automatic ? ' (taken automatically)' : ''),
        ),
      ),
    );
  };
  const el = h(
    'section',
    { class: 'panel vacation', 'aria-label': 'Vacation' },
    h('h2', {}, 'Vacation'),
    summary,
    list,
    h(
      'form',
      {
        class: 'vacation-form',
        onsubmit: async (e) => {
          e.preventDefault();
          err.textContent = '';
          try {
            show(await api.takeVacation(Number(days.value)));
          } catch (ex) {
            err.textContent = ex.message;
          }
        },
      },
      h('label', { for: 'vacation-days' }, 'Days from now'),
      days,
      h('button', { type: 'submit' }, 'Take vacation'),
    ),
    err,
  );
  api
    .vacation()
    .then(show)
    .catch(() => {});
  return el;
}
