// Year, game turn, phase facts, noble counts, draw pools and dead blocks (all public, 13.2).
import { h, clear } from '../dom.js';
import { SIDE_NAME } from '../board.js';
import { plural } from '../wording.js';

export function renderStatus(el, view, { data, role }) {
  clear(el);
  const scenario = data.scenario[view.scenario]?.name ?? view.scenario;
  const n = view.nobles || {};
  const sco = n.scotland || {};
  const scoNobles = sco.total !== undefined ? `${sco.total}` : `${sco.two_block} (+ Moray?)`;
  const facts = [
    ['Scenario', scenario],
    ['Year', view.year],
    ['Game turn', `${view.turn} of 5`],
    ['Player 1', view.player1 ? SIDE_NAME[view.player1] : '—'],
    ['Nobles: Scotland', scoNobles],
    ['Nobles: England', n.england?.total ?? '?'],
    ['Pool: Scotland', plural(view.pools?.scotland?.count ?? 0, 'block')],
    ['Pool: England', plural(view.pools?.england?.count ?? 0, 'block')],
    ['Edward', view.edward],
    ['Scottish King', view.king_crowned ? 'crowned' : 'not crowned'],
  ];
  if (view.truce_against) facts.push(['Truce', `${SIDE_NAME[view.truce_against]} may not attack`]);
  if (view.options?.schiltroms) facts.push(['Option', 'Schiltroms']);
  el.append(
    h('h2', {}, 'State of the war'),
    h(
      'dl',
      { class: 'facts' },
      facts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, String(v))]),
    ),
  );
  const mine = role !== 'observer' ? view.pools?.[role]?.blocks : null;
  if (mine && mine.length) {
    el.append(
      h(
        'p',
        { class: 'pool-list' },
        h('strong', {}, 'My pool: '),
        mine.map((id) => data.block[id]?.name ?? id).join(', '),
      ),
    );
  }
  if (view.dead?.length) {
    el.append(
      h(
        'p',
        { class: 'dead-list' },
        h('strong', {}, 'Dead: '),
        view.dead.map((id) => data.block[id]?.name ?? id).join(', '),
      ),
    );
  }
  const roster = n.roster ? Object.entries(n.roster) : [];
  if (roster.length) {
    el.append(
      h(
        'details',
        { class: 'roster' },
        h('summary', {}, 'Noble roster'),
        h(
          'ul',
          {},
          roster.map(([k, side]) =>
            h('li', { class: side }, `${k[0].toUpperCase()}${k.slice(1)}: ${SIDE_NAME[side]}`),
          ),
        ),
      ),
    );
  }
}
