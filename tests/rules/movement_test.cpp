// ACCEPTANCE group C, movement: group moves and their cost, movement allowance, red borders,
// border limits, the Anglo-Scottish border, no doubling back, once per turn (RULES 4.1-4.5),
// and the undo and phase-end behaviour of the step-by-step move phase (RULES 4.3.7, 4.11,
// 14 "Undo"). Battles, pinning, the border-use record, Truce and the Norse are in
// movement_pinning_test.cpp.

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "rules/hots/engine.h"
#include "tests/rules/fixture.h"
#include "tests/rules/helpers.h"

namespace blockfog::hots::testing {
namespace {

int crossings(const Fixture& f, Role side, std::string_view border_id) {
  return f.state().crossings[index_of(side)][border(border_id)];
}

// Completes the current block's move if it is still open. A block whose movement allowance is
// spent is offered nothing but `stop` (the engine leaves that stop to its owner, move_phase.cpp:
// stopping by itself would show the opponent the hidden block's allowance); every other forced
// stop (red border, enemy area, England, no further step) happens by itself.
void finish(Fixture& f, Role side) {
  if (is_moving(f)) f.act(side, stop());
}

// C-01 position: 3 E blocks in Lothian, 1 in Mentieth, 1 in Lanark, no Scots around; E has a
// 2-card and is P1.
Fixture group_activation_position() {
  Fixture f;
  f.clear({"lothian", "mentieth", "lanark", "fife", "annan"})
      .place("eng_york_infantry", "lothian")
      .place("eng_lancaster_infantry", "lothian")
      .place("eng_durham_infantry", "lothian")
      .place("eng_westmor_infantry", "mentieth")
      .place("eng_wales_infantry", "lanark");
  deal(f, "move1_1", "move2_1");
  return f;
}

// C-01 Group activation (RULES 4.1.2, 4.1.3): one MP activates an area; its other blocks move
// free; with MP spent no other group may move.
TEST(Movement, GroupActivationChargesOneMpPerAreaC01) {
  Fixture f = group_activation_position();
  ASSERT_TRUE(in_move_phase_of(f, kEngland));
  ASSERT_EQ(f.state().mp, 2);

  f.act(kEngland, move_to("eng_york_infantry", "dunbar")).act(kEngland, stop());
  EXPECT_EQ(f.state().mp, 1);
  EXPECT_TRUE(is_activated(f, "lothian"));
  f.act(kEngland, move_to("eng_lancaster_infantry", "dunbar")).act(kEngland, stop());
  f.act(kEngland, move_to("eng_durham_infantry", "dunbar")).act(kEngland, stop());
  EXPECT_EQ(f.state().mp, 1) << "further blocks of an activated group move free";
  EXPECT_TRUE(is_at(f, "eng_durham_infantry", "dunbar"));

  f.act(kEngland, move_to("eng_westmor_infantry", "fife")).act(kEngland, stop());
  EXPECT_TRUE(is_at(f, "eng_westmor_infantry", "fife"));
  // MP 0 and no unmoved block in an activated area: nothing can move, only the end of the
  // phase is offered (4.11).
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
  EXPECT_FALSE(block_offered(f, kEngland, "eng_wales_infantry"));
  f.refuse(kEngland, move_to("eng_wales_infantry", "lothian"));
  EXPECT_TRUE(is_at(f, "eng_wales_infantry", "lanark"));
  f.act(kEngland, end_phase());
  EXPECT_FALSE(in_move_phase_of(f, kEngland));
}

// C-01, checked while England's move phase is still open (a third Lothian block is held
// back): the Lanark group is not offered at MP 0, the activated Lothian group still is, free.
TEST(Movement, UnactivatedGroupCannotMoveAtZeroMpC01) {
  Fixture f = group_activation_position();
  f.act(kEngland, move_to("eng_york_infantry", "dunbar")).act(kEngland, stop());
  f.act(kEngland, move_to("eng_lancaster_infantry", "dunbar")).act(kEngland, stop());
  f.act(kEngland, move_to("eng_westmor_infantry", "fife")).act(kEngland, stop());
  ASSERT_TRUE(in_move_phase_of(f, kEngland));
  EXPECT_EQ(f.state().mp, 0);

  EXPECT_FALSE(block_offered(f, kEngland, "eng_wales_infantry"));
  EXPECT_EQ(f.refuse(kEngland, move_to("eng_wales_infantry", "lothian")),
            core::RuleErrorCode::IllegalAction);
  EXPECT_TRUE(block_offered(f, kEngland, "eng_durham_infantry"));
  EXPECT_TRUE(is_activated(f, "mentieth"));
  f.act(kEngland, move_to("eng_durham_infantry", "dunbar")).act(kEngland, stop());
  EXPECT_TRUE(is_at(f, "eng_durham_infantry", "dunbar"));
  // Free, and the last block that could move: the phase waits for its end (4.11).
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
  EXPECT_FALSE(block_offered(f, kEngland, "eng_wales_infantry"));
}

// C-02 position: Wallace, Douglas (and Barclay) in Fife; Mentieth, Lanark, Carrick vacant; S
// has a 1-card (P2, after England's 1-card move phase, which England ends at once).
Fixture allowance_position() {
  Fixture f;
  f.clear({"mentieth", "lanark", "carrick"});
  deal(f, "move1_1", "move1_2");
  f.act(kEngland, end_phase());
  return f;
}

// C-02 Movement allowance (RULES 4.3.4): a move-3 block takes three black borders; a move-2
// block stops after two.
TEST(Movement, WallaceMovesThreeAreasC02) {
  Fixture f = allowance_position();
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  ASSERT_EQ(f.state().mp, 1);
  f.act(kScotland, move_to("sco_wallace", "mentieth"))
      .act(kScotland, step_to("lanark"))
      .act(kScotland, step_to("carrick"));
  EXPECT_TRUE(is_at(f, "sco_wallace", "carrick"));
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::Step)) << "allowance spent";
  finish(f, kScotland);
  EXPECT_FALSE(is_moving(f));
  EXPECT_TRUE(blk(f, "sco_wallace").moved);
  EXPECT_EQ(f.state().mp, 0);
  EXPECT_TRUE(is_activated(f, "fife"));
  EXPECT_EQ(crossings(f, kScotland, "mentieth-fife"), 1);
  EXPECT_EQ(crossings(f, kScotland, "mentieth-lanark"), 1);
  EXPECT_EQ(crossings(f, kScotland, "carrick-lanark"), 1);
}

