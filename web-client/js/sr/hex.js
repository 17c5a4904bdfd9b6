// Pure: the geometry of a Scotland Rising board (docs/scotland-rising.md, "The board"). Rows of
// pointy-topped hexes, odd rows (counted from 0 at the north edge) shifted half a hex east
// ("odd-r"); a hex is named CCRR, column then row, both from 01. The same cube coordinates as
// the engine's rules/scotland_rising/board.cpp, so that adjacency and distance agree with it.

export const SQRT3 = Math.sqrt(3);

// "0712" -> {col: 6, row: 11} (0-based), or null for anything else.
export function parseHex(id) {
  const m = /^(\d\d)(\d\d)$/.exec(String(id));
  if (!m) return null;
  return { col: Number(m[1]) - 1, row: Number(m[2]) - 1 };
}

export function hexId(col, row) {
  const two = (n) => String(n + 1).padStart(2, '0');
  return `${two(col)}${two(row)}`;
}

export function toCube({ col, row }) {
  const x = col - (row - (row & 1)) / 2;
  return { x, y: -x - row, z: row };
}

export function fromCube({ x, z }) {
  return { col: x + (z - (z & 1)) / 2, row: z };
}

export function distance(a, b) {
  const p = toCube(parseHex(a));
  const q = toCube(parseHex(b));
  return (Math.abs(p.x - q.x) + Math.abs(p.y - q.y) + Math.abs(p.z - q.z)) / 2;
}

export const isAdjacent = (a, b) => distance(a, b) === 1;

// The hexes next to `id` on a board of `columns` x `rows`.
export function neighbours(id, columns, rows) {
  const c = toCube(parseHex(id));
  const steps = [
    [1, -1, 0],
    [0, -1, 1],
    [-1, 0, 1],
    [-1, 1, 0],
    [0, 1, -1],
    [1, 0, -1],
  ];
  const out = [];
  for (const [dx, , dz] of steps) {
    const { col, row } = fromCube({ x: c.x + dx, z: c.z + dz });
    if (col >= 0 && col < columns && row >= 0 && row < rows) out.push(hexId(col, row));
  }
  return out;
}

// The centre of a hex in board units for hexes of circumradius `size`, the board's top left
// corner at (0, 0).
export function hexCenter(id, size) {
  const { col, row } = parseHex(id);
  return {
    x: SQRT3 * size * (col + 0.5 + 0.5 * (row & 1)),
    y: size * (1 + 1.5 * row),
  };
}

// The six corners of a pointy-topped hex, as an SVG points string.
export function hexPoints(cx, cy, size) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 30);
    pts.push(`${(cx + size * Math.cos(a)).toFixed(2)},${(cy + size * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(' ');
}

// The size of the whole board in board units.
export function boardSize(columns, rows, size) {
  return { width: SQRT3 * size * (columns + 0.5), height: size * (1.5 * rows + 0.5) };
}

// The hex lying in the direction of an arrow key from `id` (the hex focus on the map): left and
// right along the row, up and down to the next row.
export function stepHex(id, key, columns, rows) {
  const { col, row } = parseHex(id);
  let c = col;
  let r = row;
  if (key === 'ArrowLeft') c -= 1;
  else if (key === 'ArrowRight') c += 1;
  else if (key === 'ArrowUp' || key === 'ArrowDown') {
    // The same column of the next row is a neighbour (half a hex east or west of this one):
    // holding the key zigzags straight up or down the board.
    r += key === 'ArrowUp' ? -1 : 1;
  } else return id;
  if (c < 0 || c >= columns || r < 0 || r >= rows) return id;
  return hexId(c, r);
}
