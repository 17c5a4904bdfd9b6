// ACCEPTANCE group C, movement into battles: pinning (RULES 4.7), main attack and reserves
// (4.6), the border-use record (4.8), Truce restrictions (4.9, 7.5) and the Norse (4.10).

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

Action norse_to(std::string_view to) { return norse_move(area(to)); }
std::uint8_t used_by(const Fixture& f, std::string_view border_id) {
  return f.state().border_use[border(border_id)];
}

// The blocks a player moves one after the other into `to` (each stops there: enemy area).
void attack(Fixture& f, Role side, std::initializer_list<std::string_view> blocks,
            std::string_view to) {
  for (auto id : blocks) {
    f.act(side, move_to(id, to));
    EXPECT_TRUE(is_at(f, id, to)) << id;
    EXPECT_FALSE(is_moving(f)) << id << " must stop in an enemy area";
  }
}

// ---------------------------------------------------------------------------------------------
// Pinning (RULES 4.7)

// C-11 position: 6 S blocks in Buchan; E (P1, 2-card) moved 3 blocks angus->buchan and 2
// strathspey->buchan and ended; S (P2, 1-card) is to move.
Fixture buchan_pinning_position() {
  Fixture f;
  f.clear({"buchan", "angus", "strathspey", "badenoch", "mar"});
  for (auto id :
       {"sco_wallace", "sco_douglas", "sco_barclay", "sco_fraser", "sco_grant", "sco_campbell"}) {
    f.place(id, "buchan");
  }
  f.place("eng_york_infantry", "angus")
      .place("eng_lancaster_infantry", "angus")
      .place("eng_northumber_infantry", "angus")
      .place("eng_durham_infantry", "strathspey")
      .place("eng_westmor_infantry", "strathspey");
  deal(f, "move1_1", "move2_1");
  attack(f, kEngland, {"eng_york_infantry", "eng_lancaster_infantry", "eng_northumber_infantry"},
         "buchan");
  attack(f, kEngland, {"eng_durham_infantry", "eng_westmor_infantry"}, "buchan");
  if (in_move_phase_of(f, kEngland)) f.act(kEngland, end_phase());
  return f;
}

// C-11 Pinning, rulebook example (RULES 4.7.2, 4.7.4): F = 6, E = 5, so one block may leave,
// and not across a border England used to attack.
TEST(Movement, PinnedAreaLetsOneBlockLeaveByFreeBordersC11) {
  Fixture f = buchan_pinning_position();
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  ASSERT_EQ(f.state().mp, 1);
  EXPECT_EQ(used_by(f, "buchan-angus"), index_of(kEngland));
  EXPECT_EQ(used_by(f, "strathspey-buchan"), index_of(kEngland));
  for (auto id :
       {"sco_wallace", "sco_douglas", "sco_barclay", "sco_fraser", "sco_grant", "sco_campbell"}) {
    EXPECT_TRUE(f.offered(kScotland, move_to(id, "badenoch"))) << id;
    EXPECT_TRUE(f.offered(kScotland, move_to(id, "mar"))) << id;
    EXPECT_FALSE(f.offered(kScotland, move_to(id, "angus"))) << id;
    EXPECT_FALSE(f.offered(kScotland, move_to(id, "strathspey"))) << id;
  }
  f.refuse(kScotland, move_to("sco_douglas", "angus"));
  f.refuse(kScotland, move_to("sco_douglas", "strathspey"));

  f.act(kScotland, move_to("sco_douglas", "mar")).act(kScotland, stop());
  EXPECT_TRUE(is_at(f, "sco_douglas", "mar"));
  for (auto id : {"sco_wallace", "sco_barclay", "sco_fraser", "sco_grant", "sco_campbell"}) {
    EXPECT_FALSE(block_offered(f, kScotland, id)) << id << ": F = 5 no longer exceeds E = 5";
  }
  f.refuse(kScotland, move_to("sco_wallace", "badenoch"));
}

