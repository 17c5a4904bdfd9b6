// Where the compact form of an area's stack sits (map_tags.js draws it): each side present is a
// group, in rows; each block whose face the seat sees is a tag (strength and short name) or,
// for a side of MANY blocks or more that has no room for names, a square with its strength;
// each hidden block is a square back. Sizes are screen pixels, drawn at a fixed size whatever
// the zoom; the layout is in map units (`unit`: map units per screen pixel). Two groups (a
// battle, or blocks of both sides) lie side by side or one above the other, framed, with a gap.
import { boxLayout } from './geometry.js';
import { packCells } from './tag_pack.js';

// A tag's, a square's and a back's height on the screen: the line of a 10.5 px bold digit (about
// 12.2 px from ascent to descent) with half a pixel to spare, and three tags in Fife at the Fit
// of a 1280x800 window.
export const TAG_H = 13;
export const STRENGTH_W = 14; // the strength's cell at a tag's left
export const NAME_PX = 10; // the short name's font size on the screen
export const STRENGTH_PX = 10.5; // the strength's font size on the screen
export const MANY = 5; // a side with this many blocks may show only their strengths
export const GAP = 1; // between the cells of a group
export const GROUP_GAP = 5; // between the two groups
export const PAD = 1; // inside a group's frame
const MAX_COLS = 6;

// The ways to draw, tried in turn: names as wide as they like, narrower (squeezed) names, then
// strengths only for a side of MANY or more; then the same cells placed one by one where a small
// or ragged area has room (tag_pack.js) rather than in one box; last, strengths only for every
// side.
const VARIANTS = [
  { nameW: 44, squares: 'none' },
  { nameW: 36, squares: 'none' },
  { nameW: 30, squares: 'none' },
  { nameW: 30, squares: 'many' },
  { nameW: 36, squares: 'many', loose: true },
  { nameW: 30, squares: 'many', loose: true },
  { nameW: 30, squares: 'all' },
  { nameW: 30, squares: 'all', loose: true },
];

// A short name's width in screen pixels at NAME_PX, bold, when the page cannot measure it: a
// bold character is at most about 0.72 em wide ("Comyn" is 38 px).
const guessWidth = (name) => name.length * NAME_PX * 0.72;

// A block's short name: the name itself when one word ("Wallace", "MacDonald"), else the
// first word (cut to four letters if longer than five) and the second's first three letters
// ("Lanc Inf", "York Kni", "Wales Arc"). The full name is in the tag's title and the area's list.
export function shortName(name) {
  const words = String(name).split(' ');
  if (words.length === 1) return name;
  const first = words[0].length > 5 ? words[0].slice(0, 4) : words[0];
  return `${first} ${words[1].slice(0, 3)}`;
}

// The cells of one group: {kind: 'tag' | 'square' | 'back', w, block?}. The group's tags are as
// wide as its longest short name needs (`nameWidth`, with 2 px before and 4 after), at most
// `nameW`: past it a name is squeezed (map_tags.js).
function cellsOf(group, variant, nameWidth) {
  const faces = group.faces.length;
  const squares =
    variant.squares === 'all' || (variant.squares === 'many' && faces + group.backs >= MANY);
  const need = Math.max(0, ...group.faces.map((b) => nameWidth(shortName(b.name))));
  const tagW = STRENGTH_W + Math.min(variant.nameW, Math.ceil(need + 6));
  return [
    ...group.faces.map((block) =>
      squares ? { kind: 'square', w: TAG_H, block } : { kind: 'tag', w: tagW, block },
    ),
    ...Array.from({ length: group.backs }, () => ({ kind: 'back', w: TAG_H })),
  ];
}

// A group's cells in `cols` columns of its widest cell: its size in screen pixels and each
// cell's place in it.
function arrange(cells, cols, pad) {
  const cw = Math.max(...cells.map((c) => c.w));
  const rows = Math.ceil(cells.length / cols);
  const used = Math.min(cols, cells.length);
  return {
    w: used * cw + (used - 1) * GAP + 2 * pad,
    h: rows * TAG_H + (rows - 1) * GAP + 2 * pad,
    cells: cells.map((c, k) => ({
      ...c,
      x: pad + (k % cols) * (cw + GAP),
      y: pad + Math.floor(k / cols) * (TAG_H + GAP),
    })),
  };
}

