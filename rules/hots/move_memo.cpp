#include <bit>
#include <cstring>

#include "rules/hots/legal_cache.h"
#include "rules/hots/move_rules.h"

// The move phase's first steps kept between decisions (RULES 4.2, 4.3.2): a block's list is
// made again only when something it reads has changed. The list comes out in the order of
// move_legal: block by block, each in its area's neighbour order, then the Norse, then the end.

namespace blockfog::hots::detail {
namespace {

constexpr std::uint8_t kMovedFlag = 1;
constexpr std::uint8_t kReserveFlag = 2;

std::uint8_t flags_of(const BlockState& block) {
  return static_cast<std::uint8_t>((block.moved ? kMovedFlag : 0) |
                                   (block.reserve ? kReserveFlag : 0));
}

// Bit i: block `b` may begin a move to the i-th neighbour of its area.
std::uint16_t first_steps(const Position& p, const StepRules& rules, BlockId b) {
  if (!rules.can_start(b)) return 0;
  const AreaId at = p.blocks[b].loc;
  const bool enemy_here = rules.has_enemy(at);
  std::uint16_t bits = 0;
  unsigned i = 0;
  for (const auto& n : game_data().areas[at].neighbors) {
    if (rules.can_step(enemy_here, kNone, n)) bits = static_cast<std::uint16_t>(bits | 1U << i);
    ++i;
  }
  return bits;
}

// The areas at either end of the borders whose entries differ between `was` and `now`.
std::uint32_t areas_of_changed_borders(const std::uint8_t* was, const std::uint8_t* now) {
  const auto& data = game_data();
  std::uint32_t areas = 0;
  // Eight borders per comparison: after a move only the few on its path differ.
  for (int i = 0; i < kBorderCount; i += 8) {
    const int n = kBorderCount - i < 8 ? kBorderCount - i : 8;
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    std::memcpy(&a, was + i, static_cast<std::size_t>(n));
    std::memcpy(&b, now + i, static_cast<std::size_t>(n));
    if (a == b) continue;
    for (int k = i; k < i + n; ++k) {
      if (was[k] == now[k]) continue;
      for (const AreaId area : data.borders[static_cast<std::size_t>(k)].areas) {
        areas |= 1U << area;
      }
    }
  }
  return areas;
}

}  // namespace

void move_start_legal(const State& s, Side side, ActionList& out, MoveMemo& memo) {
  const auto& data = game_data();
  const StepRules rules(s, side);
  const std::uint8_t me = index_of(side);
  const bool mp_left = s.mp >= 1;
  const bool truce = s.truce_against == me;
  const auto& crossings = s.crossings[me];
  // What every block's list reads: when it changed, every list is made again.
  const bool all = !memo.valid || memo.year != s.year || memo.turn != s.turn ||
                   memo.player_turn != s.player_turn || memo.side != me ||
                   memo.mp_left != mp_left || memo.truce != truce ||
                   memo.enemy_areas != rules.enemy_areas();
  std::uint32_t dirty_areas = 0;  // blocks there are listed again
  if (!all) {
    if (!mp_left) dirty_areas |= memo.activated ^ s.activated;  // 4.1.4
    dirty_areas |= areas_of_changed_borders(memo.crossings.data(), crossings.data());
    dirty_areas |= areas_of_changed_borders(memo.border_use.data(), s.border_use.data());
  }
  const int first = first_block(side);
  std::uint32_t dirty_blocks = all ? ~0U : 0U;  // bit per block of the side
  if (!all) {
    for (int i = 0; i < kBlocksPerSide; ++i) {
      const auto& block = s.blocks[first + i];
      if (block.loc == memo.loc[i] && flags_of(block) == memo.flags[i]) continue;
      dirty_blocks |= 1U << i;
      // 4.7: a block entering or leaving an area with enemies changes who is pinned there.
      for (const AreaId area : {memo.loc[i], block.loc}) {
        if (area < kAreaCount && rules.has_enemy(area)) dirty_areas |= 1U << area;
      }
    }
  }
  for (int i = 0; i < kBlocksPerSide; ++i) {
    const auto b = static_cast<BlockId>(first + i);
    const auto& block = s.blocks[b];
    const bool here = block.loc < kAreaCount && ((dirty_areas >> block.loc) & 1U);
    if (((dirty_blocks >> i) & 1U) || here) {
      memo.steps[i] = block.loc < kAreaCount ? first_steps(s, rules, b) : 0;
      memo.loc[i] = block.loc;
      memo.flags[i] = flags_of(block);
    }
    for (std::uint32_t bits = memo.steps[i]; bits != 0; bits &= bits - 1) {
      const auto& n =
          data.areas[block.loc].neighbors[static_cast<std::size_t>(std::countr_zero(bits))];
      out.push_back(move(b, n.area));
    }
  }
  memo.valid = true;
  memo.year = s.year;
  memo.turn = s.turn;
  memo.player_turn = s.player_turn;
  memo.side = me;
  memo.mp_left = mp_left;
  memo.truce = truce;
  memo.activated = s.activated;
  memo.enemy_areas = rules.enemy_areas();
  memo.crossings = crossings;
  memo.border_use = s.border_use;
  if (rules.norse_can_move()) {
    for (AreaId a = 0; a < kAreaCount; ++a) {
      if (rules.norse_destination(a)) out.push_back(norse_move(a));
    }
  }
  out.push_back(simple(ActionKind::EndMovePhase));
}

}  // namespace blockfog::hots::detail
