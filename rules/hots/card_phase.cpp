#include <bit>

#include "rules/hots/phases.h"

// Card phase: RULES 3.

namespace blockfog::hots::detail {
namespace {

CardId chosen_card(const Position& p, Side side) {
  const std::uint32_t chosen = p.cards.held(CardPlace::Chosen, index_of(side));
  return chosen == 0 ? kNone : static_cast<CardId>(std::countr_zero(chosen));
}

bool is_event(CardId card) { return game_data().cards[card].kind == CardKind::Event; }

// RULES 3.2.2: who is Player 1.
Side player_one(CardId scotland, CardId england) {
  if (is_event(england)) return Side::England;
  if (is_event(scotland)) return Side::Scotland;
  const auto& cards = game_data().cards;
  return cards[scotland].value > cards[england].value ? Side::Scotland : Side::England;
}

// RULES 3.2: both cards are revealed together; nothing can be taken back afterwards.
void reveal(State& s) {
  const CardId scotland = chosen_card(s, Side::Scotland);
  const CardId england = chosen_card(s, Side::England);
  for (CardId c : {scotland, england}) {
    s.cards.place[c] = CardPlace::Played;
    s.cards.turn[c] = s.turn;
  }
  const Side p1 = player_one(scotland, england);
  s.p1 = index_of(p1);
  clear_undo(s);
  add_log(s, LogKind::CardsRevealed, Audience::Public, scotland, england, index_of(p1));
  // RULES 3.3: a double event ends the year after this game turn.
  s.double_event = is_event(scotland) && is_event(england);
  if (s.double_event) add_log(s, LogKind::DoubleEvent, Audience::Public);
  start_player_turn(s);
}

}  // namespace

void card_legal(const State& s, Side side, ActionList& out) {
  // The side's hand (bit per card) and whether it has chosen.
  const std::uint32_t own = card_bytes_equal(s.cards.holder, index_of(side));
  std::uint32_t hand = s.cards.at(CardPlace::Hand) & own;
  if ((s.cards.at(CardPlace::Chosen) & own) != 0) {
    // RULES 3.1.2: take back while the other has not chosen (reveal happens when both have).
    out.push_back(simple(ActionKind::TakeBack));
    return;
  }
  for (; hand != 0; hand &= hand - 1) {  // in card order
    out.push_back(play_card(static_cast<CardId>(std::countr_zero(hand))));
  }
}

void card_apply(State& s, Side side, const Action& action) {
  if (action.kind == ActionKind::TakeBack) {
    s.cards.place[chosen_card(s, side)] = CardPlace::Hand;
    add_log(s, LogKind::CardTakenBack, Audience::Public, index_of(side));
    return;
  }
  s.cards.place[action.a] = CardPlace::Chosen;
  // RULES 3.1.3: everybody sees that a card was chosen; only its owner sees which.
  add_log(s, LogKind::CardChosen, Audience::Public, index_of(side));
  if (chosen_card(s, core::other_side(side)) != kNone) reveal(s);
}

}  // namespace blockfog::hots::detail
