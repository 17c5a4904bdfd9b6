#pragma once

// The engine's entry points on a State: who acts, what they may do, applying an action.

#include <optional>
#include <vector>

#include "rules/core/game.h"
#include "rules/scotland_rising/action.h"
#include "rules/scotland_rising/legal.h"
#include "rules/scotland_rising/state.h"
#include "rules/scotland_rising/turn.h"

namespace blockfog::scotland_rising {

std::vector<Role> active_roles(const State& s);
// Checks `a` (RuleError, the state untouched) and applies it with the steps that follow.
std::optional<core::RuleError> apply(State& s, Role role, const Action& a);
// The same for an action known to be legal (taken from legal_actions): for playouts.
void apply_legal(State& s, Role role, const Action& a);
// R12: the side with more VP after turn 15 wins; equal VP is a draw.
core::Outcome outcome(const State& s);

}  // namespace blockfog::scotland_rising
