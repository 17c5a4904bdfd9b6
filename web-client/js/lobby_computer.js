// The lobby's "Play against the computer" form (docs/ai.md, "In the product"): the game (of
// those the computer plays), its scenario, side and level; the game starts at once and the page
// goes to it.
import { h } from './dom.js';
import { api } from './api.js';
import { SIDE_NAME } from './board.js';
import { gameName, scenarioName } from './game_kinds.js';

export const LEVELS = [
  ['easy', 'Easy: a quick rule of thumb'],
  ['normal', 'Normal: searches for a moment'],
  ['hard', 'Hard: searches up to 2 seconds a move'],
];

// The name a seat shows: the player's, and the computer's when it stands in for him (pure).
export function seatName(name, computer) {
  if (!computer) return name ?? '—';
  const c = `Computer (${computer.level})`;
  return computer.stand_in ? `${name} — ${c} stands in` : c;
}

// `kinds`: the games the computer plays (GET /api/scenarios' games with `computer`), never empty.
export function computerForm(data, kinds, go) {
  const field = (id, label, input) => {
    input.id = id;
    return h('div', { class: 'field' }, h('label', { for: id }, label), input);
  };
  const game = h(
    'select',
    {},
    kinds.map((k) => h('option', { value: k.game }, gameName(k))),
  );
  const scen = h('select', {});
  const showKind = () => {
    const k = kinds.find((x) => x.game === game.value) ?? kinds[0];
    scen.replaceChildren(
      ...(k.scenarios ?? []).map((id) =>
        h('option', { value: id }, scenarioName(data, k.game, id)),
      ),
    );
  };
  game.addEventListener('change', showKind);
  showKind();
  const side = h(
    'select',
    {},
    ['random', 'scotland', 'england'].map((v) =>
      h('option', { value: v }, v === 'random' ? 'Random' : SIDE_NAME[v]),
    ),
  );
  const level = h(
    'select',
    {},
    LEVELS.map(([v, text]) => h('option', { value: v, selected: v === 'normal' }, text)),
  );
  const err = h('p', { class: 'error', role: 'alert' });
  return h(
    'form',
    {
      class: 'computer-game',
      'aria-label': 'Play against the computer',
      onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = '';
        try {
          const res = await api.createGame({
            kind: game.value,
            scenario: scen.value,
            side: side.value,
            computer: level.value,
          });
          go(`#/game/${res.game.id}`);
        } catch (ex) {
          err.textContent = ex.message;
        }
      },
    },
    h('h2', {}, 'Play against the computer'),
    h(
      'p',
      { class: 'hint' },
      'The computer sees only what its side may see, never your hidden ' +
        'blocks. The game is stored like any other and is not rated.',
    ),
    kinds.length > 1 ? field('computer-game', 'Game', game) : null,
    field('computer-scenario', 'Scenario', scen),
    field('computer-side', 'Your side', side),
    field('computer-level', 'Level', level),
    h('button', { type: 'submit' }, 'Play against the computer'),
    err,
  );
}
