#include "rules/hots/phases.h"

// Border raids: RULES 9.

namespace blockfog::hots::detail {

void raid_legal(const State& s, Side side, ActionList& out) {
  if (side != Side::England) return;
  const auto& blocks = game_data().blocks;
  for (BlockId b = 0; b < kBlockCount; ++b) {
    // 9.1: any English non-noble on the map, Edward and black-cross blocks included.
    if (blocks[b].owner == Side::England && blocks[b].type != BlockType::Noble && on_map(s, b)) {
      out.push_back(with_block(ActionKind::RaidVictim, b));
    }
  }
}

void raid_apply(State& s, const Action& action) {
  const BlockId b = action.a;
  const AreaId area = s.blocks.loc[b];
  // Not a battle elimination: to the pool, no permanent loss, no Edward I -> II (9.1).
  s.blocks.set(b, BlockState{kPool, 0});
  // 9.4: Scotland sees only that an English block left that area.
  add_private_log(s, Side::England, LogKind::RaidVictim, b, area, 0, LogKind::RaidVictimAnon, 0,
                  area, 0);
  end_turn(s);
}

}  // namespace blockfog::hots::detail
