// The view cache's invariant (view_cache.h): a view written with a memo that has seen every
// earlier state of the game is byte for byte the view written without one. Checked at every
// state of seeded random games of every scenario, undos included, for each role, with the
// whole log (log_from 0) and with the lines since the role's last view, each with a memo of
// its own per role kept through the game as the server keeps it.

#include <array>
#include <cstddef>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "rules/core/game.h"
#include "rules/hots/engine.h"
#include "rules/hots/view.h"
#include "tests/rules/fixture.h"

namespace blockfog::hots::testing {
namespace {

core::Seed seed_of(int n) {
  core::Seed seed{};
  for (std::size_t i = 0; i < seed.size(); ++i) {
    seed[i] = static_cast<std::uint8_t>((n * 53 + static_cast<int>(i) * 7 + 1) & 0xff);
  }
  return seed;
}

constexpr std::array<Role, 3> kRoles = {kScotland, kEngland, kObserver};

// One role's view as a server writes it after each action: with the memo it keeps for the
// role, from `log_from`; compared with the view written afresh.
struct MemoizedView {
  core::ViewMemo memo;
  std::string text;
  std::string fresh;
};

struct Counts {
  int states = 0;
  int undos = 0;
  int game_overs = 0;
};

// A random legal action, taking an undo offered to the side picked one time in three (the
// undo is the last of a side's actions, RULES 14), so that undos, several in a row included,
// take the memos back to states they saw before.
template <typename Gen>
std::optional<std::pair<Role, Action>> random_step(const State& s, Gen& gen) {
  auto choice = random_legal_action(s, gen);
  if (!choice) return choice;
  const auto offered = legal_actions(s, choice->first);
  if (offered.back().kind == ActionKind::Undo && gen() % 3 == 0) choice->second = offered.back();
  return choice;
}

void play_and_compare(int game, int scenario, int max_steps, Counts& counts) {
  State s = setup(seed_of(game), scenario, Options{game % 2 == 1});
  std::mt19937 gen(static_cast<std::mt19937::result_type>(4100 + game * 3 + scenario));
  std::array<MemoizedView, 3> whole;   // log_from 0
  std::array<MemoizedView, 3> recent;  // log_from the role's last log_size
  std::array<std::size_t, 3> last_size{};
  for (int step = 0; step < max_steps; ++step) {
    ++counts.states;
    for (const Role role : kRoles) {
      const auto r = static_cast<std::size_t>(role);
      auto& w = whole[r];
      write_view(s, role, 0, w.fresh);
      write_view(s, role, 0, w.text, nullptr, &w.memo);
      ASSERT_EQ(w.text, w.fresh) << "log from 0, role " << core::role_name(role) << ", game "
                                 << game << ", scenario " << scenario << ", step " << step
                                 << ", phase " << phase_name(s.phase);
      auto& v = recent[r];
      write_view(s, role, last_size[r], v.fresh);
      last_size[r] = write_view(s, role, last_size[r], v.text, nullptr, &v.memo);
      ASSERT_EQ(v.text, v.fresh) << "log from the last size, role " << core::role_name(role)
                                 << ", game " << game << ", scenario " << scenario << ", step "
                                 << step << ", phase " << phase_name(s.phase);
    }
    const auto choice = random_step(s, gen);
    if (!choice) break;
    counts.undos += choice->second.kind == ActionKind::Undo;
    ASSERT_FALSE(apply(s, choice->first, choice->second).has_value());
  }
  counts.game_overs += s.phase == Phase::GameOver;
}

TEST(ViewCacheProperty, AMemoKeptThroughAGameChangesNoByteOfAnyView) {
  Counts counts;
  for (int game = 0; game < 2; ++game) {
    for (int scenario = 0; scenario < 3; ++scenario) {
      play_and_compare(game, scenario, 600, counts);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_GT(counts.states, 3000);
  EXPECT_GT(counts.undos, 100);
}

}  // namespace
}  // namespace blockfog::hots::testing
