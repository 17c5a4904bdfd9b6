// Attacks (rulebook 8): dice, hit numbers and their modifiers, R5's floor, hits in excess (R6),
// leaders and knights rolling for hits (R2), adjacency (R7), ranges (R3, R8), the burn, victory
// points (rulebook 11) and the loss of a commander (rulebook 9).

#include <gtest/gtest.h>

#include "rules/scotland_rising/combat.h"
#include "tests/rules/scotland_rising/sr_fixture.h"

namespace blockfog::scotland_rising::testing {
namespace {

json attack(const std::string& unit_id, const std::string& target) {
  return {{"type", "attack"}, {"unit", unit_id}, {"target", target}};
}

// A Scots attack with the given dice; the test fails unless exactly those dice were used.
void scots_attack(State& s, const std::string& unit_id, const std::string& target,
                  const std::vector<int>& dice) {
  script(s, dice);
  act(s, Role::Scotland, attack(unit_id, target));
  EXPECT_FALSE(s.rng.has_script()) << "more dice were scripted than the attack rolled";
}

State fight(const std::vector<Piece>& pieces,
            const std::vector<std::string>& rows = {".......", ".......", "......."}) {
  State s = start(board(rows, pieces));
  scots_turn(s, 6);
  return s;
}

TEST(Combat, AHitNeedsTheDefendersHitNumberOrMore) {
  State s = fight({{"a", "scotland", "ax", "0101"}, {"k", "england", "knight", "0201"}});
  scots_attack(s, "a", "0201", {5, 5, 4});
  EXPECT_FALSE(unit(s, "k").reduced);
  s = fight({{"a", "scotland", "ax", "0101"}, {"k", "england", "knight", "0201"}});
  scots_attack(s, "a", "0201", {1, 6, 2});
  EXPECT_TRUE(unit(s, "k").reduced);
}

TEST(Combat, EachTypeRollsItsDiceAgainstEachTypesHitNumber) {  // rulebook 3
  State s = fight({{"p", "scotland", "pike", "0101"}, {"l", "england", "longbow", "0201"}});
  EXPECT_EQ(attack_dice(s, 0, hex(s, "0201"), AttackKind::Plain), 2);
  EXPECT_EQ(hit_number(s, hex(s, "0201")), 4);
  scots_attack(s, "p", "0201", {4, 1});
  EXPECT_TRUE(unit(s, "l").reduced);
}

TEST(Combat, AnAttackOnWoodsOrTheVillageRollsOneDieFewer) {  // rulebook 2, R1
  for (char t : {'W', 'V'}) {
    std::string row = ".......";
    row[1] = t;
    State s = fight({{"a", "scotland", "ax", "0101"}, {"p", "england", "pike", "0201"}},
                    {row, "......."});
    scots_attack(s, "a", "0201", {5, 1});
    EXPECT_TRUE(unit(s, "p").reduced) << t;
  }
}

TEST(Combat, AnAttackAlwaysRollsAtLeastOneDie) {  // R5
  State s = fight({{"p", "scotland", "pike", "0101"}, {"q", "england", "pike", "0201"}},
                  {".W.....", "......."});
  unit(s, "p").schiltron = true;  // 2 dice - 1 (schiltron) - 1 (woods) = 0, rolled as 1
  scots_attack(s, "p", "0201", {6});
  EXPECT_TRUE(unit(s, "q").reduced);
}

TEST(Combat, OneHitReducesAFullStrengthUnitAndTwoEliminateIt) {  // rulebook 8, R6
  State s = fight({{"a", "scotland", "ax", "0101"},
                   {"b", "scotland", "ax", "0102"},
                   {"p", "england", "pike", "0201"},
                   {"q", "england", "pike", "0202"}});
  scots_attack(s, "a", "0201", {5, 1, 1});
  EXPECT_TRUE(unit(s, "p").reduced);
  scots_attack(s, "b", "0202", {5, 6, 1});
  EXPECT_TRUE(unit(s, "q").eliminated);
  EXPECT_EQ(unit(s, "q").hex, -1);
}

TEST(Combat, AReducedUnitIsEliminatedByItsNextHit) {
  State s = fight({{"a", "scotland", "ax", "0101"}, {"p", "england", "pike", "0201"}});
  unit(s, "p").reduced = true;
  scots_attack(s, "a", "0201", {5, 1, 1});
  EXPECT_TRUE(unit(s, "p").eliminated);
}

TEST(Combat, ACrossbowIsEliminatedByOneHit) {  // rulebook 3, R4
  State s = fight({{"a", "scotland", "ax", "0101"}, {"c", "england", "crossbow", "0201"}});
  scots_attack(s, "a", "0201", {4, 1, 1});
  EXPECT_TRUE(unit(s, "c").eliminated);
}

TEST(Combat, AReducedKnightIgnoresAHitOnOneToThreeAndDiesOnFourToSix) {  // R2
  State s = fight({{"a", "scotland", "ax", "0101"}, {"k", "england", "knight", "0201"}});
  unit(s, "k").reduced = true;
  scots_attack(s, "a", "0201", {6, 1, 1, 3});
  EXPECT_FALSE(unit(s, "k").eliminated);
  s = fight({{"a", "scotland", "ax", "0101"}, {"k", "england", "knight", "0201"}});
  unit(s, "k").reduced = true;
  scots_attack(s, "a", "0201", {6, 1, 1, 4});
  EXPECT_TRUE(unit(s, "k").eliminated);
}

TEST(Combat, AFullKnightHitTwiceIsReducedThenRollsForTheSecondHit) {  // R6, R2
  State s = fight({{"a", "scotland", "ax", "0101"}, {"k", "england", "knight", "0201"}});
  scots_attack(s, "a", "0201", {6, 6, 1, 2});
  EXPECT_TRUE(unit(s, "k").reduced);
  EXPECT_FALSE(unit(s, "k").eliminated);
}

TEST(Combat, ALeaderAloneRollsForEachHitUntilOneKillsIt) {  // R2
  State s = fight({{"a", "scotland", "ax", "0101"}, {"l", "england", "leader", "0201"}});
  scots_attack(s, "a", "0201", {6, 6, 6, 2, 5});  // the third hit is lost with the leader
  EXPECT_TRUE(unit(s, "l").eliminated);
}

TEST(Combat, HitsLeftOverAfterTheStackedUnitFallGoToItsLeader) {  // rulebook 8, R6
  State s = fight({{"a", "scotland", "ax", "0101"},
                   {"p", "england", "pike", "0201"},
                   {"l", "england", "leader", "0201"}});
  scots_attack(s, "a", "0201", {5, 5, 6, 1});  // two hits take the pike, one reaches the leader
  EXPECT_TRUE(unit(s, "p").eliminated);
  EXPECT_FALSE(unit(s, "l").eliminated);
  EXPECT_EQ(unit(s, "l").hex, hex(s, "0201"));
}

TEST(Combat, AStackedUnitThatSurvivesShieldsItsLeader) {
  State s = fight({{"a", "scotland", "ax", "0101"},
                   {"p", "england", "pike", "0201"},
                   {"l", "england", "leader", "0201"}});
  scots_attack(s, "a", "0201", {5, 1, 1});
  EXPECT_TRUE(unit(s, "p").reduced);
  EXPECT_FALSE(unit(s, "l").eliminated);
}

TEST(Combat, ADisorderedUnitIsHitOnOneLess) {  // rulebook 8, disordered effects
  State s = fight({{"a", "scotland", "ax", "0101"}, {"k", "england", "knight", "0201"}});
  unit(s, "k").disordered = true;
  EXPECT_EQ(hit_number(s, hex(s, "0201")), 5);
  scots_attack(s, "a", "0201", {5, 1, 1});
  EXPECT_TRUE(unit(s, "k").reduced);
}

TEST(Combat, AUnitThatMovedNextToAnEnemyCannotAttackItThatTurn) {  // R7
  State s = fight({{"a", "scotland", "ax", "0101"}, {"p", "england", "pike", "0401"}});
  act(s, Role::Scotland, {{"type", "move"}, {"unit", "a"}, {"path", {"0201", "0301"}}});
  EXPECT_TRUE(try_act(s, Role::Scotland, attack("a", "0401")));
}

TEST(Combat, PlainAttacksReachOnlyAdjacentHexes) {
  State s = fight({{"a", "scotland", "ax", "0101"}, {"p", "england", "pike", "0301"}});
  EXPECT_TRUE(try_act(s, Role::Scotland, attack("a", "0301")));
}

TEST(Combat, ALongbowShootsTwoHexesWhenItSeesTheTarget) {  // rulebook 8, R8
  State s = fight({{"l", "scotland", "longbow", "0101"}, {"p", "england", "pike", "0301"}});
  EXPECT_TRUE(is_legal(s, Role::Scotland, attack("l", "0301")));
  s = fight({{"l", "scotland", "longbow", "0101"}, {"p", "england", "pike", "0301"}},
            {".W.....", "......."});
  EXPECT_FALSE(is_legal(s, Role::Scotland, attack("l", "0301")));
  EXPECT_TRUE(try_act(s, Role::Scotland, attack("l", "0301")));
  s = fight({{"l", "scotland", "longbow", "0101"}, {"p", "england", "pike", "0401"}});
  EXPECT_FALSE(is_legal(s, Role::Scotland, attack("l", "0401")));
}

TEST(Combat, ACrossbowShootsOnlyAtAnAdjacentHex) {  // R3
  State s = start(board({".......", "......."}, {{"p", "scotland", "pike", "0101"},
                                                 {"c", "england", "crossbow", "0301"},
                                                 {"d", "england", "crossbow", "0201"}}));
  scots_turn(s, 1);
  english_turn(s, 6);
  EXPECT_FALSE(is_legal(s, Role::England, attack("c", "0101")));
  EXPECT_TRUE(is_legal(s, Role::England, attack("d", "0101")));
}

TEST(Combat, NoUnitAttacksFromTheBurn) {  // rulebook 2
  State s = fight({{"a", "scotland", "ax", "0101"}, {"p", "england", "pike", "0201"}},
                  {"~......", "......."});
  EXPECT_TRUE(try_act(s, Role::Scotland, attack("a", "0201")));
}

TEST(Combat, EliminationsScoreTheirVictoryPoints) {  // rulebook 11
  State s = fight({{"a", "scotland", "ax", "0101"},
                   {"b", "scotland", "ax", "0103"},
                   {"c", "scotland", "ax", "0105"},
                   {"k", "england", "knight", "0201"},
                   {"l", "england", "longbow", "0203"},
                   {"e", "england", "leader", "0205", "Edward II", true}},
                  {".......", ".......", ".......", ".......", "......."});
  unit(s, "k").reduced = true;
  scots_attack(s, "a", "0201", {6, 1, 1, 6});
  scots_attack(s, "b", "0203", {4, 4, 1});
  scots_attack(s, "c", "0205", {6, 1, 1, 6});
  EXPECT_EQ(s.pos.vp[0], 5 + 3 + 1 + 6);
  EXPECT_EQ(s.pos.commanders_lost[1], 1);
}

TEST(Combat, LosingEdwardTheSecondCostsEnglandACommandApFromThenOn) {  // rulebook 9
  State s = fight({{"a", "scotland", "ax", "0101"},
                   {"e", "england", "leader", "0201", "Edward II", true},
                   {"p", "england", "pike", "0702"}});
  scots_attack(s, "a", "0201", {6, 1, 1, 6});
  english_turn(s, 1);
  EXPECT_EQ(s.pos.ap, 4 - 1 + 1);
}

TEST(Combat, LosingRobertTheBruceCostsScotlandACommandApFromThenOn) {  // rulebook 9
  State s =
      start(board({".......", "......."}, {{"b", "scotland", "leader", "0201", "R. Bruce", true},
                                           {"k", "england", "knight", "0101"}}));
  scots_turn(s, 1);
  english_turn(s, 6);
  script(s, {6, 1, 1, 5});
  act(s, Role::England, attack("k", "0201"));
  EXPECT_TRUE(unit(s, "b").eliminated);
  EXPECT_EQ(s.pos.vp[1], 6);
  script(s, {1});
  act(s, Role::England, {{"type", "end_turn"}});
  act(s, Role::Scotland, {{"type", "roll_ap"}});
  EXPECT_EQ(s.pos.ap, 6 - 1 + 1);
}

}  // namespace
}  // namespace blockfog::scotland_rising::testing
