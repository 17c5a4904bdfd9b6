#pragma once

#include <string>

#include "rules/hots/state.h"

namespace blockfog::hots {

// The public name of the step being played (RULES 13.1.4), e.g. "England: winter": what every
// role may read of where the game stands, whoever is deciding what.
std::string phase_text(const State& s);
void append_phase_text(std::string& out, const State& s);  // the same, appended

}  // namespace blockfog::hots
