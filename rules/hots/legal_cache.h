#pragma once

// Legal-action lists kept between the decisions of one game, for random playouts and searches
// that list and apply thousands of actions per second. Nothing here is game state: the lists
// are the same as legal_actions(s, role, out) gives, in the same order (hots-sim --check and
// tests/rules compare them at every decision of random games), so a seed plays the same game.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "rules/hots/engine.h"

namespace blockfog::hots {

// What is kept: after an undo (RULES 14, Undo) the position is the one its undo point was
// taken in, so its lists are those listed before the action that made the point. The lists
// are kept by undo depth: the position at depth d (d points in the history) lists into level
// d, so pushing a point leaves the restored position's lists where they are, and an undo finds
// them one level down, without moving or handing out buffers. Two lists are made without the
// phase handlers: the side not awaited outside the card phase (at most its undo), and a
// winter build's list after a step was added (the list a level down, amended for one area).
//
// Use: one cache per game being played. Between calls, the state may change only through
// apply_legal(s, role, action, cache) with the same cache; after anything else (another
// apply, a state loaded or copied in), call reset(). Levels are made for the first decisions
// and kept: a reused cache does not allocate.
class LegalCache {
 public:
  LegalCache();
  void reset();

  // The same list as legal_actions(s, role, out), listed only when the cache does not hold
  // it. The list is the cache's: it stays valid until the next apply through the cache.
  friend const ActionList& legal_actions(const State& s, core::Role role, LegalCache& cache) {
    const auto side = static_cast<unsigned>(role);
    Level& level = *cache.level_;
    if (side < 2 && ((level.listed >> side) & 1U)) return level.lists[side];
    return cache.list(s, role);
  }
  // apply_legal(s, role, action), keeping the cache in step with the state.
  friend void apply_legal(State& s, core::Role role, const Action& action, LegalCache& cache);

 private:
  // The lists of the position at one undo depth, with which were listed.
  struct Level {
    std::array<ActionList, 2> lists;
    std::uint8_t listed = 0;  // bit per side index: lists holds its list of that position
    // When the position was made from the one a level down by a build's step (10.11, 10.12):
    // the block and the side, whose list then follows from that level's list.
    std::uint8_t step_block = kNone;
    std::uint8_t step_side = kNone;
  };

  const ActionList& list(const State& s, core::Role role);
  void enter(std::size_t depth) {  // level `depth` is now the state's
    if (depth >= levels_.size()) grow(depth);
    depth_ = depth;
    level_ = levels_[depth].get();
  }
  void grow(std::size_t depth);  // levels up to `depth` made

  std::size_t depth_ = 0;   // the undo depth of the state the cache is in step with
  Level* level_ = nullptr;  // levels_[depth_]
  std::vector<std::unique_ptr<Level>> levels_;  // levels_[d]: of the position at depth d
};

// The two above, declared here for qualified calls (hots::legal_actions(s, role, cache)).
const ActionList& legal_actions(const State& s, core::Role role, LegalCache& cache);
void apply_legal(State& s, core::Role role, const Action& action, LegalCache& cache);

}  // namespace blockfog::hots
