// The Scotland Rising map: an SVG hex board drawn from the view's data file (terrain, the
// burn and its bridges, the village, names, setup letters during the set-up, the red arrow),
// the counters, and what the player's choices light up (destinations, targets, the route, the
// line of sight of a longbow's shot, the last attack's target). Zoom buttons; the map is one
// Tab stop whose focus moves from hex to hex with the arrow keys (roving tabindex).
import { h, s, clear } from '../dom.js';
import { hexCenter, hexPoints, boardSize, stepHex, SQRT3 } from './hex.js';
import { counter } from './counters.js';
import { TERRAIN_NAME, unitLabel, valuesText } from './model.js';

const SIZE = 30; // a hex's circumradius in board units
const TOP = SIZE * 1.5; // room above the board for the red arrow
const ZOOMS = [1, 1.5, 2, 3];

const TARGET_WORDS = {
  move: 'move here',
  attack: 'attack this hex',
  charge: 'charge this hex',
  moveAttack: 'move and attack this hex',
  exit: 'exit here',
  place: 'set up here',
  chargeEnd: 'charge from here',
  route: 'on the route',
};

function terrainDecor(t, cx, cy) {
  const r = SIZE;
  switch (t) {
    case 'woods':
      return [
        [-0.35, -0.1],
        [0.3, -0.2],
        [0, 0.3],
      ].map(([dx, dy]) =>
        s('circle', { class: 'tree', cx: cx + dx * r, cy: cy + dy * r, r: r * 0.22 }),
      );
    case 'potholes':
      return [
        [-0.3, -0.15],
        [0.25, -0.25],
        [0.05, 0.25],
        [-0.3, 0.35],
        [0.4, 0.2],
      ].map(([dx, dy]) =>
        s('ellipse', {
          class: 'pothole',
          cx: cx + dx * r,
          cy: cy + dy * r,
          rx: r * 0.1,
          ry: r * 0.06,
        }),
      );
    case 'swamp':
      return [
        [-0.35, 0.1],
        [0.2, -0.2],
        [0.25, 0.35],
      ].map(([dx, dy]) =>
        s('path', {
          class: 'tuft',
          d: `M${cx + dx * r - 5},${cy + dy * r} l4,-6 M${cx + dx * r},${cy + dy * r} l0,-7 M${cx + dx * r + 5},${cy + dy * r} l-4,-6`,
        }),
      );
    case 'burn':
      return [
        s('path', {
          class: 'water',
          d: `M${cx - r * 0.85},${cy} q${r * 0.2},${-r * 0.2} ${r * 0.42},0 t${r * 0.42},0 t${r * 0.42},0 t${r * 0.42},0`,
        }),
      ];
    case 'bridge':
      return [
        s('path', {
          class: 'water',
          d: `M${cx - r * 0.85},${cy} q${r * 0.2},${-r * 0.2} ${r * 0.42},0 t${r * 0.42},0 t${r * 0.42},0 t${r * 0.42},0`,
        }),
        s('rect', {
          class: 'plank',
          x: cx - r * 0.28,
          y: cy - r * 0.8,
          width: r * 0.56,
          height: r * 1.6,
          rx: 2,
        }),
      ];
    case 'village':
      return [
        [-0.3, -0.1],
        [0.25, -0.25],
        [0.05, 0.3],
      ].map(([dx, dy]) =>
        s('path', {
          class: 'house',
          d: `M${cx + dx * r - 6},${cy + dy * r + 5} v-6 l6,-5 l6,5 v6 z`,
        }),
      );
    default:
      return [];
  }
}

