// The SVG map: Voronoi cells around each area's map_xy, every border drawn by type (black,
// limit 6: solid dark; red, limit 2: dashed red), labels with castle limit, cathedral and
// home-noble marks, and a block layer redrawn from each view.
import { s, clickable, clear } from './dom.js';
import { OUTLINE, voronoiCell, pathOf, blockSlots, BLOCK_SIZE } from './geometry.js';
import { areaStacks, typeAbbrev, blockLabel, SIDE_NAME } from './board.js';

const VIEWBOX = '230 170 1280 1820';

function castleMark(x, y, limit, scottishLimit) {
  const label = scottishLimit !== limit
    ? `castle limit ${limit} (${scottishLimit} for Scotland)` : `castle limit ${limit}`;
  return s('g', { class: 'mark castle', transform: `translate(${x},${y})` },
    s('title', {}, label),
    s('path', { d: 'M-14,12 V-8 H-9 V-13 H-4 V-8 H4 V-13 H9 V-8 H14 V12 Z' }),
    s('text', { x: 0, y: 8, 'text-anchor': 'middle' }, String(limit)));
}

function cathedralMark(x, y) {
  return s('g', { class: 'mark cathedral', transform: `translate(${x},${y})` },
    s('title', {}, 'cathedral (+1 castle limit for Scotland)'),
    s('path', { d: 'M-3,-14 H3 V-6 H11 V0 H3 V14 H-3 V0 H-11 V-6 H-3 Z' }));
}

function homeMark(x, y, nobles) {
  return s('g', { class: 'mark home', transform: `translate(${x},${y})` },
    s('title', {}, `home area of ${nobles.join(' and ')}`),
    s('path', { d: 'M-12,-12 H12 V2 Q12,12 0,16 Q-12,12 -12,2 Z' }),
    s('text', { x: 0, y: 6, 'text-anchor': 'middle' }, nobles.map((n) => n[0]).join('')));
}

// A block whose face the seat may see: its own, or an enemy block revealed in the battle.
function ownBlock(b, x, y, opts) {
  const g = s('g', {
    class: `block ${b.revealed ? 'revealed' : 'own'} ${b.side}${b.moved ? ' moved' : ''}` +
      `${b.reserve ? ' reserve' : ''}` +
      `${opts.selected ? ' selected' : ''}${opts.actionable ? ' actionable' : ''}`,
    transform: `translate(${x},${y})`,
    'data-block': b.id,
  },
  s('title', {}, blockLabel(b)),
  s('rect', { width: BLOCK_SIZE, height: BLOCK_SIZE, rx: 7 }),
  s('text', { class: 'bname', x: BLOCK_SIZE / 2, y: 17, 'text-anchor': 'middle' },
    b.name.length > 9 ? `${b.name.slice(0, 8)}.` : b.name),
  s('text', { class: 'bstrength', x: BLOCK_SIZE / 2, y: 50, 'text-anchor': 'middle' },
    String(b.strength)),
  s('text', { class: 'bmeta', x: 5, y: BLOCK_SIZE - 6 }, b.combat),
  s('text', { class: 'bmeta type', x: BLOCK_SIZE / 2, y: BLOCK_SIZE - 6, 'text-anchor': 'middle' },
    typeAbbrev(b.type)),
  s('text', { class: 'bmeta', x: BLOCK_SIZE - 5, y: BLOCK_SIZE - 6, 'text-anchor': 'end' },
    `↦${b.movement ?? '–'}`));
  if (opts.actionable) clickable(g, `${blockLabel(b)}: choose`, () => opts.onClick(b.id));
  return g;
}

function hiddenBlock(side, x, y) {
  return s('rect', {
    class: `block hidden ${side}`, x, y, width: BLOCK_SIZE, height: BLOCK_SIZE, rx: 7,
  });
}