TEST(Movement, MoveTwoBlockStopsAfterTwoAreasC02) {
  Fixture f = allowance_position();
  f.act(kScotland, move_to("sco_douglas", "mentieth")).act(kScotland, step_to("lanark"));
  EXPECT_TRUE(is_at(f, "sco_douglas", "lanark"));
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::Step)) << "allowance spent";
  EXPECT_FALSE(f.offered(kScotland, step_to("carrick")));
  EXPECT_EQ(f.refuse(kScotland, step_to("carrick")), core::RuleErrorCode::IllegalAction);
  finish(f, kScotland);
  EXPECT_TRUE(is_at(f, "sco_douglas", "lanark"));
  EXPECT_FALSE(f.offered(kScotland, step_to("carrick")));
  f.refuse(kScotland, step_to("carrick"));
  EXPECT_EQ(f.state().mp, 0);
}

// C-03 Red border stops (RULES 1.2.2, 4.3.4).
TEST(Movement, RedBorderStopsTheBlockC03) {
  Fixture f;
  f.clear({"lanark", "selkirk", "teviot"}).place("sco_douglas", "lanark");
  deal(f, "move2_1", "move1_1");
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  EXPECT_TRUE(f.offered(kScotland, move_to("sco_douglas", "selkirk")));
  f.act(kScotland, move_to("sco_douglas", "selkirk"));
  EXPECT_TRUE(is_at(f, "sco_douglas", "selkirk"));
  EXPECT_FALSE(is_moving(f)) << "crossing red lanark-selkirk stops the block";
  EXPECT_EQ(f.state().mp, 1);
  EXPECT_FALSE(f.offered(kScotland, step_to("teviot")));
  f.refuse(kScotland, step_to("teviot"));
}