// C-12 position: 2 S blocks in Mar attacked by 2 E blocks from Buchan (E P1).
Fixture mar_pinning_position(std::string_view scotland_card, std::string_view england_card) {
  Fixture f;
  f.clear({"mar", "buchan", "badenoch"})
      .place("sco_douglas", "mar")
      .place("sco_fraser", "mar")
      .place("eng_york_infantry", "buchan")
      .place("eng_lancaster_infantry", "buchan");
  deal(f, scotland_card, england_card);
  attack(f, kEngland, {"eng_york_infantry", "eng_lancaster_infantry"}, "mar");
  if (in_move_phase_of(f, kEngland)) f.act(kEngland, end_phase());
  return f;
}

// C-12 Fully pinned (RULES 4.7.2): F = 2 does not exceed E = 2.
TEST(Movement, FullyPinnedBlocksCannotMoveC12) {
  Fixture f = mar_pinning_position("move1_1", "move2_1");
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  ASSERT_EQ(f.state().mp, 1);
  EXPECT_FALSE(block_offered(f, kScotland, "sco_douglas"));
  EXPECT_FALSE(block_offered(f, kScotland, "sco_fraser"));
  f.refuse(kScotland, move_to("sco_douglas", "badenoch"));
  f.refuse(kScotland, move_to("sco_fraser", "angus"));
}

// C-13 Reinforcements do not unpin (RULES 4.7.3): S sends 2 blocks into Mar; they are
// reserves and the two original blocks stay pinned although MP remain.
TEST(Movement, ReinforcementsDoNotUnpinC13) {
  Fixture f;
  f.clear({"mar", "buchan", "badenoch"})
      .place("sco_douglas", "mar")
      .place("sco_fraser", "mar")
      .place("sco_grant", "badenoch")
      .place("sco_barclay", "badenoch")
      .place("eng_york_infantry", "buchan")
      .place("eng_lancaster_infantry", "buchan");
  deal(f, "move2_2", "move2_1");  // tie: England is P1
  attack(f, kEngland, {"eng_york_infantry", "eng_lancaster_infantry"}, "mar");
  f.act(kEngland, end_phase());
  ASSERT_TRUE(in_move_phase_of(f, kScotland));

  attack(f, kScotland, {"sco_grant", "sco_barclay"}, "mar");
  EXPECT_TRUE(blk(f, "sco_grant").reserve);
  EXPECT_TRUE(blk(f, "sco_barclay").reserve);
  EXPECT_EQ(blk(f, "sco_barclay").entry, border("badenoch-mar"));
  EXPECT_EQ(f.state().mp, 1);
  EXPECT_FALSE(block_offered(f, kScotland, "sco_douglas"));
  EXPECT_FALSE(block_offered(f, kScotland, "sco_fraser"));
  EXPECT_FALSE(block_offered(f, kScotland, "sco_grant")) << "reserves have moved";
  f.refuse(kScotland, move_to("sco_douglas", "badenoch"));
}

// ---------------------------------------------------------------------------------------------
// Main attack and reserves (RULES 4.6)

// C-16 position: E (P1, 2-card): 4 E blocks in Angus, 2 in Mar, 2 S blocks in Buchan.
Fixture first_arrival_position() {
  Fixture f;
  f.clear({"angus", "mar", "buchan"})
      .place("eng_york_infantry", "angus")
      .place("eng_lancaster_infantry", "angus")
      .place("eng_northumber_infantry", "angus")
      .place("eng_durham_infantry", "angus")
      .place("eng_westmor_infantry", "mar")
      .place("eng_wales_infantry", "mar")
      .place("sco_douglas", "buchan")
      .place("sco_fraser", "buchan");
  deal(f, "move1_1", "move2_1");
  return f;
}

