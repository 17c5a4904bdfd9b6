// Pure map geometry on map.json's shapes (tools/hots-map): SVG paths read back as rings, a
// point-in-area test, and where the blocks of a stack sit inside their own area.

// "M1,2L3,4Z M..." -> rings of [x, y], each closed (last point = first).
export function ringsOf(d) {
  const out = [];
  for (const part of String(d).split(/(?=M)/)) {
    const pts = [...part.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map((m) => [+m[1], +m[2]]);
    if (pts.length < 3) continue;
    pts.push(pts[0]);
    out.push(pts);
  }
  return out;
}

// Even-odd rule over all rings (islands and holes alike).
export function pointInRings([x, y], rings) {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

export const BLOCK_SIZE = 56; // a block's side at full size, in map units
const SIZES = [56, 48, 42, 36, 31, 27, 24, 21, 18];
const GAP = 4;

// Candidate stack centres: the anchor, then points of the area on a grid of half a block,
// nearest to the anchor first, up to two blocks and a half away.
function centres(anchor, rings, size) {
  const out = [anchor];
  const step = size / 2;
  for (let i = -5; i <= 5; i++) {
    for (let j = -5; j <= 5; j++) {
      if (i || j) out.push([anchor[0] + i * step, anchor[1] + j * step]);
    }
  }
  return out.filter((p, k) => k === 0 || pointInRings(p, rings))
    .sort((p, q) => Math.hypot(p[0] - anchor[0], p[1] - anchor[1])
      - Math.hypot(q[0] - anchor[0], q[1] - anchor[1]));
}

function grid(n, cols, size, [x, y], minTop = -Infinity) {
  const rows = Math.ceil(n / cols);
  const step = size + GAP;
  const top = Math.max(minTop, y - ((rows - 1) * step) / 2 - size / 2);
  const slots = [];
  for (let k = 0; k < n; k++) {
    const row = Math.floor(k / cols);
    const inRow = Math.min(cols, n - row * cols);
    const left = x - ((inRow - 1) * step) / 2 - size / 2;
    slots.push([left + (k % cols) * step, top + row * step]);
  }
  return slots;
}

function fits(slots, size, rings) {
  const probes = [0, 0.5, 1];
  return slots.every(([x, y]) => probes.every((u) => probes.every((v) =>
    pointInRings([x + u * size, y + v * size], rings))));
}

// Where `n` blocks of one area sit: the largest size (then the roundest grid) whose every block
// lies wholly inside the area, centred on its anchor and not above `minTop` (the area's name
// and marks). {size, slots: [[left, top]], fits}; when nothing fits below `minTop`, the same
// without it; when even the smallest size does not fit, the smallest size in a square grid.
const cache = new WeakMap(); // rings -> Map(key -> layout): a layout is computed once
export function stackLayout(n, anchor, rings, minTop = -Infinity) {
  if (!cache.has(rings)) cache.set(rings, new Map());
  const memo = cache.get(rings);
  const key = `${n}|${anchor}|${minTop}`;
  if (!memo.has(key)) memo.set(key, layoutAny(n, anchor, rings, minTop));
  return memo.get(key);
}

function layoutAny(n, anchor, rings, minTop) {
  const below = layoutBelow(n, anchor, rings, minTop);
  if (below.fits || minTop === -Infinity) return below;
  return layoutBelow(n, anchor, rings, -Infinity);
}

function layoutBelow(n, anchor, rings, minTop) {
  if (n <= 0) return { size: BLOCK_SIZE, slots: [], fits: true };
  for (const size of SIZES) {
    const order = [];
    for (let cols = 1; cols <= n; cols++) order.push(cols);
    // Prefer grids close to square, a little wider than tall.
    order.sort((a, b) => Math.abs(a - Math.sqrt(n * 1.4)) - Math.abs(b - Math.sqrt(n * 1.4)));
    // The anchor first, then centres ever farther from it, wherever the area has room.
    for (const centre of centres(anchor, rings, size)) {
      for (const cols of order) {
        const slots = grid(n, cols, size, centre, minTop);
        if (fits(slots, size, rings)) return { size, slots, fits: true };
      }
    }
  }
  const size = SIZES.at(-1);
  return { size, slots: grid(n, Math.ceil(Math.sqrt(n)), size, anchor, minTop), fits: false };
}
