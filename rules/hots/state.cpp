#include "rules/hots/state.h"

namespace blockfog::hots {

int count_in_area(const Position& p, AreaId area, Side side) {
  int count = 0;
  const auto& blocks = game_data().blocks;
  for (int b = 0; b < kBlockCount; ++b) {
    count += p.blocks[b].loc == area && blocks[b].owner == side;
  }
  return count;
}

bool has_enemy(const Position& p, AreaId area, Side side) {
  return count_in_area(p, area, core::other_side(side)) > 0;
}

bool is_friendly(const Position& p, AreaId area, Side side) {
  return count_in_area(p, area, side) > 0 && !has_enemy(p, area, side);
}

bool is_vacant(const Position& p, AreaId area) {
  for (const auto& block : p.blocks) {
    if (block.loc == area) return false;
  }
  return true;
}

bool is_contested(const Position& p, AreaId area) {
  return count_in_area(p, area, Side::Scotland) > 0 && count_in_area(p, area, Side::England) > 0;
}

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
