// Rules versions (engine.h): a game keeps the version it was created under. Stored games of
// hots-2, whose procedures differ from hots-3's (RULES 4.11, 5.12, 7.3.3, 10.8 and table 14),
// resume from a snapshot or their JSON and replay to the state hashes stored before hots-3;
// stored games of hots-3, whose regroup is skipped less often than hots-4's (5.12, table 14
// #16), to those stored before hots-4.

#include <array>
#include <memory>
#include <random>
#include <string>
#include <string_view>

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

using Hashes = std::array<std::array<const char*, 2>, 3>;

// Games of rules version hots-2 by seed {5, scenario} and std::mt19937(40 + scenario): the
// state hash after kResumeAt actions and after kSteps (or at the game's end), as the engine
// computed them before hots-3 (main at 2433c81). Each game passes several winters (two of them
// end before kSteps).
constexpr Hashes kHots2Hashes = {{
    {"2de0c1726f6f3d71404b38bba2c8f41a81e67e6794634f49ee858b44e7d80747",
     "6cd068a930f729692e6d206e00495ecfef8275f24ee902bc0eb2f6cf31ecd83b"},
    {"95a093e255f913376ef8f32a2932a2c16664abf7a0da9af1e6c1ad1b3438fe19",
     "ccff4fe43549e1917fa0ecb5fef9376eac7050cde2e2f752d0ad066a9d67abd2"},
    {"b53ca519039a6d3a6d520e473b772684515d01e008a225cb1f5f70af465034f1",
     "35606ede9808e7ebb27c12be06dd61f5964a480db870ad6b9a5de906998f7cd5"},
}};

// Plays the three scenarios' games of `version` as the hashes were recorded, resuming each from
// its snapshot and its JSON at kResumeAt, and compares the hashes at kResumeAt and at the end.
void expect_stored_hashes(std::string_view version, const Hashes& hashes) {
  const auto& hots = module();
  for (int scenario = 0; scenario < 3; ++scenario) {
    const std::string id = hots.scenarios()[scenario];
    SCOPED_TRACE(std::string(version) + " " + id);
    const core::Seed seed{5, static_cast<std::uint8_t>(scenario)};
    auto game = hots.setup_as(version, seed, id, nullptr).game;
    ASSERT_TRUE(game);
    std::mt19937 gen(static_cast<std::mt19937::result_type>(40 + scenario));
    for (int step = 0; step < kResumeAt && !game->outcome().finished; ++step) {
      play_one(*game, gen);
      if (::testing::Test::HasFatalFailure()) return;
    }
    const std::string at_resume = game->state_hash();
    EXPECT_EQ(at_resume, hashes[scenario][0]);
    // Resumed as the server resumes a stored game: from its snapshot, or from its JSON.
    std::string snapshot;
    game->write_snapshot(snapshot);
    auto from_snapshot = hots.from_snapshot(version, snapshot).game;
    auto from_json = hots.from_json(game->to_json()).game;
    ASSERT_TRUE(from_snapshot && from_json);
    EXPECT_EQ(from_json->to_json()["rules_version"], version);
    std::mt19937 gen_snapshot = gen;
    std::mt19937 gen_json = gen;
    for (int step = kResumeAt; step < kSteps && !game->outcome().finished; ++step) {
      play_one(*game, gen);
      play_one(*from_snapshot, gen_snapshot);
      play_one(*from_json, gen_json);
      if (::testing::Test::HasFatalFailure()) return;
    }
    EXPECT_EQ(game->state_hash(), hashes[scenario][1]);
    EXPECT_EQ(from_snapshot->state_hash(), game->state_hash());
    EXPECT_EQ(from_json->state_hash(), game->state_hash());
  }
}

TEST(RulesVersion, StoredHots2GamesResumeAndReplayToTheirHashes) {
  expect_stored_hashes("hots-2", kHots2Hashes);
}

// Games of rules version hots-3, played the same way, as the engine computed them before hots-4
// (main at d554cb4).
constexpr Hashes kHots3Hashes = {{
    {"30930a6788cba0cd289ca72ac13a9eab44fe0a56829fa93170a8be581e544729",
     "c13c55a6c40c0be75e041ebd9f2fa02f2a885d6426dc2fcb245607b8b2616e57"},
    {"65284f9dffca686b9d7b77e2b551c2627e10ac3018633ca0de34f42f08ee719b",
     "889d9480af95354e645599c44cb93a1ab3b7dde7f89819e720fc97f3292befc7"},
    {"14c01db0c14af716663913e962cfacf609fa1121ee6b088419fc24e390042478",
     "e77404977ab2804064b48efc9e818502ce94fb6ec3bc7ec90bad64da5fc09ef4"},
}};

TEST(RulesVersion, StoredHots3GamesResumeAndReplayToTheirHashes) {
  expect_stored_hashes("hots-3", kHots3Hashes);
}

// New games are played under hots-4 and say so. The same seeds and choices lead elsewhere
// under it (a regroup it skips, table 14 #16), so the hashes above pin hots-3's procedures.
TEST(RulesVersion, NewGamesAreHots4WhoseRegroupsDifferFromHots3) {
  const auto& hots = module();
  EXPECT_EQ(hots.rules_version(), "hots-4");
  int differing = 0;
  for (int scenario = 0; scenario < 3; ++scenario) {
    const std::string id = hots.scenarios()[scenario];
    const core::Seed seed{5, static_cast<std::uint8_t>(scenario)};
    auto game = hots.setup(seed, id, nullptr).game;
    ASSERT_TRUE(game);
    EXPECT_EQ(game->to_json()["rules_version"], "hots-4");
    std::mt19937 gen(static_cast<std::mt19937::result_type>(40 + scenario));
    for (int step = 0; step < kSteps && !game->outcome().finished; ++step) {
      play_one(*game, gen);
      if (::testing::Test::HasFatalFailure()) return;
    }
    if (game->state_hash() != kHots3Hashes[scenario][1]) ++differing;
  }
  EXPECT_GT(differing, 0);
}

}  // namespace
}  // namespace blockfog::hots
