// Generates web-client/data/map.json: the game's 23 areas as regions of the real map of
// Scotland and northern England. Run by hand (`npm ci && node make-map.js` here); its output
// is committed, so the client has no build step.
//
// Land: Natural Earth 1:50m (public domain, npm `world-atlas`), projected with a transverse
// Mercator centred on Scotland (`d3-geo`). Scotland is the land north of the Anglo-Scottish
// border line below; England is the game's one area south of it, cut off at 54.3°N.
// Each Scottish area is the union of the Voronoi cells (`d3-delaunay`) of its real places
// (SITES), clipped to the mainland (`polygon-clipping`); each island belongs whole to the area
// of the nearest place. Every border of game-data.json must come out as a shared edge of its
// two areas' shapes, and no other pair may share an edge: the script checks this and fails
// otherwise (tests/web/unit/map_data.test.js checks the committed file again).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { geoTransverseMercator } from 'd3-geo';
import { Delaunay } from 'd3-delaunay';
import { feature } from 'topojson-client';
import pc from 'polygon-clipping';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const data = JSON.parse(fs.readFileSync(path.join(root, 'web-client/data/game-data.json')));
const land50 = JSON.parse(fs.readFileSync(path.join(here,
  'node_modules/world-atlas/land-50m.json')));

// Real places [longitude, latitude] (WGS84, to ~0.01°) that stand for each area. The first
// place of each list is the area's seat; the others shape the region so that its real
// neighbours are the game's.
const SITES = {
  ross: [[-4.43, 57.60, 'Dingwall'], [-4.40, 58.02, 'Lairg'], [-3.52, 58.59, 'Thurso'],
    [-5.16, 57.90, 'Ullapool'], [-4.42, 58.48, 'Tongue'], [-3.09, 58.44, 'Wick'],
    [-5.00, 58.25, 'Lochinver'], [-4.80, 57.70, 'Strathconon'], [-5.45, 57.55, 'Torridon'],
    [-3.95, 57.88, 'Dornoch']],
  garmoran: [[-5.83, 57.00, 'Mallaig'], [-5.71, 57.28, 'Kyle of Lochalsh'],
    [-5.55, 56.85, 'Moidart'], [-5.20, 57.10, 'Glen Garry']],
  moray: [[-4.22, 57.48, 'Inverness'], [-4.47, 57.32, 'Urquhart Castle'],
    [-4.68, 57.15, 'Fort Augustus'], [-3.87, 57.58, 'Nairn'], [-4.75, 57.45, 'Glen Affric']],
  strathspey: [[-3.32, 57.65, 'Elgin'], [-3.60, 57.33, 'Grantown-on-Spey'],
    [-2.95, 57.65, 'Cullen'], [-3.61, 57.61, 'Forres']],
  buchan: [[-2.10, 57.15, 'Aberdeen'], [-2.20, 57.50, 'Turriff'], [-1.80, 57.50, 'Peterhead'],
    [-2.00, 57.69, 'Fraserburgh'], [-2.20, 56.96, 'Stonehaven'], [-2.55, 57.56, 'Banff']],
  lochaber: [[-5.10, 56.82, 'Fort William'], [-4.60, 56.90, 'Loch Laggan'],
    [-5.80, 56.55, 'Mull'], [-5.20, 56.62, 'Glen Coe']],
  badenoch: [[-4.05, 57.08, 'Ruthven'], [-3.80, 57.20, 'Aviemore'], [-4.30, 57.00, 'Laggan'],
    [-3.38, 57.25, 'Tomintoul'], [-2.78, 57.45, 'Huntly']],
  mar: [[-2.90, 57.24, 'Kildrummy'], [-3.40, 57.00, 'Braemar'], [-2.60, 57.10, 'Banchory']],
  angus: [[-2.89, 56.64, 'Forfar'], [-2.97, 56.46, 'Dundee'], [-2.47, 56.71, 'Montrose'],
    [-2.60, 56.85, 'Edzell'], [-3.35, 56.50, 'Perth road']],
  argyll: [[-5.07, 56.23, 'Inveraray'], [-5.47, 56.41, 'Oban'], [-5.60, 55.42, 'Kintyre'],
    [-5.40, 55.90, 'Knapdale'], [-5.05, 56.45, 'Loch Awe']],
  atholl: [[-3.85, 56.77, 'Blair Atholl'], [-3.73, 56.70, 'Pitlochry'],
    [-4.20, 56.60, 'Loch Tay'], [-3.45, 56.40, 'Perth'], [-3.70, 56.55, 'Dunkeld']],
  lennox: [[-4.57, 55.94, 'Dumbarton'], [-4.25, 55.86, 'Glasgow'], [-4.60, 56.15, 'Loch Lomond'],
    [-4.75, 56.30, 'Arrochar']],
  mentieth: [[-3.94, 56.12, 'Stirling'], [-4.20, 56.22, 'Lake of Menteith'],
    [-3.70, 56.27, 'Strathearn'], [-3.75, 56.00, 'Falkirk'], [-3.72, 56.07, 'Kincardine'],
    [-3.79, 56.12, 'Alloa'], [-3.63, 56.06, 'Culross'],
    // The 1:50m coast closes the Forth at Queensferry; this keeps Fife and Lothian apart there.
    [-3.40, 56.03, 'Queensferry']],
  fife: [[-2.80, 56.34, 'St Andrews'], [-3.16, 56.11, 'Kirkcaldy'], [-3.15, 56.20, 'Falkland'],
    [-3.20, 56.35, 'Newburgh']],
  carrick: [[-4.63, 55.46, 'Ayr'], [-4.83, 55.32, 'Turnberry'], [-4.55, 55.62, 'Irvine'],
    [-4.80, 55.10, 'Barrhill'], [-4.40, 55.32, 'Dalmellington']],
  lanark: [[-3.78, 55.67, 'Lanark'], [-4.06, 55.78, 'Bothwell'], [-3.95, 55.50, 'Douglas']],
  lothian: [[-3.19, 55.95, 'Edinburgh'], [-3.60, 55.90, 'Linlithgow'],
    [-2.90, 55.90, 'Haddington']],
  selkirk: [[-2.84, 55.55, 'Selkirk'], [-3.19, 55.65, 'Peebles'], [-3.10, 55.45, 'Ettrick']],
  dunbar: [[-2.52, 56.00, 'Dunbar'], [-2.34, 55.78, 'Duns'], [-2.15, 55.85, 'Eyemouth'],
    [-2.25, 55.66, 'Coldstream'], [-2.75, 55.72, 'Lauder']],
  galloway: [[-4.05, 54.84, 'Kirkcudbright'], [-4.44, 54.87, 'Wigtown'],
    [-5.03, 54.90, 'Stranraer'], [-4.25, 55.05, 'Newton Stewart']],
  annan: [[-3.26, 54.99, 'Annan'], [-3.60, 55.07, 'Dumfries'], [-3.44, 55.13, 'Lochmaben'],
    [-3.80, 55.25, 'Nithsdale'], [-2.95, 55.10, 'Langholm'], [-3.92, 55.37, 'Sanquhar']],
  teviot: [[-2.55, 55.48, 'Jedburgh'], [-2.79, 55.42, 'Hawick'], [-2.47, 55.57, 'Roxburgh'],
    [-2.79, 55.26, 'Hermitage Castle'], [-2.60, 55.20, 'Liddesdale']],
};
// England's seat, for its label and stacks.
const ENGLAND_SITE = [-2.10, 54.97, 'Hexham'];

