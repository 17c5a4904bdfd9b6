// The longbows' line of sight (R8, rulebook 8): symmetric over every pair of hexes, and blocked
// exactly as the ruling says on hand-drawn boards.

#include <random>

#include <gtest/gtest.h>

#include "rules/scotland_rising/board.h"
#include "tests/rules/scotland_rising/sr_fixture.h"

namespace blockfog::scotland_rising::testing {
namespace {

std::shared_ptr<const Data> terrain(const std::vector<std::string>& rows) {
  return Data::parse(board(rows, {{"p", "scotland", "pike", "0101"}}));
}

bool sees(const Data& d, const std::string& a, const std::string& b) {
  return line_of_sight(d, *d.hex_index(a), *d.hex_index(b));
}

TEST(LineOfSight, IsTheSameBothWaysForEveryPairOfHexesOfTheVariantBoard) {
  const auto d = variant_board();
  int blocked = 0;
  for (int a = 0; a < d->hex_count(); ++a) {
    for (int b = 0; b < d->hex_count(); ++b) {
      ASSERT_EQ(line_of_sight(*d, a, b), line_of_sight(*d, b, a))
          << d->hex_id(a) << " " << d->hex_id(b);
      if (!line_of_sight(*d, a, b)) ++blocked;
    }
  }
  EXPECT_GT(blocked, 0);
}

TEST(LineOfSight, IsTheSameBothWaysOnBoardsOfRandomWoods) {
  std::mt19937 gen(7);
  for (int round = 0; round < 5; ++round) {
    std::vector<std::string> rows(9, std::string(9, '.'));
    for (auto& row : rows) {
      for (auto& c : row) c = gen() % 3 == 0 ? 'W' : '.';
    }
    const auto d = terrain(rows);
    for (int a = 0; a < d->hex_count(); ++a) {
      for (int b = 0; b < d->hex_count(); ++b) {
        ASSERT_EQ(line_of_sight(*d, a, b), line_of_sight(*d, b, a));
      }
    }
  }
}

TEST(LineOfSight, AWoodsHexBetweenTheTwoBlocksIt) {
  const auto d = terrain({".......", ".......", ".W.....", "......."});
  EXPECT_FALSE(sees(*d, "0103", "0303"));
  EXPECT_TRUE(sees(*d, "0104", "0304"));  // the next row is open
}

TEST(LineOfSight, TheVillageBlocksItAsWoodsDo) {  // R1
  const auto d = terrain({".......", ".......", ".V.....", "......."});
  EXPECT_FALSE(sees(*d, "0103", "0303"));
}

TEST(LineOfSight, OtherTerrainDoesNotBlockIt) {  // rulebook 2: only woods and the village
  const auto d = terrain({".......", ".......", ".o~=s..", "......."});
  EXPECT_TRUE(sees(*d, "0103", "0303"));
  EXPECT_TRUE(sees(*d, "0203", "0503"));
}

TEST(LineOfSight, WoodsUnderTheArcherOrTheTargetDoNotBlockIt) {  // R8: strictly between
  const auto d = terrain({".......", ".......", "W.W....", "......."});
  EXPECT_TRUE(sees(*d, "0103", "0303"));
}

TEST(LineOfSight, AdjacentHexesAlwaysSeeEachOther) {
  const auto d = terrain({"WWWWWWW", "WWWWWWW", "WWWWWWW"});
  EXPECT_TRUE(sees(*d, "0202", "0302"));
  EXPECT_TRUE(sees(*d, "0202", "0201"));
}

// From 0203 (column 1, row 2) two hexes east-north-east lies 0302: the line runs along the
// hexside between 0303 (east) and 0202 (north-east).
TEST(LineOfSight, AlongAHexsideItIsBlockedOnlyWhenBothSidesBlock) {
  EXPECT_TRUE(sees(*terrain({".......", ".......", ".......", "......."}), "0203", "0302"));
  EXPECT_TRUE(sees(*terrain({".......", ".W.....", ".......", "......."}), "0203", "0302"));
  EXPECT_TRUE(sees(*terrain({".......", ".......", "..W....", "......."}), "0203", "0302"));
  EXPECT_FALSE(sees(*terrain({".......", ".W.....", "..W....", "......."}), "0203", "0302"));
  EXPECT_FALSE(sees(*terrain({".......", ".W.....", "..W....", "......."}), "0302", "0203"));
}

TEST(LineOfSight, AtRangeThreeEachHexBetweenCounts) {
  EXPECT_FALSE(sees(*terrain({".......", ".......", "..W....", "......."}), "0103", "0403"));
  EXPECT_FALSE(sees(*terrain({".......", ".......", ".W.....", "......."}), "0103", "0403"));
  EXPECT_TRUE(sees(*terrain({".......", ".......", ".......", "......."}), "0103", "0403"));
}

TEST(LineOfSight, DistanceCountsHexStepsOnTheOffsetRows) {
  const auto d = terrain({".......", ".......", ".......", "......."});
  EXPECT_EQ(distance(*d, *d->hex_index("0203"), *d->hex_index("0302")), 2);
  EXPECT_EQ(distance(*d, *d->hex_index("0103"), *d->hex_index("0403")), 3);
  EXPECT_TRUE(is_adjacent(*d, *d->hex_index("0203"), *d->hex_index("0303")));
  EXPECT_TRUE(is_adjacent(*d, *d->hex_index("0203"), *d->hex_index("0202")));
  EXPECT_FALSE(is_adjacent(*d, *d->hex_index("0203"), *d->hex_index("0302")));
}

}  // namespace
}  // namespace blockfog::scotland_rising::testing
