// What is awaited and from whom, and the buttons for the actions that are not taken by
// clicking a card, a block or an area (plus those of the selected block).
import { h, clear } from '../dom.js';
import { describe, shortLabel, destinations } from '../actions.js';
import { SIDE_NAME } from '../board.js';
import {
  outcomeText,
  resultText,
  winterStep,
  plural,
  battleDecision,
  retreatLabel,
} from '../wording.js';
import { rulesLink, withRulesLinks } from '../rules_link.js';

// What choosing a highlighted block does, by the kinds of the blocks' actions (a battle's
// combat turn and retreat are worded by battleDecision).
const BLOCK_HINTS = [
  ['take_hit', 'Choose which of your blocks takes the hit.'],
  ['regroup', 'Choose a block to regroup, then where it goes.'],
  ['move', 'Choose a block to move, then where it goes.'],
  ['sea_move', 'Choose a block to move by sea.'],
  ['disband', 'Choose a block to disband.'],
  ['raid_victim', 'Choose the block the border raid takes.'],
  ['add_step', 'Choose a block to add a step to.'],
];

// The event card this game turn's events come from: the card the awaited side played.
function eventCard(view, data) {
  const played = view.cards?.played_this_year || [];
  const mine = played.filter((p) => p.turn === view.turn && data.card[p.card]?.kind !== 'move');
  const awaited = mine.find((p) => (view.awaiting || []).includes(p.side));
  return data.card[(awaited || mine[0])?.card] || null;
}

// `view.result`: the server's result of a game ended otherwise than by the rules (resignation,
// time, forfeit), which the engine's view does not know of.
export function awaitingText(view, role) {
  if (view.outcome) return outcomeText(view.outcome, view.nobles);
  if (view.result) return resultText(view.result);
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
  el.append(
    h(
      'div',
      { class: 'prompt-line' },
      h('strong', { class: 'phase-text' }, view.phase_text || view.phase),
      h(
        'span',
        { class: `awaiting${(view.awaiting || []).includes(role) ? ' mine' : ''}` },
        awaiting,
      ),
    ),
  );
  if (view.move && !view.outcome && !view.result) {
    const m = view.move;
    const act = (m.activated || []).map((a) => data.area[a]?.name ?? a).join(', ');
    el.append(
      h(
        'p',
        { class: 'move-info' },
        `${SIDE_NAME[m.side]}: ${plural(m.mp, 'move point')} left` +
          (act ? `; activated: ${act}` : '') +
          (m.moving
            ? `; moving ${m.moving.block ? (data.block[m.moving.block]?.name ?? '') : 'a block'}` +
              ` from ${data.area[m.moving.origin]?.name} (now in ${data.area[m.moving.at]?.name})`
            : ''),
      ),
    );
  }
  const mine = (view.awaiting || []).includes(role);
  const kinds = new Set((view.legal_actions || []).map((a) => a.kind));
  const winter = mine && view.phase === 'winter' ? winterStep(kinds) : null;
  if (winter) {
    el.append(
      h(
        'p',
        { class: 'step-info' },
        h('strong', {}, 'Winter: ', withRulesLinks(winter.title), '. '),
        winter.hint,
      ),
    );
  }
  const battle = mine ? battleDecision(view, kinds, (id) => data.area[id]?.name ?? id) : null;
  if (battle?.info) el.append(h('p', { class: 'battle-info' }, withRulesLinks(battle.info)));
  if (view.phase === 'event') {
    const card = eventCard(view, data);
    if (card) {
      el.append(
        h(
          'p',
          { class: 'event-info' },
          h('strong', {}, `Event: ${card.name}. `),
          card.effect,
          card.rules_section ? [' (', rulesLink(card.rules_section), ')'] : '',
        ),
      );
    }
  }
  const bar = h('div', { class: 'action-bar', role: 'toolbar', 'aria-label': 'Actions' });
  const button = (a, label = describe(a, data), extra = '') =>
    h(
      'button',
      {
        class: `act act-${a.kind} ${extra}`,
        'data-kind': a.kind,
        disabled: pending,
        onclick: () => send(a),
      },
      label,
    );
  if (choice) {
    bar.append(
      h('span', { class: 'hint' }, 'Choose: '),
      choice.map((a) => button(a)),
      h('button', { class: 'act cancel', onclick: () => setChoice(null) }, 'Cancel'),
    );
    el.append(bar);
    return;
  }
  if (selected) {
    const acts = cls.blocks.get(selected) || [];
    const name = data.block[selected]?.name ?? selected;
    bar.append(h('span', { class: 'hint' }, h('strong', {}, name), ': '));
    for (const a of acts.filter((x) => !x.to)) bar.append(button(a, shortLabel(a)));
    const dests = destinations(acts);
    const kind = dests.size ? [...dests.values()][0][0].kind : null;
    // A retreat's buttons each say where the block retreats to, beside its Fire and Pass in a
    // combat turn (RULES 5.5); a move's or a regroup's follow one hint.
    if (dests.size && kind !== 'retreat') {
      const verb = { regroup: 'Regroup', sea_move: 'Sail' }[kind] ?? 'Move';
      bar.append(h('span', { class: 'hint' }, `${verb} to (or choose a highlighted area):`));
    }
    for (const [area, list] of dests) {
      const areaName = data.area[area]?.name ?? area;
      bar.append(
        h(
          'button',
          {
            class: `act act-dest act-${list[0].kind}`,
            'data-kind': list[0].kind,
            'data-to': area,
            disabled: pending,
            onclick: () => (list.length === 1 ? send(list[0]) : setChoice(list)),
          },
          list[0].kind === 'retreat' ? retreatLabel(selected, areaName) : areaName,
        ),
      );
    }
    bar.append(h('button', { class: 'act cancel', onclick: () => select(null) }, 'Cancel'));
  } else {
    const nBlocks = cls.blocks.size;
    const nAreas = cls.areas.size;
    const blockKinds = new Set([...cls.blocks.values()].flat().map((a) => a.kind));
    const blockHint = battle?.hint ?? BLOCK_HINTS.find(([k]) => blockKinds.has(k))?.[1];
    if (nBlocks)
      bar.append(h('span', { class: 'hint' }, blockHint ?? 'Choose a highlighted block.'));
    else if (nAreas) bar.append(h('span', { class: 'hint' }, 'Choose a highlighted area.'));
    else if (cls.cards.size)
      bar.append(h('span', { class: 'hint' }, 'Choose a card from your hand.'));
    else if (cls.buttons.some((a) => a.kind === 'end_move_phase')) {
      // RULES 4.11: the phase never ends by itself, so that the last move can be undone.
      bar.append(h('span', { class: 'hint' }, 'Nothing more can move.'));
    } else if (cls.buttons.some((a) => a.kind === 'to_selkirk')) {
      bar.append(h('span', { class: 'hint' }, 'Wallace may winter in Selkirk:'));
    }
  }
  for (const a of cls.nobles) bar.append(button(a));
  for (const a of cls.buttons) {
    const label = a.kind === 'done' && winter?.done ? winter.done : describe(a, data);
    bar.append(button(a, label, a.kind === 'undo' ? 'undo' : ''));
  }
  el.append(bar);
}