// The Anglo-Scottish border, west to east: Solway Firth, Sark, Liddel Water, the Cheviots,
// the Tweed, the North Sea at Marshall Meadows. Extended past the coast on both ends.
const ANGLO_SCOTTISH_BORDER = [[-3.20, 54.90], [-3.06, 54.98], [-2.95, 55.05], [-2.80, 55.12],
  [-2.68, 55.20], [-2.55, 55.28], [-2.48, 55.35], [-2.32, 55.40], [-2.14, 55.48],
  [-2.25, 55.64], [-2.10, 55.72], [-2.03, 55.81], [-1.90, 55.90]];
const SOUTH = 54.55; // England is cut off here
const WIDTH = 1000;
const HEIGHT = 1300;

const projection = geoTransverseMercator().rotate([4.2, 0]).center([0, 56.5]);
// Focus: a graphical fisheye (Sarkar and Brown) around the Forth magnifies the crowded
// Lowlands up to FOCUS_GAIN + 1 times and leaves the map beyond FOCUS_RADIUS as it is. It is
// continuous and one-to-one, so it changes no area's neighbours; it makes room for the stacks
// of the small southern areas (Fife, Lothian, Mentieth) next to the wide Highlands.
const FOCUS = [-3.4, 56.3];
const FOCUS_RADIUS = 0.8; // of the map's width
const FOCUS_GAIN = 1.0;
let focus = null; // {c: [x, y], r} in projected units, once the projection is fitted
let frame = (xy) => xy; // the last scale and shift onto the WIDTH x HEIGHT box
function fisheye([x, y]) {
  if (!focus) return [x, y];
  const dx = x - focus.c[0];
  const dy = y - focus.c[1];
  const d = Math.hypot(dx, dy);
  if (d === 0 || d >= focus.r) return [x, y];
  const t = d / focus.r;
  const k = ((FOCUS_GAIN + 1) * t) / (FOCUS_GAIN * t + 1) / t;
  return [focus.c[0] + dx * k, focus.c[1] + dy * k];
}
const P = ([lon, lat]) => frame(fisheye(projection([lon, lat])));

