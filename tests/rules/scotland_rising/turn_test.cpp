// The game turn (rulebook 5, 6), the Scots Charge turn (R9), exits (R11), the end of the game
// (R12) and rally (rulebook 8).

#include <gtest/gtest.h>

#include "tests/rules/scotland_rising/sr_fixture.h"

namespace blockfog::scotland_rising::testing {
namespace {

const std::vector<std::string> kTurnField = {".......", ".......", "......."};

json end_turn_action() { return {{"type", "end_turn"}}; }

TEST(Turn, TheScotsActFirstAndTheEnglishSecond) {
  State s = start(
      board(kTurnField, {{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0703"}}));
  EXPECT_EQ(active_roles(s), std::vector<Role>{Role::Scotland});
  scots_turn(s, 3);
  EXPECT_EQ(s.pos.side, Role::Scotland);
  english_turn(s, 3);
  EXPECT_EQ(active_roles(s), std::vector<Role>{Role::England});
  EXPECT_EQ(s.pos.turn, 1);
}

TEST(Turn, CommandApFollowTheTableAndTheRandomDieAddsOneTwoOrThree) {  // rulebook 6
  State s = start(
      board(kTurnField, {{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0703"}}));
  const std::vector<int> scots_dice = {1, 2, 3, 4, 5, 6, 1};
  const std::vector<int> english_dice = {2, 3, 4, 5, 6, 1, 1};
  const std::vector<int> scots_ap = {7, 7, 8, 8, 9, 9, 7};
  const std::vector<int> english_ap = {5, 6, 7, 8, 8, 7, 7};  // command 4, 4, 5, 5, 5, 6, 6
  script(s, {scots_dice[0]});
  act(s, Role::Scotland, {{"type", "scots_charge"}});
  for (std::size_t t = 0; t < scots_dice.size(); ++t) {
    EXPECT_EQ(s.pos.ap, scots_ap[t]) << "turn " << t + 1;
    english_turn(s, english_dice[t]);
    EXPECT_EQ(s.pos.ap, english_ap[t]) << "turn " << t + 1;
    if (t + 1 == scots_dice.size()) break;
    script(s, {scots_dice[t + 1]});
    act(s, Role::England, end_turn_action());
  }
}

TEST(Turn, UnspentApAreNotSavedForTheNextTurn) {  // rulebook 6
  State s = start(
      board(kTurnField, {{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0703"}}));
  scots_turn(s, 6);
  english_turn(s, 6);
  script(s, {1});
  act(s, Role::England, end_turn_action());
  act(s, Role::Scotland, {{"type", "roll_ap"}});
  EXPECT_EQ(s.pos.ap, 7);
}

TEST(Turn, AtNoApTheTurnOffersOnlyItsEndAndFreeActions) {
  State s = start(
      board(kTurnField, {{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0703"}}));
  scots_turn(s, 6);
  s.pos.ap = 0;
  for (const auto& a : legal(s, Role::Scotland)) {
    EXPECT_TRUE(a["type"] == "end_turn" || a["type"] == "schiltron") << a.dump();
  }
}

TEST(Turn, TheGameEndsAfterTheEnglishHalfOfTurnFifteenWithTheVpWinner) {  // R12
  State s = start(
      board(kTurnField, {{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0703"}}));
  act(s, Role::Scotland, {{"type", "scots_charge"}});
  for (int turn = 1; turn <= 15; ++turn) {
    ASSERT_EQ(s.pos.turn, turn);
    act(s, Role::Scotland, end_turn_action());
    ASSERT_FALSE(outcome(s).finished);
    act(s, Role::England, end_turn_action());
  }
  EXPECT_EQ(s.pos.phase, Phase::GameOver);
  EXPECT_TRUE(active_roles(s).empty());
  EXPECT_TRUE(legal(s, Role::Scotland).empty());
  EXPECT_EQ(try_act(s, Role::Scotland, end_turn_action())->code, core::RuleErrorCode::GameOver);
  const auto out = outcome(s);
  EXPECT_TRUE(out.finished);
  EXPECT_EQ(out.winner, Role::Scotland);  // the 5 VP of the siege of Stirling (rulebook 11)
}

TEST(Turn, EqualVictoryPointsAreADraw) {  // R12
  auto data =
      board(kTurnField, {{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0703"}});
  data["start_vp"] = {{"scotland", 0}, {"england", 0}};
  State s = start(data);
  act(s, Role::Scotland, {{"type", "scots_charge"}});
  s.pos.turn = 15;
  act(s, Role::Scotland, end_turn_action());
  act(s, Role::England, end_turn_action());
  EXPECT_TRUE(outcome(s).finished);
  EXPECT_FALSE(outcome(s).winner);
  EXPECT_EQ(outcome(s).reason, "draw");
}

TEST(ScotsCharge, IsAnnouncedBeforeTheApDieAndOnlyOnce) {  // R9
  State s = start(
      board(kTurnField, {{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0703"}}));
  EXPECT_TRUE(is_legal(s, Role::Scotland, {{"type", "scots_charge"}}));
  script(s, {4});
  act(s, Role::Scotland, {{"type", "scots_charge"}});
  EXPECT_TRUE(s.pos.scots_charge_now);
  EXPECT_EQ(s.pos.ap, 8);
  english_turn(s, 3);
  EXPECT_FALSE(s.pos.scots_charge_now);
  script(s, {3});
  act(s, Role::England, end_turn_action());
  EXPECT_EQ(s.pos.phase, Phase::Actions);  // no choice left: the die was rolled at once
  EXPECT_FALSE(s.pos.scots_charge_now);
}

TEST(ScotsCharge, AUnitMovesAndAttacksAnAdjacentEnemyForOneAp) {  // R9
  State s = start(
      board(kTurnField, {{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0401"}}));
  script(s, {4});
  act(s, Role::Scotland, {{"type", "scots_charge"}});
  const int ap = s.pos.ap;
  script(s, {5, 1});
  const json action = {
      {"type", "move_attack"}, {"unit", "p"}, {"path", {"0201", "0301"}}, {"target", "0401"}};
  EXPECT_TRUE(is_legal(s, Role::Scotland, action));
  act(s, Role::Scotland, action);
  EXPECT_EQ(s.pos.ap, ap - 1);
  EXPECT_TRUE(unit(s, "e").reduced);
  EXPECT_FALSE(unit(s, "p").disordered);
}

TEST(ScotsCharge, AChargeInTheScotsChargeTurnStillCostsTwoAp) {  // R9
  State s =
      start(board(kTurnField, {{"a", "scotland", "ax", "0101"}, {"e", "england", "pike", "0401"}}));
  script(s, {4});
  act(s, Role::Scotland, {{"type", "scots_charge"}});
  const int ap = s.pos.ap;
  script(s, {1, 1, 1});
  act(s, Role::Scotland,
      {{"type", "charge"}, {"unit", "a"}, {"path", {"0201", "0301"}}, {"target", "0401"}});
  EXPECT_EQ(s.pos.ap, ap - 2);
  EXPECT_TRUE(unit(s, "a").disordered);
}

TEST(ScotsCharge, NoMoveAndAttackOnOtherTurns) {
  State s = start(
      board(kTurnField, {{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0401"}}));
  scots_turn(s, 4);
  EXPECT_TRUE(try_act(
      s, Role::Scotland,
      {{"type", "move_attack"}, {"unit", "p"}, {"path", {"0201", "0301"}}, {"target", "0401"}}));
}

TEST(Exit, AnEnglishUnitOnTheRedArrowExitsForOneApAndScoresOneVp) {  // R11
  State s = start(
      board(kTurnField, {{"p", "scotland", "pike", "0703"}, {"k", "england", "knight", "0101"}}));
  scots_turn(s, 1);
  english_turn(s, 6);
  act(s, Role::England, {{"type", "exit"}, {"unit", "k"}, {"path", json::array()}});
  EXPECT_TRUE(unit(s, "k").exited);
  EXPECT_EQ(unit(s, "k").hex, -1);
  EXPECT_EQ(s.pos.vp[1], 1);
  EXPECT_EQ(s.pos.ap, 6);
}

TEST(Exit, AUnitMayMoveOntoTheRedArrowAndExitWithOneMpLeft) {  // R11
  State s = start(board(kTurnField,
                        {{"p", "scotland", "pike", "0703"},
                         {"k", "england", "knight", "0202"},
                         {"f", "england", "pike", "0201"}},
                        "0101"));
  scots_turn(s, 1);
  english_turn(s, 6);
  EXPECT_TRUE(
      is_legal(s, Role::England, {{"type", "exit"}, {"unit", "k"}, {"path", {"0102", "0101"}}}));
  act(s, Role::England, {{"type", "exit"}, {"unit", "f"}, {"path", {"0101"}}});
  // Three MP to reach the arrow leave the knight none to exit with.
  EXPECT_TRUE(try_act(s, Role::England,
                      {{"type", "exit"}, {"unit", "k"}, {"path", {"0203", "0102", "0101"}}}));
  act(s, Role::England, {{"type", "exit"}, {"unit", "k"}, {"path", {"0201", "0101"}}});
  EXPECT_EQ(s.pos.vp[1], 2);
}

TEST(Exit, ThePikeWithoutASpareMpMayNotExitOnTheWayNorTheScotsAtAll) {  // R11
  State s = start(board(
      kTurnField, {{"p", "scotland", "pike", "0101"}, {"f", "england", "pike", "0301"}}, "0101"));
  EXPECT_FALSE(is_legal(s, Role::Scotland, {{"type", "exit"}, {"unit", "p"}, {"path", {}}}));
  scots_turn(s, 1);
  EXPECT_TRUE(try_act(s, Role::Scotland, {{"type", "exit"}, {"unit", "p"}, {"path", {}}}));
  act(s, Role::Scotland, {{"type", "move"}, {"unit", "p"}, {"path", {"0102"}}});
  english_turn(s, 6);
  EXPECT_TRUE(
      try_act(s, Role::England, {{"type", "exit"}, {"unit", "f"}, {"path", {"0201", "0101"}}}));
}

TEST(Rally, ALeaderRestoresAReducedUnitOnOneToThreeForOneAp) {  // rulebook 8, rally
  State s = start(board(kTurnField, {{"p", "scotland", "pike", "0101"},
                                     {"l", "scotland", "leader", "0101"},
                                     {"e", "england", "pike", "0703"}}));
  unit(s, "p").reduced = true;
  scots_turn(s, 6);
  const int ap = s.pos.ap;
  script(s, {3});
  act(s, Role::Scotland, {{"type", "rally"}, {"leader", "l"}, {"unit", "p"}});
  EXPECT_FALSE(unit(s, "p").reduced);
  EXPECT_EQ(s.pos.ap, ap - 1);
  EXPECT_TRUE(unit(s, "p").acted);
  EXPECT_TRUE(unit(s, "l").acted);
}

TEST(Rally, FailsOnFourToSix) {
  State s = start(board(kTurnField, {{"p", "scotland", "pike", "0101"},
                                     {"l", "scotland", "leader", "0101"},
                                     {"e", "england", "pike", "0703"}}));
  unit(s, "p").reduced = true;
  scots_turn(s, 6);
  script(s, {4});
  act(s, Role::Scotland, {{"type", "rally"}, {"leader", "l"}, {"unit", "p"}});
  EXPECT_TRUE(unit(s, "p").reduced);
}

TEST(Rally, NeedsTheLeaderInTheHexFromTheTurnsStartAndNoEnemyAdjacent) {
  State s = start(board(kTurnField, {{"p", "scotland", "pike", "0101"},
                                     {"l", "scotland", "leader", "0201"},
                                     {"q", "scotland", "pike", "0103"},
                                     {"m", "scotland", "leader", "0103"},
                                     {"e", "england", "pike", "0203"}}));
  unit(s, "p").reduced = true;
  unit(s, "q").reduced = true;
  scots_turn(s, 6);
  act(s, Role::Scotland, {{"type", "move"}, {"unit", "l"}, {"path", {"0101"}}});
  EXPECT_TRUE(try_act(s, Role::Scotland, {{"type", "rally"}, {"leader", "l"}, {"unit", "p"}}));
  EXPECT_TRUE(try_act(s, Role::Scotland, {{"type", "rally"}, {"leader", "m"}, {"unit", "q"}}));
}

TEST(Rally, AFullStrengthUnitOrACrossbowIsNeverRallied) {
  State s = start(board(kTurnField, {{"p", "scotland", "pike", "0101"},
                                     {"l", "scotland", "leader", "0101"},
                                     {"e", "england", "pike", "0703"}}));
  scots_turn(s, 6);
  EXPECT_TRUE(try_act(s, Role::Scotland, {{"type", "rally"}, {"leader", "l"}, {"unit", "p"}}));
}

}  // namespace
}  // namespace blockfog::scotland_rising::testing
