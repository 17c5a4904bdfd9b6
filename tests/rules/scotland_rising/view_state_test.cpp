// The seat's view as the computer opponent reads it: the legal actions it offers, and the state
// rebuilt from it (state_from_view), which must be the game's position with a generator of the
// reader's own.

#include <functional>
#include <random>

#include <gtest/gtest.h>

#include "rules/core/hex.h"
#include "rules/core/sha256.h"
#include "rules/scotland_rising/module.h"
#include "tests/rules/scotland_rising/sr_fixture.h"

namespace blockfog::scotland_rising::testing {
namespace {

// Walks a seeded random game (no undo), calling `check` with the game before each action.
template <typename Check>
void walk_random_game(int seed, const json& options, int steps, Check check) {
  auto game = module().setup(test_seed(seed), "bannockburn_variant", options).game;
  ASSERT_TRUE(game);
  std::mt19937 random(static_cast<unsigned>(seed));
  for (int i = 0; i < steps && !game->outcome().finished; ++i) {
    check(*game);
    const auto role = game->active_roles().at(0);
    auto actions = game->legal_actions(role);
    json pick = actions[random() % actions.size()];
    if (pick["type"] == "undo") pick = actions[0];
    ASSERT_FALSE(game->apply(role, pick)) << pick.dump();
  }
}

TEST(Views, OfferTheAwaitedSeatItsLegalActionsAndTheOthersNone) {
  walk_random_game(1, {{"battle_events", true}}, 400, [](const core::Game& game) {
    const auto awaited = game.active_roles().at(0);
    for (Role role : {Role::Scotland, Role::England, Role::Observer}) {
      const auto view = game.view(role);
      EXPECT_EQ(view["legal_actions"], game.legal_actions(role));
      EXPECT_EQ(view["legal_actions"].empty(), role != awaited);
    }
  });
}

TEST(StateFromView, RebuildsThePositionAndOptionsEverySeatSees) {
  const core::Seed reader = core::sha256("reader");
  int checked = 0;
  walk_random_game(2, {{"battle_events", true}, {"freeform_setup", true}}, 600,
                   [&](const core::Game& game) {
                     const auto role = game.active_roles().at(0);
                     const auto truth = game.to_json();
                     const State s = state_from_view(variant_board(), game.view(role), reader);
                     const auto rebuilt = to_json(s);
                     EXPECT_EQ(rebuilt["position"], truth["position"]);
                     EXPECT_EQ(rebuilt["options"], truth["options"]);
                     // The view tells no future die: the rebuilt state rolls with the reader's.
                     EXPECT_NE(rebuilt["rng"]["key"], truth["rng"]["key"]);
                     EXPECT_EQ(rebuilt["rng"]["key"], core::to_hex(reader));
                     EXPECT_TRUE(rebuilt["undo"].empty());
                     json offered = json::array();
                     for (const auto& a : legal_actions(s, role)) {
                       offered.push_back(action_to_json(*s.data, a));
                     }
                     json expected = json::array();
                     for (const auto& a : game.legal_actions(role)) {
                       if (a["type"] != "undo") expected.push_back(a);
                     }
                     EXPECT_EQ(offered, expected);
                     ++checked;
                   });
  EXPECT_GT(checked, 300);
}

TEST(StateFromView, RefusesAViewOfAnotherGameOrScenarioOrAnUnsoundPosition) {
  auto game = module().setup(test_seed(3), "bannockburn_variant", json::object()).game;
  const auto view = game->view(Role::Scotland);
  const core::Seed reader{};
  EXPECT_NO_THROW(state_from_view(variant_board(), view, reader));
  const auto refused = [&](const std::function<void(json&)>& change) {
    json bad = view;
    change(bad);
    EXPECT_THROW(state_from_view(variant_board(), bad, reader), StateFormatError) << bad.dump();
  };
  refused([](json& v) { v = json::array(); });
  refused([](json& v) { v["game"] = "hots"; });
  refused([](json& v) { v["scenario"] = "bannockburn"; });
  refused([](json& v) { v.erase("units"); });
  refused([](json& v) { v["units"].erase(0); });
  refused([](json& v) { v["units"][0]["hex"] = "9999"; });
  refused([](json& v) { v["units"][0]["reduced"] = "yes"; });
  refused([](json& v) { v["phase"] = "winter"; });
  refused([](json& v) { v["options"] = {{"fog", true}}; });
  // Sound in form, not in fact: two units on one hex, VP nobody scored (rulebook 11).
  refused([](json& v) { v["units"][1]["hex"] = v["units"][0]["hex"]; });
  refused([](json& v) { v["vp"]["england"] = 4; });
}

}  // namespace
}  // namespace blockfog::scotland_rising::testing
