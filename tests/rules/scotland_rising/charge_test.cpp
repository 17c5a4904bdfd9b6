// Charges (rulebook 8, charge and disordered effects) and schiltron (rulebook 8, R14, optional
// rule 1, and the setup choice of rulebook 4).

#include <gtest/gtest.h>

#include "rules/scotland_rising/combat.h"
#include "tests/rules/scotland_rising/sr_fixture.h"

namespace blockfog::scotland_rising::testing {
namespace {

json charge(const std::string& unit_id, std::vector<std::string> path, const std::string& target) {
  return {{"type", "charge"}, {"unit", unit_id}, {"path", path}, {"target", target}};
}

State charge_board(const std::vector<Piece>& pieces,
                   const std::vector<std::string>& rows = {".......", ".......", "......."},
                   int die = 6) {
  State s = start(board(rows, pieces));
  scots_turn(s, die);
  return s;
}

TEST(Charge, AnAxMovesAndAttacksForTwoAp) {
  State s = charge_board({{"a", "scotland", "ax", "0101"}, {"p", "england", "pike", "0401"}});
  const int ap = s.pos.ap;
  script(s, {5, 1, 2});
  act(s, Role::Scotland, charge("a", {"0201", "0301"}, "0401"));
  EXPECT_EQ(s.pos.ap, ap - 2);
  EXPECT_EQ(unit(s, "a").hex, hex(s, "0301"));
  EXPECT_TRUE(unit(s, "p").reduced);
  EXPECT_TRUE(unit(s, "a").acted);
}

TEST(Charge, KnightsAndLeadersChargeButPikeDoNot) {
  State s = charge_board({{"k", "scotland", "knight", "0101"},
                          {"l", "scotland", "leader", "0103"},
                          {"p", "scotland", "pike", "0102"},
                          {"e", "england", "pike", "0402"}});
  bool knight = false, leader = false, pike = false;
  for (const auto& a : legal(s, Role::Scotland)) {
    if (a["type"] != "charge") continue;
    knight |= a["unit"] == "k";
    leader |= a["unit"] == "l";
    pike |= a["unit"] == "p";
  }
  EXPECT_TRUE(knight);
  EXPECT_TRUE(leader);
  EXPECT_FALSE(pike);
  EXPECT_TRUE(try_act(s, Role::Scotland, charge("p", {"0202", "0302"}, "0402")));
}

TEST(Charge, AChargeNeedsTwoAp) {
  State s = charge_board({{"a", "scotland", "ax", "0101"}, {"p", "england", "pike", "0401"}});
  s.pos.ap = 1;
  EXPECT_TRUE(try_act(s, Role::Scotland, charge("a", {"0201", "0301"}, "0401")));
}

TEST(Charge, AUnitThatBeganTheTurnNextToAnEnemyMayNotCharge) {
  State s = charge_board({{"k", "scotland", "knight", "0101"},
                          {"p", "england", "pike", "0201"},
                          {"q", "england", "pike", "0303"}});
  EXPECT_TRUE(try_act(s, Role::Scotland, charge("k", {"0102", "0202"}, "0303")));
}

TEST(Charge, OnlyUnitsInClearTerrainMayBeCharged) {  // rulebook 2, 8, R1
  for (char t : {'W', 'V', '=', 's', 'o', '~'}) {
    std::string row = ".......";
    row[3] = t;
    State s = charge_board({{"k", "scotland", "knight", "0101"}, {"p", "england", "pike", "0401"}},
                           {row, "......."});
    EXPECT_TRUE(try_act(s, Role::Scotland, charge("k", {"0201", "0301"}, "0401"))) << t;
  }
}

TEST(Charge, AChargeMayNotEnterPotholesNorEndInTheBurn) {
  State s = charge_board({{"k", "scotland", "knight", "0101"}, {"p", "england", "pike", "0401"}},
                         {"..o....", "......."});
  EXPECT_TRUE(try_act(s, Role::Scotland, charge("k", {"0201", "0301"}, "0401")));
  act(s, Role::Scotland, {{"type", "move"}, {"unit", "k"}, {"path", {"0201", "0301"}}});
  s = charge_board({{"k", "scotland", "knight", "0101"}, {"p", "england", "pike", "0401"}},
                   {"..~....", "......."});
  EXPECT_TRUE(try_act(s, Role::Scotland, charge("k", {"0201", "0301"}, "0401")));
}

TEST(Charge, ASchiltronMayNotBeCharged) {  // R14
  State s = start(board({".......", "......."},
                        {{"p", "scotland", "pike", "0401"}, {"k", "england", "knight", "0101"}}));
  unit(s, "p").schiltron = true;
  scots_turn(s, 1);
  english_turn(s, 6);
  EXPECT_TRUE(try_act(s, Role::England, charge("k", {"0201", "0301"}, "0401")));
}

TEST(Charge, TwoOnesAmongTheChargesDiceDisorderTheChargerUntilItsSidesNextTurn) {
  State s = charge_board({{"k", "scotland", "knight", "0101"}, {"p", "england", "pike", "0401"}});
  script(s, {1, 1, 5});
  act(s, Role::Scotland, charge("k", {"0201", "0301"}, "0401"));
  EXPECT_TRUE(unit(s, "k").disordered);
  english_turn(s, 6);
  EXPECT_TRUE(unit(s, "k").disordered);  // the English attack it at hit number 5
  EXPECT_EQ(hit_number(s, unit(s, "k").hex), 5);
  script(s, {6});
  act(s, Role::England, {{"type", "end_turn"}});
  act(s, Role::Scotland, {{"type", "roll_ap"}});
  EXPECT_FALSE(unit(s, "k").disordered);
}

TEST(Charge, OneOneDoesNotDisorderAndAPlainAttackNeverDoes) {
  State s = charge_board({{"k", "scotland", "knight", "0101"},
                          {"a", "scotland", "ax", "0103"},
                          {"p", "england", "pike", "0401"},
                          {"q", "england", "pike", "0203"}});
  script(s, {1, 2, 5});
  act(s, Role::Scotland, charge("k", {"0201", "0301"}, "0401"));
  EXPECT_FALSE(unit(s, "k").disordered);
  script(s, {1, 1, 1});
  act(s, Role::Scotland, {{"type", "attack"}, {"unit", "a"}, {"target", "0203"}});
  EXPECT_FALSE(unit(s, "a").disordered);
}

TEST(Schiltron, APikeFormsSchiltronInClearTerrainForNoApAsItsAction) {  // R14
  State s = charge_board({{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0702"}});
  const int ap = s.pos.ap;
  act(s, Role::Scotland, {{"type", "schiltron"}, {"unit", "p"}});
  EXPECT_TRUE(unit(s, "p").schiltron);
  EXPECT_EQ(s.pos.ap, ap);
  EXPECT_TRUE(unit(s, "p").acted);
  EXPECT_TRUE(try_act(s, Role::Scotland, {{"type", "leave_schiltron"}, {"unit", "p"}}));
}

TEST(Schiltron, NoSchiltronOutsideClearTerrainNorForOtherTypes) {
  State s = charge_board({{"p", "scotland", "pike", "0201"},
                          {"a", "scotland", "ax", "0101"},
                          {"e", "england", "pike", "0702"}},
                         {".W.....", "......."});
  EXPECT_TRUE(try_act(s, Role::Scotland, {{"type", "schiltron"}, {"unit", "p"}}));
  EXPECT_TRUE(try_act(s, Role::Scotland, {{"type", "schiltron"}, {"unit", "a"}}));
}

TEST(Schiltron, LeavingSchiltronIsTheUnitsActionForTheTurn) {
  State s = charge_board({{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0702"}});
  unit(s, "p").schiltron = true;
  act(s, Role::Scotland, {{"type", "leave_schiltron"}, {"unit", "p"}});
  EXPECT_FALSE(unit(s, "p").schiltron);
  EXPECT_TRUE(try_act(s, Role::Scotland, {{"type", "move"}, {"unit", "p"}, {"path", {"0201"}}}));
}

TEST(Schiltron, ASchiltronMovesOneHexAndOnlyIntoClearTerrain) {  // R14
  State s = charge_board({{"p", "scotland", "pike", "0201"}, {"e", "england", "pike", "0702"}},
                         {"W......", "......."});
  unit(s, "p").schiltron = true;
  EXPECT_TRUE(try_act(s, Role::Scotland, {{"type", "move"}, {"unit", "p"}, {"path", {"0101"}}}));
  EXPECT_TRUE(
      try_act(s, Role::Scotland, {{"type", "move"}, {"unit", "p"}, {"path", {"0301", "0401"}}}));
  act(s, Role::Scotland, {{"type", "move"}, {"unit", "p"}, {"path", {"0301"}}});
  EXPECT_TRUE(unit(s, "p").schiltron);
}

TEST(Schiltron, AttacksOnASchiltronAndByItRollOneDieFewer) {  // R14
  State s = charge_board({{"p", "scotland", "pike", "0101"}, {"e", "england", "ax", "0201"}});
  unit(s, "p").schiltron = true;
  EXPECT_EQ(attack_dice(s, 0, hex(s, "0201"), AttackKind::Plain), 1);
  EXPECT_EQ(attack_dice(s, 1, hex(s, "0101"), AttackKind::Plain), 2);
}

TEST(Schiltron, LongbowsRollOneDieFewerAtASchiltronUnlessOptionalRuleOneIsUsed) {
  const auto data = board({".......", "......."},
                          {{"p", "scotland", "pike", "0101"}, {"l", "england", "longbow", "0301"}});
  State s = start(data);
  unit(s, "p").schiltron = true;
  EXPECT_EQ(attack_dice(s, 1, hex(s, "0101"), AttackKind::Plain), 1);
  Options rule1;
  rule1.longbows_vs_schiltron = true;
  s = start(data, {}, rule1);
  unit(s, "p").schiltron = true;
  EXPECT_EQ(attack_dice(s, 1, hex(s, "0101"), AttackKind::Plain), 2);
}

TEST(Schiltron, TheScotsMayStartPikeInSchiltronAtSetup) {  // rulebook 4
  State s = setup(test_seed(), variant_board(), Options{});
  const auto actions = legal(s, Role::Scotland);
  int offered = 0;
  for (const auto& a : actions) offered += a["type"] == "schiltron";
  EXPECT_EQ(offered, 8);
  act(s, Role::Scotland, {{"type", "schiltron"}, {"unit", "sc_pike1"}});
  act(s, Role::Scotland, {{"type", "setup_done"}});
  EXPECT_TRUE(unit(s, "sc_pike1").schiltron);
  EXPECT_FALSE(unit(s, "sc_pike1").acted);
  EXPECT_EQ(s.pos.phase, Phase::ScotsAp);
  EXPECT_TRUE(legal(s, Role::England).empty());
}

}  // namespace
}  // namespace blockfog::scotland_rising::testing