// Land polygons near Scotland, as projected rings.
const landGeo = feature(land50, land50.objects.land);
// What the board shows: Scotland and its islands up to 58.8°N (Orkney and Shetland are off
// the board) and England from the Solway to the Tyne.
const window = { type: 'Polygon', coordinates: [[[-8.0, 54.75], [-3.45, 54.75], [-3.45, SOUTH],
  [-1.45, SOUTH], [-1.45, 56.2], [-0.5, 56.2], [-0.5, 58.8], [-8.0, 58.8], [-8.0, 54.75]]] };
const gb = [];
for (const f of landGeo.features ?? [landGeo]) {
  const g = f.geometry ?? f;
  const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  for (const poly of polys) gb.push(poly);
}
const near = pc.intersection(gb.filter((p) => p[0].some(([lon, lat]) =>
  lat > SOUTH && lat < 58.8 && lon > -8 && lon < -0.5)), window.coordinates);
// Ireland and the Isle of Man are not on the board.
const notOnBoard = (poly) => poly[0].every(([lon, lat]) => lon < -5.4 && lat < 55.4)
  || poly[0].every(([lon, lat]) => lat < 54.45);
const landLL = near.filter((p) => !notOnBoard(p));
projection.fitExtent([[20, 20], [WIDTH - 20, HEIGHT - 20]],
  { type: 'MultiPoint', coordinates: landLL.flatMap((poly) => poly[0]) });
focus = { c: projection(FOCUS), r: FOCUS_RADIUS * WIDTH };
{
  const pts = landLL.flatMap((poly) => poly[0]).map((ll) => fisheye(projection(ll)));
  const [x0, x1] = [Math.min(...pts.map((p) => p[0])), Math.max(...pts.map((p) => p[0]))];
  const [y0, y1] = [Math.min(...pts.map((p) => p[1])), Math.max(...pts.map((p) => p[1]))];
  const k = Math.min((WIDTH - 40) / (x1 - x0), (HEIGHT - 40) / (y1 - y0));
  const ox = (WIDTH - k * (x1 - x0)) / 2;
  const oy = (HEIGHT - k * (y1 - y0)) / 2;
  frame = ([x, y]) => [ox + k * (x - x0), oy + k * (y - y0)];
}
const proj = (poly) => poly.map((ring) => ring.map(P));
const land = landLL.map(proj);
const ringArea = (r) => Math.abs(r.reduce((s, p, i) => {
  const q = r[(i + 1) % r.length];
  return s + p[0] * q[1] - q[0] * p[1];
}, 0)) / 2;
land.sort((a, b) => ringArea(b[0]) - ringArea(a[0]));
const mainland = land[0];
const islands = land.slice(1).filter((p) => ringArea(p[0]) > 30);

// North of the border line / south of it, as projected polygons.
const borderXY = ANGLO_SCOTTISH_BORDER.map(P);
// Scotland's side of the border: west of it the line runs out through the Solway Firth.
const NORTH_LL = [[-4.3, 54.3], [-3.62, 54.80], ...ANGLO_SCOTTISH_BORDER, [-0.5, 56.2],
  [-0.5, 59.0], [-8.0, 59.0], [-8.0, 54.3], [-4.3, 54.3]];
