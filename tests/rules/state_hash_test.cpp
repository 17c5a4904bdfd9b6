// The state hash's two formats (serialize.h): hots-1 games keep the hashes stored before
// hots-2, and the hasher the server keeps for a game gives, state after state, exactly what a
// fresh hash of each state gives, undos (which cut the log back) included.

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rules/hots/engine.h"
#include "rules/hots/module.h"
#include "rules/hots/serialize.h"
#include "tests/rules/fixture.h"
#include "tests/rules/helpers.h"

namespace blockfog::hots::testing {
namespace {

// A position of `scenario` after random play: seed {9, scenario}, std::mt19937(21 + scenario),
// random_legal_action, under hots-1's procedures; the first state from step 300 on with an undo
// point, or the state after 700 steps.
State played_state(int scenario, bool with_undo) {
  core::Seed seed{};
  seed[0] = 9;
  seed[1] = static_cast<std::uint8_t>(scenario);
  State s = setup(seed, scenario, Options{});
  s.procedures = kProcedures2;  // the hashes were stored for games of hots-1
  std::mt19937 gen(static_cast<std::mt19937::result_type>(21 + scenario));
  for (int step = 0; step < 700 && s.phase != Phase::GameOver; ++step) {
    if (with_undo && step >= 300 && s.undo.size() > 0) return s;
    const auto choice = random_legal_action(s, gen);
    EXPECT_TRUE(choice);
    if (!choice) return s;
    apply_legal(s, choice->first, choice->second);
  }
  return s;
}

// Computed by the engine before hots-2 (main at e46df57, whose state_hash was hots-1's): a
// stored hots-1 game verifies only if these stay as they were.
TEST(StateHash, Hots1HashesAreThoseStoredBeforeHots2) {
  const char* const with_undo[] = {
      "330b44d6a8726816bcf16c09e8eb833ee0e35b97d1055dc81c356946421b4dfa",
      "e992a7beb374ae6e6354b7f30d9dde3e74b1b36e29743d0689ea2d4ad4ed5267",
      "b0c697ce242fd7580c5c8bf0a70b8565f9069f8be414b7bfca76f33a3efa93ab"};
  const char* const after_700[] = {
      "098685f9a338ef2f109908f0dfe3f410e1767c3e8acedc7b752d706d5ad2a336",
      "8d97a531490822023fa4fb5b0615abdd56991d6c1f9e9182829d9eac25c8bb75",
      "2ad54d79e29a5a016a06473664a5b5920c6a01329337adc735fcbd8472ebafe7"};
  for (int scenario = 0; scenario < 3; ++scenario) {
    const State early = played_state(scenario, true);
    EXPECT_GT(early.undo.size(), 0U);
    EXPECT_EQ(state_hash_v1(early), with_undo[scenario]) << "scenario " << scenario;
    const State late = played_state(scenario, false);
    EXPECT_GT(late.log.size(), 1000U);
    EXPECT_EQ(state_hash_v1(late), after_700[scenario]) << "scenario " << scenario;
    EXPECT_NE(state_hash(late), state_hash_v1(late));
  }
}

// One hasher over a whole game, as the server keeps it (one per game copy, handed on with
// each copy), against a fresh hash of every state; random play takes undos, which cut the log
// back, so the hasher must notice that what it hashed is no longer the log's start.
TEST(StateHash, TheHasherKeptThroughAGameGivesEveryStatesOwnHash) {
  int cut_back = 0;
  for (int scenario = 0; scenario < 3; ++scenario) {
    core::Seed seed{};
    seed[3] = static_cast<std::uint8_t>(scenario + 1);
    State s = setup(seed, scenario, Options{scenario == 2});
    StateHasher hasher;
    std::mt19937 gen(static_cast<std::mt19937::result_type>(5 + scenario));
    std::size_t log_before = 0;
    for (int step = 0; step < 3000 && s.phase != Phase::GameOver; ++step) {
      if (s.log.size() < log_before) ++cut_back;
      log_before = s.log.size();
      ASSERT_EQ(hasher.hash(s), state_hash(s)) << "scenario " << scenario << " step " << step;
      const auto choice = random_legal_action(s, gen);
      ASSERT_TRUE(choice);
      apply_legal(s, choice->first, choice->second);
    }
  }
  EXPECT_GT(cut_back, 10) << "no undo cut the log back: the test tests too little";

  // A hasher handed an unrelated state (another game, a shorter log) starts again.
  StateHasher hasher;
  const State long_game = played_state(0, false);
  const State other = played_state(1, true);
  EXPECT_EQ(hasher.hash(long_game), state_hash(long_game));
  EXPECT_EQ(hasher.hash(other), state_hash(other));
  State same_length = long_game;  // same length, one early entry changed
  same_length.log[3].a ^= 1;
  EXPECT_EQ(hasher.hash(long_game), state_hash(long_game));
  EXPECT_EQ(hasher.hash(same_length), state_hash(same_length));
  EXPECT_NE(state_hash(same_length), state_hash(long_game));
}

// The trusting hasher (hash_grown), told whether the log only grew since its last call,
// gives every state's own hash; told so wrongly after an undo cut the log back and it grew
// again, it would not, so the game that uses it must know (the module's log lines, below).
TEST(StateHash, TheTrustingHasherGivesEveryStatesOwnHash) {
  core::Seed seed{};
  seed[5] = 4;
  State s = setup(seed, 0, Options{});
  StateHasher hasher;
  std::mt19937 gen(11);
  std::size_t hashed = 0;  // the log's length at the last call
  int cut_back = 0;
  for (int step = 0; step < 3000 && s.phase != Phase::GameOver; ++step) {
    const bool grown = s.log.size() >= hashed && step % 97 != 0;  // now and then: "not known"
    ASSERT_EQ(hasher.hash_grown(s, grown), state_hash(s)) << "step " << step;
    hashed = s.log.size();
    const auto choice = random_legal_action(s, gen);
    ASSERT_TRUE(choice);
    const auto before = s.log.size();
    apply_legal(s, choice->first, choice->second);
    if (s.log.size() < before) {
      ++cut_back;
      // Cut back and grown again before the next call: the log is no longer what was fed.
      hashed = SIZE_MAX;
    }
  }
  EXPECT_GT(cut_back, 5) << "no undo cut the log back: the test tests too little";

  StateHasher fooled;
  State a = played_state(0, false);
  EXPECT_EQ(fooled.hash_grown(a, false), state_hash(a));
  a.log[3].a ^= 1;  // not grown, but claimed to be
  EXPECT_NE(fooled.hash_grown(a, true), state_hash(a));
}

// After an undo the log is the start of the one hashed before: the hasher resumes from its
// last checkpoint within that start (every 128 entries), whatever entries follow it, and gives
// the state's own hash.
TEST(StateHash, TheHasherResumesFromACheckpointWhenTheLogIsCutBack) {
  const State late = played_state(0, false);
  ASSERT_GT(late.log.size(), 600U);
  StateHasher fed;
  ASSERT_EQ(fed.hash_grown(late, false), state_hash(late));
  for (const std::size_t kept :
       {std::size_t{0}, std::size_t{1}, std::size_t{127}, std::size_t{128}, std::size_t{129},
        std::size_t{300}, late.log.size() - 1, late.log.size()}) {
    State cut = late;
    cut.log.resize(kept);
    StateHasher hasher = fed;
    EXPECT_EQ(hasher.hash_cut(cut, kept), state_hash(cut)) << "cut to " << kept;
    // Grown again on the new line, with other entries than before.
    cut.log.insert(cut.log.end(), late.log.begin(), late.log.begin() + 200);
    cut.log[kept].a ^= 1;
    EXPECT_EQ(hasher.hash_grown(cut, true), state_hash(cut)) << "cut to " << kept;
    // Cut back again, and told only the part both lines share.
    State again = cut;
    again.log.resize(kept + 150);
    EXPECT_EQ(hasher.hash_cut(again, kept + 150), state_hash(again)) << "cut to " << kept;
  }
  // Cut back to more than it was ever fed: the entries it lacks are fed from the state.
  StateHasher short_fed;
  State early = late;
  early.log.resize(200);
  ASSERT_EQ(short_fed.hash_grown(early, false), state_hash(early));
  EXPECT_EQ(short_fed.hash_cut(late, 400), state_hash(late));
}

// The server tries each action on a clone of the committed game; the clone becomes the game
// once the action is stored, or is dropped when the store fails. Clones also diverge: a copy
// of an older game kept aside goes another way, undos cut logs back, and hashes are not asked
// for after every action. Whatever was cloned from what, each game's hash and state are those
// of the same actions played on a plain State.
TEST(StateHash, ClonesOfAGameKeepTheirOwnStateAndHash) {
  const core::Seed seed{7, 7, 7};
  auto committed = module().setup(seed, "braveheart", nullptr).game;
  ASSERT_TRUE(committed);
  State truth = setup(seed, 0, Options{});
  // A copy of an older game kept aside, played on its own line now and then.
  std::unique_ptr<core::Game> stray = committed->clone();
  State stray_truth = truth;
  std::mt19937 gen(17);
  int undos = 0;
  for (int step = 0; step < 2500 && truth.phase != Phase::GameOver; ++step) {
    auto next_game = committed->clone();
    const auto choice = random_legal_action(truth, gen);
    ASSERT_TRUE(choice);
    const auto& [role, action] = *choice;
    undos += action.kind == ActionKind::Undo;
    ASSERT_FALSE(next_game->apply(role, action_to_json(action)));
    State next = truth;
    apply_legal(next, role, action);
    if (gen() % 3 != 0) {
      ASSERT_EQ(next_game->state_hash(), state_hash(next)) << "step " << step;
    }
    if (gen() % 13 == 0) continue;  // the store failed: the clone is dropped
    committed = std::move(next_game);
    truth = std::move(next);
    if (gen() % 29 == 0) {
      // The stray copy, from earlier in the game, goes its own way, then is cloned afresh.
      const auto other = random_legal_action(stray_truth, gen);
      if (other) {
        ASSERT_FALSE(stray->apply(other->first, action_to_json(other->second)));
        apply_legal(stray_truth, other->first, other->second);
        ASSERT_EQ(stray->state_hash(), state_hash(stray_truth));
      }
      stray = committed->clone();
      stray_truth = truth;
      ASSERT_EQ(stray->state_hash(), state_hash(truth));
    }
    if (gen() % 2 == 0) {
      ASSERT_EQ(committed->state_hash(), state_hash(truth)) << "step " << step;
    }
    ASSERT_EQ(state_from_json(committed->to_json()), truth) << "step " << step;
  }
  EXPECT_GT(undos, 5) << "no undo: the test tests too little";
}

// The server's replays clone shared checkpoints on several threads at once and play the
// clones on: copies of one game growing their logs at the same moment. Each keeps its own
// state and hash.
TEST(StateHash, CopiesOfOneGamePlayedOnSeveralThreadsKeepTheirOwnHashes) {
  const core::Seed seed{8, 8};
  auto base = module().setup(seed, "braveheart", nullptr).game;
  ASSERT_TRUE(base);
  std::mt19937 gen(23);
  for (int step = 0; step < 300; ++step) {
    const State s = state_from_json(base->to_json());
    const auto choice = random_legal_action(s, gen);
    ASSERT_TRUE(choice);
    ASSERT_FALSE(base->apply(choice->first, action_to_json(choice->second)));
  }
  const State base_state = state_from_json(base->to_json());
  std::atomic<int> wrong{0};
  std::atomic<int> checked{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 own(static_cast<std::mt19937::result_type>(100 + t));
      for (int round = 0; round < 40; ++round) {
        auto copy = base->clone();
        State truth = base_state;
        for (int step = 0; step < 15 && truth.phase != Phase::GameOver; ++step) {
          const auto choice = random_legal_action(truth, own);
          if (!choice) break;
          if (copy->apply(choice->first, action_to_json(choice->second))) ++wrong;
          apply_legal(truth, choice->first, choice->second);
          if (copy->state_hash() != state_hash(truth)) ++wrong;
          ++checked;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(checked, 1000);
  EXPECT_EQ(base->state_hash(), state_hash(base_state));
}

// Through the module: a game set up under hots-1 hashes as hots-1, action after action, and
// its JSON says so; a version the module does not know is refused.
TEST(StateHash, AGameOfRulesVersionHots1IsHashedAsHots1) {
  const core::Seed seed{1, 2, 3};
  auto hots1 = module().setup_as(kRulesVersion1, seed, "braveheart", nullptr).game;
  auto hots2 = module().setup_as(kRulesVersion2, seed, "braveheart", nullptr).game;
  ASSERT_TRUE(hots1 && hots2);
  std::mt19937 gen(3);
  for (int step = 0; step < 200; ++step) {
    const auto json_state = hots1->to_json();
    const State state = state_from_json(json_state);
    ASSERT_EQ(hots1->state_hash(), state_hash_v1(state)) << "step " << step;
    ASSERT_EQ(hots2->state_hash(), state_hash(state)) << "step " << step;
    const auto roles = hots1->active_roles();
    const auto role = roles[gen() % roles.size()];
    const auto legal = hots1->legal_actions(role);
    const auto& action = legal[gen() % legal.size()];
    ASSERT_FALSE(hots1->apply(role, action));
    ASSERT_FALSE(hots2->apply(role, action));
  }
  EXPECT_EQ(hots1->to_json()["rules_version"], "hots-1");
  const auto again = module().from_json(hots1->to_json());
  ASSERT_TRUE(again.game);
  EXPECT_EQ(again.game->state_hash(), hots1->state_hash());
  std::string snapshot;
  hots1->write_snapshot(snapshot);
  EXPECT_EQ(module().from_snapshot(kRulesVersion1, snapshot).game->state_hash(),
            hots1->state_hash());
  EXPECT_FALSE(module().setup_as("hots-5", seed, "braveheart", nullptr).game);
  EXPECT_FALSE(module().from_snapshot("hots-5", snapshot).game);
}

}  // namespace
}  // namespace blockfog::hots::testing
