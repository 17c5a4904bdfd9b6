#include "rules/hots/state.h"

namespace blockfog::hots {

int two_block_nobles_controlled(const Position& p, Side side) {
  int count = 0;
  for (const auto& noble : game_data().nobles) {
    count += on_map(p, noble.blocks[core::side_index(side)]);
  }
  return count;
}

int nobles_controlled(const Position& p, Side side) {
  const int moray = side == Side::Scotland && on_map(p, game_data().moray) ? 1 : 0;
  return two_block_nobles_controlled(p, side) + moray;
}

}  // namespace blockfog::hots