const north = [NORTH_LL.map(P)];
const scotMain = pc.intersection([mainland], north);
const engLand = pc.difference([mainland], north);

const areaIds = data.areas.map((a) => a.id).filter((id) => id !== 'england');
const sites = [];
for (const id of areaIds) {
  if (!SITES[id]) throw new Error(`no places for area ${id}`);
  for (const s of SITES[id]) sites.push({ area: id, xy: P(s), name: s[2], ll: [s[0], s[1]] });
}
const delaunay = Delaunay.from(sites.map((s) => s.xy));
const voronoi = delaunay.voronoi([-WIDTH, -HEIGHT, WIDTH * 2, HEIGHT * 2]);

// --- Geometry helpers on projected polygons ---------------------------------------------
function pointIn([x, y], multi) {
  let inside = false;
  for (const poly of multi) {
    for (const ring of poly) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i];
        const [xj, yj] = ring[j];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
    }
  }
  return inside;
}

// The parts of segment a-b inside `multi`, as [t0, t1] intervals of a + t (b - a).
function clipSegment(a, b, multi) {
  const ts = [0, 1];
  const d = [b[0] - a[0], b[1] - a[1]];
  for (const poly of multi) {
    for (const ring of poly) {
      for (let i = 0; i < ring.length - 1; i++) {
        const p = ring[i];
        const e = [ring[i + 1][0] - p[0], ring[i + 1][1] - p[1]];
        const den = d[0] * e[1] - d[1] * e[0];
        if (Math.abs(den) < 1e-12) continue;
        const w = [p[0] - a[0], p[1] - a[1]];
        const t = (w[0] * e[1] - w[1] * e[0]) / den;
        const u = (w[0] * d[1] - w[1] * d[0]) / den;
        if (t > 0 && t < 1 && u >= 0 && u <= 1) ts.push(t);
      }
    }
  }
  ts.sort((x, y) => x - y);
  const out = [];
  for (let i = 0; i < ts.length - 1; i++) {
    const m = (ts[i] + ts[i + 1]) / 2;
    if (ts[i + 1] - ts[i] > 1e-9 && pointIn([a[0] + m * d[0], a[1] + m * d[1]], multi)) {
      out.push([ts[i], ts[i + 1]]);
    }
  }
  return out;
}
const lerp = (a, b, t) => [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);

// --- Shared edges: Voronoi edges between sites of different areas, inside the mainland ------
const edges = new Map(); // "a|b" (sorted) -> [[p, q], ...]
const key = (a, b) => [a, b].sort().join('|');
function addEdge(a, b, p, q) {
  const k = key(a, b);
  if (!edges.has(k)) edges.set(k, []);
  edges.get(k).push([p, q]);
}
for (let i = 0; i < sites.length; i++) {
  for (const j of delaunay.neighbors(i)) {
    if (j <= i || sites[i].area === sites[j].area) continue;
    const ci = voronoi.cellPolygon(i);
    const cj = voronoi.cellPolygon(j);
    // The shared edge: the vertices the two cells have in common.
    const common = ci.filter((p) => cj.some((q) => dist(p, q) < 1e-6));
    const uniq = common.filter((p, k) => common.findIndex((q) => dist(p, q) < 1e-6) === k);
    if (uniq.length < 2) continue;
    const [a, b] = uniq;
    for (const [t0, t1] of clipSegment(a, b, scotMain)) {
      addEdge(sites[i].area, sites[j].area, lerp(a, b, t0), lerp(a, b, t1));
    }
  }
}
// England's edges: the border line inside the mainland, split by the Scottish cells.
for (let i = 0; i < borderXY.length - 1; i++) {
  const a = borderXY[i];
  const b = borderXY[i + 1];
  for (const [t0, t1] of clipSegment(a, b, [mainland])) {
    const p = lerp(a, b, t0);
    const q = lerp(a, b, t1);
    for (let s = 0; s < sites.length; s++) {
      const cell = [[voronoi.cellPolygon(s)]];
      for (const [u0, u1] of clipSegment(p, q, cell)) {
        addEdge('england', sites[s].area, lerp(p, q, u0), lerp(p, q, u1));
      }
    }
  }
}

