// The binary form of the state (what state_hash hashes, hots-sim --check round-trips after
// every action and the server stores as snapshots) must hold every field: it round-trips
// exactly over random games of every scenario, and refuses input it did not write.

#include <random>
#include <string>

#include <gtest/gtest.h>

#include "rules/hots/binary_state.h"
#include "rules/hots/engine.h"
#include "rules/hots/module.h"
#include "rules/hots/serialize.h"
#include "tests/rules/fixture.h"

namespace blockfog::hots::testing {
namespace {

TEST(BinaryState, RoundTripsExactlyOverRandomGamesOfEveryScenario) {
  std::string bytes;
  int states = 0;
  for (int scenario = 0; scenario < 3; ++scenario) {
    core::Seed seed{};
    seed[1] = static_cast<std::uint8_t>(40 + scenario);
    State s = setup(seed, scenario, Options{scenario == 1});
    std::mt19937 gen(static_cast<std::mt19937::result_type>(77 + scenario));
    for (int step = 0; step < 20000 && s.phase != Phase::GameOver; ++step) {
      encode_state(s, bytes);
      ASSERT_TRUE(decode_state(bytes) == s) << "scenario " << scenario << " step " << step;
      ++states;
      const auto choice = random_legal_action(s, gen);
      ASSERT_TRUE(choice);
      apply_legal(s, choice->first, choice->second);
    }
    EXPECT_EQ(s.phase, Phase::GameOver);
    encode_state(s, bytes);
    EXPECT_TRUE(decode_state(bytes) == s);
  }
  EXPECT_GT(states, 2000);
}

// The undo history keeps taken-off points as room (state.h, UndoHistory): what a cleared and
// refilled history holds, compares and encodes must be its new points only.
TEST(BinaryState, AnUndoHistoryRefilledInItsRoomHoldsOnlyItsNewPoints) {
  State s = setup(core::Seed{}, 0, Options{});
  Position older = s;
  older.year = 1300;
  s.undo.push(older, 1, 0);
  s.undo.push(older, 2, 0);
  s.undo.clear();
  s.undo.push(s, 3, 1);
  ASSERT_EQ(s.undo.size(), 1U);
  EXPECT_TRUE(s.undo.back().position == static_cast<const Position&>(s));
  EXPECT_EQ(s.undo.back().log_size, 3U);
  State fresh = s;  // a copy holds the points in use only
  fresh.undo.clear();
  fresh.undo.push_back(UndoPoint{s, 3, 1});
  EXPECT_TRUE(fresh == s);
  std::string bytes;
  encode_state(s, bytes);
  EXPECT_TRUE(decode_state(bytes) == s);
  s.undo.resize(2);  // a new point is a default one, not the old room
  EXPECT_TRUE(s.undo.back() == UndoPoint{});
}

TEST(BinaryState, AChangedFieldChangesTheBytes) {
  State s = setup(core::Seed{}, 0, Options{});
  std::string before;
  encode_state(s, before);
  s.winter.placed = 0x1234;  // a two-byte field near the end of the position
  std::string after;
  encode_state(s, after);
  EXPECT_NE(before, after);
  EXPECT_EQ(decode_state(after).winter.placed, 0x1234);
}

TEST(BinaryState, RefusesWhatItDidNotWrite) {
  const State s = setup(core::Seed{}, 0, Options{});
  std::string bytes;
  encode_state(s, bytes);
  EXPECT_THROW(decode_state(bytes.substr(0, bytes.size() - 1)), StateFormatError);
  EXPECT_THROW(decode_state(bytes + "x"), StateFormatError);
  EXPECT_THROW(decode_state("not a state"), StateFormatError);
}

// What the server stores: core::Game::write_snapshot, read back by GameModule::from_snapshot,
// is the same game (state, hash, JSON), and anything else is refused with an error.
TEST(BinaryState, TheServersSnapshotsReadBackAsTheSameGame) {
  auto game = module().setup(core::Seed{7}, "braveheart", nullptr).game;
  ASSERT_TRUE(game);
  std::mt19937 gen(11);
  std::string bytes;
  for (int step = 0; step < 400 && !game->outcome().finished; ++step) {
    if (step % 40 == 0) {
      game->write_snapshot(bytes);
      ASSERT_TRUE(bytes.starts_with("hots-bin-2"));
      const auto restored = module().from_snapshot(kRulesVersion, bytes);
      ASSERT_TRUE(restored.game) << restored.error;
      EXPECT_EQ(restored.game->state_hash(), game->state_hash()) << "step " << step;
      EXPECT_EQ(restored.game->to_json(), game->to_json()) << "step " << step;
    }
    const auto roles = game->active_roles();
    ASSERT_FALSE(roles.empty());
    const auto role = roles[gen() % roles.size()];
    const auto legal = game->legal_actions(role);
    ASSERT_FALSE(legal.empty());
    ASSERT_FALSE(game->apply(role, legal[gen() % legal.size()]));
  }
  for (const std::string_view bad : {"", "hots-bin-1", "{\"year\":1297}", "hots-bin-2xxxx"}) {
    const auto refused = module().from_snapshot(kRulesVersion, bad);
    EXPECT_FALSE(refused.game) << bad;
    EXPECT_FALSE(refused.error.empty()) << bad;
  }
  // A snapshot names its state's procedures: it is no state of another rules version.
  EXPECT_FALSE(module().from_snapshot(kRulesVersion2, bytes).game);
  EXPECT_FALSE(module().from_snapshot(kRulesVersion3, bytes).game);
}

// A hots-3 game's snapshot reads back as a hots-3 game, and as no other.
TEST(BinaryState, AHots3GamesSnapshotReadsBackAsHots3) {
  auto game = module().setup_as(kRulesVersion3, core::Seed{9}, "braveheart", nullptr).game;
  ASSERT_TRUE(game);
  std::string bytes;
  game->write_snapshot(bytes);
  EXPECT_EQ(static_cast<std::uint8_t>(bytes[10]), kProcedures3);
  const auto restored = module().from_snapshot(kRulesVersion3, bytes);
  ASSERT_TRUE(restored.game) << restored.error;
  EXPECT_EQ(restored.game->state_hash(), game->state_hash());
  EXPECT_EQ(restored.game->to_json()["rules_version"], "hots-3");
  EXPECT_FALSE(module().from_snapshot(kRulesVersion, bytes).game);
}

// Snapshots written before hots-3 ("hots-bin-1", no procedures byte) are states of hots-2 or
// hots-1 games, read back with their procedures.
TEST(BinaryState, SnapshotsWrittenBeforeHots3ReadBackWithTheProceduresOfHots2) {
  auto game = module().setup_as(kRulesVersion2, core::Seed{8}, "braveheart", nullptr).game;
  ASSERT_TRUE(game);
  std::string bytes;
  game->write_snapshot(bytes);
  ASSERT_TRUE(bytes.starts_with("hots-bin-2"));
  EXPECT_EQ(static_cast<std::uint8_t>(bytes[10]), kProcedures2);
  const std::string before_hots3 = "hots-bin-1" + bytes.substr(11);
  const State state = decode_state(before_hots3);
  EXPECT_EQ(state.procedures, kProcedures2);
  const auto restored = module().from_snapshot(kRulesVersion2, before_hots3);
  ASSERT_TRUE(restored.game) << restored.error;
  EXPECT_EQ(restored.game->state_hash(), game->state_hash());
  EXPECT_EQ(restored.game->to_json(), game->to_json());
  EXPECT_EQ(restored.game->to_json()["rules_version"], "hots-2");
  EXPECT_FALSE(module().from_snapshot(kRulesVersion, before_hots3).game);
}

}  // namespace
}  // namespace blockfog::hots::testing
