// Zoom and pan of the map by its viewBox: buttons (+, −, Fit), the wheel (about the pointer),
// dragging, pinching with two fingers, and keys while the focus is on the map (Shift with an arrow
// pans, + and − zoom, 0 fits; the arrows alone go from area to area: map_keys.js). `onZoom(scale)`
// hears every change of the scale (screen pixels per map unit). "Fit" shows the whole map in the
// frame whatever its shape. The first view is the whole map on a narrow frame, and a closer one
// (the blocks legible) on a wide one.
import { h } from '../dom.js';

const MAX_SCALE = 4; // screen pixels per map unit
const WIDE = 700; // frames at least this wide start closer than fit
const START_SCALE = 1.35;
const MIN_FRAME_PX = 240; // the frame's least height, on a window too short for more
const FOOT_PX = 8; // the space left under the frame at the window's foot

// The frame's height: what the window leaves under the frame's top when the page is scrolled
// to its start, so that "Fit" shows the whole map on the screen whatever is drawn above it
// (the heading, the prompt, a note). Measured, not a fixed guess, as what is above changes.
// A sheet fixed at the foot of the screen (the game page's dock on a phone) takes its height
// from the window (--dock-h, game/dock.js).
function fitFrameHeight(viewport) {
  if (!viewport.isConnected) return;
  const top = viewport.getBoundingClientRect().top + window.scrollY;
  const sheet = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--dock-h'));
  const foot = FOOT_PX + (sheet > 0 ? sheet : 0);
  const want = Math.max(MIN_FRAME_PX, Math.floor(window.innerHeight - top - foot));
  if (Math.abs(viewport.offsetHeight - want) > 1) viewport.style.height = `${want}px`;
}

