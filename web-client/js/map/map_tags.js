// The compact form of an area's stack, drawn at a fixed size on the screen where its blocks would
// be too small to read (map_chips.js decides; tag_layout.js places it): each block whose face
// the seat sees is a tag, its strength on the side's colour and its short name on the label; a
// side of many blocks may show a square with the strength alone; a block whose face is hidden is
// its back in its side's colour (RULES 13). Where both sides stand (a battle: RULES 5) each side
// is a framed group of its own. A tag is chosen, or tells why it is pinned (RULES 4.7), as a
// block is; any other tag opens the area's list, where the whole face is.
import { s, clickable } from '../dom.js';
import { blockLabel } from '../board.js';
import { shortName, TAG_H, STRENGTH_W, NAME_PX, STRENGTH_PX } from './tag_layout.js';
import { blockState, hiddenBlock } from './map_blocks.js';

// A short name's width in screen pixels, bold at NAME_PX in the map's font (style.css), as the
// browser draws it: the tag is made as wide as it needs (tag_layout.js), and a name wider than
// its room is squeezed, never let out of its tag.
let ruler = null;
export function nameWidth(name) {
  ruler ??= document.createElement('canvas').getContext('2d');
  ruler.font = `700 ${NAME_PX}px system-ui, sans-serif`;
  return ruler.measureText(name).width;
}

function tag(cell, opts) {
  const b = cell.block;
  const nameW = cell.w - STRENGTH_W;
  const cls = ['block', 'tag', b.revealed ? 'revealed-tag' : 'own-tag', b.side];
  if (b.revealed) cls.push('revealed');
  const pinned = blockState(b, opts, cls);
  const square = cell.kind === 'square';
  const w = square ? TAG_H : STRENGTH_W + nameW;
  const sw = square ? TAG_H : STRENGTH_W;
  const g = s(
    'g',
    {
      class: cls.join(' '),
      transform: `translate(${cell.x},${cell.y})`,
      'data-block': b.id,
      'data-area': opts.area,
    },
    s('title', {}, pinned ? `${blockLabel(b)}. ${pinned}` : blockLabel(b)),
    s('rect', { class: 'body', width: w, height: TAG_H, rx: 2 }),
  );
  if (!square) {
    const name = shortName(b.name);
    const room = nameW - 4;
    const attrs = {
      class: 'tname',
      x: sw + 2,
      y: TAG_H / 2 + NAME_PX * 0.35,
      'font-size': NAME_PX,
    };
    if (nameWidth(name) > room) {
      Object.assign(attrs, { textLength: room, lengthAdjust: 'spacingAndGlyphs' });
    }
    g.append(
      s('rect', { class: 'label', x: sw, y: 1, width: nameW - 1, height: TAG_H - 2, rx: 1.5 }),
      s('text', attrs, name),
    );
  }
  g.append(
    s(
      'text',
      {
        class: 'tstrength',
        x: sw / 2,
        y: TAG_H / 2 + STRENGTH_PX * 0.35,
        'text-anchor': 'middle',
        'font-size': STRENGTH_PX,
      },
      String(b.strength),
    ),
  );
  if (pinned) clickable(g, `${blockLabel(b)}: ${pinned}`, () => opts.onPinned(pinned));
  if (opts.actionable) clickable(g, `${blockLabel(b)}: choose`, () => opts.onClick(b.id));
  if (!pinned && !opts.actionable) {
    clickable(g, `${blockLabel(b)}. Lists the blocks of the area`, () => opts.onOpen());
  }
  g.setAttribute('tabindex', '-1'); // reached by the arrow keys inside its area (map_keys.js)
  return g;
}

// The compact stack `layout` (tagLayout) of `area`. `looks(block)`: {actionable, selected,
// highlighted, pinned} of one of its blocks; `traced`: the opponent's moves went there;
// handlers: onClick(block), onPinned(reason), onOpen() (the area's list).
export function compactStack(layout, area, looks, traced, handlers) {
  const root = s('g', {
    class: 'tags',
    'data-tags': area,
    'data-area': area,
    transform: `translate(${layout.x},${layout.y}) scale(${layout.unit})`,
  });
  for (const group of layout.groups) {
    const g = s('g', {
      class: `tag-group ${group.side}`,
      transform: `translate(${group.x},${group.y})`,
    });
    if (layout.framed) {
      g.append(
        s('rect', { class: `tag-frame ${group.side}`, width: group.w, height: group.h, rx: 3 }),
      );
    }
    for (const cell of group.cells) {
      if (cell.kind === 'back') {
        g.append(
          hiddenBlock(
            group.side,
            cell.x,
            cell.y,
            TAG_H,
            traced && group.side !== handlers.role,
            area,
          ),
        );
      } else {
        g.append(tag(cell, { ...looks(cell.block), ...handlers, area }));
      }
    }
    root.append(g);
  }
  return root;
}
