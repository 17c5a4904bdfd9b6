// The SVG map drawn from map.json (tools/hots-map: real geography): area shapes, borders by
// type on the shared edges (black, limit 6: solid; red, limit 2: dashed red), the Anglo-
// Scottish border, labels with castle limit, cathedral, home-noble and coast marks, the Norse,
// and a block layer redrawn from each view and at each step of the zoom: an area whose blocks
// would be too small to read shows a chip that opens their list instead (map_chips.js,
// stack_panel.js). Zoom and pan live in map_view.js, the keyboard in map_keys.js.
import { s, clickable, clear } from '../dom.js';
import { ringsOf, stackLayout, chipLayout } from './geometry.js';
import { areaStacks, SIDE_NAME } from '../board.js';
import { ownBlock, hiddenBlock } from './map_blocks.js';
import { createMapView } from './map_view.js';
import { attachMapKeys } from './map_keys.js';
import { legible, zoomStep, stepScale, chipParts, chipSize, stackChip } from './map_chips.js';
import { createStackPanel } from './stack_panel.js';
import { tagLayout, TAG_H } from './tag_layout.js';
import { compactStack, nameWidth } from './map_tags.js';

function castleMark(x, y, limit, scottishLimit) {
  const label =
    scottishLimit !== limit
      ? `castle limit ${limit} (${scottishLimit} for Scotland, cathedral)`
      : `castle limit ${limit}`;
  return s(
    'g',
    { class: 'mark castle', transform: `translate(${x},${y})` },
    s('title', {}, label),
    s('path', { d: 'M-8,7 V-5 H-5 V-8 H-2 V-5 H2 V-8 H5 V-5 H8 V7 Z' }),
    s('text', { x: 0, y: 5, 'text-anchor': 'middle' }, String(limit)),
  );
}

function cathedralMark(x, y) {
  return s(
    'g',
    { class: 'mark cathedral', transform: `translate(${x},${y})` },
    s('title', {}, 'cathedral: +1 castle limit for Scotland'),
    s('path', { d: 'M-2,-8 H2 V-4 H7 V0 H2 V8 H-2 V0 H-7 V-4 H-2 Z' }),
  );
}

function homeMark(x, y, nobles) {
  return s(
    'g',
    { class: 'mark home', transform: `translate(${x},${y})` },
    s('title', {}, `home of ${nobles.join(' and ')}`),
    s('path', { d: 'M-8,-8 H8 V1 Q8,7 0,10 Q-8,7 -8,1 Z' }),
    s('text', { x: 0, y: 3.5, 'text-anchor': 'middle' }, nobles.map((n) => n[0]).join('')),
  );
}

function coastMark([x, y], seas) {
  const which = seas.map((sea) => (sea === 'north' ? 'North Sea' : 'Irish Sea')).join(' and ');
  return s(
    'g',
    { class: 'mark coast', transform: `translate(${x},${y})` },
    s('title', {}, `coast on the ${which}: sea moves (Norse, Sea Move card) land here`),
    s('circle', { r: 6 }),
    s('path', { d: 'M0,-3.5 V4 M-3,1 Q0,5 3,1 M-2,-2 H2' }),
  );
}

// Where an area's name sits: above its stack's anchor, within its room.
const labelY = (m) => m.anchor[1] - Math.min(m.room, 70) * 0.72;

