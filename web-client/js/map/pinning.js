// Which of the seat's blocks are pinned (RULES 4.7), and why: read from the view, where the
// engine marks them ("pinned": the reason, on the seat's own blocks, in its own move phase).
// The rule itself is the engine's alone.

// Map of block id -> the reason it may not leave, in words.
export function pinnedBlocks(view) {
  const out = new Map();
  const role = view?.role;
  for (const area of view?.areas || []) {
    for (const b of area[role]?.blocks || []) if (b.pinned) out.set(b.block, b.pinned);
  }
  return out;
}
