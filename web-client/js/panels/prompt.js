// What is awaited and from whom, and the buttons for the actions that are not taken by
// clicking a card, a block or an area (plus those of the selected block).
import { h, clear } from '../dom.js';
import { describe, shortLabel } from '../actions.js';
import { SIDE_NAME } from '../board.js';

export function awaitingText(view, role) {
  if (view.outcome) {
    const w = view.outcome.winner;
    return `Game over: ${w ? `${SIDE_NAME[w]} wins` : 'a draw'}` +
      (view.outcome.reason ? ` (${view.outcome.reason})` : '');
  }
  const awaiting = view.awaiting || [];
  const mine = awaiting.includes(role);
  const others = awaiting.filter((r) => r !== role).map((r) => SIDE_NAME[r]);
  if (mine && others.length) return `Your decision (and ${others.join(', ')}'s)`;
  if (mine) return 'Your decision';
  if (others.length) return `Waiting for ${others.join(' and ')}`;
  return '';
}

export function renderPrompt(el, view, ctx) {
  const { data, role, cls, send, select, selected, pending, choice, setChoice } = ctx;
  clear(el);
  const awaiting = awaitingText(view, role);
  el.append(h('div', { class: 'prompt-line' },
    h('strong', { class: 'phase-text' }, view.phase_text || view.phase),
    h('span', { class: `awaiting${(view.awaiting || []).includes(role) ? ' mine' : ''}` },
      awaiting)));
  if (view.move) {
    const m = view.move;
    const act = (m.activated || []).map((a) => data.area[a]?.name ?? a).join(', ');
    el.append(h('p', { class: 'move-info' },
      `${SIDE_NAME[m.side]}: ${m.mp} move point${m.mp === 1 ? '' : 's'} left` +
      (act ? `; activated: ${act}` : '') +
      (m.moving ? `; moving ${m.moving.block ? (data.block[m.moving.block]?.name ?? '') : 'a block'}` +
        ` from ${data.area[m.moving.origin]?.name} (now in ${data.area[m.moving.at]?.name})` : '')));
  }
  const bar = h('div', { class: 'action-bar', role: 'toolbar', 'aria-label': 'Actions' });
  const button = (a, label = describe(a, data), extra = '') => h('button', {
    class: `act act-${a.kind} ${extra}`, 'data-kind': a.kind, disabled: pending,
    onclick: () => send(a),
  }, label);
  if (choice) {
    bar.append(h('span', { class: 'hint' }, 'Choose: '),
      choice.map((a) => button(a)),
      h('button', { class: 'act cancel', onclick: () => setChoice(null) }, 'Cancel'));
    el.append(bar);
    return;
  }
  if (selected) {
    const acts = cls.blocks.get(selected) || [];
    const name = data.block[selected]?.name ?? selected;
    bar.append(h('span', { class: 'hint' }, h('strong', {}, name), ': '));
    for (const a of acts.filter((x) => !x.to)) bar.append(button(a, shortLabel(a)));
    if (acts.some((x) => x.to)) {
      bar.append(h('span', { class: 'hint' }, 'choose a highlighted area on the map.'));
    }
    bar.append(h('button', { class: 'act cancel', onclick: () => select(null) }, 'Cancel'));
  } else {
    const nBlocks = cls.blocks.size;
    const nAreas = cls.areas.size;
    if (nBlocks) bar.append(h('span', { class: 'hint' }, 'Choose a highlighted block.'));
    else if (nAreas) bar.append(h('span', { class: 'hint' }, 'Choose a highlighted area.'));
    else if (cls.cards.size) bar.append(h('span', { class: 'hint' }, 'Choose a card from your hand.'));
    else if (cls.buttons.some((a) => a.kind === 'end_move_phase')) {
      // RULES 4.11: the phase never ends by itself, so that the last move can be undone.
      bar.append(h('span', { class: 'hint' }, 'Nothing more can move.'));
    } else if (cls.buttons.some((a) => a.kind === 'to_selkirk')) {
      bar.append(h('span', { class: 'hint' }, 'Wallace may winter in Selkirk:'));
    }
  }
  for (const a of cls.nobles) bar.append(button(a));
  for (const a of cls.buttons) {
    bar.append(button(a, describe(a, data), a.kind === 'undo' ? 'undo' : ''));
  }
  el.append(bar);
}
