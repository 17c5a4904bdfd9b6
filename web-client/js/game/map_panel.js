// The map of the game page: the view's blocks, the choices the legal actions offer (blocks to
// select, areas to click), the blocks pinned where they stand (a tap says why), the move under
// way, the opponent's moves this turn and the areas and blocks of the log line pointed at. The
// legend under it. Once the game has ended, every block of both sides (st.revealed).
import { h } from '../dom.js';
import { createMap } from '../map/map.js';
import { legend } from '../map/legend.js';
import { classify, destinations, describe } from '../actions.js';
import { movesThisTurn } from '../log_links.js';
import { pinnedBlocks } from '../map/pinning.js';

export function createMapPanel(st, { data, names, intents, say }) {
  const map = createMap(data, {
    onArea: (area) => intents.chooseArea(area),
    onBlock: (block) => intents.select(block),
    onPinned: (reason) => say(reason[0].toUpperCase() + reason.slice(1)),
  });
  const revealedNote = h(
    'p',
    { class: 'revealed-note', hidden: true },
    'The game is over: every block is shown.',
  );
  let legendEl = legend(st.role);
  let legendFor = st.role;
  const el = h('div', { class: 'map-holder' }, revealedNote, map.el, legendEl);
  // The legend's hidden blocks are the other seat's colour: drawn again when the seat is known.
  function updateLegend(role) {
    if (role === legendFor) return;
    const open = legendEl.open;
    const next = legend(role);
    next.open = open;
    legendEl.replaceWith(next);
    legendEl = next;
    legendFor = role;
  }

  const targetLabel = (area, acts) =>
    acts.length === 1 ? describe(acts[0], data) : `${data.area[area]?.name}: choose`;

  function render() {
    updateLegend(st.revealed ? 'all' : st.role);
    if (st.revealed) {
      revealedNote.hidden = false;
      map.render(st.revealed, {
        role: 'all',
        selected: null,
        blockActionable: new Set(),
        pinned: new Map(),
        areaTargets: new Map(),
        moving: null,
      });
      return;
    }
    const view = st.view;
    if (!view) return;
    const cls = classify(st.ended ? [] : view.legal_actions);
    const targets = new Map();
    const offered = st.selected ? destinations(cls.blocks.get(st.selected)) : cls.areas;
    for (const [area, acts] of offered) targets.set(area, targetLabel(area, acts));
    const opponent = { scotland: 'england', england: 'scotland' }[st.role] ?? null;
    map.render(view, {
      role: st.role,
      traces: movesThisTurn(view.log || [], opponent, names),
      highlight: st.highlight,
      selected: st.selected,
      blockActionable: new Set(st.pending ? [] : cls.blocks.keys()),
      pinned: pinnedBlocks(view),
      areaTargets: st.pending ? new Map() : targets,
      moving: view.move?.moving || null,
    });
  }

  return { el, render, focusArea: (area) => map.focusArea(area) };
}
