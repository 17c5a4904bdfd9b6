// Rules versions (engine.h): a game keeps the version it was created under. Stored games of
// hots-2, whose procedures differ from hots-3's (RULES 4.11, 5.12, 7.3.3, 10.8 and table 14),
// resume from a snapshot or their JSON and replay to the state hashes stored before hots-3.

#include <array>
#include <memory>
#include <random>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rules/hots/module.h"

namespace blockfog::hots {
namespace {

using core::Role;

// One random action of whichever side may act, through the module as the server plays it.
void play_one(core::Game& game, std::mt19937& gen) {
  const auto roles = game.active_roles();
  ASSERT_FALSE(roles.empty());
  const Role role = roles[gen() % roles.size()];
  const auto legal = game.legal_actions(role);
  ASSERT_FALSE(legal.empty());
  ASSERT_FALSE(game.apply(role, legal[gen() % legal.size()]));
}

constexpr int kSteps = 1500;
constexpr int kResumeAt = 600;

// Games of rules version hots-2 by seed {5, scenario} and std::mt19937(40 + scenario): the
// state hash after kResumeAt actions and after kSteps (or at the game's end), as the engine
// computed them before hots-3 (main at 2433c81). Each game passes several winters (two of them
// end before kSteps).
constexpr std::array<std::array<const char*, 2>, 3> kHots2Hashes = {{
    {"2de0c1726f6f3d71404b38bba2c8f41a81e67e6794634f49ee858b44e7d80747",
     "6cd068a930f729692e6d206e00495ecfef8275f24ee902bc0eb2f6cf31ecd83b"},
    {"95a093e255f913376ef8f32a2932a2c16664abf7a0da9af1e6c1ad1b3438fe19",
     "ccff4fe43549e1917fa0ecb5fef9376eac7050cde2e2f752d0ad066a9d67abd2"},
    {"b53ca519039a6d3a6d520e473b772684515d01e008a225cb1f5f70af465034f1",
     "35606ede9808e7ebb27c12be06dd61f5964a480db870ad6b9a5de906998f7cd5"},
}};

TEST(RulesVersion, StoredHots2GamesResumeAndReplayToTheirHashes) {
  const auto& hots = module();
  for (int scenario = 0; scenario < 3; ++scenario) {
    const std::string id = hots.scenarios()[scenario];
    const core::Seed seed{5, static_cast<std::uint8_t>(scenario)};
    auto game = hots.setup_as("hots-2", seed, id, nullptr).game;
    ASSERT_TRUE(game);
    std::mt19937 gen(static_cast<std::mt19937::result_type>(40 + scenario));
    for (int step = 0; step < kResumeAt && !game->outcome().finished; ++step) {
      play_one(*game, gen);
      if (::testing::Test::HasFatalFailure()) return;
    }
    const std::string at_resume = game->state_hash();
    EXPECT_EQ(at_resume, kHots2Hashes[scenario][0]) << id;
    // Resumed as the server resumes a stored game: from its snapshot, or from its JSON.
    std::string snapshot;
    game->write_snapshot(snapshot);
    auto from_snapshot = hots.from_snapshot("hots-2", snapshot).game;
    auto from_json = hots.from_json(game->to_json()).game;
    ASSERT_TRUE(from_snapshot && from_json);
    EXPECT_EQ(from_json->to_json()["rules_version"], "hots-2");
    std::mt19937 gen_snapshot = gen;
    std::mt19937 gen_json = gen;
    for (int step = kResumeAt; step < kSteps && !game->outcome().finished; ++step) {
      play_one(*game, gen);
      play_one(*from_snapshot, gen_snapshot);
      play_one(*from_json, gen_json);
      if (::testing::Test::HasFatalFailure()) return;
    }
    EXPECT_EQ(game->state_hash(), kHots2Hashes[scenario][1]) << id;
    EXPECT_EQ(from_snapshot->state_hash(), game->state_hash()) << id;
    EXPECT_EQ(from_json->state_hash(), game->state_hash()) << id;
  }
}

}  // namespace
}  // namespace blockfog::hots
