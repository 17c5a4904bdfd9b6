#pragma once

// The game's log: public lines of what happened, in order.

#include <string>

#include "rules/scotland_rising/state.h"

namespace blockfog::scotland_rising {

void add_log(State& s, std::string line);
// "England knight en_knight1 (Gloucester) at 0513".
std::string unit_label(const State& s, int u);

}  // namespace blockfog::scotland_rising
