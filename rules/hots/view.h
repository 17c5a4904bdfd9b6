#pragma once

#include <nlohmann/json.hpp>

#include "rules/core/role.h"
#include "rules/hots/state.h"

namespace blockfog::hots {

// The picture of the game that `role` may see (RULES 13): the only way game facts leave the
// engine. Enemy blocks appear as anonymous counts per area; hands, chosen cards, pools and
// private log lines of the other side are absent, not flagged.
nlohmann::json view(const State& s, core::Role role);

}  // namespace blockfog::hots
