// Semantic zoom of the map's stacks. When an area's blocks would be drawn too small to read
// (a name or strength under MIN_TEXT_PX on the screen, an enemy back under MIN_BACK_PX), the
// area shows one chip instead: per side present, a square of the side's colour with the number
// of its blocks, drawn at a fixed size on the screen; tapping, clicking or Enter on the area
// opens the list of those blocks (stack_panel.js). The other side's blocks are counted only,
// as on the map (RULES 13).
import { s } from '../dom.js';
import { blockTextPx } from './map_blocks.js';
import { plural } from '../wording.js';

export const MIN_TEXT_PX = 10; // a block's name and strength, in screen pixels
export const MIN_BACK_PX = 16; // the side of an enemy block's back, in screen pixels
export const CHIP_PX = 18; // a chip's height on the screen
export const CHIP_TEXT_PX = 12; // its count's font size on the screen

// The zoom is taken in steps of 2%, rounded down: a chip drawn for a step is never smaller on
// the screen than its size in pixels, and the stacks are redrawn only when the step changes.
const STEP = Math.log(1.02);
export const zoomStep = (scale) => Math.floor(Math.log(scale) / STEP + 1e-9);
export const stepScale = (step) => Math.exp(step * STEP);

// Whether an area's `items` ({own: blockInfo} or {hidden: side}) drawn as blocks of `size`
// map units read at `scale` screen pixels per unit.
export function legible(items, size, scale) {
  return items.every((it) =>
    it.own ? blockTextPx(it.own.name, size, scale) >= MIN_TEXT_PX : size * scale >= MIN_BACK_PX,
  );
}

// A side's part of the chip, in screen pixels: wide enough for its count (a digit of the 12 px
// bold count is about 8.4 px wide); a chip of two sides is 20 px wide, which fits even in
// Lothian, the narrowest area, at a phone's Fit. Its parts (a battle's sides: RULES 5) are
// framed each and parted by a light bar, so that they read as two groups, not one number.
const partWidth = (count, parts) =>
  Math.max(parts > 1 ? 10 : CHIP_PX, String(count).length * 8 + 2);

// The chip's parts: one per side present, Scotland first, with its count and whether the
// seat sees those blocks' faces (its own, or revealed in battle).
export function chipParts(stacks) {
  return stacks.map((st) => ({
    side: st.side,
    count: st.own.length + st.revealed.length + st.hidden,
    faces: st.own.length + st.revealed.length > 0,
  }));
}

// The chip's size in screen pixels.
export function chipSize(parts) {
  return [parts.reduce((w, p) => w + partWidth(p.count, parts.length), 0), CHIP_PX];
}

export const SIDE_ADJ = { scotland: 'Scottish', england: 'English' };
export function countText(parts) {
  return parts.map((p) => plural(p.count, `${SIDE_ADJ[p.side]} block`)).join(', ');
}

// The chip at map point (x, y) (its top-left corner), `unit` map units per screen pixel.
// `looks`: actionable, selected, highlighted, traced. A side whose faces the seat does not see
// is drawn as the backs of hidden blocks are (the class `block hidden`).
// `faces`: the ids of the blocks in it whose faces the seat sees (its list shows them).
export function stackChip(area, areaName, parts, faces, x, y, unit, looks, onOpen) {
  const [, hgt] = chipSize(parts);
  const cls = [
    'chip',
    ...Object.entries(looks)
      .filter(([, on]) => on)
      .map(([k]) => k),
  ];
  const g = s(
    'g',
    {
      class: cls.join(' '),
      'data-chip': area,
      'data-area': area,
      'data-blocks': faces.join(' '),
      transform: `translate(${x},${y}) scale(${unit})`,
    },
    s('title', {}, `${areaName}: ${countText(parts)}. Tap to list them.`),
  );
  let left = 0;
  for (const p of parts) {
    const pw = partWidth(p.count, parts.length);
    g.append(
      s('rect', {
        class: `chip-side ${p.side}${p.faces ? ' faces' : ' block hidden'}`,
        x: left,
        y: 0,
        width: pw,
        height: hgt,
      }),
      s(
        'text',
        {
          class: 'chip-count',
          x: left + pw / 2,
          y: hgt / 2 + CHIP_TEXT_PX * 0.36,
          'text-anchor': 'middle',
          'font-size': CHIP_TEXT_PX,
        },
        String(p.count),
      ),
    );
    g.append(s('rect', { class: 'chip-frame', x: left, y: 0, width: pw, height: hgt, rx: 3 }));
    if (left > 0) {
      g.append(s('rect', { class: 'chip-bar', x: left - 1, y: 0, width: 2, height: hgt }));
    }
    left += pw;
  }
  g.addEventListener('click', (e) => {
    e.stopPropagation();
    onOpen(area);
  });
  return g;
}
