#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/hots/state.h"

namespace blockfog::tools {

// Facts in `view` that `role` may not know (RULES 13): ids of hidden blocks, fields of enemy
// blocks beyond anonymous counts, the generator's key before the game ends. Empty when clean.
std::vector<std::string> find_leaks(const hots::State& s, core::Role role,
                                    const nlohmann::json& view);

}  // namespace blockfog::tools