export function createMapView(svg, shape, { onZoom = () => {} } = {}) {
  const W = shape.width;
  const H = shape.height;
  const viewport = h('div', { class: 'map-viewport', role: 'region', 'aria-label': 'Map' }, svg);
  let vb = null; // {x, y, w, h}: the part of the map shown
  let fitMode = true;
  let started = false;

  const size = () => [viewport.clientWidth || 1, viewport.clientHeight || 1];
  const fitScale = () => {
    const [cw, ch] = size();
    return Math.min(cw / W, ch / H);
  };
  function apply() {
    svg.setAttribute(
      'viewBox',
      `${vb.x.toFixed(1)} ${vb.y.toFixed(1)} ${vb.w.toFixed(1)} ${vb.h.toFixed(1)}`,
    );
    viewport.dataset.scale = (size()[0] / vb.w).toFixed(3);
    onZoom(size()[0] / vb.w);
  }
  // Shows the map at `scale` px per unit centred on map point (cx, cy), kept within the map.
  function show(scale, cx, cy) {
    const [cw, ch] = size();
    const sc = Math.min(MAX_SCALE, Math.max(fitScale(), scale));
    const w = cw / sc;
    const hh = ch / sc;
    const clamp = (c, span, total) =>
      span >= total ? total / 2 : Math.min(total - span / 2, Math.max(span / 2, c));
    vb = { w, h: hh, x: clamp(cx, w, W) - w / 2, y: clamp(cy, hh, H) - hh / 2 };
    fitMode = sc <= fitScale() + 1e-6;
    apply();
  }
  const scale = () => size()[0] / vb.w;
  const centre = () => [vb.x + vb.w / 2, vb.y + vb.h / 2];
  function fit() {
    show(fitScale(), W / 2, H / 2);
  }
  // "Fit" asked for: the whole map, and the frame scrolled wholly onto the screen if the page
  // was scrolled away from it.
  function fitOnScreen() {
    fitFrameHeight(viewport);
    fit();
    const r = viewport.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) viewport.scrollIntoView({ block: 'nearest' });
  }
  // Zooms by factor f keeping map point under screen point (px, py) of the viewport still.
  function zoomAt(f, px, py) {
    const [cw, ch] = size();
    const sx = px ?? cw / 2;
    const sy = py ?? ch / 2;
    const mx = vb.x + (sx / cw) * vb.w;
    const my = vb.y + (sy / ch) * vb.h;
    const sc = Math.min(MAX_SCALE, Math.max(fitScale(), scale() * f));
    const w = cw / sc;
    const hh = ch / sc;
    show(sc, mx - (sx / cw) * w + w / 2, my - (sy / ch) * hh + hh / 2);
  }
  function panBy(dxPx, dyPx) {
    const sc = scale();
    const [cx, cy] = centre();
    show(sc, cx + dxPx / sc, cy + dyPx / sc);
  }
  function start() {
    const [cw] = size();
    if (cw >= WIDE) show(Math.max(fitScale(), START_SCALE), W / 2, H * 0.58);
    else fit();
  }

  new ResizeObserver(() => {
    if (!started) {
      if (viewport.clientWidth > 0) {
        started = true;
        start();
        if (pending) ensure(pending);
      }
      return;
    }
    if (fitMode) fit();
    else show(scale(), ...centre());
  }).observe(viewport);
  // What is above the frame, or the window, changing size moves the frame's top: the page's
  // body is watched (the frame's own height settles at once, as it does not move its top).
  const sizer = new ResizeObserver(() => {
    if (!viewport.isConnected) {
      sizer.disconnect();
      window.removeEventListener('resize', resized);
      window.removeEventListener('dockresize', resized);
      return;
    }
    fitFrameHeight(viewport);
  });
  const resized = () => fitFrameHeight(viewport);
  sizer.observe(document.body);
  window.addEventListener('resize', resized);
  window.addEventListener('dockresize', resized);

  viewport.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const r = viewport.getBoundingClientRect();
      zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
    },
    { passive: false },
  );

  // Dragging pans; two pointers pinch. A drag does not click what it started on.
  const pointers = new Map();
  let dragged = false;
  let pinch = null;
  viewport.addEventListener('pointerdown', (e) => {
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 1) dragged = false;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) };
    }
  });
  viewport.addEventListener('pointermove', (e) => {
    const last = pointers.get(e.pointerId);
    if (!last) return;
    const now = [e.clientX, e.clientY];
    if (pointers.size === 2 && pinch) {
      pointers.set(e.pointerId, now);
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      const r = viewport.getBoundingClientRect();
      zoomAt(d / (pinch.d || d), (a[0] + b[0]) / 2 - r.left, (a[1] + b[1]) / 2 - r.top);
      pinch.d = d;
      dragged = true;
      return;
    }
    const dx = now[0] - last[0];
    const dy = now[1] - last[1];
    if (!dragged && Math.hypot(dx, dy) < 6) return;
    if (!dragged) viewport.setPointerCapture?.(e.pointerId);
    dragged = true;
    pointers.set(e.pointerId, now);
    panBy(-dx, -dy);
  });
  const up = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
  };
  viewport.addEventListener('pointerup', up);
  viewport.addEventListener('pointercancel', up);
  viewport.addEventListener(
    'click',
    (e) => {
      if (dragged) {
        e.stopPropagation();
        e.preventDefault();
        dragged = false;
      }
    },
    true,
  );

  viewport.addEventListener('keydown', (e) => {
    const step = Math.min(...size()) * 0.25;
    const pans = {
      ArrowLeft: () => panBy(-step, 0),
      ArrowRight: () => panBy(step, 0),
      ArrowUp: () => panBy(0, -step),
      ArrowDown: () => panBy(0, step),
    };
    const keys = {
      ...(e.shiftKey ? pans : {}),
      '+': () => zoomAt(1.4),
      '=': () => zoomAt(1.4),
      '-': () => zoomAt(1 / 1.4),
      0: fitOnScreen,
    };
    if (keys[e.key] && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      e.stopPropagation();
      keys[e.key]();
    }
  });

  const controls = h(
    'div',
    { class: 'zoom', role: 'group', 'aria-label': 'Map zoom' },
    h('button', { type: 'button', 'aria-label': 'Zoom in', onclick: () => zoomAt(1.4) }, '+'),
    h('button', { type: 'button', 'aria-label': 'Zoom out', onclick: () => zoomAt(1 / 1.4) }, '−'),
    h(
      'button',
      { type: 'button', class: 'fit', 'aria-label': 'Show the whole map', onclick: fitOnScreen },
      'Fit',
    ),
  );
  const el = h('div', { class: 'map-frame' }, controls, viewport);
  // Brings map point (x, y) into view without changing the zoom (keyboard focus, log lines).
  function reveal(x, y) {
    if (!vb) return;
    if (x < vb.x || x > vb.x + vb.w || y < vb.y || y > vb.y + vb.h) show(scale(), x, y);
  }
  // Brings the box [x0, y0, x1, y1] wholly into view, zooming out only as far as needed.
  let pending = null; // a box to show once the frame has a size
  function ensure(box) {
    if (!vb) {
      pending = box;
      return;
    }
    const [x0, y0, x1, y1] = box;
    if (x0 >= vb.x && y0 >= vb.y && x1 <= vb.x + vb.w && y1 <= vb.y + vb.h) return;
    const [cw, ch] = size();
    const m = 30;
    const need = Math.min(cw / (x1 - x0 + 2 * m), ch / (y1 - y0 + 2 * m));
    show(Math.min(scale(), need), (x0 + x1) / 2, (y0 + y1) / 2);
  }
  return { el, viewport, fit, zoomAt, panBy, reveal, ensure, scale: () => (vb ? scale() : 0) };
}
