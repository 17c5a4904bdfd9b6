// Which of the seat's blocks are pinned (RULES 4.7) in its movement phase, and why, from the
// view alone: in an area that also holds enemy blocks (E of them, reserves included), the
// seat's blocks may leave only while its non-reserve blocks there (F) outnumber the enemy's.
// When F <= E, none of its unmoved non-reserve blocks there may leave: each is pinned.
import { SIDES } from './board.js';

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// Map of block id -> the reason it may not leave, in words. Empty outside the seat's own
// movement (the view then offers it no move to make).
export function pinnedBlocks(view) {
  const out = new Map();
  const role = view?.role;
  if (view?.phase !== 'move' || !SIDES.includes(role) || !view.legal_actions?.length) return out;
  const enemy = SIDES.find((s) => s !== role);
  for (const area of view.areas || []) {
    const mine = area[role]?.blocks || [];
    const e = area[enemy]?.count || 0;
    if (!e || !mine.length) continue;
    const f = mine.filter((b) => !b.reserve).length;
    if (f > e) continue;
    const reason = `pinned: ${plural(e, 'enemy block', 'enemy blocks')} in this area ${e === 1 ? 'holds' : 'hold'} ` +
      `your ${f}; a block may leave only while yours outnumber them (RULES 4.7)`;
    for (const b of mine) if (!b.reserve && !b.moved) out.set(b.block, reason);
  }
  return out;
}