// C-16 Main attack by first arrival (RULES 4.6.1.1, 4.6.1.2).
TEST(Movement, FirstArrivalMakesTheMainAttackC16) {
  Fixture f = first_arrival_position();
  attack(f, kEngland,
         {"eng_york_infantry", "eng_lancaster_infantry", "eng_northumber_infantry",
          "eng_durham_infantry"},
         "buchan");
  const BattleMarker expected{index_of(kEngland), area("angus"), border("buchan-angus")};
  EXPECT_EQ(f.state().battles[area("buchan")], expected);
  EXPECT_EQ(f.state().mp, 1);
  attack(f, kEngland, {"eng_westmor_infantry"}, "buchan");
  EXPECT_EQ(f.state().mp, 0);
  attack(f, kEngland, {"eng_wales_infantry"}, "buchan");
  for (auto id : {"eng_york_infantry", "eng_lancaster_infantry", "eng_northumber_infantry",
                  "eng_durham_infantry"}) {
    EXPECT_FALSE(blk(f, id).reserve) << id << " is a main attacker";
  }
  for (auto id : {"eng_westmor_infantry", "eng_wales_infantry"}) {
    EXPECT_TRUE(blk(f, id).reserve) << id;
    EXPECT_EQ(blk(f, id).entry, border("buchan-mar")) << id;
  }
  EXPECT_EQ(f.state().battles[area("buchan")], expected) << "later arrivals keep the marker";
}

TEST(Movement, FirstArrivalMakesTheMainAttackReplayC16) {
  Fixture f = first_arrival_position();
  attack(f, kEngland, {"eng_westmor_infantry", "eng_wales_infantry"}, "buchan");
  const BattleMarker expected{index_of(kEngland), area("mar"), border("buchan-mar")};
  EXPECT_EQ(f.state().battles[area("buchan")], expected);
  attack(f, kEngland,
         {"eng_york_infantry", "eng_lancaster_infantry", "eng_northumber_infantry",
          "eng_durham_infantry"},
         "buchan");
  for (auto id : {"eng_westmor_infantry", "eng_wales_infantry"}) {
    EXPECT_FALSE(blk(f, id).reserve) << id << " is a main attacker";
  }
  for (auto id : {"eng_york_infantry", "eng_lancaster_infantry", "eng_northumber_infantry",
                  "eng_durham_infantry"}) {
    EXPECT_TRUE(blk(f, id).reserve) << id;
    EXPECT_EQ(blk(f, id).entry, border("buchan-angus")) << id;
  }
  EXPECT_EQ(f.state().battles[area("buchan")], expected);
}

// C-17 Same origin, other border (RULES 4.6.1.2): a reserve, and free (its group is active).
TEST(Movement, SameOriginOtherBorderIsReserveC17) {
  Fixture f;
  f.clear({"mentieth", "lanark", "lennox"})
      .place("eng_york_infantry", "mentieth")
      .place("eng_lancaster_infantry", "mentieth")
      .place("sco_douglas", "lanark");
  deal(f, "move1_1", "move2_1");
  f.act(kEngland, move_to("eng_york_infantry", "lanark"));
  EXPECT_FALSE(blk(f, "eng_york_infantry").reserve);
  const BattleMarker expected{index_of(kEngland), area("mentieth"), border("mentieth-lanark")};
  EXPECT_EQ(f.state().battles[area("lanark")], expected);
  EXPECT_EQ(f.state().mp, 1);

  f.act(kEngland, move_to("eng_lancaster_infantry", "lennox"));
  ASSERT_TRUE(is_moving(f)) << "Lennox is vacant: the block may go on";
  f.act(kEngland, step_to("lanark"));
  EXPECT_TRUE(is_at(f, "eng_lancaster_infantry", "lanark"));
  EXPECT_TRUE(blk(f, "eng_lancaster_infantry").reserve);
  EXPECT_EQ(blk(f, "eng_lancaster_infantry").entry, border("lennox-lanark"));
  EXPECT_EQ(f.state().mp, 1) << "no extra MP";
  EXPECT_EQ(used_by(f, "mentieth-lanark"), index_of(kEngland));
  EXPECT_EQ(used_by(f, "lennox-lanark"), index_of(kEngland));
  EXPECT_EQ(used_by(f, "lennox-mentieth"), kNone) << "Lennox was vacant (4.8.2)";
}

