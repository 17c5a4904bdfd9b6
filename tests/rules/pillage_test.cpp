// ACCEPTANCE group E, Pillage: E-05 to E-08 (RULES 7.3, 5.14, 11) and the opaque "pillage
// losses" and gains steps (13.1.4, 14 #5-6). Every pillage is reached by playing the cards.

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rules/hots/engine.h"
#include "tests/rules/fixture.h"
#include "tests/rules/helpers.h"

namespace blockfog::hots::testing {
namespace {

using nlohmann::json;

// Scotland plays Pillage and England a move card: Scotland is P1 (RULES 3.2.2).
void scotland_pillages(Fixture& f) {
  f.hands({"pillage", "move1_7"}, {"move2_1", "move2_2"}).play_cards("pillage", "move2_1");
}
// England plays Pillage and Scotland a move card: England is P1.
void england_pillages(Fixture& f) {
  f.hands({"move2_1", "move2_2"}, {"pillage", "move1_7"}).play_cards("move2_1", "pillage");
}

std::set<std::string> pillage_targets(const Fixture& f, Role role) {
  std::set<std::string> out;
  for (const auto& a : legal_actions(f.state(), role)) {
    if (a.kind == ActionKind::Pillage) out.insert(game_data().areas[a.a].id);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Targets (RULES 7.3.1)

// E-05 Pillage targets (RULES 7.3.1): areas holding E blocks next to an S-friendly area, England
// included; not Lothian (next to contested Mentieth and vacant areas only), not Garmoran.
TEST(Pillage, TargetsAreEnemyAreasNextToAFriendlyAreaE05) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife")
      .place("eng_york_infantry", "angus")           // angus-fife
      .place("eng_lancaster_infantry", "atholl")     // atholl-fife (red)
      .place("sco_fraser", "mentieth")               // Mentieth contested
      .place("eng_northumber_infantry", "mentieth")  //
      .place("eng_cumbria_infantry", "lothian")      // only vacant or contested neighbours
      .place("sco_keith", "annan")
      .place("eng_york_knights", "england");  // england-annan
  scotland_pillages(f);
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_EQ(pillage_targets(f, kScotland),
            (std::set<std::string>{"angus", "atholl", "mentieth", "england"}));
  f.refuse(kScotland, pillage_of("lothian"));
  f.refuse(kScotland, pillage_of("garmoran"));
  f.refuse(kScotland, pillage_of("fife"));
  EXPECT_TRUE(f.offered(kScotland, decline()));
}

// RULES 7.3.1: England may pillage from England.
TEST(Pillage, EnglandMayPillageFromEnglandE05) {
  Fixture f = blank_map();
  f.place("eng_york_infantry", "england", 2).place("sco_douglas", "annan", 4);
  england_pillages(f);
  ASSERT_TRUE(in_event_of(f, kEngland));
  EXPECT_TRUE(f.offered(kEngland, pillage_of("annan")));
  f.act(kEngland, pillage_of("annan"));
  EXPECT_EQ(f.state().event.stage, EventStage::PillageLosses);
  EXPECT_EQ(strength(f, "sco_douglas"), 2);
  f.act(kScotland, done());
  ASSERT_TRUE(in_event_of(f, kEngland));
  EXPECT_EQ(actions(f, kEngland), as_set({gain_to("eng_york_infantry")}));
  f.act(kEngland, gain_to("eng_york_infantry")).act(kEngland, gain_to("eng_york_infantry"));
  EXPECT_EQ(strength(f, "eng_york_infantry"), 4);
}

// RULES 7.1.1: the Pillage may be declined.
TEST(Pillage, DeclinedPillageDoesNothing) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife", 2).place("eng_york_infantry", "angus");
  scotland_pillages(f);
  const auto before = f.state().blocks;
  f.act(kScotland, decline());
  EXPECT_TRUE(f.state().blocks == before);
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
}

// ---------------------------------------------------------------------------------------------
// Hits and gains (RULES 7.3.2, 7.3.3)

// E-06 Pillage hits and gains (RULES 7.3.2, 7.3.3, 5.7.2-5.7.4): York Knights 4->3 without a
// question; England then chooses between the two blocks at 3; Scotland must place both steps
// in one friendly area next to Angus, and the event ends with the second (table 14 #6).
TEST(Pillage, HitsGoToTheStrongestAndGainsMustBePlacedE06) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife", 2)
      .place("sco_grant", "buchan", 1)
      .place("eng_york_knights", "angus", 4)
      .place("eng_durham_infantry", "angus", 3);
  scotland_pillages(f);
  f.act(kScotland, pillage_of("angus"));

