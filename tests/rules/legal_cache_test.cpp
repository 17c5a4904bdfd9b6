// LegalCache: the lists it gives are the lists legal_actions gives, in the same order, at
// every decision of random games (undo taken back and forth, RULES 14), and applying through
// it makes the same states.

#include <string>

#include <gtest/gtest.h>

#include "rules/core/chacha20.h"
#include "rules/core/sha256.h"
#include "rules/hots/engine.h"
#include "rules/hots/legal_cache.h"

namespace blockfog::hots::testing {
namespace {

using core::Role;

void expect_same(const ActionList& cached, const ActionList& fresh) {
  ASSERT_EQ(cached.size(), fresh.size());
  for (std::size_t i = 0; i < cached.size(); ++i) ASSERT_EQ(cached[i], fresh[i]) << i;
}

// Plays one random game through the cache next to a copy played through the plain calls.
void play_both_ways(int scenario, int game, LegalCache& cache, int& steps_added) {
  const auto seed = core::sha256("legal-cache:" + std::to_string(game));
  State cached = setup(seed, scenario, Options{});
  State plain = cached;
  core::ChaCha20Stream chooser(seed, 1);
  cache.reset();
  ActionList fresh[2];
  int undos = 0;
  for (int step = 0; step < 20000 && cached.phase != Phase::GameOver; ++step) {
    const ActionList& scotland = legal_actions(cached, Role::Scotland, cache);
    const ActionList& england = legal_actions(cached, Role::England, cache);
    legal_actions(plain, Role::Scotland, fresh[0]);
    legal_actions(plain, Role::England, fresh[1]);
    expect_same(scotland, fresh[0]);
    expect_same(england, fresh[1]);
    if (::testing::Test::HasFatalFailure()) return;
    const auto total = scotland.size() + england.size();
    ASSERT_GT(total, 0U);
    const std::size_t i = chooser.uniform(static_cast<std::uint32_t>(total));
    const Role role = i < scotland.size() ? Role::Scotland : Role::England;
    const Action action = i < scotland.size() ? scotland[i] : england[i - scotland.size()];
    undos += action.kind == ActionKind::Undo;
    steps_added += action.kind == ActionKind::AddStep;  // the cache amends build lists after these
    apply_legal(cached, role, action, cache);
    apply_legal(plain, role, action);
    ASSERT_TRUE(cached == plain) << "step " << step;
  }
  EXPECT_GT(undos, 0);  // the games take undo, so the kept lists were used
}

TEST(LegalCache, GivesTheSameListsAsLegalActionsThroughRandomGames) {
  LegalCache cache;  // reused from game to game, as playouts do
  for (int scenario = 0; scenario < 3; ++scenario) {
    int steps_added = 0;
    for (int game = 0; game < 4; ++game) {
      SCOPED_TRACE("scenario " + std::to_string(scenario) + " game " + std::to_string(game));
      play_both_ways(scenario, game, cache, steps_added);
      if (HasFatalFailure()) return;
    }
    EXPECT_GT(steps_added, 0) << "scenario " << scenario;
  }
}

TEST(LegalCache, ObserversDecideNothing) {
  LegalCache cache;
  const State s = setup(core::sha256("legal-cache-observer"), 0, Options{});
  EXPECT_TRUE(legal_actions(s, Role::Observer, cache).empty());
}

}  // namespace
}  // namespace blockfog::hots::testing