// RULES 4.5.4: blocks from England crossing the same border into the battle area are all one
// main attack, although each pays its own MP.
TEST(Movement, BlocksFromEnglandShareTheMainAttack) {
  Fixture f;
  f.clear({"england", "annan"})
      .place("eng_york_infantry", "england")
      .place("eng_lancaster_infantry", "england")
      .place("sco_douglas", "annan");
  deal(f, "move1_1", "move3_1");
  attack(f, kEngland, {"eng_york_infantry", "eng_lancaster_infantry"}, "annan");
  const BattleMarker expected{index_of(kEngland), area("england"), border("england-annan")};
  EXPECT_EQ(f.state().battles[area("annan")], expected);
  EXPECT_FALSE(blk(f, "eng_york_infantry").reserve);
  EXPECT_FALSE(blk(f, "eng_lancaster_infantry").reserve);
  EXPECT_EQ(f.state().mp, 1);
}

// C-18 P2 reinforcements are reserves (RULES 4.6.1.3, 4.8.1).
TEST(Movement, DefenderReinforcementsAreReservesC18) {
  Fixture f;
  f.clear({"buchan", "angus", "moray", "strathspey"})
      .place("sco_douglas", "buchan")
      .place("eng_york_infantry", "angus")
      .place("sco_fraser", "moray")
      .place("sco_grant", "moray")
      .place("sco_barclay", "moray");
  deal(f, "move1_1", "move2_1");
  attack(f, kEngland, {"eng_york_infantry"}, "buchan");
  f.act(kEngland, end_phase());
  ASSERT_TRUE(in_move_phase_of(f, kScotland));

  for (auto id : {"sco_fraser", "sco_grant", "sco_barclay"}) {
    f.act(kScotland, move_to(id, "strathspey"));
    ASSERT_TRUE(is_moving(f)) << "Strathspey is vacant: " << id << " may go on";
    f.act(kScotland, step_to("buchan"));
    EXPECT_TRUE(is_at(f, id, "buchan")) << id;
    EXPECT_TRUE(blk(f, id).reserve) << id;
    EXPECT_EQ(blk(f, id).entry, border("strathspey-buchan")) << id;
  }
  EXPECT_EQ(f.state().battles[area("buchan")].attacker, index_of(kEngland));
  EXPECT_FALSE(blk(f, "sco_douglas").reserve);
  EXPECT_EQ(used_by(f, "buchan-angus"), index_of(kEngland));
  EXPECT_EQ(used_by(f, "strathspey-buchan"), index_of(kScotland));
  EXPECT_EQ(used_by(f, "moray-strathspey"), kNone);
}

// ---------------------------------------------------------------------------------------------
// Border-use record (RULES 4.8)

// C-19 Closing borders, rulebook example (RULES 4.8.1, 4.8.2). The consequence for retreats
// (S may not retreat to Badenoch, E may) belongs to the battle rules (5.10) and is tested with
// group D; here: the record that decides it.
TEST(Movement, OnlyCrossingsIntoContestedAreasAreRecordedC19) {
  Fixture f;
  f.clear({"badenoch", "atholl", "strathspey"})
      .place("sco_douglas", "badenoch")
      .place("sco_fraser", "badenoch")
      .place("eng_york_infantry", "strathspey");
  deal(f, "move2_1", "move1_1");
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  f.act(kScotland, move_to("sco_douglas", "atholl"));
  f.act(kScotland, move_to("sco_fraser", "atholl"));
  EXPECT_TRUE(is_at(f, "sco_fraser", "atholl"));
  EXPECT_TRUE(no_border_record(f)) << "moves into a vacant area record nothing";
  f.act(kScotland, end_phase());

  ASSERT_TRUE(in_move_phase_of(f, kEngland));
  f.act(kEngland, move_to("eng_york_infantry", "badenoch"));
  ASSERT_TRUE(is_moving(f)) << "Badenoch is vacant now";
  f.act(kEngland, step_to("atholl"));
  EXPECT_TRUE(is_at(f, "eng_york_infantry", "atholl"));
  EXPECT_EQ(used_by(f, "badenoch-atholl"), index_of(kEngland));
  EXPECT_EQ(used_by(f, "strathspey-badenoch"), kNone);
  const BattleMarker expected{index_of(kEngland), area("strathspey"), border("badenoch-atholl")};
  EXPECT_EQ(f.state().battles[area("atholl")], expected);
}