  ASSERT_TRUE(in_event_of(f, kEngland));
  EXPECT_EQ(f.state().event.stage, EventStage::PillageLosses);
  EXPECT_EQ(strength(f, "eng_york_knights"), 3);
  EXPECT_EQ(strength(f, "eng_durham_infantry"), 3);
  EXPECT_EQ(actions(f, kEngland),
            as_set({hit_on("eng_york_knights"), hit_on("eng_durham_infantry")}));
  EXPECT_TRUE(actions(f, kScotland).empty());
  f.act(kEngland, hit_on("eng_durham_infantry"));
  EXPECT_EQ(strength(f, "eng_york_knights"), 3);
  EXPECT_EQ(strength(f, "eng_durham_infantry"), 2);
  EXPECT_EQ(f.state().event.inflicted, 2);

  // k = 2: one friendly area next to Angus (Fife or Buchan); the first step fixes it.
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_EQ(f.state().event.stage, EventStage::PillageGains);
  EXPECT_EQ(actions(f, kScotland), as_set({gain_to("sco_douglas"), gain_to("sco_grant")}));
  f.refuse(kScotland, done());  // 7.3.3: mandatory while a recipient exists
  f.act(kScotland, gain_to("sco_douglas"));
  EXPECT_EQ(actions(f, kScotland), as_set({gain_to("sco_douglas")}));
  f.refuse(kScotland, gain_to("sco_grant"));
  f.refuse(kScotland, done());
  f.act(kScotland, gain_to("sco_douglas"));
  EXPECT_EQ(strength(f, "sco_douglas"), 4);
  EXPECT_EQ(strength(f, "sco_grant"), 1);
  EXPECT_EQ(f.state().battle.area, kNone);
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
}

// RULES 7.3.3, table 14 #6: steps go only up to a block's maximum; the gains end by themselves
// once no recipient is left, with fewer than k steps placed.
TEST(Pillage, GainsEndWhenNoRecipientIsLeft) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife", 3).place("eng_york_knights", "angus", 4);
  scotland_pillages(f);
  f.act(kScotland, pillage_of("angus"));
  EXPECT_EQ(strength(f, "eng_york_knights"), 2);
  ASSERT_TRUE(in_event_of(f, kEngland));
  EXPECT_EQ(actions(f, kEngland), as_set({done()}));
  f.act(kEngland, done());
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_EQ(actions(f, kScotland), as_set({gain_to("sco_douglas")}));
  f.act(kScotland, gain_to("sco_douglas"));
  EXPECT_EQ(strength(f, "sco_douglas"), 4);
  EXPECT_EQ(f.state().phase, Phase::Move) << "Douglas is full: 1 step is lost";
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
}

// The same pillage in a game of rules version hots-2: the gains wait for `done`.
TEST(Pillage, AHots2GamesGainsEndWithDone) {
  Fixture f = blank_map();
  f.state().procedures = kProcedures2;
  f.place("sco_douglas", "fife", 3).place("eng_york_knights", "angus", 4);
  scotland_pillages(f);
  f.act(kScotland, pillage_of("angus")).act(kEngland, done());
  f.act(kScotland, gain_to("sco_douglas"));
  EXPECT_EQ(actions(f, kScotland), as_set({done()}));
  f.act(kScotland, done());
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
}