// Every way of arranging the groups (their columns, side by side or one above the other),
// smallest first: [{w, h, groups: [{x, y, w, h, cells}]}] in screen pixels.
function shapes(groupCells, framed) {
  const pad = framed ? PAD : 0;
  const options = groupCells.map((cells) =>
    Array.from({ length: Math.min(MAX_COLS, cells.length) }, (_, k) => arrange(cells, k + 1, pad)),
  );
  const out = [];
  const combine = (chosen) => {
    if (chosen.length === 1) {
      out.push({ w: chosen[0].w, h: chosen[0].h, groups: [{ ...chosen[0], x: 0, y: 0 }] });
      return;
    }
    const [a, b] = chosen;
    out.push({
      w: a.w + GROUP_GAP + b.w,
      h: Math.max(a.h, b.h),
      groups: [
        { ...a, x: 0, y: 0 },
        { ...b, x: a.w + GROUP_GAP, y: 0 },
      ],
    });
    out.push({
      w: Math.max(a.w, b.w),
      h: a.h + GROUP_GAP + b.h,
      groups: [
        { ...a, x: 0, y: 0 },
        { ...b, x: 0, y: a.h + GROUP_GAP },
      ],
    });
  };
  if (options.length === 1) for (const a of options[0]) combine([a]);
  else for (const a of options[0]) for (const b of options[1]) combine([a, b]);
  return out.sort((p, q) => Math.max(p.w, p.h) - Math.max(q.w, q.h) || p.w * p.h - q.w * q.h);
}

// The compact form of an area's stack: `groups` [{side, faces: [blockInfo], backs: n}] (one per
// side present), placed round `centre` inside `rings`, clear of one of the `avoidTries` (lists
// of boxes, tried in turn) and below `minTop` if it can. Null when no form fits.
// `nameWidth(shortName)`: the name's width in screen pixels (measured by the page).
// {x, y (map units), unit, framed, names (whether every face shows its name), groups: [{side,
// x, y, w, h, cells: [{kind, x, y, w, block?}]}] (screen pixels from x, y)}.
export function tagLayout(groups, centre, rings, minTop, avoidTries, unit, nameWidth = guessWidth) {
  const framed = groups.length > 1;
  // A box that did not fit rules out every box at least as wide and as tall (per list of boxes
  // avoided): most shapes are never tried.
  const failed = avoidTries.map(() => []);
  const place = (shape) => {
    for (const [k, avoid] of avoidTries.entries()) {
      if (failed[k].some(([w, h]) => w <= shape.w && h <= shape.h)) continue;
      const box = boxLayout(shape.w * unit, shape.h * unit, centre, rings, minTop, avoid);
      if (box.fits) return box;
      failed[k].push([shape.w, shape.h]);
    }
    return null;
  };
  for (const variant of VARIANTS) {
    const groupCells = groups.map((g) => cellsOf(g, variant, nameWidth));
    const names = groupCells.every((cells) => cells.every((c) => c.kind !== 'square'));
    if (variant.loose) {
      // Two sides placed one by one are framed where their frames find room; else they go
      // unframed, still apart (their boxes GROUP_GAP apart) and each in its side's colour.
      for (const pad of framed ? [PAD, 0] : [0]) {
        for (const avoid of avoidTries) {
          const packed = packCells(groupCells, centre, rings, avoid, unit, pad);
          if (packed) {
            const sides = packed.groups.map((g, k) => ({ ...g, side: groups[k].side }));
            return { ...packed, unit, framed: pad > 0, names, groups: sides };
          }
        }
      }
      continue;
    }
    for (const shape of shapes(groupCells, framed)) {
      const box = place(shape);
      if (!box) continue;
      return {
        x: box.x,
        y: box.y,
        unit,
        framed,
        names,
        groups: shape.groups.map((g, k) => ({ ...g, side: groups[k].side })),
      };
    }
  }
  return null;
}
