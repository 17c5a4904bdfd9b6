// The compact stack's cells placed one by one (tag_layout.js tries this when no box of them fits
// in the area): a small or ragged area (Fife, Teviot, a coast) often has room for each tag where
// it has none for their rectangle. Cells keep to rows of the tags' height, each as near as the
// area allows to under the one before (the first: to the area's centre), wholly inside the area,
// off the names avoided and off one another. Two groups (the two sides of a battle) stay apart:
// neither's box (its frame) meets the other's, and each frame lies inside the area, off the
// names, as its cells do. Positions in map units; sizes in screen pixels
// (`unit`: map units per pixel), as tag_layout.js gives them.
import { boxInRings, boxesMeet } from './geometry.js';
import { TAG_H, GAP, GROUP_GAP } from './tag_layout.js';

const STEP_X = 3; // the candidates' spacing along a row, in screen pixels

const cache = new WeakMap(); // rings -> Map(key -> layout or null)

function boundsOf(rings) {
  const xs = rings.flat().map((p) => p[0]);
  const ys = rings.flat().map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

const grow = (b, d) => [b[0] - d, b[1] - d, b[2] + d, b[3] + d];
const union = (a, b) =>
  a ? [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])] : b;

// `groupCells`: per group its cells [{kind, w, block?}] (tag_layout.js); `pad`: a group frame's
// padding (0 when not framed). The layout as tagLayout gives it (without unit, framed, names),
// or null when some cell finds no room.
export function packCells(groupCells, centre, rings, avoid, unit, pad) {
  if (!cache.has(rings)) cache.set(rings, new Map());
  const memo = cache.get(rings);
  const key = [
    unit.toFixed(4),
    centre,
    avoid.length,
    pad,
    ...groupCells.map((cells) => cells.map((c) => `${c.kind}${c.w}`).join(',')),
  ].join('|');
  if (!memo.has(key)) memo.set(key, pack(groupCells, centre, rings, avoid, unit, pad));
  return memo.get(key);
}

// Greedy placing can corner itself: it is tried from each of the STARTS places nearest the
// centre where the first cell fits, in turn, with the larger group placed first (it needs the
// room the area's middle has), then the other first.
const STARTS = 24;

// The area's size in square map units (each ring's, by the shoelace formula).
function areaOf(rings) {
  let sum = 0;
  for (const ring of rings) {
    let a = 0;
    for (let i = 1; i < ring.length; i++) {
      a += ring[i - 1][0] * ring[i][1] - ring[i][0] * ring[i - 1][1];
    }
    sum += Math.abs(a) / 2;
  }
  return sum;
}

function pack(groupCells, centre, rings, avoid, unit, pad) {
  // Cells whose boxes (with their gaps) would cover more than the whole area never fit: most
  // stacks too big for an area at a zoom are refused here, at no cost.
  const cover = groupCells.flat().reduce((sum, c) => sum + (c.w + GAP) * (TAG_H + GAP), 0);
  if (cover * unit * unit > areaOf(rings)) return null;
  const [x0, y0, x1, y1] = boundsOf(rings);
  const h = TAG_H * unit;
  const rowH = (TAG_H + GAP) * unit;
  // Candidate tops: rows through the centre; candidate lefts: every STEP_X pixels. Where a cell
  // of each width may go, whatever else is placed (inside the area, off the names), is found
  // once for every attempt.
  const tops = [];
  for (
    let y = centre[1] - h / 2 - Math.ceil((centre[1] - y0) / rowH) * rowH;
    y + h <= y1;
    y += rowH
  )
    if (y >= y0) tops.push(y);
  const spots = new Map();
  const spotsFor = (px) => {
    if (!spots.has(px)) {
      const w = px * unit;
      const list = [];
      for (const top of tops) {
        for (let left = x0; left + w <= x1; left += STEP_X * unit) {
          const b = [left, top, left + w, top + h];
          if (!avoid.some((a) => boxesMeet(b, a)) && boxInRings(b, rings)) list.push(b);
        }
      }
      spots.set(px, list);
    }
    return spots.get(px);
  };
  const size = (k) => groupCells[k].reduce((sum, c) => sum + c.w, 0);
  const larger = groupCells.map((_, k) => k).sort((a, b) => size(b) - size(a));
  const orders = groupCells.length > 1 ? [larger, [...larger].reverse()] : [larger];
  const frameOk = (frame) => !avoid.some((a) => boxesMeet(frame, a)) && boxInRings(frame, rings);
  for (const order of orders) {
    const cells = order.map((k) => groupCells[k]);
    for (let start = 0; start < STARTS; start++) {
      const done = packFrom(start, cells, centre, spotsFor, unit, pad, frameOk);
      if (done === undefined) break; // no more places for the first cell
      if (done) {
        const groups = [];
        order.forEach((k, i) => (groups[k] = done.groups[i]));
        return { ...done, groups };
      }
    }
  }
  return null;
}

// The cells placed with the first cell at the `start`-th place nearest the centre: the layout;
// null when some cell finds no room; undefined when the first cell has fewer places than that.
function packFrom(start, groupCells, centre, spotsFor, unit, pad, frameOk) {
  const rowH = (TAG_H + GAP) * unit;
  const h = TAG_H * unit;
  const placed = []; // boxes of the cells placed, grown by the gap between cells
  const frames = []; // the boxes of the groups done, grown by the gap between groups
  const out = [];
  for (const cells of groupCells) {
    let box = null; // this group's cells' box so far
    let want = centre; // where the next cell's centre would best be
    const mine = [];
    for (const cell of cells) {
      const w = cell.w * unit;
      const first = !placed.length;
      const ranked = spotsFor(cell.w)
        .map((b) => [Math.hypot(b[0] + w / 2 - want[0], b[1] + h / 2 - want[1]), b])
        .sort((p, q) => p[0] - q[0]);
      let skip = first ? start : 0;
      let chosen = null;
      for (const [, b] of ranked) {
        if (placed.some((p) => boxesMeet(b, p))) continue;
        const frame = grow(union(box, b), pad * unit);
        if (frames.some((f) => boxesMeet(frame, f))) continue;
        // A drawn frame (two groups) lies inside the area and off the names too.
        if (pad && !frameOk(frame)) continue;
        if (skip-- > 0) continue;
        chosen = b;
        break;
      }
      if (!chosen) return first ? undefined : null;
      placed.push(grow(chosen, GAP * unit * 0.999));
      box = union(box, chosen);
      mine.push({ cell, b: chosen });
      want = [chosen[0] + w / 2, chosen[1] + h / 2 + rowH];
    }
    const frame = grow(box, pad * unit);
    frames.push(grow(frame, GROUP_GAP * unit));
    out.push({ frame, cells: mine });
  }
  const ox = Math.min(...out.map((g) => g.frame[0]));
  const oy = Math.min(...out.map((g) => g.frame[1]));
  const px = (v) => v / unit;
  return {
    x: ox,
    y: oy,
    groups: out.map(({ frame, cells }) => ({
      x: px(frame[0] - ox),
      y: px(frame[1] - oy),
      w: px(frame[2] - frame[0]),
      h: px(frame[3] - frame[1]),
      cells: cells.map(({ cell, b }) => ({
        ...cell,
        x: px(b[0] - frame[0]),
        y: px(b[1] - frame[1]),
      })),
    })),
  };
}