// C-04 Enemy area stops (RULES 4.3.4, 4.6.1.1): the move ends in the enemy area and creates a
// battle there with the mover as attacker and the block as main attacker.
TEST(Movement, EnteringEnemyAreaStopsAndCreatesBattleC04) {
  Fixture f;
  f.clear({"fife", "mentieth", "lanark"})
      .place("sco_douglas", "fife")
      .place("eng_york_infantry", "mentieth");
  deal(f, "move2_1", "move1_1");
  f.act(kScotland, move_to("sco_douglas", "mentieth"));
  EXPECT_TRUE(is_at(f, "sco_douglas", "mentieth"));
  EXPECT_FALSE(is_moving(f));
  const BattleMarker expected{index_of(kScotland), area("fife"), border("mentieth-fife")};
  EXPECT_EQ(f.state().battles[area("mentieth")], expected);
  EXPECT_FALSE(blk(f, "sco_douglas").reserve) << "Douglas is the main attacker";
  EXPECT_EQ(f.state().border_use[border("mentieth-fife")], index_of(kScotland));
  EXPECT_EQ(f.state().mp, 1);
  EXPECT_FALSE(f.offered(kScotland, step_to("lanark")));
  f.refuse(kScotland, step_to("lanark"));
}

// A block that may still move two areas cannot continue out of an enemy area (RULES 4.3.4):
// no step and no stop is offered, the move is already over.
TEST(Movement, BlockCannotContinueAfterEnteringEnemyArea) {
  Fixture f;
  f.clear({"mentieth", "lanark"}).place("eng_york_infantry", "mentieth");
  deal(f, "move2_1", "move1_1");
  f.act(kScotland, move_to("sco_wallace", "mentieth"));
  EXPECT_TRUE(is_at(f, "sco_wallace", "mentieth"));
  EXPECT_FALSE(is_moving(f));
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::Step));
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::Stop));
  f.refuse(kScotland, step_to("lanark"));
  f.refuse(kScotland, stop());
  EXPECT_FALSE(block_offered(f, kScotland, "sco_wallace"));
}

// C-05 position: 1 S block in Atholl; 2 E blocks in Fife, 1 in Mentieth; 2 S blocks in Angus.
// E is P1 with a 2-card, S P2 with a 2-card (so its phase stays open after one group move).
Fixture red_limit_position() {
  Fixture f;
  f.clear({"atholl", "fife", "mentieth", "angus"})
      .place("sco_douglas", "atholl")
      .place("eng_york_infantry", "fife")
      .place("eng_lancaster_infantry", "fife")
      .place("eng_westmor_infantry", "mentieth")
      .place("sco_fraser", "angus")
      .place("sco_grant", "angus");
  deal(f, "move2_2", "move2_1");
  return f;
}

// C-05 Red limit per player (RULES 4.4): two E blocks cross red atholl-fife; a third E block
// may not; Scotland's own counter for that border starts at 0.
TEST(Movement, RedBorderLimitIsTwoPerPlayerC05) {
  Fixture f = red_limit_position();
  ASSERT_TRUE(in_move_phase_of(f, kEngland));
  f.act(kEngland, move_to("eng_york_infantry", "atholl"));
  f.act(kEngland, move_to("eng_lancaster_infantry", "atholl"));
  EXPECT_EQ(crossings(f, kEngland, "atholl-fife"), 2);
  EXPECT_EQ(f.state().mp, 1);

  {  // On a copy: the Mentieth block reaches Fife but may not go on into Atholl.
    Fixture copy = f;
    copy.act(kEngland, move_to("eng_westmor_infantry", "fife"));
    ASSERT_TRUE(is_moving(copy));
    EXPECT_FALSE(copy.offered(kEngland, step_to("atholl")));
    EXPECT_EQ(copy.refuse(kEngland, step_to("atholl")), core::RuleErrorCode::IllegalAction);
    EXPECT_TRUE(is_at(copy, "eng_westmor_infantry", "fife"));
  }
  f.act(kEngland, end_phase());

  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  EXPECT_EQ(crossings(f, kScotland, "atholl-fife"), 0);
  f.act(kScotland, move_to("sco_fraser", "fife")).act(kScotland, step_to("atholl"));
  f.act(kScotland, move_to("sco_grant", "fife")).act(kScotland, step_to("atholl"));
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  EXPECT_TRUE(is_at(f, "sco_fraser", "atholl"));
  EXPECT_TRUE(is_at(f, "sco_grant", "atholl"));
  EXPECT_EQ(crossings(f, kScotland, "atholl-fife"), 2);
  EXPECT_TRUE(blk(f, "sco_fraser").reserve);
  EXPECT_TRUE(blk(f, "sco_grant").reserve);
  EXPECT_EQ(blk(f, "sco_grant").entry, border("atholl-fife"));
}

