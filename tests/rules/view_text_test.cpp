// The view written as text (write_view) is byte for byte the DOM view (view().dump()), for
// every role, over complete random games of every scenario (RULES 13: both say the same, so the
// fog-of-war tests of the DOM view hold for the text the server sends).

#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rules/core/json_writer.h"
#include "rules/hots/engine.h"
#include "rules/hots/module.h"
#include "rules/hots/view.h"
#include "tests/rules/fixture.h"

namespace blockfog::hots::testing {
namespace {

using nlohmann::json;

core::Seed seed_of(int n) {
  core::Seed seed{};
  for (std::size_t i = 0; i < seed.size(); ++i) {
    seed[i] = static_cast<std::uint8_t>((n * 37 + static_cast<int>(i) * 11 + 3) & 0xff);
  }
  return seed;
}

TEST(JsonWriter, EscapesStringsAsNlohmannDoes) {
  std::string all;
  for (int c = 1; c < 128; ++c) all += static_cast<char>(c);
  for (const std::string& text :
       {std::string(), all, std::string("Moray \xc3\xa9\xe2\x80\x94 \"x\""),
        std::string("a\\b\n\t\x01\x1f\x7f")}) {
    std::string out;
    core::append_json_string(out, text);
    EXPECT_EQ(out, json(text).dump()) << text;
  }
}

TEST(JsonWriter, NestsAndSeparatesAsNlohmannDoes) {
  std::string out;
  core::JsonWriter w(out);
  w.begin_object();
  w.key("a");
  w.begin_array();
  w.number(-3);
  w.begin_object();
  w.end_object();
  w.begin_array();
  w.end_array();
  w.null();
  w.end_array();
  w.field("b", true);
  w.field("c", std::size_t{18446744073709551615ULL} / 2);
  w.key("d");
  w.raw(R"({"x":[1,2]})");
  w.end_object();
  const json expected = {{"a", {-3, json::object(), json::array(), nullptr}},
                         {"b", true},
                         {"c", std::int64_t{9223372036854775807LL}},
                         {"d", {{"x", {1, 2}}}}};
  EXPECT_EQ(out, expected.dump());
}

TEST(JsonWriter, StringsWrittenInPlaceAreEscapedLikeOthers) {
  for (const std::string& text :
       {std::string("plain"), std::string("a \"quote\"\n"), std::string()}) {
    std::string out;
    core::JsonWriter w(out);
    w.begin_array();
    w.string_from([&text](std::string& o) { o += text; });
    w.string(text);
    w.end_array();
    EXPECT_EQ(out, json::array({text, text}).dump());
  }
}

TEST(ViewText, ActionsAreWrittenAsTheirJson) {
  // Every kind, with parameters in range and out of range.
  for (int kind = 0; kind <= static_cast<int>(ActionKind::Undo); ++kind) {
    for (std::uint8_t a : {std::uint8_t{0}, std::uint8_t{3}, kNone}) {
      const Action action{static_cast<ActionKind>(kind), a, static_cast<std::uint8_t>(a ^ 1)};
      std::string out;
      core::JsonWriter w(out);
      write_action(w, action);
      EXPECT_EQ(out, action_to_json(action).dump());
    }
  }
}

// What the games below went through, so that a change in the engine cannot quietly make the
// comparison cover less.
struct Coverage {
  std::set<Phase> phases;
  int battles = 0;
  int game_overs = 0;
  long views = 0;
};

void expect_same_views(const State& s, std::size_t log_from, Coverage& coverage) {
  std::string text;
  for (Role role : {kScotland, kEngland, kObserver}) {
    const auto size = write_view(s, role, log_from, text);
    const auto dom = view(s, role, log_from);
    ASSERT_EQ(text, dom.dump()) << "role " << core::role_name(role) << ", phase "
                                << phase_name(s.phase) << ", log from " << log_from;
    EXPECT_EQ(size, dom.at("log_size").get<std::size_t>());
    ++coverage.views;
  }
  coverage.phases.insert(s.phase);
  coverage.battles += s.battle.area != kNone;
  coverage.game_overs += s.phase == Phase::GameOver;
}

TEST(ViewText, EqualsTheDomViewOverRandomGamesOfEveryScenario) {
  Coverage coverage;
  const char* scenarios[] = {"braveheart", "the_bruce", "campaign"};
  for (int n = 0; n < 3; ++n) {
    State s = setup(seed_of(n), *scenario_index(scenarios[n % 3]), Options{n % 2 == 1});
    std::mt19937 gen(static_cast<std::mt19937::result_type>(900 + n));
    for (int step = 0; step < 20000; ++step) {
      // The whole log now and then (as the server asks), otherwise the last lines only.
      expect_same_views(
          s, step % 97 == 0 ? 0 : s.log.size() - std::min<std::size_t>(s.log.size(), 5), coverage);
      if (::testing::Test::HasFatalFailure()) return;
      std::vector<std::pair<Role, Action>> choices;
      for (Role role : {kScotland, kEngland}) {
        for (const auto& a : legal_actions(s, role)) choices.emplace_back(role, a);
      }
      if (choices.empty()) break;
      const auto& [role, action] = choices[gen() % choices.size()];
      ASSERT_FALSE(apply(s, role, action).has_value());
    }
    EXPECT_EQ(s.phase, Phase::GameOver) << "game " << n << " did not finish";
  }
  EXPECT_EQ(coverage.game_overs, 3);
  EXPECT_GT(coverage.battles, 50);
  EXPECT_GT(coverage.views, 3000);
  for (Phase phase : {Phase::CardChoice, Phase::Event, Phase::Move, Phase::BattleChoice,
                      Phase::Combat, Phase::HitAllocation, Phase::Regroup, Phase::Winter}) {
    EXPECT_TRUE(coverage.phases.count(phase)) << phase_name(phase) << " never compared";
  }
}

TEST(ViewText, ReusesTheCallersBuffer) {
  const State s = setup(seed_of(1), 0, Options{});
  std::string text;
  write_view(s, kScotland, 0, text);
  const auto* data = text.data();
  const auto size = text.size();
  write_view(s, kScotland, 0, text);
  EXPECT_EQ(text.data(), data) << "the second view of the same state reallocated the buffer";
  EXPECT_EQ(text.size(), size);
}

TEST(ViewText, TheGameInterfaceWritesTheSameText) {
  auto game = module().setup(seed_of(2), "braveheart", nullptr).game;
  ASSERT_TRUE(game);
  for (Role role : {kScotland, kEngland, kObserver}) {
    EXPECT_EQ(game->view_text(role), game->view(role).dump());
  }
}

}  // namespace
}  // namespace blockfog::hots::testing