// ---------------------------------------------------------------------------------------------
// Truce (RULES 4.9, 7.5)

// C-20 Truce (RULES 4.9, 7.5): E played Truce; S (P2, 2-card) may move into vacant areas but
// not into areas with E blocks, nor into England.
TEST(Movement, TruceKeepsScotsOutOfEnemyAreasAndEnglandC20) {
  Fixture f;
  f.clear({"mentieth", "lanark", "england"});
  deal(f, "move2_1", "truce");
  ASSERT_EQ(f.state().phase, Phase::Event);
  f.act(kEngland, simple(ActionKind::Truce));
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  EXPECT_EQ(f.state().truce_against, index_of(kScotland));
  ASSERT_EQ(f.state().mp, 2);

  EXPECT_FALSE(f.offered(kScotland, move_to("sco_wallace", "angus")));  // eng_angus
  f.refuse(kScotland, move_to("sco_wallace", "angus"));
  EXPECT_FALSE(f.offered(kScotland, move_to("sco_bruce", "england")));  // vacant England
  f.refuse(kScotland, move_to("sco_bruce", "england"));

  f.act(kScotland, move_to("sco_wallace", "mentieth"));
  ASSERT_TRUE(is_moving(f));
  EXPECT_FALSE(f.offered(kScotland, step_to("lothian")));  // eng_cumbria_infantry
  f.refuse(kScotland, step_to("lothian"));
  f.act(kScotland, step_to("lanark"));
  ASSERT_TRUE(is_moving(f));
  EXPECT_FALSE(f.offered(kScotland, step_to("lennox")));  // eng_lennox
  f.refuse(kScotland, step_to("lennox"));
  EXPECT_TRUE(f.offered(kScotland, step_to("carrick")));
  f.act(kScotland, step_to("carrick"));
  EXPECT_TRUE(is_at(f, "sco_wallace", "carrick"));
  if (is_moving(f)) f.act(kScotland, stop());  // allowance spent: only `stop` is left
  EXPECT_EQ(f.state().mp, 1);
}

// RULES 4.3.4 under a Truce: a block whose every onward step is forbidden stops by itself.
TEST(Movement, BlockWithNoLegalStepStopsByItself) {
  Fixture f;
  f.clear("mentieth");  // Mentieth's other neighbours hold E blocks; Fife is where it came from
  deal(f, "move2_1", "truce");
  f.act(kEngland, simple(ActionKind::Truce));
  f.act(kScotland, move_to("sco_wallace", "mentieth"));
  EXPECT_TRUE(is_at(f, "sco_wallace", "mentieth"));
  EXPECT_FALSE(is_moving(f));
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::Step));
  EXPECT_EQ(f.state().mp, 1);
}

