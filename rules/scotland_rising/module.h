#pragma once

#include <memory>

#include <nlohmann/json.hpp>

#include "rules/core/game.h"

namespace blockfog::scotland_rising {

// Scotland Rising: Bannockburn 1314 behind the game-module interface, playing the variant
// board (scenario "bannockburn_variant").
const core::GameModule& module();
// The module playing the scenario of another data file of the same schema (docs/
// scotland-rising.md, "The data file"); throws DataError when the file is not sound.
std::unique_ptr<core::GameModule> make_module(const nlohmann::json& data);

}  // namespace blockfog::scotland_rising
