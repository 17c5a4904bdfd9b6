// The state written as text (write_state_json, what the server stores as a snapshot) is byte
// for byte to_json(s).dump(), over random games of every scenario: undo histories, battles,
// the winter and the end of the game included.

#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rules/core/game.h"
#include "rules/hots/engine.h"
#include "rules/hots/module.h"
#include "rules/hots/serialize.h"
#include "tests/rules/fixture.h"

namespace blockfog::hots::testing {
namespace {

// Where two texts first differ, with some context: the whole state is tens of KiB.
std::string first_difference(const std::string& a, const std::string& b) {
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  const std::size_t from = i < 60 ? 0 : i - 60;
  return "at " + std::to_string(i) + ": ..." + a.substr(from, 120) + "\n    vs ..." +
         b.substr(from, 120);
}

core::Seed seed_of(int n) {
  core::Seed seed{};
  seed.fill(static_cast<std::uint8_t>(60 + n));
  return seed;
}

TEST(StateText, EqualsTheDomStateOverRandomGamesOfEveryScenario) {
  std::set<Phase> phases;
  std::size_t longest_undo = 0;
  int compared = 0;
  std::string text;
  const char* scenarios[] = {"braveheart", "the_bruce", "campaign"};
  for (int n = 0; n < 3; ++n) {
    State s = setup(seed_of(n), *scenario_index(scenarios[n]), Options{n == 1});
    std::mt19937 gen(static_cast<std::mt19937::result_type>(40 + n));
    for (int step = 0; step < 20000; ++step) {
      if (step % 3 == 0 || s.phase == Phase::GameOver) {
        write_state_json(s, text);
        const std::string dom = to_json(s).dump();
        ASSERT_TRUE(text == dom) << scenarios[n] << ", step " << step << " "
                                 << first_difference(text, dom);
        phases.insert(s.phase);
        longest_undo = std::max(longest_undo, s.undo.size());
        ++compared;
      }
      const auto choice = random_legal_action(s, gen);
      if (!choice) break;
      ASSERT_FALSE(apply(s, choice->first, choice->second).has_value());
    }
    EXPECT_EQ(s.phase, Phase::GameOver) << scenarios[n] << " did not finish";
  }
  EXPECT_GT(compared, 1000);
  EXPECT_GE(longest_undo, 3U);
  for (Phase phase : {Phase::CardChoice, Phase::Event, Phase::Move, Phase::Combat, Phase::Winter,
                      Phase::GameOver}) {
    EXPECT_TRUE(phases.count(phase)) << phase_name(phase) << " never compared";
  }
}

TEST(StateText, TheGameInterfaceWritesTheSameText) {
  auto setup_result = module().setup(seed_of(7), "braveheart", nlohmann::json::object());
  ASSERT_TRUE(setup_result.game);
  std::string text = "left over";
  setup_result.game->write_json(text);
  EXPECT_TRUE(text == setup_result.game->to_json().dump());
}

}  // namespace
}  // namespace blockfog::hots::testing
