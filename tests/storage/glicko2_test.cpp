// The Glicko-2 arithmetic against the worked example of Glickman's "Example of the Glicko-2
// system" (2013), and the properties a player sees: a win raises, a loss lowers, a period
// without games only widens the deviation.

#include "storage/glicko2.h"

#include <gtest/gtest.h>

#include <vector>

namespace blockfog::storage::glicko2 {
namespace {

TEST(Glicko2, GlickmansWorkedExample) {
  const Rating player{1500, 200, 0.06};
  const std::vector<Result> period = {
      {{1400, 30, 0.06}, 1.0}, {{1550, 100, 0.06}, 0.0}, {{1700, 300, 0.06}, 0.0}};
  const auto after = update(player, period, 0.5);
  // The paper's step 8: r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
  EXPECT_NEAR(after.rating, 1464.06, 0.01);
  EXPECT_NEAR(after.deviation, 151.52, 0.01);
  EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
}

TEST(Glicko2, NewPlayersMoveApartByTheSameAmount) {
  const Rating fresh;
  EXPECT_EQ(fresh.rating, 1500);
  EXPECT_EQ(fresh.deviation, 350);
  EXPECT_EQ(fresh.volatility, 0.06);
  const Result won{fresh, 1.0};
  const Result lost{fresh, 0.0};
  const auto winner = update(fresh, std::span(&won, 1));
  const auto loser = update(fresh, std::span(&lost, 1));
  EXPECT_GT(winner.rating, 1500 + 100);  // an uncertain rating moves a lot
  EXPECT_NEAR(winner.rating - 1500, 1500 - loser.rating, 1e-9);
  EXPECT_LT(winner.deviation, 350);
  EXPECT_NEAR(winner.deviation, loser.deviation, 1e-9);
}

TEST(Glicko2, ADrawBetweenEqualsKeepsTheRatingAndNarrowsTheDeviation) {
  const Rating fresh;
  const Result drawn{fresh, 0.5};
  const auto after = update(fresh, std::span(&drawn, 1));
  EXPECT_NEAR(after.rating, 1500, 1e-9);
  EXPECT_LT(after.deviation, 350);
}

TEST(Glicko2, BeatingAStrongerPlayerGainsMore) {
  const Rating me{1500, 100, 0.06};
  const Result strong{{1800, 100, 0.06}, 1.0};
  const Result weak{{1200, 100, 0.06}, 1.0};
  EXPECT_GT(update(me, std::span(&strong, 1)).rating - 1500,
            update(me, std::span(&weak, 1)).rating - 1500);
}

TEST(Glicko2, APeriodWithoutGamesOnlyWidensTheDeviation) {
  const Rating me{1620, 80, 0.06};
  const auto after = update(me, {});
  EXPECT_EQ(after.rating, 1620);
  EXPECT_EQ(after.volatility, 0.06);
  EXPECT_NEAR(after.deviation, 80.676, 0.001);  // sqrt(phi^2 + sigma^2), on the Glicko scale
}

}  // namespace
}  // namespace blockfog::storage::glicko2
