#include "rules/hots/phases.h"

// Event cards: RULES 7. The Truce (7.5) is resolved here; Herald, Pillage, Sea Move, Victuals
// and the coronation alternative (8) come with the third rules issue, so until then their
// player may only decline them (7.1.1), which is always legal.

namespace blockfog::hots::detail {

void event_legal(const State& s, Side side, ActionList& out) {
  const auto& card = game_data().cards[played_card(s, side)];
  if (card.event == EventKind::Truce) out.push_back(simple(ActionKind::Truce));
  out.push_back(simple(ActionKind::Decline));
}

void event_apply(State& s, Side side, const Action& action) {
  const CardId card = played_card(s, side);
  if (action.kind == ActionKind::Truce) {
    // RULES 7.5.2: for the rest of this game turn the opponent may not attack or enter England.
    s.truce_against = index_of(core::other_side(side));
    add_log(s, LogKind::TruceInForce, Audience::Public, s.truce_against);
  } else {
    add_log(s, LogKind::EventDeclined, Audience::Public, index_of(side), card);
  }
  end_player_turn(s);
}

}  // namespace blockfog::hots::detail
