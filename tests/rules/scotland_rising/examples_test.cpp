// The rulebook's worked examples of combat ("Gameplay Examples, Combat"), played on small boards
// with the printed dice scripted: each comes out exactly as printed.

#include <gtest/gtest.h>

#include "tests/rules/scotland_rising/sr_fixture.h"

namespace blockfog::scotland_rising::testing {
namespace {

const std::vector<std::string> kExampleField = {"......", "......", "......", "......"};

TEST(WorkedExamples, AKnightChargesAPikeTwoHexesAwayAndEliminatesItWithTwoFives) {
  State s = start(board(kExampleField, {{"pike", "scotland", "pike", "0101"},
                                        {"knight_a", "england", "knight", "0301"}}));
  scots_turn(s, 3);
  english_turn(s, 1);  // 4 command AP on turn 1, 1 random AP: 5 AP
  ASSERT_EQ(s.pos.ap, 5);
  script(s, {4, 5, 5});
  act(s, Role::England,
      {{"type", "charge"}, {"unit", "knight_a"}, {"path", {"0201"}}, {"target", "0101"}});
  EXPECT_EQ(s.pos.ap, 3);  // the charge cost 2 AP
  EXPECT_EQ(hex(s, "0201"), unit(s, "knight_a").hex);
  EXPECT_TRUE(unit(s, "pike").eliminated);  // flipped for the first 5, eliminated by the second
  EXPECT_EQ(s.pos.vp[1], 2);
  EXPECT_FALSE(unit(s, "knight_a").disordered);
  EXPECT_FALSE(s.rng.has_script());
}

TEST(WorkedExamples, AnAxHitsAStackedReducedPikeAndTheSpareSixKillsItsLeaderOnAFour) {
  State s = start(board(kExampleField, {{"ax", "scotland", "ax", "0101"},
                                        {"pike", "england", "pike", "0201"},
                                        {"leader", "england", "leader", "0201"}}));
  unit(s, "pike").reduced = true;
  scots_turn(s, 3);
  script(s, {3, 5, 6, 4});  // the ax's 3 dice, then the leader's roll for the spare hit (R2)
  act(s, Role::Scotland, {{"type", "attack"}, {"unit", "ax"}, {"target", "0201"}});
  EXPECT_TRUE(unit(s, "pike").eliminated);
  EXPECT_TRUE(unit(s, "leader").eliminated);
  EXPECT_EQ(s.pos.vp[0], 5 + 2 + 3);
  EXPECT_FALSE(s.rng.has_script());
}

TEST(WorkedExamples, ALongbowShootsOverItsOwnPikeAtASchiltronThenThePikesTradeSingleDice) {
  State s = setup(test_seed(),
                  Data::parse(board(kExampleField, {{"scots", "scotland", "pike", "0101"},
                                                    {"foot", "england", "pike", "0201"},
                                                    {"bow", "england", "longbow", "0301"}})),
                  Options{});
  act(s, Role::Scotland, {{"type", "schiltron"}, {"unit", "scots"}});
  act(s, Role::Scotland, {{"type", "setup_done"}});
  ASSERT_TRUE(unit(s, "scots").schiltron);
  scots_turn(s, 4);
  english_turn(s, 2);  // 4 + 1 = 5 AP
  ASSERT_EQ(s.pos.ap, 5);
  // The longbow fires at range 2 over its own pike (units do not block sight): 1 die, not 2.
  script(s, {5});
  act(s, Role::England, {{"type", "attack"}, {"unit", "bow"}, {"target", "0101"}});
  EXPECT_TRUE(unit(s, "scots").reduced);
  EXPECT_TRUE(unit(s, "scots").schiltron);
  EXPECT_EQ(s.pos.ap, 4);
  script(s, {2});
  act(s, Role::England, {{"type", "attack"}, {"unit", "foot"}, {"target", "0101"}});
  EXPECT_TRUE(unit(s, "scots").reduced);
  EXPECT_FALSE(unit(s, "scots").eliminated);
  EXPECT_EQ(s.pos.ap, 3);
  script(s, {1});  // turn 2: 6 + 1 = 7 AP for the Scots
  act(s, Role::England, {{"type", "end_turn"}});
  act(s, Role::Scotland, {{"type", "roll_ap"}});
  EXPECT_EQ(s.pos.ap, 7);
  script(s, {6});  // the schiltron attacks with 1 die, not 2
  act(s, Role::Scotland, {{"type", "attack"}, {"unit", "scots"}, {"target", "0201"}});
  EXPECT_TRUE(unit(s, "foot").reduced);
  EXPECT_EQ(s.pos.ap, 6);
  EXPECT_FALSE(s.rng.has_script());
}

}  // namespace
}  // namespace blockfog::scotland_rising::testing
