// The map's legend: what each border, mark and block look means. Folded on small screens.
import { h } from '../dom.js';
import { rulesLink } from '../rules_link.js';

const item = (cls, text) =>
  h('li', {}, h('span', { class: `lg ${cls}`, 'aria-hidden': 'true' }), text);

// The backs of the blocks whose faces `role` does not see, in their side's colour: the other
// side's for a player (RULES 13.1.2), both for an observer.
function hiddenItems(role) {
  const sides = { scotland: ['england'], england: ['scotland'] }[role] ?? ['scotland', 'england'];
  const adj = { scotland: 'Scottish', england: 'English' };
  return sides.map((side) =>
    item(
      `b-hidden ${side}`,
      `${sides.length > 1 ? adj[side] : `Enemy (${adj[side]})`} block: face hidden`,
    ),
  );
}

// `role`: the seat the page is seen from (scotland, england, observer; "all" once every block
// is shown).
export function legend(role = 'observer') {
  return h(
    'details',
    { class: 'legend' },
    h('summary', {}, 'Legend'),
    h(
      'ul',
      {},
      item('black', 'Black border: up to 6 blocks cross'),
      item('red', 'Red border: up to 2 blocks cross, and they stop'),
      item('anglo', 'Anglo-Scottish border: crossing costs a whole move point'),
      item('castle', 'Castle limit (blocks that winter here)'),
      item('cathedral', 'Cathedral: +1 castle limit for Scotland'),
      item('home', 'Home of a noble (initials)'),
      item('coast', 'Coast: sea moves land here'),
      item('b-sco', 'Scottish block: pips on top are its strength now'),
      item('b-eng', 'English block'),
      ...(role === 'all' ? [] : hiddenItems(role)),
      item(
        'tag',
        "Tag: a block's strength and short name, where the blocks are too small to show " +
          "whole; tap it or the area's name for the area's list",
      ),
      item(
        'chip',
        "Chip: the number of each side's blocks in an area too small to show them " +
          'at this zoom; tap it (or Enter on the area) for their list',
      ),
      item('b-actionable', 'Gold outline: you can choose it'),
      item('b-selected', 'White outline: chosen'),
      item('b-moved', 'Dark corner, faded: moved this turn'),
      item('b-pinned', [
        'Pin, striped: pinned by enemy blocks in its area, may not leave (',
        rulesLink('4.7'),
        '); point at it or tap it to see why',
      ]),
      item('b-revealed', 'Dashed outline: enemy block revealed in battle'),
      item('b-traced', "Purple: where the opponent's last moves went"),
      item('b-highlighted', 'Glow: named by the log line under the pointer'),
    ),
  );
}