export function createMap(
  data,
  { onArea, onBlock, onPinned = () => {}, label = 'Map of Scotland and England' },
) {
  const shape = data.shape;
  const svg = s('svg', {
    class: 'map',
    viewBox: `0 0 ${shape.width} ${shape.height}`,
    role: 'group',
    'aria-label':
      `${label}. Arrow keys go from area to area, Enter or Space acts on the area ` +
      'or goes to its blocks, Escape goes back; Shift with an arrow pans, plus and minus zoom, ' +
      '0 shows the whole map.',
    preserveAspectRatio: 'xMidYMid meet',
    tabindex: -1, // not a Tab stop itself (Chromium makes it one otherwise): its areas are
  });
  // The stripes of a pinned block's label (RULES 4.7), in block units.
  svg.append(
    s(
      'defs',
      {},
      s(
        'pattern',
        {
          id: 'pinned-stripes',
          width: 6,
          height: 6,
          patternUnits: 'userSpaceOnUse',
          patternTransform: 'rotate(45)',
        },
        s('rect', { width: 6, height: 6, fill: '#f7f1e1' }),
        s('rect', { width: 3, height: 6, fill: '#ddd3bb' }),
      ),
    ),
  );
  svg.append(s('rect', { class: 'sea', x: -2000, y: -2000, width: 5000, height: 5000 }));
  svg.append(s('path', { class: 'land', d: shape.land }));
  for (const [sea, [x, y]] of Object.entries(shape.sea_labels || {})) {
    svg.append(
      s(
        'text',
        { class: 'sea-name', x, y, 'text-anchor': 'middle' },
        sea === 'north' ? 'NORTH SEA' : 'IRISH SEA',
      ),
    );
  }
  // A tap on an area (or its name, which may lie over the sea) that is not a destination shows
  // its name and its blocks in the list: at a phone's Fit the map's own are too small to read.
  const tapArea = (id) => {
    if (currentTargets.has(id)) onArea(id);
    else panel.open(id, data.area[id].name, listed.get(id) ?? [], false);
  };
  const cells = new Map();
  const areaShape = new Map();
  let currentTargets = new Map();
  const cellLayer = s('g', { class: 'cells' });
  for (const a of data.areas) {
    const m = shape.area[a.id];
    areaShape.set(a.id, { ...m, rings: ringsOf(m.path) });
    const cell = s('path', {
      class: `cell${a.is_england ? ' england-area' : ''}`,
      d: m.path,
      'data-area': a.id,
      role: 'button',
      'aria-label': a.name,
    });
    cell.addEventListener('click', () => tapArea(a.id));
    cells.set(a.id, cell);
    cellLayer.append(cell);
  }
  svg.append(cellLayer);

  const borderLayer = s('g', { class: 'borders' });
  for (const b of shape.borders) {
    const names = b.areas.map((id) => data.area[id].name).join('–');
    const rule = b.type === 'red' ? 'at most 2 blocks, and they must stop' : 'at most 6 blocks';
    borderLayer.append(
      s(
        'path',
        { class: `border ${b.type}`, d: b.path, 'data-border': b.id },
        s('title', {}, `${names}: ${b.type} border, ${rule}`),
      ),
    );
  }
  borderLayer.append(
    s(
      'path',
      { class: 'anglo-scottish', d: shape.anglo_scottish_border },
      s('title', {}, 'The Anglo-Scottish border: crossing it costs a whole move point (RULES 4.5)'),
    ),
  );
  svg.append(borderLayer);

  const labelLayer = s('g', { class: 'labels' });
  for (const a of data.areas) {
    const m = areaShape.get(a.id);
    const [x] = m.anchor;
    const ly = labelY(m);
    const name = (a.display_name || a.name).toUpperCase();
    const group = s(
      'g',
      { class: 'area-label', 'data-label': a.id },
      s('text', { class: 'area-name', x, y: ly, 'text-anchor': 'middle' }, name),
    );
    group.querySelector('.area-name').addEventListener('click', () => tapArea(a.id));
    labelLayer.append(group);
    const marks = [];
    if (!a.is_england)
      marks.push((mx) => castleMark(mx, ly + 12, a.castle_limit, a.scottish_castle_limit));
    if (a.cathedral) marks.push((mx) => cathedralMark(mx, ly + 12));
    if (a.home_of.length) marks.push((mx) => homeMark(mx, ly + 12, a.home_of));
    marks.forEach((make, k) => group.append(make(x + (k - (marks.length - 1) / 2) * 19)));
    if (m.coast) labelLayer.append(coastMark(m.coast, a.seas));
  }
  const [nx, ny] = shape.norse;
  labelLayer.append(
    s(
      'g',
      { class: 'mark norse', transform: `translate(${nx},${ny})` },
      s('title', {}, 'The Norse: Scottish, move only by sea between coastal areas (RULES 4.10)'),
      s('path', { d: 'M-16,4 Q0,14 16,4 L12,-2 H-12 Z M0,-2 V-18 L10,-8 H0' }),
      s('text', { x: 0, y: 26, 'text-anchor': 'middle' }, 'NORSE'),
    ),
  );
  svg.append(labelLayer);

  const traceLayer = s('g', { class: 'traces' });
  const markerLayer = s('g', { class: 'markers' });
  const blockLayer = s('g', { class: 'blocks' });
  const targetLayer = s('g', { class: 'targets' });
  svg.append(traceLayer, markerLayer, blockLayer, targetLayer);

  const arrow = (from, to, cls, title) => {
    const [p, q] = [areaShape.get(from).anchor, areaShape.get(to).anchor];
    const [dx, dy] = [q[0] - p[0], q[1] - p[1]];
    const len = Math.hypot(dx, dy) || 1;
    const [ux, uy] = [dx / len, dy / len];
    const [ex, ey] = [q[0] - ux * 22, q[1] - uy * 22];
    return s(
      'g',
      { class: cls },
      s('title', {}, title),
      s('path', { class: 'shaft', d: `M${p[0] + ux * 18},${p[1] + uy * 18}L${ex},${ey}` }),
      s('path', {
        class: 'head',
        d:
          `M${ex + ux * 12},${ey + uy * 12}L${ex - uy * 8},${ey + ux * 8}` +
          `L${ex + uy * 8},${ey - ux * 8}Z`,
      }),
    );
  };

  // The areas' names and marks, which a stack should not cover: their boxes in map units,
  // measured once the map is drawn; `all` of them, and per area the `others` (an area's own
  // name may be covered by its stack where nothing legible fits beside it). Before the map is
  // in the page, a stack keeps below its own area's name instead (`minTop`).
  let labelBoxes = null;
  function labelsAvoided(areaId) {
    if (!labelBoxes && svg.isConnected) {
      const boxes = new Map();
      for (const g of labelLayer.querySelectorAll('.area-label')) {
        const b = g.getBBox();
        if (!b.width) return null;
        boxes.set(g.dataset.label, [b.x - 2, b.y - 2, b.x + b.width + 2, b.y + b.height + 2]);
      }
      const all = [...boxes.values()];
      labelBoxes = new Map(
        [...boxes.keys()].map((id) => [
          id,
          { all, others: [...boxes].filter(([other]) => other !== id).map(([, b]) => b) },
        ]),
      );
    }
    return labelBoxes?.get(areaId) ?? null;
  }

  let drawnStep = null; // the zoom step the stacks were drawn for
  let last = null; // {view, ui}: what render() was last given
  const holder = createMapView(svg, shape, {
    onZoom: (scale) => {
      if (last && zoomStep(scale) !== drawnStep) drawStacks();
    },
  });
  let shownChoices = '';
  let collapsed = new Set(); // areas drawn as a chip
  let listed = new Map(); // area -> the entries of its list (stack_panel.js)
  let actionableAreas = new Set();

  const panel = createStackPanel({
    onBlock: (id) => onBlock(id),
    onPinned: (reason) => onPinned(reason),
    onClose: (area, giveBack) => {
      if (giveBack) keys.focusArea(area);
    },
  });
  holder.el.append(panel.el);
  const openList = (areaId, focus) => {
    if (listed.has(areaId)) panel.open(areaId, data.area[areaId].name, listed.get(areaId), focus);
  };

  const keys = attachMapKeys(svg, {
    cells,
    anchors: new Map([...areaShape].map(([id, m]) => [id, m.anchor])),
    onFocusArea: (areaId) => holder.reveal(...areaShape.get(areaId).anchor),
    // Enter on an area: its destination if it is one, else its list (a chip) or first block.
    onActivate: (areaId) => {
      if (currentTargets.has(areaId)) onArea(areaId);
      else if (collapsed.has(areaId)) openList(areaId, true);
      else {
        const mine = [...blockLayer.querySelectorAll(`[data-area="${areaId}"][tabindex]`)];
        (mine.find((el) => el.classList.contains('actionable')) ?? mine[0])?.focus();
      }
    },
  });

  // The blocks of every area, as blocks or as a chip, for the zoom step of the map's scale.
  function drawStacks() {
    const { view, ui } = last;
    const scale = holder.scale();
    drawnStep = scale ? zoomStep(scale) : null;
    const drawScale = scale ? stepScale(drawnStep) : Infinity; // no size yet: all as blocks
    // The focus, if on a block or chip, comes back to the same one (or its area) after.
    const focused = blockLayer.contains(document.activeElement) ? document.activeElement : null;
    const focusKey =
      focused && (focused.dataset.block ? `[data-block="${focused.dataset.block}"]` : null);
    const focusArea = focused?.dataset.area;
    clear(blockLayer);
    const highlight = ui.highlight || { areas: new Set(), blocks: new Set() };
    const tracedTo = new Set((ui.traces || []).map((t) => t.to));
    const wanted = []; // boxes of what the player may choose: kept in view
    collapsed = new Set();
    listed = new Map();
    actionableAreas = new Set();
    for (const [areaId, info] of areaStacks(view, data)) {
      const m = areaShape.get(areaId);
      const items = [];
      for (const st of info.stacks) {
        for (const b of st.own) items.push({ own: b });
        for (const b of st.revealed) items.push({ own: b });
        for (let k = 0; k < st.hidden; k++) items.push({ hidden: st.side });
      }
      if (!items.length) continue;
      const avoid = labelsAvoided(areaId);
      const minTop = avoid ? -Infinity : labelY(m) + 22;
      const entries = items
        .filter((it) => it.own)
        .map((it) => ({
          own: it.own,
          actionable: ui.blockActionable.has(it.own.id),
          selected: ui.selected === it.own.id,
          pinned: ui.pinned?.get(it.own.id) ?? null,
        }));
      for (const st of info.stacks) {
        if (st.hidden) entries.push({ hidden: st.side, count: st.hidden });
      }
      listed.set(areaId, entries);
      if (entries.some((e) => e.actionable)) actionableAreas.add(areaId);
      // Inside the area and off every name if the blocks read so, else over its own name if they
      // read so there, else a chip (off every name, else off the others', else anywhere inside).
      const centre = [m.anchor[0], m.anchor[1] + 6];
      const tries = avoid ? [avoid.all, avoid.others] : [[]];
      const layout = tries
        .map((boxes) => stackLayout(items.length, centre, m.rings, minTop, boxes))
        .find((l) => l.fits && legible(items, l.size, drawScale));
      const looks = (b) => ({
        actionable: ui.blockActionable.has(b.id),
        selected: ui.selected === b.id,
        highlighted: highlight.blocks.has(b.id),
        pinned: ui.pinned?.get(b.id) ?? null,
      });
      // Too small to read as blocks: the compact form (tags of strength and short name, backs),
      // drawn at a fixed size on the screen, if it fits; else a chip.
      const compact =
        !layout &&
        tagLayout(
          info.stacks.map((st) => ({
            side: st.side,
            faces: [...st.own, ...st.revealed],
            backs: st.hidden,
          })),
          centre,
          m.rings,
          minTop,
          tries,
          1 / drawScale,
          nameWidth,
        );
      if (compact) {
        const drawn = compactStack(compact, areaId, looks, tracedTo.has(areaId), {
          role: ui.role,
          onClick: onBlock,
          onPinned,
          onOpen: () => openList(areaId, true),
        });
        blockLayer.append(drawn);
        for (const g of compact.groups) {
          for (const c of g.cells) {
            if (c.block && ui.blockActionable.has(c.block.id)) {
              const [x, y] = [
                compact.x + (g.x + c.x) * compact.unit,
                compact.y + (g.y + c.y) * compact.unit,
              ];
              wanted.push([x, y, x + c.w * compact.unit, y + TAG_H * compact.unit]);
            }
          }
        }
        continue;
      }
      if (!layout) {
        collapsed.add(areaId);
        const parts = chipParts(info.stacks);
        const [pw, ph] = chipSize(parts);
        const unit = 1 / drawScale;
        const box =
          [...tries, []]
            .map((boxes) => chipLayout(pw * unit, ph * unit, centre, m.rings, minTop, boxes))
            .find((b) => b.fits) ?? chipLayout(pw * unit, ph * unit, centre, m.rings);
        // A chip turned a quarter (a narrow area) keeps its parts upright: it is drawn as is,
        // centred in the box found.
        const x = box.x + (box.w - pw * unit) / 2;
        const y = box.y + (box.h - ph * unit) / 2;
        const actionable = entries.some((e) => e.actionable);
        if (actionable) wanted.push([x, y, x + pw * unit, y + ph * unit]);
        const faces = entries.filter((e) => e.own).map((e) => e.own.id);
        blockLayer.append(
          stackChip(
            areaId,
            data.area[areaId].name,
            parts,
            faces,
            x,
            y,
            unit,
            {
              actionable,
              selected: entries.some((e) => e.selected),
              highlighted: entries.some((e) => e.own && highlight.blocks.has(e.own.id)),
              traced: tracedTo.has(areaId),
            },
            (id) => openList(id, true),
          ),
        );
        continue;
      }
      items.forEach((it, k) => {
        const [x, y] = layout.slots[k];
        if (it.own) {
          if (ui.blockActionable.has(it.own.id))
            wanted.push([x, y, x + layout.size, y + layout.size]);
          blockLayer.append(
            ownBlock(it.own, x, y, layout.size, {
              selected: ui.selected === it.own.id,
              actionable: ui.blockActionable.has(it.own.id),
              highlighted: highlight.blocks.has(it.own.id),
              pinned: ui.pinned?.get(it.own.id) ?? null,
              onClick: onBlock,
              onPinned,
              area: areaId,
            }),
          );
        } else {
          blockLayer.append(
            hiddenBlock(
              it.hidden,
              x,
              y,
              layout.size,
              tracedTo.has(areaId) && it.hidden !== ui.role,
              areaId,
            ),
          );
        }
      });
    }
    // Blocks and chips are reached by the arrow keys, never by Tab (map_keys.js).
    for (const el of blockLayer.querySelectorAll('[tabindex]')) el.setAttribute('tabindex', '-1');
    if (panel.area()) {
      if (listed.has(panel.area())) panel.refresh(listed.get(panel.area()));
      else panel.close(false);
    }
    if (focused && !focused.isConnected && document.activeElement !== focused) {
      const again = focusKey && blockLayer.querySelector(focusKey);
      if (again) again.focus();
      else if (focusArea) keys.focusArea(focusArea);
    }
    return wanted;
  }

  // ui: { selected, blockActionable: Set, pinned: Map(block -> reason), areaTargets:
  //       Map(area -> label), moving,
  //       traces: [{from, to, text}] (the opponent's last moves), highlight: {areas, blocks} }
  function render(view, ui) {
    last = { view, ui };
    clear(markerLayer);
    clear(targetLayer);
    clear(traceLayer);
    for (const cell of cells.values()) {
      cell.classList.remove('target', 'battle', 'moving', 'highlight', 'traced');
    }
    const highlight = ui.highlight || { areas: new Set(), blocks: new Set() };
    for (const t of ui.traces || []) {
      if (!areaShape.has(t.from) || !areaShape.has(t.to)) continue;
      traceLayer.append(arrow(t.from, t.to, 'trace', t.text));
      cells.get(t.to).classList.add('traced');
    }
    const wanted = drawStacks();
    for (const [areaId, info] of areaStacks(view, data)) {
      const m = areaShape.get(areaId);
      const counts = info.stacks.map(
        (st) => `${SIDE_NAME[st.side]} ${st.own.length + st.revealed.length + st.hidden}`,
      );
      const target = ui.areaTargets.get(areaId);
      const what = [
        target,
        actionableAreas.has(areaId) && 'blocks to choose',
        !target && collapsed.has(areaId) && 'Enter lists the blocks',
      ].filter(Boolean);
      cells
        .get(areaId)
        .setAttribute(
          'aria-label',
          `${data.area[areaId].name}: ` +
            `${counts.join(', ') || 'empty'}${what.length ? `. ${what.join('. ')}` : ''}`,
        );
      if (info.battle) {
        cells.get(areaId).classList.add('battle');
        markerLayer.append(
          s(
            'g',
            {
              class: 'battle-marker',
              transform: `translate(${m.anchor[0] + 30},${m.anchor[1] - 40})`,
            },
            s('title', {}, `battle: ${SIDE_NAME[info.battle.attacker]} attacks`),
            s('circle', { r: 12 }),
            s('text', { y: 5, 'text-anchor': 'middle' }, '⚔'),
          ),
        );
      }
    }
    for (const a of highlight.areas) cells.get(a)?.classList.add('highlight');
    if (ui.moving && areaShape.has(ui.moving.origin) && areaShape.has(ui.moving.at)) {
      if (ui.moving.origin !== ui.moving.at) {
        markerLayer.append(arrow(ui.moving.origin, ui.moving.at, 'move-path', 'this move so far'));
      }
      cells.get(ui.moving.at)?.classList.add('moving');
    }
    currentTargets = ui.areaTargets;
    for (const [areaId, text] of ui.areaTargets) {
      const m = areaShape.get(areaId);
      cells.get(areaId).classList.add('target');
      const t = s(
        'g',
        {
          class: 'target-ring',
          'data-target': areaId,
          transform: `translate(${m.anchor[0]},${labelY(m) - 26})`,
        },
        s('circle', { r: 14 }),
        s('text', { y: 6, 'text-anchor': 'middle' }, '▼'),
      );
      clickable(t, text, () => onArea(areaId));
      t.setAttribute('tabindex', '-1'); // the keyboard reaches it as its area (map_keys.js)
      targetLayer.append(t);
      const ty = labelY(m) - 26;
      wanted.push([m.anchor[0] - 14, ty - 14, m.anchor[0] + 14, ty + 14]);
    }
    // The keyboard's stop is an area with something to choose, if its own has nothing (not
    // while the focus is on the map: the stop is where the focus is).
    const choosing = (id) => currentTargets.has(id) || actionableAreas.has(id);
    if (!svg.contains(document.activeElement) && !choosing(keys.stop())) {
      const first = [...cells.keys()].find(choosing);
      if (first) keys.setStop(first);
    }
    // Whenever the choices change, the map brings them all into view.
    const key = [...ui.blockActionable, '|', ...ui.areaTargets.keys()].join(',');
    if (wanted.length && key !== shownChoices) {
      holder.ensure([
        Math.min(...wanted.map((b) => b[0])),
        Math.min(...wanted.map((b) => b[1])),
        Math.max(...wanted.map((b) => b[2])),
        Math.max(...wanted.map((b) => b[3])),
      ]);
    }
    shownChoices = key;
  }

  // Puts the keyboard focus on `area` (else on the map's stop), as the arrow keys would.
  const focusArea = (area) => keys.focusArea(cells.has(area) ? area : keys.stop());
  return { el: holder.el, svg, render, view: holder, focusArea };
}