// RULES 7.3.3, 13.1.4: a friendly neighbour whose blocks are all full still gets the gains step,
// which its owner ends with `done`.
TEST(Pillage, GainsStepIsEnteredEvenWithNoRoomForSteps) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife").place("eng_york_knights", "angus", 4);
  scotland_pillages(f);
  f.act(kScotland, pillage_of("angus")).act(kEngland, done());
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_EQ(f.state().event.stage, EventStage::PillageGains);
  EXPECT_EQ(actions(f, kScotland), as_set({done()}));
  f.act(kScotland, done());
  EXPECT_EQ(strength(f, "sco_douglas"), 4);
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
}

// ---------------------------------------------------------------------------------------------
// Eliminations (RULES 7.3.2, 5.8.3, 11)

// E-07 Pillage kills go to the pool (RULES 7.3.2, 5.8.3): Hobelars (black cross) at 1 go to the
// English pool, not dead; only 1 hit was inflicted, so Scotland adds only 1 step, and the
// event ends with it (table 14 #6).
TEST(Pillage, EliminatedBlackCrossBlockGoesToThePoolE07) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife", 2).place("eng_hobelars", "angus", 1);
  scotland_pillages(f);
  f.act(kScotland, pillage_of("angus"));
  EXPECT_EQ(blk(f, "eng_hobelars").loc, kPool);
  ASSERT_TRUE(in_event_of(f, kEngland)) << "pillage losses wait for England";
  EXPECT_EQ(actions(f, kEngland), as_set({done()}));
  f.act(kEngland, done());
  EXPECT_EQ(f.state().event.inflicted, 1);
  EXPECT_TRUE(logged(f, Role::Observer, "inflicts 1 hit"));

  ASSERT_TRUE(in_event_of(f, kScotland));
  f.act(kScotland, gain_to("sco_douglas"));
  EXPECT_EQ(strength(f, "sco_douglas"), 3);
  EXPECT_EQ(f.state().battle.area, kNone);
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
}

// RULES 11, 6.1: Edward I removed by Pillage goes to the English pool and stays Edward I.
TEST(Pillage, EdwardRemovedByPillageStaysEdwardIInThePool) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife", 2).place("eng_edward", "angus", 2);
  scotland_pillages(f);
  f.act(kScotland, pillage_of("angus"));
  EXPECT_EQ(blk(f, "eng_edward").loc, kPool);
  EXPECT_FALSE(f.state().edward_ii);
  EXPECT_NE(f.state().phase, Phase::GameOver);
}

// RULES 7.3.2, 11: Moray removed by an English Pillage goes to the Scottish pool.
TEST(Pillage, MorayRemovedByPillageGoesToThePool) {
  Fixture f = blank_map();
  f.place("eng_york_infantry", "strathspey", 2).place("sco_moray", "moray", 2);
  england_pillages(f);
  f.act(kEngland, pillage_of("moray"));
  EXPECT_EQ(blk(f, "sco_moray").loc, kPool);
  ASSERT_TRUE(in_event_of(f, kScotland));
  f.act(kScotland, done());
  ASSERT_TRUE(in_event_of(f, kEngland));
  f.act(kEngland, gain_to("eng_york_infantry")).act(kEngland, gain_to("eng_york_infantry"));
  EXPECT_TRUE(in_move_phase_of(f, kScotland));
}

// RULES 7.3.2, 11: the King removed by an English Pillage goes to the Scottish pool; no win.
TEST(Pillage, KingRemovedByPillageGoesToThePool) {
  Fixture f = blank_map();
  f.state().king_crowned = true;
  f.place("eng_york_infantry", "angus").place("sco_king", "fife", 1);
  england_pillages(f);
  f.act(kEngland, pillage_of("fife"));
  EXPECT_EQ(blk(f, "sco_king").loc, kPool);
  EXPECT_NE(f.state().phase, Phase::GameOver);
}

// ---------------------------------------------------------------------------------------------
// Captured nobles (RULES 7.3.2, 7.3.4, 5.14)

// E-08 position: Buchan(2) and Lancaster Infantry(1) in Buchan, Grant(1) in Strathspey.
// Scotland pillages Buchan; the first hit takes Buchan to 1 and England picks Buchan for the
// second: he is captured.
Fixture buchan_capture_position() {
  Fixture f = blank_map();
  f.place("eng_buchan", "buchan", 2)
      .place("eng_lancaster_infantry", "buchan", 1)
      .place("sco_grant", "strathspey", 1);
  scotland_pillages(f);
  f.act(kScotland, pillage_of("buchan"));
  return f;
}