// C-06 Black limit (RULES 4.4): 6 blocks of one player per black border per move phase.
TEST(Movement, BlackBorderLimitIsSixC06) {
  Fixture f;
  f.clear({"buchan", "angus"});
  const std::string_view scots[] = {"sco_wallace", "sco_douglas",  "sco_barclay", "sco_fraser",
                                    "sco_grant",   "sco_campbell", "sco_graham"};
  for (auto id : scots) f.place(id, "buchan");
  deal(f, "move2_1", "move1_1");
  for (int i = 0; i < 6; ++i) {
    f.act(kScotland, move_to(scots[i], "angus")).act(kScotland, stop());
    EXPECT_TRUE(is_at(f, scots[i], "angus")) << scots[i];
  }
  EXPECT_EQ(crossings(f, kScotland, "buchan-angus"), 6);
  EXPECT_EQ(f.state().mp, 1) << "one group move";
  EXPECT_FALSE(f.offered(kScotland, move_to("sco_graham", "angus")));
  EXPECT_EQ(f.refuse(kScotland, move_to("sco_graham", "angus")),
            core::RuleErrorCode::IllegalAction);
  EXPECT_TRUE(f.offered(kScotland, move_to("sco_graham", "strathspey")))
      << "only that border is closed to the 7th block";
}

// C-07 position: E (P1) has a 3-card and 5 blocks in England; Annan and Dunbar vacant.
Fixture england_exit_position() {
  Fixture f;
  f.clear({"england", "annan", "dunbar"});
  for (auto id : {"eng_york_infantry", "eng_lancaster_infantry", "eng_northumber_infantry",
                  "eng_durham_infantry", "eng_westmor_infantry"}) {
    f.place(id, "england");
  }
  deal(f, "move2_1", "move3_1");
  return f;
}

// C-07 Anglo-Scottish cost (RULES 4.1.3, 4.5.1): every block leaving England pays 1 MP and
// England is never activated.
TEST(Movement, EachBlockLeavingEnglandPaysOneMpC07) {
  Fixture f = england_exit_position();
  ASSERT_EQ(f.state().mp, 3);
  f.act(kEngland, move_to("eng_york_infantry", "annan")).act(kEngland, stop());
  EXPECT_EQ(f.state().mp, 2);
  EXPECT_FALSE(is_activated(f, "england"));
  f.act(kEngland, move_to("eng_lancaster_infantry", "dunbar")).act(kEngland, stop());
  EXPECT_EQ(f.state().mp, 1);
  EXPECT_FALSE(is_activated(f, "england"));
  EXPECT_EQ(crossings(f, kEngland, "england-annan"), 1);
  EXPECT_EQ(crossings(f, kEngland, "england-dunbar"), 1);
  f.act(kEngland, move_to("eng_northumber_infantry", "annan")).act(kEngland, stop());
  EXPECT_TRUE(is_at(f, "eng_northumber_infantry", "annan"));
  // MP 0, no activated area: nothing can move any more, only the end of the phase (4.11).
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
  EXPECT_FALSE(block_offered(f, kEngland, "eng_durham_infantry"));
  f.refuse(kEngland, move_to("eng_durham_infantry", "annan"));
  EXPECT_TRUE(is_at(f, "eng_durham_infantry", "england"));
}

// C-07, with England's phase held open by an activated group: at MP 0 no block leaves England
// and no other group is activated; the activated group still moves free.
TEST(Movement, NoBlockLeavesEnglandAndNoGroupActivatesAtZeroMpC07) {
  Fixture f = england_exit_position();
  f.clear("lothian")
      .place("eng_cumbria_infantry", "lothian")
      .place("eng_ulster_infantry", "lothian");
  f.act(kEngland, move_to("eng_york_infantry", "annan")).act(kEngland, stop());
  f.act(kEngland, move_to("eng_lancaster_infantry", "dunbar")).act(kEngland, stop());
  f.act(kEngland, move_to("eng_cumbria_infantry", "selkirk"));  // red: stops, activates lothian
  ASSERT_TRUE(in_move_phase_of(f, kEngland));
  EXPECT_EQ(f.state().mp, 0);
  EXPECT_TRUE(is_activated(f, "lothian"));

  EXPECT_FALSE(block_offered(f, kEngland, "eng_northumber_infantry"));
  EXPECT_EQ(f.refuse(kEngland, move_to("eng_northumber_infantry", "annan")),
            core::RuleErrorCode::IllegalAction);
  f.refuse(kEngland, move_to("eng_northumber_infantry", "teviot"));
  EXPECT_FALSE(block_offered(f, kEngland, "eng_mar")) << "no MP to activate Mar";
  EXPECT_TRUE(block_offered(f, kEngland, "eng_ulster_infantry"));
  f.act(kEngland, move_to("eng_ulster_infantry", "selkirk"));
  EXPECT_TRUE(is_at(f, "eng_ulster_infantry", "selkirk"));
}

