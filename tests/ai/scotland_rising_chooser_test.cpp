// The Scotland Rising computer opponent (ai/scotland_rising/chooser.h): legal, never undo,
// deterministic, refusing malformed views, and stronger than a weaker player.

#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <optional>
#include <random>

#include "ai/scotland_rising/chooser.h"
#include "rules/core/sha256.h"
#include "rules/scotland_rising/data.h"
#include "rules/scotland_rising/module.h"

namespace blockfog::ai::scotland_rising {
namespace {

using core::Role;
using nlohmann::json;

std::unique_ptr<core::Game> sr_game(int seed, const json& options = json::object()) {
  auto made = blockfog::scotland_rising::module().setup(
      core::sha256("sr chooser test " + std::to_string(seed)), "bannockburn_variant", options);
  EXPECT_TRUE(made.game) << made.error;
  return std::move(made.game);
}

// Qualified: ai::choose_action (hots) has the same signature, and argument-dependent lookup
// would find both.
json sr_choose(const json& view, const std::vector<json>& history, Level level, std::uint64_t seed,
               Thinking* thinking = nullptr, bool time_cap = true) {
  return blockfog::ai::scotland_rising::choose_action(view, history, level, seed, thinking,
                                                      time_cap);
}

bool sr_offered(const json& view, const json& action) {
  for (const auto& a : view["legal_actions"]) {
    if (a == action) return true;
  }
  return false;
}

// A seeded uniform pick among the view's actions but undo.
json sr_random_action(const json& view, std::mt19937_64& random) {
  std::vector<json> forward;
  for (const auto& a : view["legal_actions"]) {
    if (a["type"] != "undo") forward.push_back(a);
  }
  return forward[random() % forward.size()];
}

// Random games (battle events on, one with the free-form setup); at each decision the chooser
// is asked at `level` when `ask(step)` says so, and its action must be one of the view's, not
// undo, and accepted by the engine. The game goes on with a random action. Returns how many
// decisions were asked.
template <typename Ask>
int sr_check_legal_choices(Level level, Ask ask) {
  int asked = 0;
  for (int g = 0; g < 2; ++g) {
    auto game = sr_game(100 + g, {{"battle_events", true}, {"freeform_setup", g == 1}});
    std::mt19937_64 random(static_cast<std::uint64_t>(g));
    for (int step = 0; !game->outcome().finished; ++step) {
      const auto role = game->active_roles().at(0);
      const auto view = game->view(role);
      if (ask(step)) {
        const auto chosen = sr_choose(view, {}, level, random());
        EXPECT_TRUE(sr_offered(view, chosen)) << chosen.dump();
        EXPECT_NE(chosen["type"], "undo");
        auto copy = game->clone();
        EXPECT_FALSE(copy->apply(role, chosen)) << chosen.dump();
        ++asked;
      }
      EXPECT_FALSE(game->apply(role, sr_random_action(view, random)));
    }
  }
  return asked;
}

TEST(SrChooser, EasyChoosesALegalActionAtEveryDecisionOfRandomGames) {
  EXPECT_GT(sr_check_legal_choices(Level::Easy, [](int) { return true; }), 500);
}

// Normal and hard search with playouts: every 25th (normal) or 60th (hard) decision of the same
// games (each kind of decision comes up: the setup, the AP choice, the actions, the events).
TEST(SrChooser, NormalChoosesALegalActionAtDecisionsOfRandomGames) {
  EXPECT_GT(sr_check_legal_choices(Level::Normal, [](int step) { return step % 25 == 0; }), 20);
}

TEST(SrChooser, HardChoosesALegalActionAtDecisionsOfRandomGames) {
  EXPECT_GT(sr_check_legal_choices(Level::Hard, [](int step) { return step % 60 == 7; }), 8);
}

// A Scots turn in which a unit has moved: undo is offered.
std::unique_ptr<core::Game> sr_game_with_undo() {
  auto game = sr_game(7);
  EXPECT_FALSE(game->apply(Role::Scotland, {{"type", "setup_done"}}));
  EXPECT_FALSE(game->apply(Role::Scotland, {{"type", "roll_ap"}}));
  for (const auto& a : game->legal_actions(Role::Scotland)) {
    if (a["type"] == "move") {
      EXPECT_FALSE(game->apply(Role::Scotland, a));
      break;
    }
  }
  return game;
}

TEST(SrChooser, NeverUndoes) {
  auto game = sr_game_with_undo();
  auto view = game->view(Role::Scotland);
  ASSERT_TRUE(view["can_undo"]);
  for (Level level : {Level::Easy, Level::Normal, Level::Hard}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      EXPECT_NE(sr_choose(view, {}, level, seed)["type"], "undo");
    }
  }
  // With nothing but undo and ending the turn offered, it ends the turn.
  view["legal_actions"] = json::array({{{"type", "undo"}}, {{"type", "end_turn"}}});
  for (Level level : {Level::Easy, Level::Normal, Level::Hard}) {
    EXPECT_EQ(sr_choose(view, {}, level, 1), json({{"type", "end_turn"}}));
  }
}

TEST(SrChooser, GivesTheSameAnswerToTheSameInputs) {
  auto game = sr_game(8);
  std::mt19937_64 random(8);
  // A decision with many actions, some turns in.
  for (int i = 0; i < 120; ++i) {
    const auto role = game->active_roles().at(0);
    ASSERT_FALSE(game->apply(role, sr_random_action(game->view(role), random)));
  }
  const auto role = game->active_roles().at(0);
  const auto view = game->view(role);
  ASSERT_GT(view["legal_actions"].size(), 5u);
  for (Level level : {Level::Easy, Level::Normal}) {
    Thinking first, second;
    const auto a = sr_choose(view, {}, level, 42, &first, false);
    const auto b = sr_choose(view, {}, level, 42, &second, false);
    EXPECT_EQ(a, b);
    EXPECT_EQ(first.playouts, second.playouts);
    // Count-bound: easy plays none; normal 8 for each of the 5 actions easy ranks first and
    // ending the turn.
    EXPECT_EQ(first.playouts, level == Level::Easy ? 0 : 8 * 6);
  }
  // Hard on the Scots' choice between rolling for AP and the Scots Charge (R9): 16 playouts
  // each (a many-action decision costs minutes under the sanitizers).
  auto fresh = sr_game(9);
  ASSERT_FALSE(fresh->apply(Role::Scotland, {{"type", "setup_done"}}));
  const auto ap_view = fresh->view(Role::Scotland);
  ASSERT_EQ(ap_view["legal_actions"].size(), 3u);  // roll_ap, scots_charge and undo
  Thinking first, second;
  EXPECT_EQ(sr_choose(ap_view, {}, Level::Hard, 42, &first, false),
            sr_choose(ap_view, {}, Level::Hard, 42, &second, false));
  EXPECT_EQ(first.playouts, 24 * 2);
  EXPECT_EQ(second.playouts, 24 * 2);
}

// Normal plays easy's action unless its playouts show another one gaining on it beyond the
// dice's spread (chooser.h): given the same seed, count-bound, it picks what easy picks at most
// decisions of an easy game, and not at all of them (its search does change some choices).
TEST(SrChooser, NormalKeepsEasysActionUnlessItsSearchShowsAGain) {
  auto game = sr_game(11);
  std::mt19937_64 random(11);
  int asked = 0, same = 0;
  for (int step = 0; !game->outcome().finished; ++step) {
    const auto role = game->active_roles().at(0);
    const auto view = game->view(role);
    const auto easy = sr_choose(view, {}, Level::Easy, random(), nullptr, false);
    if (step % 9 == 4 && view["legal_actions"].size() > 3) {
      const auto seed = random();
      const auto normal = sr_choose(view, {}, Level::Normal, seed, nullptr, false);
      same += normal == sr_choose(view, {}, Level::Easy, seed, nullptr, false);
      ++asked;
    }
    ASSERT_FALSE(game->apply(role, easy));
  }
  std::cout << "normal kept easy's action at " << same << " of " << asked << " decisions\n";
  EXPECT_GT(asked, 15);
  EXPECT_GE(same, asked * 2 / 3);
  EXPECT_LT(same, asked);
}

TEST(SrChooser, RefusesMalformedViewsWithATypedError) {
  auto game = sr_game_with_undo();
  const auto view = game->view(Role::Scotland);
  EXPECT_NO_THROW(sr_choose(view, {}, Level::Easy, 1));
  const auto refused = [&](const std::function<void(json&)>& change,
                           const std::vector<json>& history = {}) {
    json bad = view;
    change(bad);
    for (Level level : {Level::Easy, Level::Normal}) {
      EXPECT_THROW(sr_choose(bad, history, level, 1), MalformedView) << bad.dump().substr(0, 300);
    }
  };
  refused([](json& v) { v = json::array(); });
  refused([](json& v) { v["game"] = "hots"; });
  refused([](json& v) { v.erase("role"); });
  refused([](json& v) { v["role"] = "observer"; });
  refused([](json& v) { v.erase("legal_actions"); });
  refused([](json& v) { v["legal_actions"] = json::array(); });
  refused([](json& v) { v["legal_actions"] = json::array({{{"type", "undo"}}}); });
  refused([](json& v) { v["legal_actions"].push_back({{"type", "fly"}}); });
  refused([](json& v) { v["legal_actions"].push_back(7); });
  // Well formed, but not what the position allows: a Scots unit into the English setup.
  refused([](json& v) {
    v["legal_actions"].push_back({{"type", "move"}, {"unit", "sc_pike1"}, {"path", {"0614"}}});
  });
  refused([](json& v) { v["awaiting"] = json::array({"england"}); });
  refused([](json& v) { v["role"] = "england"; });
  refused([](json& v) { v["scenario"] = "bannockburn"; });
  refused([](json& v) { v["board"]["grid"]["columns"] = 1; });
  refused([](json& v) { v.erase("board"); });
  refused([](json& v) { v["units"][0]["hex"] = 12; });
  refused([](json& v) { v["vp"]["scotland"] = 0; });  // VP nobody scored (rulebook 11)
  refused([](json&) {}, {json::array()});             // a history entry that is no view
}

TEST(SrChooser, PlaysAnotherDataFileOfTheSameSchema) {
  json data = json::parse(blockfog::scotland_rising::embedded_variant_board_json());
  data["scenario"] = "another_board";
  data["terrain_rows"][6] = "WWWWWW......";
  const auto module = blockfog::scotland_rising::make_module(data);
  auto game = module->setup(core::sha256("another"), "another_board", json::object()).game;
  ASSERT_TRUE(game);
  ASSERT_FALSE(game->apply(Role::Scotland, {{"type", "setup_done"}}));
  ASSERT_FALSE(game->apply(Role::Scotland, {{"type", "roll_ap"}}));
  const auto view = game->view(Role::Scotland);
  for (Level level : {Level::Easy, Level::Normal}) {
    const auto chosen = sr_choose(view, {}, level, 3);
    EXPECT_TRUE(sr_offered(view, chosen));
    EXPECT_FALSE(game->clone()->apply(Role::Scotland, chosen));
  }
}

// Plays a whole game, `scots` and `english` each a level or nullopt (a seeded random player);
// returns Scotland's VP minus England's.
int sr_play(int seed, std::optional<Level> scots, std::optional<Level> english) {
  auto game = sr_game(seed);
  std::mt19937_64 random(static_cast<std::uint64_t>(seed));
  while (!game->outcome().finished) {
    const auto role = game->active_roles().at(0);
    const auto view = game->view(role);
    const auto& level = role == Role::Scotland ? scots : english;
    const auto action = level ? sr_choose(view, {}, *level, random(), nullptr, false)
                              : sr_random_action(view, random);
    EXPECT_FALSE(game->apply(role, action));
  }
  const auto state = game->to_json();
  return state["position"]["vp"]["scotland"].get<int>() -
         state["position"]["vp"]["england"].get<int>();
}

// bench/RESULTS.md: easy won 40 of 40 games against random (20 per side, scotland-rising-selfplay).
TEST(SrChooserStrength, EasyBeatsRandomOnBothSides) {
  int wins = 0;
  for (int seed = 1; seed <= 3; ++seed) {
    wins += sr_play(seed, Level::Easy, std::nullopt) > 0;
    wins += sr_play(seed, std::nullopt, Level::Easy) < 0;
  }
  EXPECT_GE(wins, 5);
}

}  // namespace
}  // namespace blockfog::ai::scotland_rising