export function createMap(data, { onArea, onBlock }) {
  const sites = data.areas.map((a) => a.map_xy);
  const centre = new Map(data.areas.map((a) => [a.id, a.map_xy]));
  const svg = s('svg', {
    class: 'map', viewBox: VIEWBOX, role: 'group', 'aria-label': 'Map of Scotland and England',
    preserveAspectRatio: 'xMidYMid meet',
  });
  svg.append(s('path', { class: 'sea-outline', d: pathOf(OUTLINE) }));
  const cells = new Map();
  let currentTargets = new Map();
  const cellLayer = s('g', { class: 'cells' });
  data.areas.forEach((a, i) => {
    const cell = s('path', {
      class: `cell${a.is_england ? ' england-area' : ''}`, d: pathOf(voronoiCell(sites, i)),
      'data-area': a.id,
    });
    cell.addEventListener('click', () => {
      if (currentTargets.has(a.id)) onArea(a.id);
    });
    cells.set(a.id, cell);
    cellLayer.append(cell);
  });
  svg.append(cellLayer);

  const borderLayer = s('g', { class: 'borders' });
  for (const b of data.borders) {
    const [p, q] = b.areas.map((id) => centre.get(id));
    const names = b.areas.map((id) => data.area[id].name).join('–');
    borderLayer.append(s('line', {
      class: `border ${b.type}`, x1: p[0], y1: p[1], x2: q[0], y2: q[1], 'data-border': b.id,
    }, s('title', {}, `${names}: ${b.type} border, limit ${b.limit}`)));
  }
  svg.append(borderLayer);

  const labelLayer = s('g', { class: 'labels' });
  for (const a of data.areas) {
    const [x, y] = a.map_xy;
    const ly = y - 70;
    labelLayer.append(s('text', { class: 'area-name', x, y: ly, 'text-anchor': 'middle' },
      a.name.toUpperCase()));
    const marks = [];
    if (!a.is_england) marks.push((mx) => castleMark(mx, ly + 22, a.castle_limit,
      a.scottish_castle_limit));
    if (a.cathedral) marks.push((mx) => cathedralMark(mx, ly + 22));
    if (a.home_of.length) marks.push((mx) => homeMark(mx, ly + 22, a.home_of));
    marks.forEach((make, k) => labelLayer.append(make(x + (k - (marks.length - 1) / 2) * 34)));
  }
  svg.append(labelLayer);

  const markerLayer = s('g', { class: 'markers' });
  const blockLayer = s('g', { class: 'blocks' });
  const targetLayer = s('g', { class: 'targets' });
  svg.append(markerLayer, blockLayer, targetLayer);

  // ui: { selected, blockActionable: Set, areaTargets: Map(area -> label), moving }
  function render(view, ui) {
    clear(markerLayer);
    clear(blockLayer);
    clear(targetLayer);
    for (const cell of cells.values()) cell.classList.remove('target', 'battle', 'moving');
    const stacks = areaStacks(view, data);
    for (const [areaId, info] of stacks) {
      const c = centre.get(areaId);
      const items = [];
      for (const st of info.stacks) {
        for (const b of st.own) items.push({ own: b });
        for (const b of st.revealed) items.push({ own: b });
        for (let k = 0; k < st.hidden; k++) items.push({ hidden: st.side });
      }
      const slots = blockSlots(items.length, c);
      items.forEach((it, k) => {
        const [x, y] = slots[k];
        if (it.own) {
          blockLayer.append(ownBlock(it.own, x, y, {
            selected: ui.selected === it.own.id,
            actionable: ui.blockActionable.has(it.own.id),
            onClick: onBlock,
          }));
        } else blockLayer.append(hiddenBlock(it.hidden, x, y));
      });
      const counts = info.stacks.map((st) =>
        `${SIDE_NAME[st.side]} ${st.own.length + st.revealed.length + st.hidden}`);
      cells.get(areaId).setAttribute('aria-label',
        `${data.area[areaId].name}: ${counts.join(', ') || 'empty'}`);
      if (info.battle) {
        cells.get(areaId).classList.add('battle');
        markerLayer.append(s('g', { class: 'battle-marker',
          transform: `translate(${c[0] + 70},${c[1] - 95})` },
        s('title', {}, `battle: ${SIDE_NAME[info.battle.attacker]} attacks`),
        s('circle', { r: 18 }), s('text', { y: 7, 'text-anchor': 'middle' }, '⚔')));
      }
    }
    if (ui.moving) {
      const from = centre.get(ui.moving.origin);
      const to = centre.get(ui.moving.at);
      if (from && to) {
        markerLayer.append(s('line', { class: 'move-path', x1: from[0], y1: from[1],
          x2: to[0], y2: to[1] }));
      }
      cells.get(ui.moving.at)?.classList.add('moving');
    }
    currentTargets = ui.areaTargets;
    for (const [areaId, label] of ui.areaTargets) {
      const c = centre.get(areaId);
      cells.get(areaId).classList.add('target');
      const t = s('g', { class: 'target-ring', 'data-target': areaId,
        transform: `translate(${c[0]},${c[1] - 112})` },
      s('circle', { r: 24 }),
      s('text', { y: 9, 'text-anchor': 'middle' }, '▼'));
      clickable(t, label, () => onArea(areaId));
      targetLayer.append(t);
    }
  }

  return { el: svg, render };
}
