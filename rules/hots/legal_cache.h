#pragma once

// Legal-action lists kept between the decisions of one game, for random playouts and searches
// that list and apply thousands of actions per second. Nothing here is game state: the lists
// are the same as legal_actions(s, role, out) gives, in the same order (tests/rules compare
// them at every decision of random games), so the same seed plays the same game.

#include <array>
#include <cstdint>
#include <vector>

#include "rules/hots/engine.h"

namespace blockfog::hots {

namespace detail {

// The move phase's list of first steps (RULES 4.2, 4.3.2), kept per block and amended for what
// changed since the last query: most decisions move one block, which changes the lists of the
// blocks around its path only. What the lists read is kept to find what changed.
struct MoveMemo {
  bool valid = false;
  // The player turn it was made in: within one, only the side's own blocks move (RULES 4),
  // so the enemy's blocks, counted by the pinning rule (4.7), stay where they are.
  std::uint16_t year = 0;
  std::uint8_t turn = 0;
  std::uint8_t player_turn = 0;
  std::uint8_t side = kNone;
  bool mp_left = false;
  bool truce = false;
  std::uint32_t activated = 0;
  std::uint32_t enemy_areas = 0;
  // The side's blocks: what their own lists read (place, moved, reserve).
  std::array<std::uint8_t, kBlocksPerSide> loc{};
  std::array<std::uint8_t, kBlocksPerSide> flags{};
  // The side's crossings per border (4.4) and the border-use record (4.3.2.3).
  std::array<std::uint8_t, kBorderCount> crossings{};
  std::array<std::uint8_t, kBorderCount> border_use{};
  // Bit i: the block may step to the i-th neighbour of its area.
  std::array<std::uint16_t, kBlocksPerSide> steps{};
};

// move_legal(s, side, out) with no block moving, through `memo`.
void move_start_legal(const State& s, Side side, ActionList& out, MoveMemo& memo);

}  // namespace detail

// Use: one cache per game being played. Between calls, the state may change only through
// apply_legal(s, role, action, cache) with the same cache; after anything else (another
// apply, a state loaded or copied in), call reset(). Capacity grows with the first decisions
// and is kept: a reused cache does not allocate.
class LegalCache {
 public:
  void reset();

 private:
  friend const ActionList& legal_actions(const State& s, core::Role role, LegalCache& cache);
  friend void apply_legal(State& s, core::Role role, const Action& action, LegalCache& cache);

  // The lists of the position an undo point restores, as they were listed before the action
  // that made the point: undo gives back the same position, so it needs no new listing.
  struct Saved {
    std::uint32_t begin = 0;  // in pool_: Scotland's list, then England's
    std::array<std::uint16_t, 2> size{};
    std::uint8_t listed = 0;  // bit per side index: that side's list was kept
  };

  void save_point(const State& s);
  void restore_point(const State& s, std::size_t index);

  const State* state_ = nullptr;  // the state lists_ belong to
  std::uint8_t listed_ = 0;       // bit per side index: lists_ holds its list for the state
  std::array<ActionList, 2> lists_;
  std::vector<Saved> saved_;  // one per undo point of the state, oldest first
  std::vector<Action> pool_;
  std::size_t used_ = 0;  // pool_'s first unused element
  detail::MoveMemo move_;
};

// The same list as legal_actions(s, role, out), from what `cache` knows of earlier decisions.
// The list is the cache's: it stays valid until the next call for the same role, or an apply.
const ActionList& legal_actions(const State& s, core::Role role, LegalCache& cache);
// apply_legal(s, role, action), keeping `cache` in step with the state.
void apply_legal(State& s, core::Role role, const Action& action, LegalCache& cache);

}  // namespace blockfog::hots
