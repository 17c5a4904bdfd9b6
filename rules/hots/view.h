#pragma once

#include <nlohmann/json.hpp>

#include "rules/core/role.h"
#include "rules/hots/state.h"

namespace blockfog::hots {

// The picture of the game that `role` may see (RULES 13): the only way game facts leave the
// engine. Enemy blocks appear as anonymous counts per area; hands, chosen cards, pools and
// private log lines of the other side are absent, not flagged.
// `log_from` is how many of the role's log lines the caller already has: only later lines are
// included (all of them by default). "log_size" always gives the role's total.
nlohmann::json view(const State& s, core::Role role, std::size_t log_from = 0);

}  // namespace blockfog::hots
