// The side panels of the Scotland Rising board: the state of the battle (turn track, AP,
// victory points, whose side acts, the variant's mark), the last attack's dice, what stands on
// the hex pointed at (both sides of each counter), and the log.
import { h, s, clear } from '../dom.js';
import { SIDE_NAME, TYPE_NAME, valuesText, unitLabel, outcomeText } from './model.js';
import { hexesIn } from './dice.js';

const PHASE_TEXT = {
  setup: 'Set-up',
  scots_ap: 'Action points',
  actions: 'Actions',
  game_over: 'Game over',
};

export function renderStatus(el, view) {
  clear(el);
  const turns = view.board?.turns ?? 15;
  const track = h(
    'ol',
    { class: 'sr-turns', 'aria-label': `Turn ${view.turn} of ${turns}` },
    Array.from({ length: turns }, (_, k) =>
      h(
        'li',
        {
          class: k + 1 === view.turn ? 'now' : k + 1 < view.turn ? 'past' : '',
          'aria-current': k + 1 === view.turn ? 'step' : null,
        },
        String(k + 1),
      ),
    ),
  );
  const facts = [
    ['Turn', `${view.turn} of ${turns}`],
    ['Phase', PHASE_TEXT[view.phase] ?? view.phase],
    ['Side to act', view.outcome?.finished ? '—' : SIDE_NAME[view.side]],
    ['AP left', view.phase === 'actions' ? String(view.ap) : '—'],
    ['VP: Scotland', String(view.vp?.scotland ?? 0)],
    ['VP: England', String(view.vp?.england ?? 0)],
    [
      'Scots Charge',
      view.scots_charge_now ? 'this turn' : view.scots_charge_used ? 'used' : 'not yet',
    ],
  ];
  if (view.event && view.event !== 'none')
    facts.push(['Battle event', view.event.replace(/_/g, ' ')]);
  const lost = view.commanders_lost || {};
  if (lost.scotland || lost.england) {
    facts.push(['Commanders lost', `Scotland ${lost.scotland ?? 0}, England ${lost.england ?? 0}`]);
  }
  el.append(
    h('h2', {}, 'The battle'),
    track,
    h(
      'dl',
      { class: 'facts' },
      facts.map(([k, v]) => [h('dt', {}, k), h('dd', { 'data-fact': k }, v)]),
    ),
  );
  if (view.variant_note) el.append(h('p', { class: 'sr-variant' }, view.variant_note));
  if (view.outcome?.finished) {
    el.append(h('p', { class: 'finished' }, outcomeText(view.outcome, view.vp)));
  }
}

// A die's face as pips in a square; a hit is gold.
function die(face, hit) {
  const spots =
    {
      1: [[1, 1]],
      2: [
        [0, 0],
        [2, 2],
      ],
      3: [
        [0, 0],
        [1, 1],
        [2, 2],
      ],
      4: [
        [0, 0],
        [2, 0],
        [0, 2],
        [2, 2],
      ],
      5: [
        [0, 0],
        [2, 0],
        [1, 1],
        [0, 2],
        [2, 2],
      ],
      6: [
        [0, 0],
        [2, 0],
        [0, 1],
        [2, 1],
        [0, 2],
        [2, 2],
      ],
    }[face] || [];
  const box = h('span', {
    class: `sr-die ${hit ? 'hit' : 'miss'}`,
    role: 'img',
    'aria-label': `${face}${hit ? ', a hit' : ''}`,
  });
  // The pips placed by the SVG's own attributes: the server's Content-Security-Policy
  // (style-src 'self') refuses a style attribute.
  box.append(
    s(
      'svg',
      { viewBox: '0 0 100 100', 'aria-hidden': 'true' },
      spots.map(([x, y]) => s('circle', { cx: 20 + x * 30, cy: 20 + y * 30, r: 8 })),
    ),
  );
  return box;
}

