#pragma once

// Test fixture builder for rule cases (ACCEPTANCE.md conventions): start from a scenario's
// set-up, clear the areas a case involves, place blocks, give hands, script dice and draws.

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "rules/hots/engine.h"
#include "rules/hots/state.h"
#include "rules/hots/view.h"

namespace blockfog::hots::testing {

using core::Role;

inline constexpr Role kScotland = Role::Scotland;
inline constexpr Role kEngland = Role::England;
inline constexpr Role kObserver = Role::Observer;

// A random legal action of whichever side may act (both sides' lists, one picked by
// gen() % their size), or none when nobody may: a step of the random games tests play.
template <typename Gen>
std::optional<std::pair<Role, Action>> random_legal_action(const State& s, Gen& gen) {
  std::vector<std::pair<Role, Action>> choices;
  for (Role role : {kScotland, kEngland}) {
    for (const auto& a : legal_actions(s, role)) choices.emplace_back(role, a);
  }
  if (choices.empty()) return std::nullopt;
  return choices[gen() % choices.size()];
}

AreaId area(std::string_view id);
BlockId block(std::string_view id);
CardId card(std::string_view id);

class Fixture {
 public:
  explicit Fixture(std::string_view scenario = "braveheart", std::uint8_t seed_byte = 7);

  State& state() { return state_; }
  const State& state() const { return state_; }

  // Moves every block out of `area_id`: nobles to `park` (default: the noble's twin side's
  // far corner, see fixture.cpp), any other block to its pool.
  Fixture& clear(std::string_view area_id);
  Fixture& clear(std::initializer_list<std::string_view> areas);
  // Every non-noble block to its pool; nobles stay where the set-up put them.
  Fixture& clear_non_nobles();
  // Puts a block on the map (strength 0 = full). A noble's twin leaves play.
  Fixture& place(std::string_view block_id, std::string_view area_id, int strength = 0);
  Fixture& to_pool(std::string_view block_id);
  Fixture& kill(std::string_view block_id);

  // Replaces both hands (the rest of the deck is out of play this year).
  Fixture& hands(std::vector<std::string_view> scotland, std::vector<std::string_view> england);
  // Both sides choose these cards (applied as real actions): the turn's P1 follows RULES 3.2.
  Fixture& play_cards(std::string_view scotland_card, std::string_view england_card);

  Fixture& dice(std::initializer_list<int> faces);
  Fixture& draws(std::initializer_list<std::string_view> block_ids);

  // Applies an action, failing the test if it is refused.
  Fixture& act(Role role, const Action& action);
  // Applies an action expecting a refusal; asserts the state is unchanged.
  core::RuleErrorCode refuse(Role role, const Action& action);
  bool offered(Role role, const Action& action) const;

  nlohmann::json view(Role role) const { return hots::view(state_, role); }

 private:
  State state_;
};

// No block on the map but the parked nobles (Fixture::clear): England's in Garmoran,
// Scotland's two in Galloway. Every other block is in its pool.
Fixture blank_map();

}  // namespace blockfog::hots::testing