// C-08 position: E (P1, 3-card) has three move-2 infantry in England; Teviot, Annan, Galloway,
// Dunbar and Lothian vacant (the Scottish nobles of Galloway/Annan wait in Lochaber).
Fixture england_entry_position() {
  Fixture f;
  f.clear({"england", "teviot", "annan", "galloway", "dunbar", "lothian"})
      .place("sco_galloway", "lochaber")
      .place("sco_bruce", "lochaber")
      .place("eng_york_infantry", "england")
      .place("eng_lancaster_infantry", "england")
      .place("eng_durham_infantry", "england");
  deal(f, "move1_1", "move3_1");
  return f;
}

// C-08 England-Teviot is red (RULES 4.5.3): the block stops in Teviot with movement left.
// England-Annan and England-Dunbar are black: the block may go on.
TEST(Movement, EnglandExitsByRedAndBlackBordersC08) {
  Fixture f = england_entry_position();
  ASSERT_TRUE(in_move_phase_of(f, kEngland));
  f.act(kEngland, move_to("eng_york_infantry", "teviot"));
  EXPECT_TRUE(is_at(f, "eng_york_infantry", "teviot"));
  EXPECT_FALSE(is_moving(f)) << "red england-teviot stops the block";
  EXPECT_EQ(f.state().mp, 2);

  f.act(kEngland, move_to("eng_lancaster_infantry", "annan"));
  ASSERT_TRUE(is_moving(f)) << "black england-annan: the block may continue";
  EXPECT_TRUE(f.offered(kEngland, step_to("galloway")));
  f.act(kEngland, step_to("galloway"));
  EXPECT_TRUE(is_at(f, "eng_lancaster_infantry", "galloway"));
  EXPECT_FALSE(is_moving(f)) << "red galloway-annan stops the block";
  EXPECT_EQ(f.state().mp, 1);

  f.act(kEngland, move_to("eng_durham_infantry", "dunbar"));
  ASSERT_TRUE(is_moving(f));
  EXPECT_TRUE(f.offered(kEngland, step_to("lothian")));
  f.act(kEngland, step_to("lothian"));
  EXPECT_TRUE(is_at(f, "eng_durham_infantry", "lothian"));
  EXPECT_EQ(crossings(f, kEngland, "lothian-dunbar"), 1);
  EXPECT_FALSE(kind_offered(f, kEngland, ActionKind::Step)) << "allowance spent";
  finish(f, kEngland);
  EXPECT_TRUE(is_at(f, "eng_durham_infantry", "lothian"));
}

// England-Teviot is red, so its limit of 2 applies too (RULES 4.4, 4.5.3).
TEST(Movement, AtMostTwoBlocksCrossEnglandTeviot) {
  Fixture f = england_entry_position();
  f.act(kEngland, move_to("eng_york_infantry", "teviot"));
  f.act(kEngland, move_to("eng_lancaster_infantry", "teviot"));
  EXPECT_EQ(crossings(f, kEngland, "england-teviot"), 2);
  EXPECT_EQ(f.state().mp, 1);
  EXPECT_FALSE(f.offered(kEngland, move_to("eng_durham_infantry", "teviot")));
  f.refuse(kEngland, move_to("eng_durham_infantry", "teviot"));
  EXPECT_TRUE(f.offered(kEngland, move_to("eng_durham_infantry", "dunbar")));
}

// C-09 position: S (P1, 2-card), Douglas and Fraser in Annan, England and Carrick vacant.
Fixture annan_position(std::string_view scotland_card, std::string_view england_card) {
  Fixture f;
  f.clear({"england", "annan", "carrick"})
      .place("sco_douglas", "annan")
      .place("sco_fraser", "annan");
  deal(f, scotland_card, england_card);
  return f;
}