// E-08 Pillage captures a noble (RULES 7.3.2, 7.3.4, 5.14.2, 5.14.3, 5.9.1, 5.6.2.1, 5.11.3).
TEST(Pillage, CapturedNobleJoinsTheBattleInRoundTwoAsAttackerE08) {
  Fixture f = buchan_capture_position();
  EXPECT_EQ(strength(f, "eng_buchan"), 1);
  ASSERT_TRUE(in_event_of(f, kEngland));
  EXPECT_EQ(actions(f, kEngland), as_set({hit_on("eng_buchan"), hit_on("eng_lancaster_infantry")}));
  f.act(kEngland, hit_on("eng_buchan"));

  // Captured: Scottish, strength 1, a reserve in Buchan; control passes at once.
  ASSERT_TRUE(is_at(f, "sco_buchan", "buchan"));
  EXPECT_EQ(strength(f, "sco_buchan"), 1);
  EXPECT_TRUE(blk(f, "sco_buchan").reserve);
  EXPECT_EQ(blk(f, "eng_buchan").loc, kNotInPlay);
  EXPECT_EQ(strength(f, "eng_lancaster_infantry"), 1);
  EXPECT_EQ(f.view(Role::Observer)["nobles"]["roster"]["buchan"], "scotland");

  // The gains come first; Buchan himself (in the target) may not receive a step.
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_EQ(actions(f, kScotland), as_set({gain_to("sco_grant")}));
  f.act(kScotland, gain_to("sco_grant"));
  EXPECT_EQ(f.state().phase, Phase::Event) << "no battle before the gains are done";
  f.act(kScotland, gain_to("sco_grant"));
  EXPECT_EQ(strength(f, "sco_grant"), 3);

  // The battle: Scotland attacks, England defends; round 1, Buchan is a reserve.
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.area, area("buchan"));
  EXPECT_EQ(f.state().battle.round, 1);
  EXPECT_EQ(f.state().battle.attacker, index_of(kScotland));
  EXPECT_TRUE(blk(f, "sco_buchan").reserve);
  ASSERT_EQ(f.state().active, index_of(kEngland));
  const auto lancaster = kinds_for(f, kEngland, "eng_lancaster_infantry");
  EXPECT_EQ(lancaster.count(ActionKind::Fire), 0U) << "nothing to fire at in round 1";
  EXPECT_EQ(lancaster.count(ActionKind::Pass), 1U);
  EXPECT_EQ(lancaster.count(ActionKind::Retreat), 1U);
  EXPECT_TRUE(kinds_for(f, kScotland, "sco_buchan").empty());
  f.act(kEngland, with_block(ActionKind::Pass, block("eng_lancaster_infantry")));

  // Round 2: Buchan joins and fires at B2 (a 3 misses; with a home bonus it would hit).
  ASSERT_EQ(f.state().battle.round, 2);
  EXPECT_FALSE(blk(f, "sco_buchan").reserve);
  EXPECT_EQ(f.state().battle.attacker, index_of(kScotland));
  ASSERT_EQ(f.state().active, index_of(kScotland));
  EXPECT_TRUE(kinds_for(f, kScotland, "sco_buchan").count(ActionKind::Fire));
  f.dice({3});
  f.act(kScotland, with_block(ActionKind::Fire, block("sco_buchan")));
  EXPECT_EQ(strength(f, "eng_lancaster_infantry"), 1);
  f.dice({6});
  f.act(kEngland, with_block(ActionKind::Fire, block("eng_lancaster_infantry")));

  // Round 3 the same; then Scotland, the attacker, must retreat Buchan.
  ASSERT_EQ(f.state().battle.round, 3);
  f.dice({3});
  f.act(kScotland, with_block(ActionKind::Fire, block("sco_buchan")));
  f.dice({6});
  f.act(kEngland, with_block(ActionKind::Fire, block("eng_lancaster_infantry")));
  ASSERT_EQ(f.state().phase, Phase::MandatoryRetreat);
  EXPECT_EQ(f.state().active, index_of(kScotland));
  EXPECT_TRUE(legal_actions(f.state(), kEngland).empty()) << "the defender does not retreat";
  EXPECT_TRUE(
      f.offered(kScotland, to_area(ActionKind::Retreat, block("sco_buchan"), area("strathspey"))));
  f.act(kScotland, to_area(ActionKind::Retreat, block("sco_buchan"), area("strathspey")));
  EXPECT_TRUE(is_at(f, "sco_buchan", "strathspey"));
  EXPECT_TRUE(is_at(f, "eng_lancaster_infantry", "buchan"));

  ASSERT_EQ(f.state().phase, Phase::Regroup);
  EXPECT_EQ(f.state().active, index_of(kEngland));
  f.act(kEngland, simple(ActionKind::EndRegroup));
  EXPECT_FALSE(f.state().in_defection);
  EXPECT_TRUE(in_move_phase_of(f, kEngland)) << "P2's player turn follows";
}

