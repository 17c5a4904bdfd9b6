#pragma once

// Legal-action lists kept between the decisions of one game, for random playouts and searches
// that list and apply thousands of actions per second. Nothing here is game state: the lists
// are the same as legal_actions(s, role, out) gives, in the same order (hots-sim --check and
// tests/rules compare them at every decision of random games), so a seed plays the same game.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "rules/hots/engine.h"

namespace blockfog::hots {

// What is kept: after an undo (RULES 14, Undo) the position is the one its undo point was
// taken in, so its lists are those listed before the action that made the point. Each point
// keeps the lists' buffers themselves (no copy): pushing and undoing swap pointers.
//
// Use: one cache per game being played. Between calls, the state may change only through
// apply_legal(s, role, action, cache) with the same cache; after anything else (another
// apply, a state loaded or copied in), call reset(). Buffers are made for the first decisions
// and kept: a reused cache does not allocate.
class LegalCache {
 public:
  LegalCache();
  void reset();

  // The same list as legal_actions(s, role, out), listed only when the cache does not hold
  // it. The list is the cache's: it stays valid until the next apply through the cache.
  friend const ActionList& legal_actions(const State& s, core::Role role, LegalCache& cache) {
    const auto side = static_cast<unsigned>(role);
    if (side < 2 && ((cache.listed_ >> side) & 1U)) return *cache.lists_[side];
    return cache.list(s, role);
  }
  // apply_legal(s, role, action), keeping the cache in step with the state.
  friend void apply_legal(State& s, core::Role role, const Action& action, LegalCache& cache);

 private:
  // The lists of the position an undo point restores, with which were listed then.
  struct Saved {
    std::array<ActionList*, 2> lists{};
    std::uint8_t listed = 0;
  };

  const ActionList& list(const State& s, core::Role role);
  ActionList* take_buffer();
  void drop_saved();

  std::uint8_t listed_ = 0;  // bit per side index: lists_ holds its list of the state now
  std::array<ActionList*, 2> lists_{};
  std::vector<Saved> saved_;  // one per undo point of the state, oldest first
  std::vector<ActionList*> free_;
  std::vector<std::unique_ptr<ActionList>> buffers_;  // owns every list above
};

// The two above, declared here for qualified calls (hots::legal_actions(s, role, cache)).
const ActionList& legal_actions(const State& s, core::Role role, LegalCache& cache);
void apply_legal(State& s, core::Role role, const Action& action, LegalCache& cache);

}  // namespace blockfog::hots