// C-09 Entering England (RULES 4.1.3 Interpretation, 4.5.2): the crossing block pays 1 MP by
// itself, does not activate Annan, and must stop in England. (Barclay waits in Annan so that
// the phase stays open at MP 0 and its MP can be read.)
TEST(Movement, EnteringEnglandCostsOwnMpAndStopsC09) {
  Fixture f = annan_position("move2_1", "move1_1");
  f.place("sco_barclay", "annan");
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  f.act(kScotland, move_to("sco_douglas", "england"));
  EXPECT_TRUE(is_at(f, "sco_douglas", "england"));
  EXPECT_FALSE(is_moving(f)) << "a block entering England must stop";
  EXPECT_EQ(f.state().mp, 1);
  EXPECT_FALSE(is_activated(f, "annan"));
  EXPECT_TRUE(blk(f, "sco_douglas").moved);
  // No path through England: annan->england->dunbar.
  EXPECT_FALSE(f.offered(kScotland, step_to("dunbar")));
  f.refuse(kScotland, step_to("dunbar"));

  f.act(kScotland, move_to("sco_fraser", "carrick")).act(kScotland, stop());
  EXPECT_TRUE(is_at(f, "sco_fraser", "carrick"));
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  EXPECT_EQ(f.state().mp, 0);
  EXPECT_TRUE(is_activated(f, "annan"));
}

// 4.1.3 Interpretation: a block crossing the Anglo-Scottish border pays its own MP even when
// its area is already activated.
TEST(Movement, CrossingBlockPaysEvenFromActivatedArea) {
  Fixture f = annan_position("move3_1", "move2_1");
  f.place("sco_barclay", "annan");
  f.act(kScotland, move_to("sco_fraser", "carrick")).act(kScotland, stop());
  EXPECT_EQ(f.state().mp, 2);
  ASSERT_TRUE(is_activated(f, "annan"));
  f.act(kScotland, move_to("sco_douglas", "england"));
  EXPECT_EQ(f.state().mp, 1);
  f.act(kScotland, move_to("sco_barclay", "carrick")).act(kScotland, stop());
  EXPECT_EQ(f.state().mp, 1) << "the activated group still moves free";
}

// C-10 No crossing at MP 0 (RULES 4.1.4): S (P2, 1-card) activates Annan; another Annan block
// may still move, but not into England.
TEST(Movement, NoAngloScottishCrossingAtZeroMpC10) {
  Fixture f = annan_position("move1_1", "move1_2");
  f.act(kEngland, end_phase());
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  ASSERT_EQ(f.state().mp, 1);
  f.act(kScotland, move_to("sco_douglas", "carrick")).act(kScotland, stop());
  EXPECT_EQ(f.state().mp, 0);
  EXPECT_TRUE(is_activated(f, "annan"));
  EXPECT_TRUE(f.offered(kScotland, move_to("sco_fraser", "galloway")));
  EXPECT_FALSE(f.offered(kScotland, move_to("sco_fraser", "england")));
  EXPECT_EQ(f.refuse(kScotland, move_to("sco_fraser", "england")),
            core::RuleErrorCode::IllegalAction);
  f.act(kScotland, move_to("sco_fraser", "galloway"));
  EXPECT_TRUE(is_at(f, "sco_fraser", "galloway"));
}

// C-14 No doubling back (RULES 4.3.2.5).
TEST(Movement, NoDoublingBackC14) {
  Fixture f;
  f.clear("mentieth");
  deal(f, "move2_1", "move1_1");
  f.act(kScotland, move_to("sco_wallace", "mentieth"));
  ASSERT_TRUE(is_moving(f));
  EXPECT_FALSE(f.offered(kScotland, step_to("fife")));
  EXPECT_EQ(f.refuse(kScotland, step_to("fife")), core::RuleErrorCode::IllegalAction);
  EXPECT_TRUE(f.offered(kScotland, step_to("lanark"))) << "other steps stay open";
  EXPECT_TRUE(is_at(f, "sco_wallace", "mentieth"));
}

