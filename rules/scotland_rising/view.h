#pragma once

#include <cstddef>
#include <string>

#include "rules/core/view_layout.h"
#include "rules/scotland_rising/state.h"

namespace blockfog::scotland_rising {

// Every role's view (the game has no hidden information): the board and the state, without
// the generator, which would tell future dice. Log lines from `log_from` on; returns the log's
// size ("log_size").
std::size_t write_view(const State& s, Role role, std::size_t log_from, std::string& out,
                       core::ViewLayout* layout);

}  // namespace blockfog::scotland_rising
