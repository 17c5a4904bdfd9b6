// The card phase: my hand (clickable only for legal play_card actions), my secret choice,
// whether each side has chosen, and the cards played this year.
import { h, clear } from '../dom.js';
import { cardName } from '../actions.js';
import { SIDE_NAME } from '../board.js';
import { rulesLink } from '../rules_link.js';
import { playedInOrder } from '../wording.js';

// An event card's text (RULES 7), shown on hover and in the list under the hand.
const cardText = (c) => (c?.effect ? `${c.name}: ${c.effect} (RULES ${c.rules_section})` : null);

function cardFace(data, id, extra = {}) {
  const c = data.card[id];
  return h(
    'span',
    { class: `card-face ${c?.kind ?? ''}`, title: cardText(c) },
    h('span', { class: 'card-value' }, c?.kind === 'move' ? String(c.value) : '★'),
    h('span', { class: 'card-name' }, cardName(c) ?? id),
    extra.note || null,
  );
}

export function renderCards(el, view, ctx) {
  const { data, role, cls, send, pending } = ctx;
  clear(el);
  const cards = view.cards || {};
  el.append(h('h2', {}, 'Cards'));
  const sizes = cards.hand_sizes || {};
  const chosen = cards.chosen || {};
  el.append(
    h(
      'p',
      { class: 'card-status' },
      ['scotland', 'england'].map((side) =>
        h(
          'span',
          { class: `chip ${side}` },
          `${SIDE_NAME[side]}: ${sizes[side] ?? 0} in hand` +
            (view.phase === 'card_choice' || chosen[side]
              ? chosen[side]
                ? ', has chosen'
                : ', choosing'
              : ''),
        ),
      ),
    ),
  );
  if (role === 'all' && cards.hands) {
    // A finished game with everything revealed: each side's hand, labelled.
    for (const side of ['scotland', 'england']) {
      el.append(
        h('p', { class: 'hand-owner' }, `${SIDE_NAME[side]}'s hand`),
        h(
          'div',
          { class: `hand ${side}`, role: 'list', 'aria-label': `${SIDE_NAME[side]}'s hand` },
          (cards.hands[side] || []).map((id) =>
            h('div', { class: 'card inert', role: 'listitem' }, cardFace(data, id)),
          ),
        ),
      );
    }
  } else if (role !== 'observer') {
    if (cards.my_choice) {
      el.append(
        h(
          'p',
          { class: 'my-choice' },
          'My card (secret until both have chosen): ',
          h('strong', {}, cardName(data.card[cards.my_choice]) ?? cards.my_choice),
        ),
      );
    }
    const hand = h('div', { class: 'hand', role: 'list', 'aria-label': 'My hand' });
    for (const id of cards.hand || []) {
      if (id === cards.my_choice) continue;
      const acts = cls.cards.get(id) || [];
      const face = cardFace(data, id);
      if (acts.length) {
        hand.append(
          h(
            'div',
            { role: 'listitem' },
            h(
              'button',
              {
                class: 'card',
                'data-card': id,
                disabled: pending,
                'aria-label': `Play card ${cardName(data.card[id])}`,
                onclick: () => send(acts[0]),
              },
              face,
            ),
          ),
        );
      } else hand.append(h('div', { class: 'card inert', role: 'listitem' }, face));
    }
    el.append(hand);
    const events = [...new Set(cards.hand || [])]
      .map((id) => data.card[id])
      .filter((c) => c?.effect);
    if (events.length) {
      el.append(
        h(
          'details',
          { class: 'card-texts' },
          h('summary', {}, 'What my event cards do'),
          h(
            'dl',
            {},
            events.map((c) => [
              h('dt', {}, `${c.name} (`, rulesLink(c.rules_section), ')'),
              h('dd', {}, c.effect),
            ]),
          ),
        ),
      );
    }
  }
  const played = playedInOrder(cards.played_this_year);
  if (played.length) {
    el.append(
      h(
        'p',
        { class: 'played' },
        h('strong', {}, 'Played this year: '),
        played
          .map(
            (p) => `${SIDE_NAME[p.side]} ${cardName(data.card[p.card]) ?? p.card} (turn ${p.turn})`,
          )
          .join('; '),
      ),
    );
  }
}
