// Both seats' clocks on the game page and in the lobby (docs/protocol.md, "Time controls"):
// drawn from a Game's `clocks` or a `clocks` message and ticking locally between them. The
// server's `now` anchors the count, so a client whose own clock is off still shows the
// server's remaining time.
import { h, clear } from './dom.js';

const SIDES = [
  ['scotland', 'Scotland'],
  ['england', 'England'],
];

// "2 d 4 h", "1:05:09", "4:09".
export function formatRemaining(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  if (d > 0) return `${d} d ${hh} h`;
  const two = (n) => String(n).padStart(2, '0');
  return hh > 0 ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

// "just now", "5 min ago", "2 h ago", "3 d ago".
export function formatAgo(ms, now = Date.now()) {
  if (ms == null) return 'never';
  const s = Math.max(0, Math.floor((now - ms) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

// The remaining time of one seat's clock at local time `localNow`, given the clocks as the
// server computed them at its `now` (received at local time `receivedAt`).
export function remainingAt(clocks, side, receivedAt, localNow) {
  const c = clocks[side];
  if (!c.running) return c.remaining_ms;
  let elapsed = localNow - receivedAt;
  if (c.vacation_until != null) {
    const pausedFor = c.vacation_until - clocks.now;
    elapsed = Math.max(0, elapsed - pausedFor);
  }
  return Math.max(0, c.remaining_ms - elapsed);
}

// A clock panel in `holder`; returns { update(clocks), stop() }.
export function mountClocks(holder) {
  const box = h('section', { class: 'panel clocks', 'aria-label': 'Clocks', hidden: true });
  holder.append(box);
  let clocks = null;
  let receivedAt = 0;
  const draw = () => {
    if (!clocks) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const now = Date.now();
    const noVacation =
      clocks.time_control?.vacation === false
        ? h(
            'p',
            { class: 'clock-no-vacation' },
            'Vacations do not pause this game (the organiser forbade them).',
          )
        : '';
    clear(box).append(
      ...SIDES.map(([side, name]) => {
        const c = clocks[side];
        const left = remainingAt(clocks, side, receivedAt, now);
        const vacation =
          c.vacation_until != null && c.vacation_until > clocks.now + (now - receivedAt);
        return h(
          'p',
          {
            class: `clock clock-${side}${c.running ? ' running' : ''}${left === 0 ? ' flagged' : ''}`,
            'data-side': side,
          },
          h('span', { class: 'clock-side' }, name),
          h('span', { class: 'clock-time', 'aria-live': 'off' }, formatRemaining(left)),
          vacation
            ? h(
                'span',
                { class: 'clock-vacation' },
                `on vacation until ${new Date(c.vacation_until).toLocaleString()}`,
              )
            : '',
        );
      }),
      noVacation,
    );
  };
  const timer = setInterval(draw, 1000);
  return {
    update(next) {
      clocks = next || null;
      receivedAt = Date.now();
      draw();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