// C-21 Truce against England (RULES 7.5.2): E (P2) may not enter areas with S blocks, may
// enter vacant areas, and may enter Scotland from England.
TEST(Movement, TruceAgainstEnglandC21) {
  Fixture f;
  f.clear({"england", "lanark"}).place("eng_york_infantry", "england");
  deal(f, "truce", "move2_1");
  ASSERT_EQ(f.state().phase, Phase::Event);
  ASSERT_EQ(f.state().active, index_of(kScotland));
  f.act(kScotland, simple(ActionKind::Truce));
  ASSERT_TRUE(in_move_phase_of(f, kEngland));
  EXPECT_EQ(f.state().truce_against, index_of(kEngland));

  EXPECT_FALSE(f.offered(kEngland, move_to("eng_york_infantry", "annan")));  // sco_bruce
  f.refuse(kEngland, move_to("eng_york_infantry", "annan"));
  EXPECT_FALSE(f.offered(kEngland, move_to("eng_mentieth", "fife")));  // Wallace & co.
  f.refuse(kEngland, move_to("eng_mentieth", "fife"));

  EXPECT_TRUE(f.offered(kEngland, move_to("eng_york_infantry", "teviot")));
  f.act(kEngland, move_to("eng_york_infantry", "teviot"));
  EXPECT_TRUE(is_at(f, "eng_york_infantry", "teviot"));
  EXPECT_EQ(f.state().mp, 1);

  f.act(kEngland, move_to("eng_mentieth", "lanark"));
  ASSERT_TRUE(is_moving(f));
  EXPECT_FALSE(f.offered(kEngland, step_to("annan")));
  f.refuse(kEngland, step_to("annan"));
  f.act(kEngland, stop());
  EXPECT_TRUE(is_at(f, "eng_mentieth", "lanark"));
}

// ---------------------------------------------------------------------------------------------
// The Norse (RULES 4.10)

// S (P1, 2-card) with the Norse in Ross.
Fixture norse_position() {
  Fixture f;
  f.clear("ross").place("sco_norse", "ross");
  deal(f, "move2_1", "move1_1");
  return f;
}

// C-22 Norse movement (RULES 4.10.1, 4.10.2).
TEST(Movement, NorseMovesBySeaForOneMpC22) {
  Fixture f = norse_position();
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  EXPECT_FALSE(block_offered(f, kScotland, "sco_norse")) << "never by land";
  EXPECT_FALSE(f.offered(kScotland, norse_to("england")));
  EXPECT_FALSE(f.offered(kScotland, norse_to("lanark")));
  EXPECT_FALSE(f.offered(kScotland, norse_to("ross")));
  f.refuse(kScotland, norse_to("england"));
  f.refuse(kScotland, norse_to("lanark"));
  f.refuse(kScotland, norse_to("ross"));
  EXPECT_TRUE(f.offered(kScotland, norse_to("carrick"))) << "any other coastal area";

  f.act(kScotland, norse_to("fife"));
  EXPECT_TRUE(is_at(f, "sco_norse", "fife"));
  EXPECT_TRUE(blk(f, "sco_norse").moved);
  EXPECT_EQ(f.state().mp, 1);
  EXPECT_FALSE(is_activated(f, "ross"));
  EXPECT_TRUE(no_border_record(f));
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::NorseMove)) << "once per turn";
}

TEST(Movement, NorseNeedsOneMpC22) {
  Fixture f = norse_position();
  f.clear("mentieth");
  f.act(kScotland, move_to("sco_douglas", "mentieth")).act(kScotland, stop());
  f.act(kScotland, move_to("sco_fraser", "strathspey")).act(kScotland, stop());
  ASSERT_EQ(f.state().mp, 0);
  ASSERT_TRUE(in_move_phase_of(f, kScotland)) << "Wallace and Barclay may still move";
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::NorseMove));
  f.refuse(kScotland, norse_to("carrick"));
}

