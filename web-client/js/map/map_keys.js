// The map by keyboard: one Tab stop (roving tabindex). The areas are the stops: the arrow keys
// go to the area that lies that way on the map (by geography: `arrowTarget`), Home and End to
// the first and last area of the game's list, Enter or Space acts on the area (map.js decides
// what: a destination, its list of blocks, its first block). Inside an area its blocks are
// reached the same way: arrows go round them, Escape goes back to the area.

const DIRS = {
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowDown: [0, 1],
  ArrowUp: [0, -1],
};
const MAX_TURN = Math.cos((70 * Math.PI) / 180); // at most 70° off the arrow's direction

// Pure: the area an arrow key goes to from `from`, or null. `anchors`: Map(area -> [x, y]).
// The nearest area within 70° of the arrow's direction, the distance weighed up the more it
// turns aside (d / cos²), so that a near area straight ahead wins over a nearer one aside.
export function arrowTarget(anchors, from, key) {
  const dir = DIRS[key];
  const p = anchors.get(from);
  if (!dir || !p) return null;
  let best = null;
  let bestScore = Infinity;
  for (const [id, q] of anchors) {
    if (id === from) continue;
    const dx = q[0] - p[0];
    const dy = q[1] - p[1];
    const d = Math.hypot(dx, dy);
    const cos = (dx * dir[0] + dy * dir[1]) / (d || 1);
    if (cos < MAX_TURN) continue;
    const score = d / (cos * cos);
    if (score < bestScore) {
      best = id;
      bestScore = score;
    }
  }
  return best;
}

// Wires the roving tabindex on the map's svg. `cells`: Map(area -> element), in the game's
// order; `anchors`: Map(area -> [x, y]); `onActivate(area)`: Enter or Space on an area;
// `onFocusArea(area)`: an area got the focus (the map brings it into view).
export function attachMapKeys(svg, { cells, anchors, onActivate, onFocusArea }) {
  const order = [...cells.keys()];
  let stop = order[0];
  const setStop = (area) => {
    if (!cells.has(area)) return;
    cells.get(stop)?.setAttribute('tabindex', '-1');
    stop = area;
    cells.get(stop).setAttribute('tabindex', '0');
  };
  for (const cell of cells.values()) cell.setAttribute('tabindex', '-1');
  setStop(stop);
  const focusArea = (area) => {
    if (!area || !cells.has(area)) return;
    setStop(area);
    cells.get(area).focus();
  };
  svg.addEventListener('focusin', (e) => {
    const area = e.target.dataset?.area;
    if (!area || !cells.has(area)) return;
    if (cells.get(area) === e.target) setStop(area);
    onFocusArea(area, e.target);
  });
  svg.addEventListener('keydown', (e) => {
    if (e.shiftKey || e.altKey || e.ctrlKey || e.metaKey) return;
    const el = e.target;
    const area = el.dataset?.area;
    if (!area || !cells.has(area)) return;
    let handled = true;
    if (el === cells.get(area)) {
      if (DIRS[e.key]) focusArea(arrowTarget(anchors, area, e.key));
      else if (e.key === 'Home') focusArea(order[0]);
      else if (e.key === 'End') focusArea(order.at(-1));
      else if (e.key === 'Enter' || e.key === ' ') onActivate(area);
      else handled = false;
    } else if (DIRS[e.key]) {
      // A block of the area: the arrows go round the area's blocks.
      const mates = [...svg.querySelectorAll(`.blocks [data-area="${area}"][tabindex]`)];
      const k = mates.indexOf(el);
      const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : -1;
      mates[(k + step + mates.length) % mates.length]?.focus();
    } else if (e.key === 'Escape') focusArea(area);
    else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  });
  return { setStop, focusArea, stop: () => stop };
}
