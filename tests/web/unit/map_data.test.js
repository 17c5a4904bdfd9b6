// The generated map (web-client/data/map.json, from tools/hots-map/make-map.js) against the
// rules' map (game-data.json): two areas' drawn shapes share an edge exactly when the game has
// a border between them, and each border is drawn on that shared edge in its own style.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (p) => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8'));
const game = read('web-client/data/game-data.json');
const map = read('web-client/data/map.json');

// "M1,2L3,4Z M..." -> rings of [x, y] (closed: last point repeats the first).
function rings(d) {
  const out = [];
  for (const part of d.split(/(?=M)/)) {
    const pts = [...part.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map((m) => [+m[1], +m[2]]);
    if (pts.length < 2) continue;
    if (part.trim().endsWith('Z')) pts.push(pts[0]);
    out.push(pts);
  }
  return out;
}
const segments = (rs) => rs.flatMap((r) => r.slice(1).map((q, i) => [r[i], q]));
function distToSeg(p, [a, b]) {
  const l2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2;
  const t = l2
    ? Math.max(0, Math.min(1, ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / l2))
    : 0;
  return Math.hypot(p[0] - a[0] - t * (b[0] - a[0]), p[1] - a[1] - t * (b[1] - a[1]));
}

const TOL = 0.6; // coordinates are rounded to 0.1
const STEP = 1;
const areaSegs = new Map(map.areas.map((a) => [a.id, segments(rings(a.path))]));

// A coarse grid of every area's boundary segments, to find the areas near a point quickly.
const CELL = 20;
const grid = new Map();
for (const [id, segs] of areaSegs) {
  for (const s of segs) {
    const [x0, x1] = [Math.min(s[0][0], s[1][0]), Math.max(s[0][0], s[1][0])];
    const [y0, y1] = [Math.min(s[0][1], s[1][1]), Math.max(s[0][1], s[1][1])];
    for (let gx = Math.floor((x0 - TOL) / CELL); gx <= Math.floor((x1 + TOL) / CELL); gx++) {
      for (let gy = Math.floor((y0 - TOL) / CELL); gy <= Math.floor((y1 + TOL) / CELL); gy++) {
        const k = `${gx},${gy}`;
        if (!grid.has(k)) grid.set(k, []);
        grid.get(k).push([id, s]);
      }
    }
  }
}
const areasOn = (p) =>
  new Set(
    (grid.get(`${Math.floor(p[0] / CELL)},${Math.floor(p[1] / CELL)}`) || [])
      .filter(([, s]) => distToSeg(p, s) <= TOL)
      .map(([id]) => id),
  );

// Length of boundary each pair of areas shares, walking every area's boundary.
function sharedLengths() {
  const shared = new Map();
  for (const [id, segs] of areaSegs) {
    for (const [a, b] of segs) {
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
      const n = Math.max(1, Math.ceil(len / STEP));
      for (let k = 0; k < n; k++) {
        const t = (k + 0.5) / n;
        const p = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
        for (const other of areasOn(p)) {
          if (other === id) continue;
          const key = [id, other].sort().join('|');
          shared.set(key, (shared.get(key) || 0) + len / n / 2); // each side walks it once
        }
      }
    }
  }
  return shared;
}

test('the map has one shape per game area', () => {
  assert.deepEqual(map.areas.map((a) => a.id).sort(), game.areas.map((a) => a.id).sort());
  for (const a of map.areas) assert.ok(rings(a.path).length > 0, `${a.id} has a shape`);
});

test('two areas share an edge on the map exactly when the game has a border between them', () => {
  const shared = sharedLengths();
  const drawn = new Set([...shared].filter(([, len]) => len >= 3).map(([k]) => k));
  const wanted = new Set(game.borders.map((b) => [...b.areas].sort().join('|')));
  const extra = [...drawn].filter((k) => !wanted.has(k));
  const missing = [...wanted].filter((k) => !drawn.has(k));
  assert.deepEqual({ extra, missing }, { extra: [], missing: [] });
  // No touching of non-neighbours either, beyond a corner point.
  for (const [k, len] of shared) {
    if (!wanted.has(k)) assert.ok(len < 1.5, `${k} touch along ${len.toFixed(1)}`);
  }
});

test("each border is drawn on its two areas' shared edge, in the game's style", () => {
  assert.equal(map.borders.length, game.borders.length);
  const byId = new Map(game.borders.map((b) => [b.id, b]));
  for (const mb of map.borders) {
    const gb = byId.get(mb.id);
    assert.ok(gb, `${mb.id} is a game border`);
    assert.deepEqual([mb.areas, mb.type, mb.limit], [gb.areas, gb.type, gb.limit]);
    const pts = rings(mb.path).flat();
    assert.ok(pts.length >= 2, `${mb.id} is drawn`);
    for (const p of pts) {
      const on = areasOn(p);
      assert.ok(
        gb.areas.every((id) => on.has(id)),
        `${mb.id}: ${p} lies on both areas' edges`,
      );
    }
  }
});

test('every area has room for its stack and the marks the game gives it', () => {
  const anchors = new Map(map.areas.map((a) => [a.id, a]));
  for (const a of game.areas) {
    const m = anchors.get(a.id);
    assert.ok(m.room > 8, `${a.id}'s anchor is inside it`);
    assert.equal(!!m.coast, a.coastal, `${a.id} has a coast mark exactly when coastal`);
  }
  assert.ok(map.anglo_scottish_border.length > 0);
  assert.ok(map.norse);
});
