#pragma once

// What a side may do now: the complete list, and the check of one action against the rules.

#include <optional>
#include <string>
#include <vector>

#include "rules/scotland_rising/action.h"
#include "rules/scotland_rising/state.h"

namespace blockfog::scotland_rising {

// The AP an action costs (rulebook 6, R9, R11, R14).
int ap_cost(ActionType type);

// Every legal action of `role`, each path move once per destination with one cheapest path
// (any other legal path to it is accepted by check()).
std::vector<Action> legal_actions(const State& s, Role role);
// Why `a` is not legal for `role` now, or nullopt when it is.
std::optional<std::string> check(const State& s, Role role, const Action& a);

// Whether `u` stands next to an enemy now (rulebook 8, rally).
bool next_to_enemy(const State& s, int u);
// The unit that has not been placed yet, first in the data file's order (free-form setup).
int next_to_place(const State& s, Role side);

}  // namespace blockfog::scotland_rising
