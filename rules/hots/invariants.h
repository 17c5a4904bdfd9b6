#pragma once

#include <string>
#include <vector>

#include "rules/hots/state.h"

namespace blockfog::hots {

// Broken invariants of a state, described; empty when sound. For debug builds and the fuzzer.
std::vector<std::string> check_invariants(const State& s);

}  // namespace blockfog::hots
