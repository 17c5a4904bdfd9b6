// How a block looks on the map. A block the seat may see shows its label as on the physical block:
// the side's colour, the name in full (shrunk to fit, never cut), the current strength as pips on
// the top edge (and as a number at the top right), the other strengths' pips on the other edges in
// the order the block turns (RULES 1.3: one hit turns it a quarter so one pip less is on top), the
// combat rating at the top left, and at the foot the type (for a noble, its home: RULES 1.4, 10.1)
// and the movement allowance. Drawn in a 56-unit box and scaled to the stack's size. The other
// side's blocks are only their backs.
import { s, clickable } from '../dom.js';
import { typeAbbrev, blockLabel, homeAbbrev } from '../board.js';

const BOX = 56;

// Pips of strength `n` along the top edge of the box, centred, at height y.
function pipRow(n, y, r, spacing) {
  const out = [];
  for (let k = 0; k < n; k++) {
    out.push(s('circle', { cx: BOX / 2 + (k - (n - 1) / 2) * spacing, cy: y, r }));
  }
  return out;
}

// The edge values of a label turned so that `strength` is on top: clockwise from the top
// strength, strength-1, ... wrapping round the four edges (values 1..4; those above the
// block's maximum are blank on the physical label).
export function edgeStrengths(strength, max) {
  return [0, 1, 2, 3].map((k) => {
    const v = ((strength - 1 - k + 8) % 4) + 1;
    return v <= max ? v : 0;
  });
}

// Name lines that fit the label: one line if short, else split at a space.
export function nameLines(name) {
  if (name.length <= 9 || !name.includes(' ')) return [name];
  const mid = name.length / 2;
  let best = -1;
  for (let i = 0; i < name.length; i++) {
    if (name[i] === ' ' && (best < 0 || Math.abs(i - mid) < Math.abs(best - mid))) best = i;
  }
  return [name.slice(0, best), name.slice(best + 1)];
}

// The name's font size in block units: shrunk to fit the label's width (46 units) at about
// 0.58 em per character.
export function nameSize(name) {
  return Math.min(11, 46 / (Math.max(...nameLines(name).map((l) => l.length)) * 0.58));
}
export const STRENGTH_SIZE = 12; // the strength's font size in block units (.bstrength)
// The rating row's font size in block units (.bmeta): as large as the shortest names', so that
// a block legible by its name is legible by its rating too.
export const META_SIZE = 10;
const META_MID_WIDTH = 32; // the most the type or home may take at the foot, left of the move

// The smallest of a block's name, strength and rating, in screen pixels, when drawn `size` map
// units wide at `scale` screen pixels per map unit.
export function blockTextPx(name, size, scale) {
  return Math.min(nameSize(name), STRENGTH_SIZE, META_SIZE) * (size / BOX) * scale;
}

// The foot's left: a noble's home, else its type; squeezed (not shrunk) into its width when
// long, so that its height stays legible (a bold capital is about 0.75 em wide).
function metaFoot(b) {
  const text = b.homes?.length ? homeAbbrev(b.homes) : typeAbbrev(b.type);
  const attrs = {
    class: `bmeta ${b.homes?.length ? 'home' : 'type'}`,
    x: 6,
    y: 48,
    'font-size': META_SIZE,
  };
  if (text.length * META_SIZE * 0.75 > META_MID_WIDTH) {
    Object.assign(attrs, { textLength: META_MID_WIDTH, lengthAdjust: 'spacingAndGlyphs' });
  }
  return s('text', attrs, text);
}

// The classes a block's state adds to `cls` (a block drawn whole, or as a tag), and why it is
// pinned (RULES 4.7) when that is what a click tells, else null.
export function blockState(b, opts, cls) {
  if (b.moved) cls.push('moved');
  if (b.reserve) cls.push('reserve');
  if (opts.selected) cls.push('selected');
  if (opts.actionable) cls.push('actionable');
  if (opts.highlighted) cls.push('highlighted');
  const pinned = opts.pinned && !opts.actionable ? opts.pinned : null;
  if (pinned) cls.push('pinned');
  return pinned;
}