// C-22: activating Ross by moving another block neither moves the Norse nor makes its move free.
// (Fraser waits in Ross so that the phase stays open at MP 0 and its MP can be read.)
TEST(Movement, ActivatingNorseAreaDoesNotFreeTheNorseC22) {
  Fixture f = norse_position();
  f.place("sco_douglas", "ross").place("sco_fraser", "ross");
  f.act(kScotland, move_to("sco_douglas", "moray"));  // red ross-moray: stops
  EXPECT_TRUE(is_activated(f, "ross"));
  EXPECT_EQ(f.state().mp, 1);
  EXPECT_TRUE(is_at(f, "sco_norse", "ross"));
  EXPECT_FALSE(blk(f, "sco_norse").moved);
  f.act(kScotland, norse_to("fife"));
  EXPECT_EQ(f.state().mp, 0) << "the Norse pays its own MP";
}

TEST(Movement, ActivatedNorseAreaAtZeroMpDoesNotFreeTheNorseC22) {
  Fixture f;
  f.clear("ross").place("sco_norse", "ross").place("sco_douglas", "ross");
  deal(f, "move1_1", "move1_2");
  f.act(kEngland, end_phase());
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  f.act(kScotland, move_to("sco_douglas", "moray"));
  EXPECT_TRUE(is_activated(f, "ross"));
  EXPECT_EQ(f.state().mp, 0);
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::NorseMove));
  f.refuse(kScotland, norse_to("fife"));
}

// C-23 Norse as main attacker (RULES 4.10.3, 4.10.4).
TEST(Movement, NorseAttackIsSoleMainAttackC23) {
  Fixture f = norse_position();
  f.clear("angus").place("eng_york_infantry", "angus");
  f.act(kScotland, norse_to("angus"));
  EXPECT_TRUE(is_at(f, "sco_norse", "angus"));
  const BattleMarker expected{index_of(kScotland), kNone, kNone};
  EXPECT_EQ(f.state().battles[area("angus")], expected) << "by sea: no origin, no main border";
  EXPECT_FALSE(blk(f, "sco_norse").reserve);
  EXPECT_TRUE(no_border_record(f));

  f.act(kScotland, move_to("sco_douglas", "angus"));
  EXPECT_TRUE(is_at(f, "sco_douglas", "angus"));
  EXPECT_TRUE(blk(f, "sco_douglas").reserve) << "every later arrival is a reserve";
  EXPECT_EQ(blk(f, "sco_douglas").entry, border("angus-fife"));
  EXPECT_EQ(used_by(f, "angus-fife"), index_of(kScotland));
  EXPECT_EQ(f.state().mp, 0);
}

// RULES 4.10.5, 14 Undo: a Norse move is announced, so it cannot be taken back, nor can the
// moves before it.
TEST(Movement, NoUndoAfterNorseMove) {
  Fixture f = norse_position();
  f.clear("mentieth");
  f.act(kScotland, move_to("sco_douglas", "mentieth")).act(kScotland, stop());
  ASSERT_TRUE(f.offered(kScotland, undo()));
  f.act(kScotland, norse_to("carrick"));
  EXPECT_FALSE(f.offered(kScotland, undo()));
  f.refuse(kScotland, undo());
  EXPECT_TRUE(is_at(f, "sco_norse", "carrick"));
  EXPECT_TRUE(is_at(f, "sco_douglas", "mentieth"));
}

// C-24 Norse under Truce (RULES 4.9.1).
TEST(Movement, NorseCannotAttackUnderTruceC24) {
  Fixture f;
  f.clear("ross").place("sco_norse", "ross");
  deal(f, "move2_1", "truce");
  f.act(kEngland, simple(ActionKind::Truce));
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  EXPECT_FALSE(f.offered(kScotland, norse_to("angus")));  // eng_angus
  EXPECT_FALSE(f.offered(kScotland, norse_to("lothian")));
  f.refuse(kScotland, norse_to("angus"));
  EXPECT_TRUE(f.offered(kScotland, norse_to("lochaber")));  // vacant
  EXPECT_TRUE(f.offered(kScotland, norse_to("fife")));      // friendly
}