// C-15 Once per turn (RULES 4.2.2, 4.3.6): a block that moved is not offered again, even in
// an activated area with MP left.
TEST(Movement, BlockMovesOncePerTurnC15) {
  Fixture f;
  f.clear({"mentieth", "lanark"}).place("sco_fraser", "mentieth");
  deal(f, "move3_1", "move2_1");
  f.act(kScotland, move_to("sco_douglas", "mentieth")).act(kScotland, stop());
  EXPECT_EQ(f.state().mp, 2);
  f.act(kScotland, move_to("sco_fraser", "lanark")).act(kScotland, stop());
  EXPECT_EQ(f.state().mp, 1);
  ASSERT_TRUE(is_activated(f, "mentieth"));
  ASSERT_TRUE(is_activated(f, "fife"));
  EXPECT_TRUE(blk(f, "sco_douglas").moved);
  EXPECT_FALSE(block_offered(f, kScotland, "sco_douglas"));
  f.refuse(kScotland, move_to("sco_douglas", "lothian"));
  f.refuse(kScotland, move_to("sco_douglas", "fife"));
  EXPECT_TRUE(block_offered(f, kScotland, "sco_wallace"));
}

// Undo (RULES 4.3.7, 14): each step, the stop, and the block's selection can be taken back,
// restoring the block, MP, activation, counters and moved flag exactly.
TEST(Movement, UndoTakesBackStepsOneAtATime) {
  Fixture f;
  f.clear({"mentieth", "lanark"});
  deal(f, "move2_1", "move1_1");
  const Position start = f.state();
  const auto start_log = f.state().log.size();
  f.act(kScotland, move_to("sco_douglas", "mentieth"));
  const Position after_move = f.state();
  f.act(kScotland, step_to("lanark"));
  const Position after_step = f.state();
  const bool stopped_by_hand = is_moving(f);
  finish(f, kScotland);  // allowance spent
  EXPECT_EQ(f.state().mp, 1);
  EXPECT_TRUE(is_activated(f, "fife"));
  EXPECT_EQ(crossings(f, kScotland, "mentieth-lanark"), 1);
  ASSERT_TRUE(f.offered(kScotland, undo()));

  if (stopped_by_hand) {
    f.act(kScotland, undo());
    EXPECT_TRUE(static_cast<const Position&>(f.state()) == after_step);
    EXPECT_TRUE(is_at(f, "sco_douglas", "lanark"));
    EXPECT_EQ(f.state().mp, 2) << "MP are charged when the move is complete";
  }
  f.act(kScotland, undo());
  EXPECT_TRUE(static_cast<const Position&>(f.state()) == after_move);
  EXPECT_TRUE(is_at(f, "sco_douglas", "mentieth"));
  EXPECT_TRUE(is_moving(f));
  EXPECT_EQ(f.state().mp, 2);
  EXPECT_FALSE(is_activated(f, "fife"));
  EXPECT_EQ(crossings(f, kScotland, "mentieth-lanark"), 0);
  EXPECT_EQ(crossings(f, kScotland, "mentieth-fife"), 1);

  f.act(kScotland, undo());
  EXPECT_TRUE(static_cast<const Position&>(f.state()) == start);
  EXPECT_TRUE(is_at(f, "sco_douglas", "fife"));
  EXPECT_FALSE(blk(f, "sco_douglas").moved);
  EXPECT_EQ(crossings(f, kScotland, "mentieth-fife"), 0);
  EXPECT_EQ(f.state().log.size(), start_log) << "undone moves leave no log line";
  EXPECT_FALSE(f.offered(kScotland, undo()));
}

TEST(Movement, UndoOfStopRestoresMpAndActivation) {
  Fixture f;
  f.clear("mentieth");
  deal(f, "move2_1", "move1_1");
  f.act(kScotland, move_to("sco_douglas", "mentieth")).act(kScotland, stop());
  EXPECT_EQ(f.state().mp, 1);
  f.act(kScotland, undo());
  EXPECT_TRUE(is_moving(f));
  EXPECT_EQ(f.state().mp, 2);
  EXPECT_FALSE(is_activated(f, "fife"));
  f.act(kScotland, step_to("lothian"));
  EXPECT_TRUE(is_at(f, "sco_douglas", "lothian")) << "the move goes on from where it stood";
}

// Undo belongs to the mover: the opponent is never offered it, and it is gone once the turn
// passes to the other player (RULES 14, Undo).
TEST(Movement, UndoIsNotOfferedToTheOtherSide) {
  Fixture f;
  f.clear("mentieth");
  deal(f, "move2_1", "move1_1");
  f.act(kScotland, move_to("sco_douglas", "mentieth")).act(kScotland, stop());
  EXPECT_TRUE(f.offered(kScotland, undo()));
  EXPECT_FALSE(f.offered(kEngland, undo()));
  EXPECT_EQ(f.refuse(kEngland, undo()), core::RuleErrorCode::NotYourTurn);

  f.act(kScotland, end_phase());
  ASSERT_TRUE(in_move_phase_of(f, kEngland));
  EXPECT_FALSE(f.offered(kEngland, undo()));
  EXPECT_FALSE(f.offered(kScotland, undo()));
  f.refuse(kEngland, undo());
  f.refuse(kScotland, undo());
  EXPECT_TRUE(is_at(f, "sco_douglas", "mentieth"));
}

