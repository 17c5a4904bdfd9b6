// Pure map geometry: the land outline, one Voronoi cell per area centre (map_xy), and where
// blocks sit inside an area. Coordinates are those of game-data.json's map box (1500 x 2000).

// A schematic outline of Scotland and northern England, drawn for this project.
export const OUTLINE = [
  [420, 250], [700, 190], [1000, 250], [1180, 330], [1350, 430], [1360, 580], [1250, 680],
  [1210, 800], [1130, 930], [1090, 1010], [1120, 1130], [1290, 1200], [1310, 1330],
  [1400, 1450], [1490, 1560], [1490, 1970], [1010, 1970], [960, 1770], [800, 1800],
  [560, 1770], [510, 1630], [560, 1510], [520, 1370], [430, 1290], [320, 1190], [290, 1020],
  [250, 860], [290, 700], [290, 560], [350, 420],
];

// Keeps the part of `poly` on the side of the line a·p <= c (Sutherland–Hodgman, one edge).
export function clipHalfPlane(poly, a, c) {
  const out = [];
  const inside = (p) => a[0] * p[0] + a[1] * p[1] <= c + 1e-9;
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i];
    const q = poly[(i + 1) % poly.length];
    const pin = inside(p);
    const qin = inside(q);
    if (pin) out.push(p);
    if (pin !== qin) {
      const dp = a[0] * p[0] + a[1] * p[1] - c;
      const dq = a[0] * q[0] + a[1] * q[1] - c;
      const t = dp / (dp - dq);
      out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
    }
  }
  return out;
}

// The cell of sites[i]: the points of `outline` nearer to it than to any other site.
export function voronoiCell(sites, i, outline = OUTLINE) {
  let cell = outline.slice();
  const [xi, yi] = sites[i];
  for (let j = 0; j < sites.length && cell.length > 0; j++) {
    if (j === i) continue;
    const [xj, yj] = sites[j];
    // |p - si|^2 <= |p - sj|^2  <=>  2 (sj - si)·p <= |sj|^2 - |si|^2
    const a = [2 * (xj - xi), 2 * (yj - yi)];
    const c = xj * xj + yj * yj - xi * xi - yi * yi;
    cell = clipHalfPlane(cell, a, c);
  }
  return cell;
}

export function polygonArea(poly) {
  let sum = 0;
  for (let i = 0; i < poly.length; i++) {
    const [x1, y1] = poly[i];
    const [x2, y2] = poly[(i + 1) % poly.length];
    sum += x1 * y2 - x2 * y1;
  }
  return Math.abs(sum) / 2;
}

export function pointInPolygon([x, y], poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function pathOf(poly) {
  return poly.map(([x, y], k) => `${k ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`).join('') + 'Z';
}

export const BLOCK_SIZE = 74;
const GAP = 6;

// Top-left corners of `n` blocks in a grid centred under an area's label at (x, y).
export function blockSlots(n, [x, y]) {
  if (n <= 0) return [];
  const cols = n <= 3 ? n : n <= 6 ? 3 : 4;
  const rows = Math.ceil(n / cols);
  const step = BLOCK_SIZE + GAP;
  const top = y + 10 - ((rows - 1) * step) / 2;
  const slots = [];
  for (let k = 0; k < n; k++) {
    const row = Math.floor(k / cols);
    const inRow = Math.min(cols, n - row * cols);
    const left = x - ((inRow - 1) * step) / 2;
    const col = k % cols;
    slots.push([left + col * step - BLOCK_SIZE / 2, top + row * step - BLOCK_SIZE / 2]);
  }
  return slots;
}