// --- Area shapes --------------------------------------------------------------------------
const shapes = new Map();
for (const id of areaIds) {
  const cells = sites.map((s, i) => (s.area === id ? [voronoi.cellPolygon(i)] : null))
    .filter(Boolean);
  shapes.set(id, pc.intersection(pc.union(...cells), scotMain));
}
shapes.set('england', engLand);
const nearestArea = (xy) => sites.reduce((best, s) => (dist(s.xy, xy) < dist(best.xy, xy)
  ? s : best)).area;
for (const isl of islands) {
  const c = isl[0].reduce((s, p) => [s[0] + p[0], s[1] + p[1]], [0, 0])
    .map((v) => v / isl[0].length);
  if (pointIn(c, north.length ? [north] : [])) {
    const id = nearestArea(c);
    shapes.set(id, pc.union(shapes.get(id), [isl]));
  }
}

// --- Checks: drawn adjacency equals the game's borders ----------------------------------------
const MIN_EDGE = 6; // shorter shared lengths would not read as a border
const polylen = (segs = []) => segs.reduce((s, [p, q]) => s + dist(p, q), 0);
const problems = [];
const gameBorder = new Map(data.borders.map((b) => [key(...b.areas), b]));
for (const [k, segs] of edges) {
  if (!gameBorder.has(k)) problems.push(`not a game border but shares ${polylen(segs).toFixed(1)}: ${k}`);
}
for (const [k] of gameBorder) {
  const len = edges.has(k) ? polylen(edges.get(k)) : 0;
  if (len < MIN_EDGE) problems.push(`game border too short (${len.toFixed(1)}): ${k}`);
}
// Coast: an area the game calls coastal reaches the sea, an inland area does not.
const coastOf = new Map();
for (const [id, shape] of shapes) {
  let n = 0;
  for (const poly of shape) {
    for (const ring of poly) {
      for (const p of ring) {
        if (!pointIn([p[0] + 2, p[1]], land) || !pointIn([p[0] - 2, p[1]], land)
          || !pointIn([p[0], p[1] + 2], land) || !pointIn([p[0], p[1] - 2], land)) {
          if (!coastOf.has(id)) coastOf.set(id, []);
          coastOf.get(id).push(p);
          n += 1;
        }
      }
    }
  }
}
for (const a of data.areas) {
  const n = (coastOf.get(a.id) || []).filter((p) => !edgeNear(p)).length;
  if (!a.coastal && n > 3) problems.push(`inland area reaches the sea (${n} points): ${a.id}`);
  if (a.coastal && n === 0) problems.push(`coastal area has no coast: ${a.id}`);
}
function edgeNear(p) {
  return [...edges.values()].some((segs) => segs.some(([a, b]) => dist(a, p) < 3 || dist(b, p) < 3));
}
// DEBUG_EDGE=a|b prints the shared edge of areas a and b and their places, for tuning SITES.
const debugPair = process.env.DEBUG_EDGE?.split('|');
if (debugPair) {
  console.error(JSON.stringify(edges.get(key(...debugPair))), JSON.stringify(sites
    .filter((s) => debugPair.includes(s.area)).map((s) => [s.name, s.xy.map(Math.round)])));
}
if (problems.length) {
  console.error(problems.join('\n'));
  if (!process.argv.includes('--force')) process.exit(1);
}

// --- Anchors: the point of each area farthest inside it (for the stack) and its room ----
function distToBoundary(p, shape) {
  let best = Infinity;
  for (const poly of shape) {
    for (const ring of poly) {
      for (let i = 0; i < ring.length - 1; i++) {
        const a = ring[i];
        const b = ring[i + 1];
        const l2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2;
        const t = l2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * (b[0] - a[0])
          + (p[1] - a[1]) * (b[1] - a[1])) / l2)) : 0;
        best = Math.min(best, dist(p, lerp(a, b, t)));
      }
    }
  }
  return best;
}
function innermost(shape, seat) {
  const xs = shape.flatMap((poly) => poly[0].map((p) => p[0]));
  const ys = shape.flatMap((poly) => poly[0].map((p) => p[1]));
  let best = { p: seat, r: pointIn(seat, shape) ? distToBoundary(seat, shape) : 0 };
  const step = 4;
  for (let x = Math.min(...xs); x <= Math.max(...xs); x += step) {
    for (let y = Math.min(...ys); y <= Math.max(...ys); y += step) {
      if (!pointIn([x, y], shape)) continue;
      // Prefer room, then closeness to the seat (so the stack sits near the real place).
      const r = distToBoundary([x, y], shape);
      if (r - dist([x, y], seat) * 0.05 > best.r - dist(best.p, seat) * 0.05) best = { p: [x, y], r };
    }
  }
  return best;
}