// RULES 4.1.1, 4.11: the move phase goes on while MP remain; the player ends it, and the MP
// left are lost.
TEST(Movement, MovePhaseDoesNotEndByItselfWhileMpRemain) {
  Fixture f;
  f.clear("mentieth");
  deal(f, "move3_1", "move1_1");
  f.act(kScotland, move_to("sco_douglas", "mentieth")).act(kScotland, stop());
  f.act(kScotland, move_to("sco_wallace", "mentieth")).act(kScotland, stop());
  f.act(kScotland, move_to("sco_barclay", "mentieth")).act(kScotland, stop());
  EXPECT_EQ(f.state().mp, 2);
  EXPECT_TRUE(in_move_phase_of(f, kScotland));
  EXPECT_TRUE(f.offered(kScotland, end_phase()));
  f.act(kScotland, end_phase());
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
  EXPECT_EQ(f.state().mp, 1) << "England's own card; Scotland's 2 MP are lost";
}

// RULES 4.11, 14 #11: with no MP left and nothing that can move, the player is offered only
// `end_move_phase` and `undo`; the phase never ends by itself, so his last move can be taken
// back.
TEST(Movement, TheLastMoveCanBeTakenBackAndOnlyEndMovePhaseEndsThePhase411) {
  Fixture f = group_activation_position();
  f.act(kEngland, move_to("eng_york_infantry", "dunbar")).act(kEngland, stop());
  f.act(kEngland, move_to("eng_lancaster_infantry", "dunbar")).act(kEngland, stop());
  f.act(kEngland, move_to("eng_durham_infantry", "dunbar")).act(kEngland, stop());
  f.act(kEngland, move_to("eng_westmor_infantry", "fife")).act(kEngland, stop());
  ASSERT_TRUE(in_move_phase_of(f, kEngland));
  EXPECT_EQ(f.state().mp, 0);
  EXPECT_EQ(legal_actions(f.state(), kEngland), (std::vector<Action>{end_phase(), undo()}));
  // The last move (its stop, then its step) is taken back.
  f.act(kEngland, undo()).act(kEngland, undo());
  EXPECT_TRUE(is_at(f, "eng_westmor_infantry", "mentieth"));
  EXPECT_EQ(f.state().mp, 1);
  f.act(kEngland, move_to("eng_westmor_infantry", "fife")).act(kEngland, stop());
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
  f.act(kEngland, end_phase());
  EXPECT_FALSE(in_move_phase_of(f, kEngland));
  EXPECT_TRUE(in_move_phase_of(f, kScotland));
  EXPECT_FALSE(f.offered(kEngland, undo()));
}

// The same move phase in a game of rules version hots-2, whose procedures are kept for the
// games created under it: the phase ends by itself once public facts show nothing can move.
TEST(Movement, AHots2GamesMovePhaseStillEndsByItself) {
  Fixture f;
  f.state().procedures = kProcedures2;
  f.clear({"lothian", "mentieth", "lanark", "fife", "annan"})
      .place("eng_york_infantry", "lothian")
      .place("eng_westmor_infantry", "mentieth")
      .place("eng_wales_infantry", "lanark");
  deal(f, "move1_1", "move2_1");
  f.act(kEngland, move_to("eng_york_infantry", "dunbar")).act(kEngland, stop());
  f.act(kEngland, move_to("eng_westmor_infantry", "fife")).act(kEngland, stop());
  EXPECT_TRUE(in_move_phase_of(f, kScotland));
}

// RULES 4.1.1: moving nothing is allowed; England's turn follows.
TEST(Movement, PlayerMayEndMovePhaseWithoutMoving) {
  Fixture f;
  deal(f, "move2_1", "move1_1");
  const auto douglas = blk(f, "sco_douglas");
  f.act(kScotland, end_phase());
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
  EXPECT_EQ(blk(f, "sco_douglas"), douglas);
}

}  // namespace
}  // namespace blockfog::hots::testing
