#pragma once

// Internal: the step rules of the move phase (RULES 4.2, 4.3.2, 4.4, 4.7, 4.9, 4.10), shared by
// move_phase.cpp and the kept lists of move_memo.cpp.

#include "rules/hots/state.h"

namespace blockfog::hots::detail {

inline bool is_activated(const Position& p, AreaId area) { return (p.activated >> area) & 1U; }

// RULES 4.7: a block may leave an area holding enemy blocks only while the side's non-reserve
// blocks there outnumber all enemy blocks there (reserves included). Asked only for an area
// holding enemy blocks, which is rare in the move phase, so it counts there and then.
inline bool pin_allows_leaving(const Position& p, AreaId area, Side side) {
  int own = 0;
  const int first = first_block(side);
  for (int b = first; b < first + kBlocksPerSide; ++b) {
    own += p.blocks[b].loc == area && !p.blocks[b].reserve;
  }
  return own > count_in_area(p, area, core::other_side(side));
}

// The step rules of RULES 4.3.2 for one side in one position, with what every check reads
// gathered once per query: a move query asks them for every border of every unmoved block.
class StepRules {
 public:
  StepRules(const Position& p, Side side)
      : p_(p),
        data_(game_data()),
        side_(index_of(side)),
        enemy_(index_of(core::other_side(side))),
        enemy_areas_(Presence::areas_of(p, core::other_side(side))),
        scotland_(side == Side::Scotland),
        truce_(p.truce_against == index_of(side)),
        mp_left_(p.mp >= 1) {}

  bool has_enemy(AreaId area) const { return (enemy_areas_ >> area) & 1U; }
  std::uint32_t enemy_areas() const { return enemy_areas_; }

  // May a block of the side in `from` (having come from `previous`) cross into `n`?
  // `enemy_here` is has_enemy(from), asked once per block by the caller.
  bool can_step(bool enemy_here, AreaId previous, const Neighbor& n) const {
    const auto& border = data_.borders[n.border];
    if (n.area == previous) return false;                               // 4.3.2.5
    if (p_.crossings[side_][n.border] >= border.limit) return false;    // 4.4
    if (border.anglo_scottish && !mp_left_) return false;               // 4.1.4
    if (enemy_here && p_.border_use[n.border] == enemy_) return false;  // 4.3.2.3
    if (truce_) {                                                       // 4.9
      if (has_enemy(n.area)) return false;
      if (scotland_ && n.area == data_.england) return false;
    }
    return true;
  }

  // RULES 4.2 and 4.1.4: may block `b` of the side begin a land move now?
  bool can_start(BlockId b) const {
    const auto& block = p_.blocks[b];
    if (block.loc >= kAreaCount || block.moved || block.reserve) return false;
    if (b == data_.norse) return false;  // 4.10
    if (!mp_left_ && !is_activated(p_, block.loc)) return false;
    return !has_enemy(block.loc) || pin_allows_leaving(p_, block.loc, side_of(side_));
  }

  bool norse_can_move() const {
    const auto& block = p_.blocks[data_.norse];
    return scotland_ && block.loc < kAreaCount && !block.moved && !block.reserve && mp_left_ &&
           (!has_enemy(block.loc) || pin_allows_leaving(p_, block.loc, Side::Scotland));
  }

  // RULES 4.10.1: any other coastal area but England, unless a Truce forbids an attack.
  bool norse_destination(AreaId to) const {
    if (!data_.areas[to].coastal || to == data_.england) return false;
    if (to == p_.blocks[data_.norse].loc) return false;
    return !(truce_ && has_enemy(to));
  }

 private:
  const Position& p_;
  const GameData& data_;
  std::uint8_t side_;
  std::uint8_t enemy_;
  std::uint32_t enemy_areas_;
  bool scotland_;
  bool truce_;
  bool mp_left_;
};

}  // namespace blockfog::hots::detail
