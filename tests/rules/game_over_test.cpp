// J-16 (RULES 13.1.6): once the game is over, every view may show everything, the seed included,
// so that anyone can verify the game.

#include <gtest/gtest.h>

#include "rules/core/chacha20.h"
#include "rules/core/hex.h"
#include "rules/hots/engine.h"
#include "rules/hots/serialize.h"
#include "rules/hots/view.h"

namespace blockfog::hots::testing {
namespace {

using core::Role;

// Plays the first legal action of whoever is awaited, as long as the game runs.
State finished_game(const core::Seed& seed) {
  State s = setup(seed, *scenario_index("braveheart"), Options{});
  core::ChaCha20Stream chooser(seed, 1);
  for (int i = 0; i < 20000 && s.phase != Phase::GameOver; ++i) {
    const auto roles = active_roles(s);
    if (roles.empty()) break;
    const auto legal = legal_actions(s, roles.front());
    apply_legal(s, roles.front(), legal[chooser.uniform(static_cast<std::uint32_t>(legal.size()))]);
  }
  return s;
}

TEST(GameOver, EveryViewShowsTheSeedTheOutcomeAndTheWholeStateJ16) {
  core::Seed seed{};
  seed.fill(0x5a);
  const State s = finished_game(seed);
  ASSERT_EQ(s.phase, Phase::GameOver);
  const auto result = outcome(s);
  ASSERT_TRUE(result.finished);
  for (Role role : {Role::Scotland, Role::England, Role::Observer}) {
    const auto v = view(s, role);
    EXPECT_EQ(v.at("seed").get<std::string>(), core::to_hex(seed)) << core::role_name(role);
    EXPECT_EQ(v.at("outcome").at("reason").get<std::string>(), result.reason);
    // The whole state, every block's place and strength included, for every role alike.
    EXPECT_TRUE(state_from_json(v.at("final_state")) == s) << core::role_name(role);
    EXPECT_EQ(v.at("full_log").size(), s.log.size());
    EXPECT_TRUE(v.at("legal_actions").empty());
  }
}

}  // namespace
}  // namespace blockfog::hots::testing