// C-25 Norse cannot Sea Move (RULES 7.4.2): with the Norse in Ross (S-friendly, coastal),
// Scotland's Sea Move offers its other coastal blocks, to Ross among other places, but never the
// Norse, and no Norse move either (the Norse moves only on move cards, 4.10.1).
TEST(Movement, SeaMovePlayerIsNotOfferedTheNorseC25) {
  Fixture f;
  f.clear("ross").place("sco_norse", "ross");
  deal(f, "sea_move", "move2_1");
  ASSERT_EQ(f.state().phase, Phase::Event);
  ASSERT_EQ(f.state().active, index_of(kScotland));
  const auto actions = legal_actions(f.state(), kScotland);
  EXPECT_TRUE(f.offered(kScotland, to_area(ActionKind::SeaMove, block("sco_fraser"), area("ross"))))
      << "the Sea Move itself is available";
  for (const auto& a : actions) {
    EXPECT_FALSE(a.kind == ActionKind::SeaMove && a.a == block("sco_norse"))
        << action_to_json(a).dump();
    EXPECT_NE(a.kind, ActionKind::NorseMove);
  }
  f.refuse(kScotland, to_area(ActionKind::SeaMove, block("sco_norse"), area("fife")));
  f.refuse(kScotland, norse_to("fife"));
  f.act(kScotland, simple(ActionKind::Decline));
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
  EXPECT_TRUE(is_at(f, "sco_norse", "ross"));
}

// C-26 position: the Norse and Fraser (and `extra`, if any) in Moray, attacked by 2 E blocks
// from Strathspey (E P1, 2-card); S (P2, 2-card) to move.
Fixture norse_pinned_position(std::string_view extra) {
  Fixture f;
  f.clear({"moray", "strathspey"})
      .place("sco_norse", "moray")
      .place("sco_fraser", "moray")
      .place("eng_york_infantry", "strathspey")
      .place("eng_lancaster_infantry", "strathspey");
  if (!extra.empty()) f.place(extra, "moray");
  deal(f, "move2_2", "move2_1");
  attack(f, kEngland, {"eng_york_infantry", "eng_lancaster_infantry"}, "moray");
  f.act(kEngland, end_phase());
  return f;
}

// C-26 Norse can be pinned (RULES 4.7.5): F = 2, E = 2.
TEST(Movement, NorseCanBePinnedC26) {
  Fixture f = norse_pinned_position("");
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  ASSERT_EQ(f.state().mp, 2);
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::NorseMove));
  f.refuse(kScotland, norse_to("fife"));
  EXPECT_FALSE(block_offered(f, kScotland, "sco_fraser"));
}

// C-26 with a third S block: F = 3, E = 2, so either the Norse or one other block leaves.
TEST(Movement, PinnedNorseCountsAsOneLeaverC26) {
  Fixture f = norse_pinned_position("sco_grant");
  EXPECT_TRUE(kind_offered(f, kScotland, ActionKind::NorseMove));
  EXPECT_TRUE(block_offered(f, kScotland, "sco_fraser"));
  EXPECT_TRUE(block_offered(f, kScotland, "sco_grant"));

  Fixture norse_first = f;
  norse_first.act(kScotland, norse_to("fife"));
  EXPECT_TRUE(is_at(norse_first, "sco_norse", "fife"));
  EXPECT_EQ(norse_first.state().mp, 1);
  EXPECT_FALSE(block_offered(norse_first, kScotland, "sco_fraser"));
  EXPECT_FALSE(block_offered(norse_first, kScotland, "sco_grant"));

  f.act(kScotland, move_to("sco_fraser", "lochaber")).act(kScotland, stop());
  EXPECT_TRUE(is_at(f, "sco_fraser", "lochaber"));
  EXPECT_EQ(f.state().mp, 1);
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::NorseMove));
  f.refuse(kScotland, norse_to("fife"));
  EXPECT_FALSE(block_offered(f, kScotland, "sco_grant"));
}

}  // namespace
}  // namespace blockfog::hots::testing
