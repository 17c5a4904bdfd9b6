// The Scotland Rising computer's score (ai/scotland_rising/evaluate.h): how much of each side's
// exposure counts as lost is set by whose turn it is.

#include <gtest/gtest.h>

#include <random>

#include "ai/scotland_rising/evaluate.h"
#include "rules/core/sha256.h"
#include "rules/scotland_rising/data.h"
#include "rules/scotland_rising/module.h"
#include "rules/scotland_rising/serialize.h"

namespace blockfog::ai::scotland_rising {
namespace {

using nlohmann::json;

// At every decision of a random game, scored for the side to act: counting only its own units'
// exposure never raises its lead and counting only the enemy's never lowers it, and in positions
// where both sides stand exposed both change it; half of each is the plain advantage().
TEST(SrEvaluate, ExposureWeightsFollowWhoseTurnItIs) {
  auto made =
      sr::module().setup(core::sha256("sr evaluate test"), "bannockburn_variant", json::object());
  ASSERT_TRUE(made.game) << made.error;
  auto& game = *made.game;
  std::mt19937_64 random(3);
  int both_exposed = 0;
  while (!game.outcome().finished) {
    const auto role = game.active_roles().at(0);
    const auto view = game.view(role);
    const auto s = sr::state_from_view(sr::variant_board(), view, core::Seed{});
    ASSERT_EQ(s.pos.side, role);
    const auto exit = exit_distances(s);
    EXPECT_DOUBLE_EQ(advantage(s, role, exit, {0.5, 0.5}), advantage(s, role));
    const double none = advantage(s, role, exit, {0.0, 0.0});
    const double own = advantage(s, role, exit, {1.0, 0.0});
    const double enemy = advantage(s, role, exit, {0.0, 1.0});
    EXPECT_LE(own, none);
    EXPECT_GE(enemy, none);
    if (own < none && enemy > none) ++both_exposed;
    std::vector<json> forward;
    for (const auto& a : view["legal_actions"]) {
      if (a["type"] != "undo") forward.push_back(a);
    }
    ASSERT_FALSE(game.apply(role, forward[random() % forward.size()]));
  }
  EXPECT_GT(both_exposed, 10);
}

}  // namespace
}  // namespace blockfog::ai::scotland_rising
