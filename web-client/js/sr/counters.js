// The counters of the Scotland Rising board, in SVG: a square of the side's colour with the
// leader's name on top, the type's icon in the middle and the three values (dice, hit on, move)
// at the foot, as on the printed counters (rulebook 3). A reduced unit is its reduced side: the
// same values here (R4) on a lighter face with a band. A leader is a smaller, round-cornered
// counter with a star. Markers: schiltron (a ring of pikes around the counter and an "S"),
// disorder (a yellow "D"). A unit that has acted this turn is faded.
import { s } from '../dom.js';
import { valuesText, unitDescription } from './model.js';

// The type's icon, drawn in white strokes in a box of `w` x `h` centred on (0, 0).
function icon(type, w, h) {
  const sw = Math.max(1, w * 0.09);
  const st = {
    stroke: 'currentColor',
    'stroke-width': sw,
    fill: 'none',
    'stroke-linecap': 'round',
  };
  const x = w / 2;
  const y = h / 2;
  switch (type) {
    case 'pike': // two crossed pikes
      return [
        s('line', { x1: -x, y1: y, x2: x, y2: -y, ...st }),
        s('line', { x1: x, y1: y, x2: -x, y2: -y, ...st }),
      ];
    case 'ax': // a haft and its blade
      return [
        s('line', { x1: -x * 0.2, y1: y, x2: -x * 0.2, y2: -y, ...st }),
        s('path', {
          d: `M${-x * 0.2},${-y * 0.8} Q${x},${-y * 0.9} ${x * 0.7},${y * 0.1} L${-x * 0.2},${-y * 0.1}`,
          ...st,
          fill: 'currentColor',
        }),
      ];
    case 'longbow': // a bow and its string
      return [
        s('path', { d: `M${-x * 0.3},${-y} Q${x * 1.1},0 ${-x * 0.3},${y}`, ...st }),
        s('line', { x1: -x * 0.3, y1: -y, x2: -x * 0.3, y2: y, ...st, 'stroke-width': sw / 2 }),
        s('line', { x1: -x, y1: 0, x2: x * 0.6, y2: 0, ...st, 'stroke-width': sw / 2 }),
      ];
    case 'crossbow': // a bow across a stock
      return [
        s('path', { d: `M${-x},${-y * 0.2} Q0,${-y * 1.1} ${x},${-y * 0.2}`, ...st }),
        s('line', { x1: 0, y1: -y * 0.65, x2: 0, y2: y, ...st }),
      ];
    case 'knight': // heavy horse: the cavalry bar across the box
      return [
        s('rect', { x: -x, y: -y, width: w, height: h, ...st, 'stroke-width': sw / 1.5 }),
        s('line', { x1: -x, y1: y, x2: x, y2: -y, ...st }),
      ];
    case 'hobelar': // light horse: the cavalry bar, open box
      return [s('line', { x1: -x, y1: y, x2: x, y2: -y, ...st })];
    case 'leader':
    default: {
      const pts = [];
      for (let k = 0; k < 10; k++) {
        const r = k % 2 ? h * 0.25 : h * 0.55;
        const a = (Math.PI / 5) * k - Math.PI / 2;
        pts.push(`${(r * Math.cos(a)).toFixed(2)},${(r * Math.sin(a)).toFixed(2)}`);
      }
      return [s('polygon', { points: pts.join(' '), fill: 'currentColor', stroke: 'none' })];
    }
  }
}

// Text of `size` squeezed into `max` width where it would not fit (names such as "Gloucester").
function fitText(text, attrs, size, max) {
  const guess = text.length * size * 0.56;
  return s(
    'text',
    {
      ...attrs,
      'font-size': size.toFixed(2),
      ...(guess > max ? { textLength: max.toFixed(2), lengthAdjust: 'spacingAndGlyphs' } : {}),
    },
    text,
  );
}

// One counter of width `w`, centred on (cx, cy). `opts.faded`: it has acted this turn.
export function counter(u, cx, cy, w, opts = {}) {
  const leader = u.leader;
  const h = w;
  const classes = ['counter', u.side, u.type];
  if (u.isReduced) classes.push('reduced');
  if (opts.faded) classes.push('acted');
  if (opts.selected) classes.push('selected');
  if (opts.actionable) classes.push('actionable');
  const g = s('g', {
    class: classes.join(' '),
    transform: `translate(${cx.toFixed(2)},${cy.toFixed(2)})`,
    'data-unit': u.id,
  });
  g.append(s('title', {}, unitDescription(u)));
  if (u.schiltron) {
    // A ring of pike points around the counter (R14).
    g.append(
      s('circle', {
        class: 'schiltron-ring',
        r: (w * 0.72).toFixed(2),
        fill: 'none',
        'stroke-dasharray': `${(w * 0.09).toFixed(2)} ${(w * 0.07).toFixed(2)}`,
      }),
    );
  }
  g.append(
    s('rect', {
      class: 'face',
      x: -w / 2,
      y: -h / 2,
      width: w,
      height: h,
      rx: leader ? w * 0.28 : w * 0.08,
    }),
  );
  if (u.isReduced) {
    // The reduced side: a band across the face's top right corner.
    g.append(
      s('path', {
        class: 'reduced-band',
        d: `M${w * 0.1},${-h / 2} L${w / 2},${-h / 2} L${w / 2},${-h * 0.1} Z`,
      }),
    );
  }
  const ink = { class: 'ink', 'text-anchor': 'middle' };
  g.append(fitText(u.name || '', { ...ink, y: (-h * 0.25).toFixed(2) }, w * 0.22, w * 0.92));
  const ic = s('g', { class: 'icon', transform: `translate(0,${(h * 0.02).toFixed(2)})` });
  ic.append(...icon(u.type, w * 0.42, h * 0.24));
  g.append(ic);
  g.append(
    s(
      'text',
      { ...ink, class: 'ink values', y: (h * 0.42).toFixed(2), 'font-size': (w * 0.28).toFixed(2) },
      valuesText(u.values),
    ),
  );
  const badge = (letter, cls, x, y) =>
    s(
      'g',
      { class: `marker ${cls}`, transform: `translate(${x.toFixed(2)},${y.toFixed(2)})` },
      s('rect', { x: -w * 0.18, y: -w * 0.18, width: w * 0.36, height: w * 0.36, rx: w * 0.05 }),
      s('text', { 'text-anchor': 'middle', y: w * 0.1, 'font-size': (w * 0.3).toFixed(2) }, letter),
    );
  if (u.schiltron) g.append(badge('S', 'schiltron-mark', -w / 2, -h / 2));
  if (u.disordered) g.append(badge('D', 'disorder-mark', -w / 2, h / 2));
  return g;
}