export function ownBlock(b, x, y, size, opts) {
  const cls = ['block', b.revealed ? 'revealed' : 'own', b.side];
  const pinned = blockState(b, opts, cls);
  const max = b.max || b.strength || 1;
  const edges = edgeStrengths(b.strength, max);
  const lines = nameLines(b.name);
  const fontSize = nameSize(b.name);
  const nameY = lines.length === 1 ? 33 : 28.5;
  const g = s(
    'g',
    {
      class: cls.join(' '),
      transform: `translate(${x},${y}) scale(${size / BOX})`,
      'data-block': b.id,
    },
    s('title', {}, pinned ? `${blockLabel(b)}. ${pinned}` : blockLabel(b)),
    s('rect', { class: 'body', width: BOX, height: BOX, rx: 6 }),
    s('rect', { class: 'label', x: 3, y: 3, width: BOX - 6, height: BOX - 6, rx: 4 }),
    s('g', { class: 'pips top' }, pipRow(edges[0], 8.5, 2.4, 6.2)),
    s(
      'g',
      { class: 'pips side', transform: `rotate(90 ${BOX / 2} ${BOX / 2})` },
      pipRow(edges[1], 6.5, 1.3, 4),
    ),
    s(
      'g',
      { class: 'pips side', transform: `rotate(180 ${BOX / 2} ${BOX / 2})` },
      pipRow(edges[2], 6.5, 1.3, 4),
    ),
    s(
      'g',
      { class: 'pips side', transform: `rotate(270 ${BOX / 2} ${BOX / 2})` },
      pipRow(edges[3], 6.5, 1.3, 4),
    ),
    s(
      'text',
      { class: 'bstrength', x: 47, y: 20, 'text-anchor': 'middle', 'font-size': STRENGTH_SIZE },
      String(b.strength),
    ),
    s(
      'text',
      {
        class: 'bname',
        x: BOX / 2,
        y: nameY,
        'text-anchor': 'middle',
        'font-size': fontSize.toFixed(2),
      },
      lines.map((l, k) => s('tspan', { x: BOX / 2, dy: k ? fontSize * 1.05 : 0 }, l)),
    ),
    s('text', { class: 'bmeta combat', x: 6, y: 21, 'font-size': META_SIZE }, b.combat),
    metaFoot(b),
    s(
      'text',
      { class: 'bmeta move', x: BOX - 6, y: 48, 'text-anchor': 'end', 'font-size': META_SIZE },
      b.movement ? `${b.movement}` : '–',
    ),
  );
  if (b.moved) {
    g.append(
      s('path', { class: 'moved-mark', d: `M${BOX - 16},0 H${BOX - 6} Q${BOX},0 ${BOX},6 V16 Z` }),
    );
  }
  if (pinned) {
    // A pin through the block's top-left corner; a tap or Enter tells why (RULES 4.7).
    g.append(
      s(
        'g',
        { class: 'pin-mark' },
        s('circle', { cx: 8, cy: 8, r: 5 }),
        s('path', { d: 'M8,5 V11 M5,8 H11' }),
      ),
    );
    clickable(g, `${blockLabel(b)}: ${pinned}`, () => opts.onPinned(pinned));
  }
  if (opts.actionable) clickable(g, `${blockLabel(b)}: choose`, () => opts.onClick(b.id));
  if (!pinned && !opts.actionable) {
    g.setAttribute('role', 'img');
    g.setAttribute('aria-label', blockLabel(b));
  }
  // Reached by the arrow keys inside its area (map_keys.js), never by Tab.
  g.setAttribute('tabindex', '-1');
  g.setAttribute('data-area', opts.area);
  return g;
}

// A block whose face the seat may not see: its back, in the side's colour. `traced` marks a
// block that stands where the opponent's last moves went.
export function hiddenBlock(side, x, y, size, traced, area) {
  return s('rect', {
    class: `block hidden ${side}${traced ? ' traced' : ''}`,
    x,
    y,
    width: size,
    height: size,
    rx: size * 0.11,
    role: 'img',
    tabindex: -1,
    'data-area': area,
    'aria-label': `${side === 'scotland' ? 'Scottish' : 'English'} block, face hidden`,
  });
}
