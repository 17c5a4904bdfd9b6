#pragma once

#include <string>
#include <vector>

#include "rules/scotland_rising/state.h"

namespace blockfog::scotland_rising {

// Broken invariants of a state, described; empty when it is sound.
std::vector<std::string> check_invariants(const State& s);

}  // namespace blockfog::scotland_rising