const r1 = (v) => Math.round(v * 10) / 10;
const pathOf = (shape) => shape.map((poly) => poly.map((ring) =>
  ring.slice(0, -1).map(([x, y], k) => `${k ? 'L' : 'M'}${r1(x)},${r1(y)}`).join('') + 'Z')
  .join('')).join('');
const segPath = (segs = []) => segs.map(([p, q]) => `M${r1(p[0])},${r1(p[1])}L${r1(q[0])},${r1(q[1])}`)
  .join('');

const out = {
  $comment: 'Generated by tools/hots-map/make-map.js from Natural Earth 1:50m land (public '
    + 'domain) and game-data.json. Do not edit by hand.',
  width: WIDTH,
  height: HEIGHT,
  land: pathOf(land.filter((p) => p !== mainland).concat([mainland])),
  areas: [],
  borders: [],
  anglo_scottish_border: segPath(borderXY.slice(0, -1).map((p, i) => [p, borderXY[i + 1]])
    .flatMap(([p, q]) => clipSegment(p, q, [mainland]).map(([t0, t1]) => [lerp(p, q, t0),
      lerp(p, q, t1)]))),
  norse: null,
};
for (const a of data.areas) {
  const shape = shapes.get(a.id);
  const seatLL = a.id === 'england' ? ENGLAND_SITE : SITES[a.id][0];
  const seat = P(seatLL);
  const inner = innermost(shape, seat);
  const coast = (coastOf.get(a.id) || []).filter((p) => !edgeNear(p));
  // The coast mark: the coastal point farthest from the other areas' anchors, near the seat.
  const coastMark = a.coastal && coast.length
    ? coast.reduce((b, p) => (dist(p, inner.p) < dist(b, inner.p) ? p : b)) : null;
  out.areas.push({
    id: a.id,
    path: pathOf(shape),
    place: { name: seatLL[2], lon: seatLL[0], lat: seatLL[1], xy: seat.map(r1) },
    anchor: inner.p.map(r1),
    room: r1(inner.r),
    coast: coastMark ? coastMark.map(r1) : null,
  });
}
for (const b of data.borders) {
  const segs = edges.get(key(...b.areas));
  out.borders.push({ id: b.id, areas: b.areas, type: b.type, limit: b.limit,
    path: segPath(segs), length: r1(polylen(segs)) });
}
// The Norse come from the northern sea: their mark sits off the north coast.
out.norse = P([-3.0, 58.75]).map(r1);
out.sea_labels = { north: P([-1.2, 57.0]).map(r1), irish: P([-6.6, 55.6]).map(r1) };
const dest = path.join(root, 'web-client/data/map.json');
fs.writeFileSync(dest, `${JSON.stringify(out)}\n`);
console.log(`wrote ${dest}: ${out.areas.length} areas, ${out.borders.length} borders, `
  + `${fs.statSync(dest).size} bytes`);
if (process.argv.includes('--preview')) {
  // A picture for the person tuning SITES: shapes, borders, places.
  const col = (i) => `hsl(${(i * 137) % 360} 55% 75%)`;
  const svg = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" `
    + `width="${WIDTH}" height="${HEIGHT}"><rect width="100%" height="100%" fill="#9cc"/>`];
  out.areas.forEach((a, i) => svg.push(`<path d="${a.path}" fill="${col(i)}" stroke="#666"/>`));
  for (const [k, segs] of edges) {
    svg.push(`<path d="${segPath(segs)}" stroke="${gameBorder.has(k) ? '#000' : '#f0f'}" `
      + 'stroke-width="3" fill="none"/>');
  }
  for (const s of sites) {
    svg.push(`<circle cx="${s.xy[0]}" cy="${s.xy[1]}" r="3"/><text x="${s.xy[0] + 4}" `
      + `y="${s.xy[1]}" font-size="10">${s.area}:${s.name}</text>`);
  }
  svg.push('</svg>');
  fs.writeFileSync('/tmp/hots-map-preview.svg', svg.join(''));
}
