#pragma once

// Random legal play that makes progress by construction. Undo and take_back (RULES 3.1.2) lead
// back to a position the walk was in: a walk that may always choose them can go round
// (a card, taken back, chosen again, ...) for as long as its generator says, and every such
// round changes what the other seat sees, which cancels the computer's thinking for it (its
// decision is for a view that moved on). A walk that waits for something to happen (the
// computer's answer, a phase, the game's end) chooses among the actions that go forward.

#include <nlohmann/json.hpp>

namespace blockfog::server::testing {

// Whether `action` (one of a view's legal_actions) takes the seat back to an earlier position.
inline bool steps_back(const nlohmann::json& action) {
  // Hammer of the Scots names an action's kind "kind"; Scotland Rising names it "type".
  const auto kind = action.value("kind", action.value("type", ""));
  return kind == "undo" || kind == "take_back";
}

// The legal actions of `legal` (a view's legal_actions) that go forward; empty when the seat
// may only step back, which is when it waits for the other side (a card chosen, the other's
// not yet).
inline nlohmann::json forward_actions(const nlohmann::json& legal) {
  auto out = nlohmann::json::array();
  for (const auto& action : legal) {
    if (!steps_back(action)) out.push_back(action);
  }
  return out;
}

}  // namespace blockfog::server::testing
