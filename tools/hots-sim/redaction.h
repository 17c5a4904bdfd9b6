#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rules/hots/state.h"

namespace blockfog::tools {

// Facts in a view that `role` may not know (RULES 13): ids of hidden blocks anywhere in it
// (keys included), fields of enemy blocks beyond anonymous counts, the generator's key before
// the game ends. `view_text` is the view as JSON text (hots::write_view); it is scanned once,
// without building a DOM. Empty when clean; text that is not JSON is reported too.
std::vector<std::string> find_leaks(const hots::State& s, core::Role role,
                                    std::string_view view_text);

}  // namespace blockfog::tools
