// The game log panel: lines added as they come; the line pointed at lights up on the map.
import { h } from '../dom.js';
import { renderLog } from '../panels/log.js';
import { linksOf } from '../log_links.js';

export function createLogPanel(st, { data, names, onHighlight }) {
  const el = h('section', { class: 'panel logp', 'aria-label': 'Game log' }, h('h2', {}, 'Log'));
  const pointAt = (text) => {
    st.highlight = text ? linksOf(text, names) : null;
    onHighlight();
  };
  return { el, render: () => renderLog(el, st.view, pointAt, data) };
}