// E-08 variant (RULES 7.3.4): Buchan alone is captured by both hits; no battle, and he is not
// left flagged as a reserve.
TEST(Pillage, NobleCapturedAloneIsNoBattleAndNoReserveE08) {
  Fixture f = blank_map();
  f.place("eng_buchan", "buchan", 2).place("sco_grant", "strathspey", 1);
  scotland_pillages(f);
  f.act(kScotland, pillage_of("buchan"));
  ASSERT_TRUE(is_at(f, "sco_buchan", "buchan"));
  EXPECT_EQ(strength(f, "sco_buchan"), 1);
  EXPECT_EQ(blk(f, "eng_buchan").loc, kNotInPlay);
  ASSERT_TRUE(in_event_of(f, kEngland)) << "pillage losses wait for England";
  EXPECT_EQ(actions(f, kEngland), as_set({done()}));
  f.act(kEngland, done());
  EXPECT_EQ(f.state().event.inflicted, 2);

  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_EQ(actions(f, kScotland), as_set({gain_to("sco_grant")}));
  f.act(kScotland, gain_to("sco_grant")).act(kScotland, gain_to("sco_grant"));

  EXPECT_EQ(f.state().battle.area, kNone);
  EXPECT_EQ(f.state().battles[area("buchan")].attacker, kNone);
  EXPECT_TRUE(is_at(f, "sco_buchan", "buchan"));
  EXPECT_FALSE(blk(f, "sco_buchan").reserve);
  EXPECT_EQ(blk(f, "sco_buchan").entry, kNone);
  EXPECT_EQ(f.view(Role::Observer)["areas"][area("buchan")]["scotland"]["reserves"], json::array());
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
}

// RULES 7.3.2, 7.3.3: a noble captured by the first hit is no target for the second, which is
// lost (England has no block left there): k = 1.
TEST(Pillage, CapturedNobleIsNoTargetForTheRemainingHits) {
  Fixture f = blank_map();
  f.place("eng_buchan", "buchan", 1).place("sco_grant", "strathspey", 1);
  scotland_pillages(f);
  f.act(kScotland, pillage_of("buchan"));
  EXPECT_TRUE(is_at(f, "sco_buchan", "buchan"));
  EXPECT_EQ(strength(f, "sco_buchan"), 1);
  ASSERT_TRUE(in_event_of(f, kEngland));
  f.act(kEngland, done());
  EXPECT_EQ(f.state().event.inflicted, 1);
  ASSERT_TRUE(in_event_of(f, kScotland));
  f.act(kScotland, gain_to("sco_grant"));
  EXPECT_EQ(strength(f, "sco_grant"), 2);
  EXPECT_NE(f.state().phase, Phase::Event) << "k = 1";
  EXPECT_TRUE(is_at(f, "sco_buchan", "buchan"));
  EXPECT_EQ(strength(f, "sco_buchan"), 1);
}

}  // namespace
}  // namespace blockfog::hots::testing
