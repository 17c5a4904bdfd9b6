// The variant board's data file (RULINGS.md, "The variant board") and the loader's checks.

#include <algorithm>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "rules/scotland_rising/board.h"
#include "rules/scotland_rising/data.h"
#include "tests/rules/scotland_rising/sr_fixture.h"

namespace blockfog::scotland_rising::testing {
namespace {

TEST(VariantData, TheFileSaysItIsAnInventedVariantBoard) {
  const auto d = variant_board();
  EXPECT_EQ(d->variant_note, "Variant board: not the published map");
  EXPECT_EQ(d->scenario, "bannockburn_variant");
  EXPECT_TRUE(d->source.at("variant").get<bool>());
}

TEST(VariantData, TheGridIsTwelveByAboutSixteenHexes) {
  const auto d = variant_board();
  EXPECT_EQ(d->columns, 12);
  EXPECT_EQ(d->rows, 16);
  EXPECT_EQ(d->terrain.size(), 192u);
}

TEST(VariantData, EverySetupLetterHasAUnitAndEveryUnitALetter) {
  const auto d = variant_board();
  EXPECT_EQ(d->setup.size(), d->units.size());
  std::set<int> placed;
  for (const auto& u : d->units) {
    ASSERT_GE(u.start_hex, 0) << u.id;
    placed.insert(u.start_hex * 2 + (u.type == UnitType::Leader ? 1 : 0));
  }
  EXPECT_EQ(placed.size(), d->units.size()) << "two units of one kind share a setup hex";
}

TEST(VariantData, EveryTerrainTypeIsOnTheBoardAndThereIsOneVillage) {
  const auto d = variant_board();
  std::set<Terrain> used(d->terrain.begin(), d->terrain.end());
  EXPECT_EQ(used.size(), static_cast<std::size_t>(kTerrainCount));
  EXPECT_EQ(std::count(d->terrain.begin(), d->terrain.end(), Terrain::Village), 1);  // R1
}

// Whether a walk over the board that never enters `blocked` terrain links the north edge to
// the south edge.
bool north_meets_south(const Data& d, const std::set<Terrain>& blocked) {
  std::vector<bool> seen(d.hex_count(), false);
  std::vector<int> todo;
  for (int c = 0; c < d.columns; ++c) {
    if (!blocked.count(d.terrain[c])) {
      seen[c] = true;
      todo.push_back(c);
    }
  }
  while (!todo.empty()) {
    const int hex = todo.back();
    todo.pop_back();
    if (hex / d.columns == d.rows - 1) return true;
    for (int n : neighbours(d, hex)) {
      if (!seen[n] && !blocked.count(d.terrain[n])) {
        seen[n] = true;
        todo.push_back(n);
      }
    }
  }
  return false;
}

TEST(VariantData, TheBurnIsCrossedOnlyAtBridgesOrByStoppingInIt) {
  const auto d = variant_board();
  EXPECT_FALSE(north_meets_south(*d, {Terrain::Burn, Terrain::Bridge}));
  EXPECT_TRUE(north_meets_south(*d, {Terrain::Burn}));
  EXPECT_TRUE(north_meets_south(*d, {Terrain::Bridge}));
}

TEST(VariantData, TheRedArrowExitIsOnTheNorthEdgeTowardStirling) {
  const auto d = variant_board();
  ASSERT_GE(d->exit_hex, 0);
  EXPECT_EQ(d->exit_hex / d->columns, 0);
  EXPECT_EQ(d->terrain[d->exit_hex], Terrain::Clear);
}

TEST(VariantData, TheScotsSetUpNorthAndTheEnglishSouth) {
  const auto d = variant_board();
  for (const auto& u : d->units) {
    const int row = u.start_hex / d->columns;
    if (u.side == Role::Scotland) {
      EXPECT_LE(row, d->blue_row) << u.id;
    } else {
      EXPECT_GE(row, d->red_row) << u.id;
    }
  }
}

TEST(VariantData, TheForcesAndLeadersAreThoseOfTheBattle) {
  const auto d = variant_board();
  std::map<std::pair<Role, UnitType>, int> count;
  std::set<std::string> leaders;
  for (const auto& u : d->units) {
    ++count[{u.side, u.type}];
    if (u.type == UnitType::Leader) leaders.insert(u.name);
  }
  const std::set<std::string> expected = {"R. Bruce",  "E. Bruce",   "Moray",    "Douglas",
                                          "Edward II", "Gloucester", "Hereford", "Clifford"};
  EXPECT_EQ(leaders, expected);
  EXPECT_GT(count[std::make_pair(Role::Scotland, UnitType::Pike)],
            count[std::make_pair(Role::Scotland, UnitType::Ax)]);
  EXPECT_GT(count[std::make_pair(Role::Scotland, UnitType::Hobelar)], 0);
  EXPECT_GT(count[std::make_pair(Role::Scotland, UnitType::Longbow)], 0);
  for (UnitType t : {UnitType::Knight, UnitType::Longbow, UnitType::Crossbow, UnitType::Pike,
                     UnitType::Hobelar}) {
    EXPECT_GT(count[std::make_pair(Role::England, t)], 0) << unit_type_name(t);
  }
}

TEST(VariantData, TheTablesAreTheRulebooksWithNoEventOnTwelve) {
  const auto d = variant_board();
  EXPECT_EQ(d->turns, 15);
  EXPECT_EQ(d->start_vp[0], 5);
  EXPECT_EQ(d->start_vp[1], 0);
  const std::array<int, 6> random = {1, 1, 2, 2, 3, 3};
  EXPECT_EQ(d->random_ap, random);
  EXPECT_EQ(d->command_ap[0], std::vector<int>(15, 6));
  const std::vector<int> english = {4, 4, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6};
  EXPECT_EQ(d->command_ap[1], english);
  EXPECT_EQ(d->events[12], Event::None);  // R13
  EXPECT_EQ(d->events[5], d->events[8]);  // the duplicate rows stand (R13)
  EXPECT_EQ(d->events[6], d->events[11]);
}

TEST(VariantData, ReducedSidesKeepTheirTypesValuesAndCrossbowsAndLeadersHaveNone) {  // R4
  for (const auto& u : variant_board()->units) {
    if (u.type == UnitType::Crossbow || u.type == UnitType::Leader) {
      EXPECT_FALSE(u.reduced) << u.id;
      continue;
    }
    ASSERT_TRUE(u.reduced) << u.id;
    EXPECT_EQ(u.reduced->dice, u.full.dice) << u.id;
    EXPECT_EQ(u.reduced->hit, u.full.hit) << u.id;
    EXPECT_EQ(u.reduced->move, u.full.move) << u.id;
  }
}

TEST(VariantData, OnlyRobertTheBruceAndEdwardTheSecondAreCommandersWorthSixVp) {  // rulebook 9, 11
  for (const auto& u : variant_board()->units) {
    const bool commander = u.name == "R. Bruce" || u.name == "Edward II";
    EXPECT_EQ(u.commander, u.type == UnitType::Leader && commander) << u.id;
    if (u.commander) {
      EXPECT_EQ(u.vp, 6);
    }
  }
}

TEST(VariantData, AnotherDataFileOfTheSchemaLoadsWithoutCodeChanges) {
  auto file = board({"....", "....", "...."},
                    {{"p", "scotland", "pike", "0101"}, {"k", "england", "knight", "0403"}});
  const auto d = Data::parse(file);
  EXPECT_EQ(d->scenario, "test");
  EXPECT_EQ(d->units.size(), 2u);
  EXPECT_EQ(d->units[1].start_hex, *d->hex_index("0403"));
}

TEST(VariantData, ALetterWithoutAUnitIsRefused) {
  auto file = board({"....", "...."}, {{"p", "scotland", "pike", "0101"}});
  file["setup"]["scotland"].push_back({{"hex", "0201"}, {"letter", "P"}});
  EXPECT_THROW(Data::parse(file), DataError);
}

TEST(VariantData, AnUnknownTerrainSymbolIsRefused) {
  auto file = board({"..?.", "...."}, {{"p", "scotland", "pike", "0101"}});
  EXPECT_THROW(Data::parse(file), DataError);
}

}  // namespace
}  // namespace blockfog::scotland_rising::testing
