// Movement (rulebook 7), terrain costs (rulebook 2, R1), the burn and the bridges, unit hex
// limits and leaders (rulebook 2, 9, R10), and how moves are offered and checked.

#include <set>

#include <gtest/gtest.h>

#include "tests/rules/scotland_rising/sr_fixture.h"

namespace blockfog::scotland_rising::testing {
namespace {

json move(const std::string& unit_id, std::vector<std::string> path) {
  return {{"type", "move"}, {"unit", unit_id}, {"path", path}};
}

// The destinations offered to `unit_id`.
std::set<std::string> destinations(const State& s, const std::string& unit_id) {
  std::set<std::string> out;
  for (const auto& a : legal(s, Role::Scotland)) {
    if (a["type"] == "move" && a["unit"] == unit_id) out.insert(a["path"].back());
  }
  return out;
}

State scots_on(const std::vector<std::string>& rows, const std::vector<Piece>& pieces) {
  State s = start(board(rows, pieces));
  scots_turn(s, 6);
  return s;
}

const Piece kFoe = {"foe", "england", "pike", "0702"};

TEST(Movement, APikeMovesTwoClearHexesForOneAp) {
  State s = scots_on({".......", "......."}, {{"p", "scotland", "pike", "0101"}, kFoe});
  EXPECT_TRUE(destinations(s, "p").count("0301"));
  EXPECT_FALSE(destinations(s, "p").count("0401"));
  const int ap = s.pos.ap;
  act(s, Role::Scotland, move("p", {"0201", "0301"}));
  EXPECT_EQ(unit(s, "p").hex, hex(s, "0301"));
  EXPECT_EQ(s.pos.ap, ap - 1);
}

TEST(Movement, EachUnitTypeHasItsOwnAllowance) {
  State s = scots_on({"..........", "..........", "..........", ".........."},
                     {{"k", "scotland", "knight", "0101"},
                      {"h", "scotland", "hobelar", "0102"},
                      {"l", "scotland", "leader", "0103"},
                      {"a", "scotland", "ax", "0104"},
                      {"foe", "england", "pike", "1004"}});
  EXPECT_TRUE(destinations(s, "k").count("0401"));
  EXPECT_FALSE(destinations(s, "k").count("0501"));
  EXPECT_TRUE(destinations(s, "h").count("0502"));
  EXPECT_FALSE(destinations(s, "h").count("0602"));
  EXPECT_TRUE(destinations(s, "l").count("0403"));
  EXPECT_FALSE(destinations(s, "a").count("0404"));
}

TEST(Movement, WoodsSwampPotholesAndTheVillageCostTwoMp) {  // rulebook 2, R1
  for (char t : {'W', 's', 'o', 'V'}) {
    std::string row = ".......";
    row[1] = t;
    State s = scots_on({row, "......."}, {{"p", "scotland", "pike", "0101"}, kFoe});
    EXPECT_TRUE(destinations(s, "p").count("0201")) << t;
    EXPECT_TRUE(try_act(s, Role::Scotland, move("p", {"0201", "0301"}))) << t;
    act(s, Role::Scotland, move("p", {"0201"}));
  }
}

TEST(Movement, AUnitEnteringTheBurnStopsThere) {
  State s = scots_on({".~.....", "......."}, {{"k", "scotland", "knight", "0101"}, kFoe});
  EXPECT_TRUE(destinations(s, "k").count("0201"));
  EXPECT_TRUE(try_act(s, Role::Scotland, move("k", {"0201", "0301"})));
  act(s, Role::Scotland, move("k", {"0201"}));
}

TEST(Movement, AUnitInTheBurnLeavesItOnItsNextMove) {
  State s = scots_on({"~......", "......."}, {{"k", "scotland", "knight", "0101"}, kFoe});
  act(s, Role::Scotland, move("k", {"0201", "0301", "0401"}));
}

TEST(Movement, ABridgeCostsOneMpAndDoesNotStopTheMove) {
  State s = scots_on({".=.....", "......."}, {{"k", "scotland", "knight", "0101"}, kFoe});
  act(s, Role::Scotland, move("k", {"0201", "0301", "0401"}));
}

TEST(Movement, NoUnitEntersOrPassesThroughAnotherUnitsHex) {
  State s = scots_on({".......", "......."}, {{"p", "scotland", "pike", "0101"},
                                              {"q", "scotland", "pike", "0201"},
                                              {"foe", "england", "pike", "0102"}});
  EXPECT_FALSE(destinations(s, "p").count("0201"));
  EXPECT_TRUE(try_act(s, Role::Scotland, move("p", {"0201", "0301"})));
  EXPECT_TRUE(try_act(s, Role::Scotland, move("p", {"0102"})));  // the enemy's hex
}

TEST(Movement, ALeaderStacksWithAFriendlyUnitAndAUnitLeavingTheHexLeavesTheLeader) {  // R10
  State s =
      scots_on({".......", "......."},
               {{"p", "scotland", "pike", "0101"}, {"l", "scotland", "leader", "0301"}, kFoe});
  act(s, Role::Scotland, move("l", {"0201", "0101"}));
  EXPECT_EQ(unit(s, "l").hex, unit(s, "p").hex);
  act(s, Role::Scotland, move("p", {"0201"}));
  EXPECT_EQ(unit(s, "l").hex, hex(s, "0101"));
}

TEST(Movement, TwoLeadersDoNotShareAHex) {
  State s =
      scots_on({".......", "......."},
               {{"l", "scotland", "leader", "0101"}, {"m", "scotland", "leader", "0201"}, kFoe});
  EXPECT_FALSE(destinations(s, "l").count("0201"));
}

TEST(Movement, AUnitMayActOnceATurn) {  // rulebook 6
  State s = scots_on({".......", "......."}, {{"p", "scotland", "pike", "0101"}, kFoe});
  act(s, Role::Scotland, move("p", {"0201"}));
  EXPECT_TRUE(destinations(s, "p").empty());
  EXPECT_TRUE(try_act(s, Role::Scotland, move("p", {"0301"})));
}

TEST(Movement, AnyLegalPathIsAcceptedNotOnlyTheOneOffered) {
  State s = scots_on({".......", ".......", "......."},
                     {{"k", "scotland", "knight", "0102"}, {"foe", "england", "pike", "0703"}});
  State other = s;
  act(s, Role::Scotland, move("k", {"0202", "0302"}));
  act(other, Role::Scotland, move("k", {"0201", "0202", "0302"}));
  EXPECT_EQ(unit(s, "k").hex, unit(other, "k").hex);
}

TEST(Movement, EachDestinationIsOfferedOnceWithACheapestPath) {
  State s = scots_on({".W.....", ".......", "......."},
                     {{"k", "scotland", "knight", "0102"}, {"foe", "england", "pike", "0703"}});
  std::set<std::string> seen;
  for (const auto& a : legal(s, Role::Scotland)) {
    if (a["type"] != "move") continue;
    EXPECT_TRUE(
        seen.insert(a["unit"].get<std::string>() + a["path"].back().get<std::string>()).second);
  }
  EXPECT_TRUE(is_legal(s, Role::Scotland, move("k", {"0201"})));  // woods, 2 MP, directly
}

TEST(Movement, APathTooLongOrNotHexToHexIsRefusedAndChangesNothing) {
  State s = scots_on({".......", "......."}, {{"p", "scotland", "pike", "0101"}, kFoe});
  const auto before = to_json(s);
  EXPECT_EQ(try_act(s, Role::Scotland, move("p", {"0201", "0301", "0401"}))->code,
            core::RuleErrorCode::IllegalAction);
  EXPECT_TRUE(try_act(s, Role::Scotland, move("p", {"0301"})));
  EXPECT_TRUE(try_act(s, Role::Scotland, move("p", {"0201", "0101"})));
  EXPECT_TRUE(try_act(s, Role::Scotland, move("p", {})));
  EXPECT_EQ(to_json(s), before);
}

}  // namespace
}  // namespace blockfog::scotland_rising::testing
