// The Battle Events Table (optional rule 2, R13): when it is rolled and what each result does.

#include <gtest/gtest.h>

#include "rules/scotland_rising/combat.h"
#include "tests/rules/scotland_rising/sr_fixture.h"

namespace blockfog::scotland_rising::testing {
namespace {

const std::vector<std::string> kEventField = {"........", "........", "........", "........"};

Options events(bool solitaire = false) {
  Options o;
  o.battle_events = true;
  o.solitaire_events = solitaire;
  return o;
}

// The Scots' turn 1 with the AP die showing 1 and two dice summing to `sum` for the event.
State scots_with_event(const std::vector<Piece>& pieces, int sum) {
  State s = start(board(kEventField, pieces), {}, events());
  const int first = sum <= 7 ? sum - 1 : 6;
  script(s, {1, first, sum - first});
  act(s, Role::Scotland, {{"type", "roll_ap"}});
  return s;
}

const Piece kEventFoe = {"foe", "england", "pike", "0804"};

TEST(BattleEvents, AreRolledWhenTheApDieShowsOne) {
  State s = scots_with_event({{"p", "scotland", "pike", "0101"}, kEventFoe}, 4);
  EXPECT_EQ(s.pos.event, Event::LongbowRange);
  EXPECT_EQ(s.pos.ap, 7);
}

TEST(BattleEvents, AreNotRolledOnATwoUnlessTheSolitaireFrequencyIsChosen) {
  State s = start(board(kEventField, {{"p", "scotland", "pike", "0101"}, kEventFoe}), {}, events());
  scots_turn(s, 2);
  EXPECT_EQ(s.pos.event, Event::None);
  s = start(board(kEventField, {{"p", "scotland", "pike", "0101"}, kEventFoe}), {}, events(true));
  script(s, {2, 5, 5});
  act(s, Role::Scotland, {{"type", "roll_ap"}});
  EXPECT_EQ(s.pos.event, Event::LongbowDie);
}

TEST(BattleEvents, AreNeverRolledWithoutTheOption) {
  State s = start(board(kEventField, {{"p", "scotland", "pike", "0101"}, kEventFoe}));
  scots_turn(s, 1);
  EXPECT_EQ(s.pos.event, Event::None);
  EXPECT_FALSE(s.rng.has_script());
}

TEST(BattleEvents, TwelveIsNoEvent) {  // R13
  State s = scots_with_event({{"p", "scotland", "pike", "0101"}, kEventFoe}, 12);
  EXPECT_EQ(s.pos.event, Event::None);
}

TEST(BattleEvents, AnEventLastsOnlyForTheTurnOfItsSide) {
  State s = scots_with_event({{"p", "scotland", "pike", "0101"}, kEventFoe}, 4);
  english_turn(s, 3);
  EXPECT_EQ(s.pos.event, Event::None);
}

TEST(BattleEvents, TwoRalliesTwoUnitsWithoutRollOrLeader) {
  State s = start(board(kEventField, {{"a", "scotland", "pike", "0101"},
                                      {"b", "scotland", "pike", "0103"},
                                      {"c", "scotland", "pike", "0301"},
                                      kEventFoe}),
                  {}, events());
  for (const char* id : {"a", "b", "c"}) unit(s, id).reduced = true;
  script(s, {1, 1, 1});
  act(s, Role::Scotland, {{"type", "roll_ap"}});
  ASSERT_EQ(s.pos.event, Event::RallyTwo);
  const int ap = s.pos.ap;
  act(s, Role::Scotland, {{"type", "event_rally"}, {"unit", "a"}});
  act(s, Role::Scotland, {{"type", "event_rally"}, {"unit", "b"}});
  EXPECT_TRUE(try_act(s, Role::Scotland, {{"type", "event_rally"}, {"unit", "c"}}));
  EXPECT_FALSE(unit(s, "a").reduced);
  EXPECT_FALSE(unit(s, "b").reduced);
  EXPECT_EQ(s.pos.ap, ap);
}

TEST(BattleEvents, ThreeLetUpToThreePikeMoveOneHexAndAttackForOneApEach) {
  State s = scots_with_event({{"a", "scotland", "pike", "0101"},
                              {"b", "scotland", "pike", "0103"},
                              {"c", "scotland", "pike", "0501"},
                              {"d", "scotland", "pike", "0701"},
                              {"x", "scotland", "ax", "0104"},
                              {"e", "england", "pike", "0301"},
                              {"f", "england", "pike", "0303"},
                              {"g", "england", "pike", "0601"},
                              {"h", "england", "pike", "0304"}},
                             3);
  ASSERT_EQ(s.pos.event, Event::PikeAdvance);
  const int ap = s.pos.ap;
  EXPECT_TRUE(
      try_act(s, Role::Scotland,
              {{"type", "move_attack"}, {"unit", "x"}, {"path", {"0204"}}, {"target", "0304"}}));
  EXPECT_TRUE(try_act(
      s, Role::Scotland,
      {{"type", "move_attack"}, {"unit", "a"}, {"path", {"0102", "0202"}}, {"target", "0303"}}));
  script(s, {1, 1, 1, 1, 1, 1});
  act(s, Role::Scotland,
      {{"type", "move_attack"}, {"unit", "a"}, {"path", {"0201"}}, {"target", "0301"}});
  act(s, Role::Scotland,
      {{"type", "move_attack"}, {"unit", "b"}, {"path", {"0203"}}, {"target", "0303"}});
  act(s, Role::Scotland,
      {{"type", "move_attack"}, {"unit", "c"}, {"path", {"0502"}}, {"target", "0601"}});
  EXPECT_EQ(s.pos.ap, ap - 3);
  EXPECT_TRUE(
      try_act(s, Role::Scotland,
              {{"type", "move_attack"}, {"unit", "d"}, {"path", {"0702"}}, {"target", "0601"}}));
}

TEST(BattleEvents, FourAddsAHexToLongbowRangeWithSightStillNeeded) {
  State s = scots_with_event({{"l", "scotland", "longbow", "0101"},
                              {"e", "england", "pike", "0401"},
                              {"foe", "england", "pike", "0804"}},
                             4);
  EXPECT_TRUE(is_legal(s, Role::Scotland, {{"type", "attack"}, {"unit", "l"}, {"target", "0401"}}));
}

TEST(BattleEvents, FiveAndEightAddOneToFootMovement) {
  for (int sum : {5, 8}) {
    State s = scots_with_event(
        {{"p", "scotland", "pike", "0101"}, {"k", "scotland", "knight", "0103"}, kEventFoe}, sum);
    EXPECT_TRUE(is_legal(s, Role::Scotland,
                         {{"type", "move"}, {"unit", "p"}, {"path", {"0201", "0301", "0401"}}}));
    EXPECT_TRUE(
        try_act(s, Role::Scotland,
                {{"type", "move"}, {"unit", "k"}, {"path", {"0203", "0303", "0403", "0503"}}}));
  }
}

TEST(BattleEvents, SixAndElevenAddOneToKnightLeaderAndHobelarMovement) {
  for (int sum : {6, 11}) {
    State s = scots_with_event(
        {{"p", "scotland", "pike", "0101"}, {"k", "scotland", "knight", "0103"}, kEventFoe}, sum);
    EXPECT_TRUE(
        is_legal(s, Role::Scotland,
                 {{"type", "move"}, {"unit", "k"}, {"path", {"0203", "0303", "0403", "0503"}}}));
    EXPECT_TRUE(try_act(s, Role::Scotland,
                        {{"type", "move"}, {"unit", "p"}, {"path", {"0201", "0301", "0401"}}}));
  }
}

TEST(BattleEvents, SevenAddsADieToPikeNotInSchiltron) {
  State s = scots_with_event({{"p", "scotland", "pike", "0101"},
                              {"q", "scotland", "pike", "0103"},
                              {"e", "england", "pike", "0201"},
                              {"f", "england", "pike", "0203"}},
                             7);
  unit(s, "q").schiltron = true;
  EXPECT_EQ(attack_dice(s, 0, hex(s, "0201"), AttackKind::Plain), 3);
  EXPECT_EQ(attack_dice(s, 1, hex(s, "0203"), AttackKind::Plain), 1);
}

TEST(BattleEvents, NineAddsADieToChargesOnly) {
  State s =
      scots_with_event({{"k", "scotland", "knight", "0101"}, {"e", "england", "pike", "0401"}}, 9);
  EXPECT_EQ(attack_dice(s, 0, hex(s, "0401"), AttackKind::Charge), 4);
  EXPECT_EQ(attack_dice(s, 0, hex(s, "0401"), AttackKind::Plain), 3);
}

TEST(BattleEvents, TenAddsADieToLongbowAttacks) {
  State s = scots_with_event(
      {{"l", "scotland", "longbow", "0101"}, {"e", "england", "pike", "0301"}}, 10);
  EXPECT_EQ(attack_dice(s, 0, hex(s, "0301"), AttackKind::Plain), 3);
}

}  // namespace
}  // namespace blockfog::scotland_rising::testing
