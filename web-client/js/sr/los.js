// Pure: the line of sight the board draws for a longbow's target (docs/scotland-rising.md,
// "Longbow line of sight", R8). Whether a target may be shot at is the engine's to say (it is in
// the legal actions or not); the board shows the line from centre to centre and the hexes it
// passes over, with those whose terrain blocks sight (woods, the village) marked, as the
// engine samples it: one point per hex step, nudged both ways across the line.
import { parseHex, toCube, fromCube, hexId, distance } from './hex.js';

const BLOCKS = new Set(['woods', 'village']);

function roundCube(x, y, z) {
  let rx = Math.round(x);
  let ry = Math.round(y);
  let rz = Math.round(z);
  const dx = Math.abs(rx - x);
  const dy = Math.abs(ry - y);
  const dz = Math.abs(rz - z);
  if (dx > dy && dx > dz) rx = -ry - rz;
  else if (dy > dz) ry = -rx - rz;
  else rz = -rx - ry;
  return { x: rx, y: ry, z: rz };
}

const idOf = (c) => {
  const { col, row } = fromCube(c);
  return hexId(col, row);
};

// The hexes strictly between `from` and `to` that the line passes over: each step's one hex,
// or the two hexes of a hexside it runs along ({hexes: [a, b], side: true}).
export function sightSteps(from, to) {
  const n = distance(from, to);
  const p = toCube(parseHex(from));
  const q = toCube(parseHex(to));
  const steps = [];
  const e = 1e-6;
  for (let i = 1; i < n; i++) {
    const x = (p.x * (n - i) + q.x * i) / n;
    const y = (p.y * (n - i) + q.y * i) / n;
    const z = (p.z * (n - i) + q.z * i) / n;
    const one = idOf(roundCube(x + e, y + 2 * e, z - 3 * e));
    const two = idOf(roundCube(x - e, y - 2 * e, z + 3 * e));
    steps.push(one === two ? { hexes: [one], side: false } : { hexes: [one, two], side: true });
  }
  return steps;
}

// What the board draws for a shot from `from` at `to`: the steps, each with the hexes whose
// terrain blocks sight, and whether the line looks blocked by them (a hexside only when both
// of its hexes block).
export function sightLine(from, to, terrain) {
  const steps = sightSteps(from, to).map((s) => ({
    ...s,
    blocking: s.hexes.filter((h) => BLOCKS.has(terrain.get(h))),
  }));
  const blocked = steps.some((s) => s.blocking.length === s.hexes.length);
  return { from, to, steps, blocked };
}