// `onHex(hex)`: a click, tap, Enter or Space on a hex; `onEscape()`; `onFocusHex(hex)`.
export function createSrMap({ onHex, onEscape, onFocusHex, note = null }) {
  const svg = s('svg', {
    class: 'sr-svg',
    role: 'group',
    'aria-label': 'The battlefield: hex map',
  });
  const frame = h('div', { class: 'sr-frame' }, svg);
  let zoom = 0;
  const zoomLabel = h('span', { class: 'sr-zoom-level', 'aria-live': 'polite' }, '');
  const setZoom = (z) => {
    zoom = Math.max(0, Math.min(ZOOMS.length - 1, z));
    fit();
    zoomLabel.textContent = zoom ? `×${ZOOMS[zoom]}` : 'Whole board';
    frame.querySelector(`[data-hex="${focusHex}"]`)?.scrollIntoView?.({
      block: 'center',
      inline: 'center',
    });
  };
  const tools = h(
    'div',
    { class: 'sr-zoom' },
    note,
    h('button', { type: 'button', onclick: () => setZoom(zoom + 1) }, 'Zoom in'),
    h('button', { type: 'button', onclick: () => setZoom(zoom - 1) }, 'Zoom out'),
    h('button', { type: 'button', onclick: () => setZoom(0) }, 'Whole board'),
    zoomLabel,
  );
  const el = h('div', { class: 'sr-map' }, tools, frame);
  let focusHex = null;
  let model = null;
  let aspect = 1;

  // The frame takes the window's height under its top on a wide screen (the whole board at
  // "Whole board"); on a phone it is as tall as the board at the screen's width.
  function fit() {
    if (window.innerWidth > 860 && frame.isConnected) {
      const top = frame.getBoundingClientRect().top + window.scrollY;
      frame.style.height = `${Math.max(300, Math.floor(window.innerHeight - top - 8))}px`;
    } else frame.style.height = '';
    const w = frame.clientWidth || 600;
    const hgt = window.innerWidth > 860 ? frame.clientHeight || 600 : w / aspect;
    const whole = Math.min(w, hgt * aspect);
    svg.style.width = `${Math.floor(whole * ZOOMS[zoom])}px`;
  }
  new ResizeObserver(() => fit()).observe(frame);

  svg.addEventListener('click', (e) => {
    const g = e.target.closest?.('[data-hex]');
    if (g) {
      focusHex = g.dataset.hex;
      onHex(g.dataset.hex);
    }
  });
  svg.addEventListener('keydown', (e) => {
    const g = e.target.closest?.('[data-hex]');
    if (!g || !model) return;
    const { columns, rows } = model.board.grid;
    if (e.key.startsWith('Arrow')) {
      e.preventDefault();
      moveFocus(stepHex(g.dataset.hex, e.key, columns, rows));
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onHex(g.dataset.hex);
    } else if (e.key === 'Escape') {
      onEscape();
    } else if (e.key === '+' || e.key === '=') {
      setZoom(zoom + 1);
    } else if (e.key === '-') {
      setZoom(zoom - 1);
    } else if (e.key === '0') {
      setZoom(0);
    }
  });

  function moveFocus(hex) {
    const prev = svg.querySelector('[data-hex][tabindex="0"]');
    const next = svg.querySelector(`[data-hex="${hex}"]`);
    if (!next) return;
    prev?.setAttribute('tabindex', '-1');
    next.setAttribute('tabindex', '0');
    next.focus();
    focusHex = hex;
    onFocusHex?.(hex);
  }

  function hexLabel(id, m) {
    const parts = [id, TERRAIN_NAME[m.terrain.get(id)] ?? m.terrain.get(id)];
    const name = m.board.hex_names?.[id];
    if (name) parts.push(name);
    const stack = m.stacks.get(id);
    for (const u of [stack?.unit, stack?.leader].filter(Boolean)) {
      parts.push(
        `${unitLabel(u)} ${valuesText(u.values)}${u.isReduced ? ' reduced' : ''}` +
          `${u.schiltron ? ' schiltron' : ''}${u.disordered ? ' disordered' : ''}`,
      );
    }
    if (id === m.board.exit_hex) parts.push('the red arrow: exit toward Stirling');
    const kinds = m.marks.get(id);
    if (kinds) parts.push([...kinds].map((k) => TARGET_WORDS[k] ?? k).join(', '));
    return parts.join('; ');
  }

  // `m`: the board controller's model (board.js).
  function render(m) {
    model = m;
    const { columns, rows } = m.board.grid;
    const size = boardSize(columns, rows, SIZE);
    aspect = size.width / (size.height + TOP);
    svg.setAttribute(
      'viewBox',
      `0 ${-TOP} ${size.width.toFixed(1)} ${(size.height + TOP).toFixed(1)}`,
    );
    const hadFocus = svg.contains(document.activeElement)
      ? document.activeElement.dataset?.hex
      : null;
    clear(svg);
    const cells = s('g', { class: 'cells' });
    const decor = s('g', { class: 'decor', 'pointer-events': 'none' });
    const marks = s('g', { class: 'marks', 'pointer-events': 'none' });
    const units = s('g', { class: 'units', 'pointer-events': 'none' });
    const lines = s('g', { class: 'lines', 'pointer-events': 'none' });
    const ids = [];
    for (let row = 0; row < rows; row++) {
      for (let col = 0; col < columns; col++) {
        ids.push(`${String(col + 1).padStart(2, '0')}${String(row + 1).padStart(2, '0')}`);
      }
    }
    const tabHex = focusHex && ids.includes(focusHex) ? focusHex : (m.firstChoice ?? ids[0]);
    focusHex = tabHex;
    for (const id of ids) {
      const c = hexCenter(id, SIZE);
      const t = m.terrain.get(id);
      const kinds = m.marks.get(id);
      const cls = ['hex', `t-${t}`];
      if (kinds) for (const k of kinds) cls.push(`mark-${k}`);
      if (m.armed?.hex === id) cls.push('armed');
      if (m.highlight?.has(id)) cls.push('named');
      const g = s(
        'g',
        {
          class: cls.join(' '),
          'data-hex': id,
          role: 'button',
          tabindex: id === tabHex ? 0 : -1,
          'aria-label': hexLabel(id, m),
        },
        s('polygon', { class: 'cell', points: hexPoints(c.x, c.y, SIZE) }),
      );
      cells.append(g);
      decor.append(...terrainDecor(t, c.x, c.y));
      decor.append(
        s('text', { class: 'hex-id', x: c.x, y: c.y - SIZE * 0.62, 'text-anchor': 'middle' }, id),
      );
      const name = m.board.hex_names?.[id];
      if (name) {
        decor.append(
          s(
            'text',
            { class: 'hex-name', x: c.x, y: c.y + SIZE * 0.8, 'text-anchor': 'middle' },
            name,
          ),
        );
      }
      const letters = m.setupLetters?.get(id);
      if (letters && !m.stacks.get(id)) {
        decor.append(
          s(
            'text',
            { class: 'setup-letter', x: c.x, y: c.y + SIZE * 0.15, 'text-anchor': 'middle' },
            letters.letter,
          ),
          s(
            'text',
            { class: 'setup-leader', x: c.x, y: c.y + SIZE * 0.5, 'text-anchor': 'middle' },
            letters.leader,
          ),
        );
      }
      if (kinds || m.armed?.hex === id || m.highlight?.has(id)) {
        marks.append(
          s('polygon', {
            class: `ring ${kinds ? [...kinds].map((k) => `ring-${k}`).join(' ') : ''} ${m.armed?.hex === id ? 'ring-armed' : ''} ${m.highlight?.has(id) ? 'ring-named' : ''}`,
            points: hexPoints(c.x, c.y, SIZE * 0.88),
          }),
        );
      }
      if (m.lastTarget === id) {
        marks.append(s('circle', { class: 'last-target', cx: c.x, cy: c.y, r: SIZE * 0.85 }));
      }
    }
    // The red arrow: the exit toward Stirling (rulebook 11, R11), off the board's north edge.
    const ex = m.board.exit_hex && hexCenter(m.board.exit_hex, SIZE);
    if (ex) {
      const y0 = ex.y - SIZE * 0.55;
      const y1 = -TOP + 4;
      lines.append(
        s('path', {
          class: 'exit-arrow',
          d: `M${ex.x - 7},${y0} V${y1 + 14} H${ex.x - 15} L${ex.x},${y1} L${ex.x + 15},${y1 + 14} H${ex.x + 7} V${y0} Z`,
        }),
        s('text', { class: 'exit-label', x: ex.x + 20, y: y1 + 14 }, 'To Stirling'),
      );
    }
    // The route of a move under way, from the unit's hex.
    if (m.route?.length && m.routeFrom) {
      const pts = [m.routeFrom, ...m.route].map((id) => hexCenter(id, SIZE));
      lines.append(
        s('polyline', {
          class: 'route',
          points: pts.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' '),
        }),
        ...pts.slice(1).map((p, k) =>
          s('circle', {
            class: `route-step ${k === pts.length - 2 ? 'end' : ''}`,
            cx: p.x,
            cy: p.y,
            r: 5,
          }),
        ),
      );
    }
    // Lines of sight of the selected longbow's targets (R8).
    for (const los of m.sight || []) {
      const a = hexCenter(los.from, SIZE);
      const b = hexCenter(los.to, SIZE);
      lines.append(
        s('line', {
          class: `los ${los.armed ? 'armed' : ''} ${los.blocked ? 'blocked' : ''}`,
          x1: a.x,
          y1: a.y,
          x2: b.x,
          y2: b.y,
        }),
      );
      for (const step of los.steps) {
        for (const hx of step.hexes) {
          const c = hexCenter(hx, SIZE);
          lines.append(
            s('circle', {
              class: `los-step ${step.blocking.includes(hx) ? 'blocking' : ''}`,
              cx: c.x,
              cy: c.y,
              r: 4,
            }),
          );
        }
      }
    }
    const hexW = SQRT3 * SIZE;
    for (const [id, stack] of m.stacks) {
      const c = hexCenter(id, SIZE);
      const opts = (u) => ({
        faded: u.acted && u.side === m.side,
        selected: u.id === m.selected,
        actionable: m.actionable.has(u.id),
      });
      if (stack.unit && stack.leader) {
        units.append(
          counter(stack.unit, c.x - hexW * 0.12, c.y + hexW * 0.08, hexW * 0.64, opts(stack.unit)),
        );
        units.append(
          counter(
            stack.leader,
            c.x + hexW * 0.24,
            c.y - hexW * 0.22,
            hexW * 0.42,
            opts(stack.leader),
          ),
        );
      } else if (stack.unit) {
        units.append(counter(stack.unit, c.x, c.y + 2, hexW * 0.76, opts(stack.unit)));
      } else if (stack.leader) {
        units.append(counter(stack.leader, c.x, c.y + 2, hexW * 0.62, opts(stack.leader)));
      }
    }
    svg.append(cells, decor, marks, lines, units);
    fit();
    if (hadFocus) svg.querySelector(`[data-hex="${hadFocus}"]`)?.focus();
  }

  return {
    el,
    render,
    focusHex: (hex) => moveFocus(hex),
    get focused() {
      return focusHex;
    },
  };
}