// `pointed`: the attack is the log line pointed at, not the last one. `words(text)`: the
// engine's words for its units in the board's (wording.js).
export function renderDice(el, attack, words, pointed = false) {
  clear(el);
  el.append(h('h2', {}, pointed ? `Attack of log line ${attack.index + 1}` : 'Last attack'));
  if (!attack) {
    el.append(h('p', { class: 'hint' }, 'No attack yet.'));
    return;
  }
  const who = words(attack.attacker);
  el.append(
    h(
      'p',
      { class: 'sr-attack' },
      `${who} ${attack.charge ? 'charged' : 'attacked'} ${attack.target}: ` +
        `${attack.dice} ${attack.dice === 1 ? 'die' : 'dice'}, hitting on ${attack.need}+`,
    ),
    h(
      'div',
      { class: 'sr-dice', 'aria-label': `Rolled ${attack.faces.join(', ')}` },
      attack.faces.map((f, k) => die(f, attack.hitFaces[k])),
    ),
    h(
      'p',
      { class: 'sr-hits' },
      attack.hits === 1 ? '1 hit' : `${attack.hits} hits`,
      attack.results.length ? `: ${attack.results.map((r) => words(r)).join('; ')}` : '',
    ),
  );
}

function sideRow(label, v) {
  return h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, v ? valuesText(v) : 'none'));
}

export function renderDetails(el, hex, { stacks, terrain, board }) {
  clear(el);
  el.append(h('h2', {}, hex ? `Hex ${hex}` : 'Hex'));
  if (!hex) {
    el.append(h('p', { class: 'hint' }, 'Point at a hex or tap it to see what stands there.'));
    return;
  }
  const name = board.hex_names?.[hex];
  el.append(h('p', {}, `${terrain.get(hex)}${name ? ` — ${name}` : ''}`));
  const stack = stacks.get(hex);
  const units = [stack?.unit, stack?.leader].filter(Boolean);
  if (!units.length) el.append(h('p', { class: 'hint' }, 'Nobody here.'));
  for (const u of units) {
    const state = [
      u.isReduced ? 'reduced' : 'full strength',
      u.schiltron && 'schiltron',
      u.disordered && 'disordered',
      u.acted && 'has acted',
    ].filter(Boolean);
    el.append(
      h(
        'div',
        { class: `sr-unit ${u.side}` },
        h('p', { class: 'sr-unit-name' }, `${unitLabel(u)} — ${TYPE_NAME[u.type] ?? u.type}`),
        h('p', { class: 'sr-unit-state' }, state.join(', ')),
        h(
          'table',
          { class: 'sr-values' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, 'Side'),
              h('th', { scope: 'col' }, 'Dice-hit-move'),
            ),
          ),
          h('tbody', {}, sideRow('Full', u.full), sideRow('Reduced', u.reduced)),
        ),
      ),
    );
  }
}

// The log: lines appended as they come, each in the words of `words(line)` (units named as the
// board names them, wording.js); pointing at a line lights up the hexes it names (and an
// attack's line shows its dice): onPoint(hexes, index) or onPoint(null, null).
export function renderLog(el, view, words, onPoint) {
  let list = el.querySelector('ol.log');
  if (!list) {
    el.append(h('h2', {}, 'Log'));
    list = el.appendChild(h('ol', { class: 'log', tabindex: 0, 'aria-label': 'Game log lines' }));
    const point = (e) => {
      const li = e.target.closest?.('li');
      const k = li ? Number(li.dataset.i) : null;
      if (li) onPoint(new Set(hexesIn(list.lines[k])), k);
      else onPoint(null, null);
    };
    list.addEventListener('mouseover', point);
    list.addEventListener('click', point);
    list.addEventListener('mouseleave', () => onPoint(null, null));
    list.lines = []; // the engine's lines shown
  }
  const log = (view.log || []).map((l) => (typeof l === 'string' ? l : l.text));
  const stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  // The lines shown are a prefix of the new log when it only grew; an undo takes lines back.
  const n = list.lines.length;
  if (n > log.length || (n > 0 && list.lines[n - 1] !== log[n - 1])) {
    clear(list);
    list.lines = [];
  }
  for (let k = list.lines.length; k < log.length; k++) {
    list.append(h('li', { 'data-i': k }, words(log[k])));
  }
  list.lines = log.slice();
  if (stick) list.scrollTop = list.scrollHeight;
}
