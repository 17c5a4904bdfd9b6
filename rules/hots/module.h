#pragma once

#include "rules/core/game.h"

namespace blockfog::hots {

// Hammer of the Scots behind the game-module interface (JSON boundary for server and tools).
const core::GameModule& module();

}  // namespace blockfog::hots
