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
// nearest to the anchor first, up to `reach` half blocks away.
function centres(anchor, rings, size, reach = 5) {
  const out = [anchor];
  const step = size / 2;
  for (let i = -reach; i <= reach; i++) {
    for (let j = -reach; j <= reach; j++) {
      if (i || j) out.push([anchor[0] + i * step, anchor[1] + j * step]);
    }
  }
  return out
    .filter((p, k) => k === 0 || pointInRings(p, rings))
    .sort(
      (p, q) =>
        Math.hypot(p[0] - anchor[0], p[1] - anchor[1]) -
        Math.hypot(q[0] - anchor[0], q[1] - anchor[1]),
    );
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

// Whether boxes [x0, y0, x1, y1] overlap (touching edges do not).
export const boxesMeet = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

// Whether the segment from a to b has a piece inside the box [x0, y0, x1, y1] (Liang-Barsky).
function segmentMeetsBox([ax, ay], [bx, by], [x0, y0, x1, y1]) {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  for (const [p, q] of [
    [-dx, ax - x0],
    [dx, x1 - ax],
    [-dy, ay - y0],
    [dy, y1 - ay],
  ]) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      t0 = Math.max(t0, r);
    } else {
      if (r < t0) return false;
      t1 = Math.min(t1, r);
    }
  }
  return t1 - t0 > 1e-9;
}

// Whether the box [x0, y0, x1, y1] lies wholly inside the area: no edge of its shape crosses the
// box, and the box's centre is inside. Exact, where probing points could miss a sliver of sea or
// a neighbour (a border's sharp notch) between them.
export function boxInRings(box, rings) {
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i++) {
      if (segmentMeetsBox(ring[i - 1], ring[i], box)) return false;
    }
  }
  return pointInRings([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2], rings);
}

// Every square at `slots` (side `size`) lies inside the area and clear of the boxes `avoid`
// (the areas' names and marks).
function fits(slots, size, rings, avoid = []) {
  return slots.every(([x, y]) => {
    const box = [x, y, x + size, y + size];
    return !avoid.some((b) => boxesMeet(box, b)) && boxInRings(box, rings);
  });
}

// Where `n` blocks of one area sit: the largest size (then the roundest grid) whose every block
// lies wholly inside the area, clear of the boxes `avoid` (the areas' names and marks),
// centred on its anchor and not above `minTop` (the area's own name and marks, when their
// boxes are not known).
// {size, slots: [[left, top]], fits}; when nothing fits below `minTop`, the same without it;
// when even the smallest size does not fit, the smallest size in a square grid. `avoid` must be
// the same array for every call on the same rings (the layout is computed once per key).
const cache = new WeakMap(); // rings -> Map(key -> layout)
function memoised(rings, key, compute) {
  if (!cache.has(rings)) cache.set(rings, new Map());
  const memo = cache.get(rings);
  if (!memo.has(key)) memo.set(key, compute());
  return memo.get(key);
}

export function stackLayout(n, anchor, rings, minTop = -Infinity, avoid = []) {
  return memoised(rings, `s|${n}|${anchor}|${minTop}|${avoid.length}`, () =>
    layoutAny(n, anchor, rings, minTop, avoid),
  );
}

function layoutAny(n, anchor, rings, minTop, avoid) {
  const below = layoutBelow(n, anchor, rings, minTop, avoid);
  if (below.fits || minTop === -Infinity) return below;
  return layoutBelow(n, anchor, rings, -Infinity, avoid);
}

function layoutBelow(n, anchor, rings, minTop, avoid) {
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
        if (fits(slots, size, rings, avoid)) return { size, slots, fits: true };
      }
    }
  }
  const size = SIZES.at(-1);
  return { size, slots: grid(n, Math.ceil(Math.sqrt(n)), size, anchor, minTop), fits: false };
}

// Where the chip of a collapsed area sits: a box of `w` x `h` map units (its parts drawn at a
// fixed size on the screen, so the box follows the zoom), or else the same box turned a
// quarter (`h` x `w`), as near the anchor as the area allows, wholly inside it, clear of `avoid`
// and, if it can, below `minTop`. {x, y, w, h, fits}: its top-left corner and size.
export function chipLayout(w, h, anchor, rings, minTop = -Infinity, avoid = []) {
  return memoised(
    rings,
    `c|${w.toFixed(2)}|${h.toFixed(2)}|${anchor}|${minTop}|${avoid.length}`,
    () => {
      const shapes =
        w === h
          ? [[w, h]]
          : [
              [w, h],
              [h, w],
            ];
      for (const top of [minTop, -Infinity]) {
        for (const centre of centres(anchor, rings, Math.min(w, h), 8)) {
          for (const [bw, bh] of shapes) {
            const box = {
              x: centre[0] - bw / 2,
              y: Math.max(top, centre[1] - bh / 2),
              w: bw,
              h: bh,
            };
            if (boxFits(box, rings, avoid)) return { ...box, fits: true };
          }
        }
      }
      return { x: anchor[0] - w / 2, y: anchor[1] - h / 2, w, h, fits: false };
    },
  );
}

// Where a box of `w` x `h` map units sits upright in an area: as near the anchor as the area
// allows, wholly inside it, clear of `avoid` and, if it can, below `minTop`. {x, y, w, h,
// fits}. The compact stacks (map_tags.js) try several shapes in turn; a box wider or taller
// than the area's bounds is refused at once. The whole box is checked (boxInRings), so every
// part drawn in it lies inside too.
export function boxLayout(w, h, anchor, rings, minTop = -Infinity, avoid = []) {
  return memoised(
    rings,
    `b|${w.toFixed(2)}|${h.toFixed(2)}|${anchor}|${minTop}|${avoid.length}`,
    () => {
      const [x0, y0, x1, y1] = boundsOf(rings);
      if (w <= x1 - x0 && h <= y1 - y0) {
        for (const top of [minTop, -Infinity]) {
          for (const centre of boxCentres(anchor, rings)) {
            const box = { x: centre[0] - w / 2, y: Math.max(top, centre[1] - h / 2), w, h };
            if (box.x < x0 || box.y < y0 || box.x + w > x1 || box.y + h > y1) continue;
            if (boxFits(box, rings, avoid)) return { ...box, fits: true };
          }
          if (top === -Infinity) break;
        }
      }
      return { x: anchor[0] - w / 2, y: anchor[1] - h / 2, w, h, fits: false };
    },
  );
}

// The centres a box is tried at: a grid of 8 map units round the anchor, nearest first.
const boxCentreCache = new WeakMap();
function boxCentres(anchor, rings) {
  if (!boxCentreCache.has(rings)) boxCentreCache.set(rings, centres(anchor, rings, 8, 15));
  return boxCentreCache.get(rings);
}

const bounds = new WeakMap();
function boundsOf(rings) {
  if (!bounds.has(rings)) {
    const xs = rings.flat().map((p) => p[0]);
    const ys = rings.flat().map((p) => p[1]);
    bounds.set(rings, [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]);
  }
  return bounds.get(rings);
}

function boxFits({ x, y, w, h }, rings, avoid) {
  const box = [x, y, x + w, y + h];
  return !avoid.some((b) => boxesMeet(box, b)) && boxInRings(box, rings);
}
