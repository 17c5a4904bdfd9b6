// ACCEPTANCE group E, the events other than Pillage (pillage_test.cpp): Herald (E-01 to E-04,
// RULES 7.2, 5.14), Sea Move (E-09 to E-11, 7.4, 4.9), Victuals (E-12, 7.6) and Truce (E-13,
// E-14, 7.1.1, 7.5). Every event is reached by playing the cards with real actions.

#include <algorithm>
#include <set>
#include <stdexcept>
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

// England plays `event` and Scotland a move card: England is P1.
void england_event(Fixture& f, std::string_view event) {
  f.hands({"move2_1", "move2_2"}, {event, "move1_7"}).play_cards("move2_1", event);
}
Action truce() { return simple(ActionKind::Truce); }

std::vector<Action> of_kind(const Fixture& f, Role role, ActionKind kind) {
  std::vector<Action> out;
  for (const auto& a : legal_actions(f.state(), role)) {
    if (a.kind == kind) out.push_back(a);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Herald (RULES 7.2)

// E-01 Herald success (RULES 7.2.2): a roll of 3, Scotland names Buchan, who turns Scottish in
// place at his current strength; nothing shares his area, so no battle.
TEST(Event, HeraldSuccessConvertsTheNamedNobleInPlaceE01) {
  Fixture f = blank_map();
  f.place("eng_buchan", "buchan", 2);
  scotland_event(f, "herald");
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_EQ(actions(f, kScotland), as_set({roll(), decline()}));

  f.dice({3});
  f.act(kScotland, roll());
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_EQ(f.state().event.stage, EventStage::HeraldName);
  EXPECT_TRUE(f.offered(kScotland, herald_of("buchan")));
  EXPECT_FALSE(f.offered(kScotland, decline())) << "the roll has been made";

  f.act(kScotland, herald_of("buchan"));
  EXPECT_TRUE(is_at(f, "sco_buchan", "buchan"));
  EXPECT_EQ(strength(f, "sco_buchan"), 2);
  EXPECT_EQ(blk(f, "eng_buchan").loc, kNotInPlay);
  EXPECT_EQ(f.state().battles[area("buchan")].attacker, kNone);
  EXPECT_EQ(f.state().battle.area, kNone);
  EXPECT_TRUE(in_move_phase_of(f, kEngland)) << "P2's player turn follows";
}

// E-02 Herald failure (RULES 7.2.2, 7.2.4): a roll of 5 changes nothing, nobody is asked for a
// noble; the roll is public and no new log line names a noble.
TEST(Event, HeraldFailureChangesNothingAndNamesNobodyE02) {
  Fixture f = blank_map();
  f.place("eng_buchan", "buchan", 2);
  scotland_event(f, "herald");
  const auto blocks_before = f.state().blocks;
  std::size_t seen[3];
  for (Role role : {kScotland, kEngland, Role::Observer}) {
    seen[static_cast<int>(role)] = log_lines(f, role).size();
  }

  f.dice({5});
  f.act(kScotland, roll());
  EXPECT_NE(f.state().event.stage, EventStage::HeraldName);
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
  EXPECT_TRUE(f.state().blocks == blocks_before);
  EXPECT_TRUE(of_kind(f, kScotland, ActionKind::Herald).empty());

  for (Role role : {kScotland, kEngland, Role::Observer}) {
    EXPECT_TRUE(logged(f, role, "Herald rolls 5")) << role_name(role);
    const auto lines = log_lines(f, role);
    for (std::size_t i = seen[static_cast<int>(role)]; i < lines.size(); ++i) {
      for (const auto& noble : game_data().nobles) {
        EXPECT_EQ(lines[i].find(noble.name), std::string::npos) << lines[i];
      }
      EXPECT_EQ(lines[i].find("Moray"), std::string::npos) << lines[i];
    }
  }
}

// E-03 Herald targets (RULES 7.2.1, 7.2.2): England is asked for no noble before the roll; after
// a success only Scottish two-block nobles on the map are offered (Moray is never a target).
TEST(Event, HeraldOffersOnlyEnemyTwoBlockNoblesAfterTheRollE03) {
  Fixture f;  // Braveheart: sco_bruce@annan, sco_galloway@galloway, sco_moray@moray
  f.place("sco_ross", "ross", 2);
  england_event(f, "herald");
  ASSERT_TRUE(in_event_of(f, kEngland));
  EXPECT_EQ(actions(f, kEngland), as_set({roll(), decline()}));

  f.dice({2});
  f.act(kEngland, roll());
  ASSERT_EQ(f.state().event.stage, EventStage::HeraldName);
  EXPECT_EQ(actions(f, kEngland),
            as_set({herald_of("bruce"), herald_of("galloway"), herald_of("ross")}));
  f.refuse(kEngland, herald_of("mentieth"));  // England's own noble
  f.refuse(kEngland, herald_of("comyn"));     // sco_comyn is not in play
  ASSERT_TRUE(is_at(f, "sco_moray", "moray"));

  f.act(kEngland, herald_of("ross"));
  EXPECT_TRUE(is_at(f, "eng_ross", "ross"));
  EXPECT_EQ(strength(f, "eng_ross"), 2);
  EXPECT_EQ(blk(f, "sco_ross").loc, kNotInPlay);
  EXPECT_TRUE(is_at(f, "sco_moray", "moray"));
  EXPECT_TRUE(in_move_phase_of(f, kScotland));
}

// E-04 Herald battle (RULES 7.2.3, 5.14, 5.6.2.1): Mentieth, converted in Mentieth next to
// Northumber Infantry, attacks at once at B2 (no home bonus when attacking); no reserves; after
// the regroup the border-use record is empty and England's player turn follows.
TEST(Event, HeraldConversionNextToEnemyBlocksIsFoughtAtOnceE04) {
  Fixture f;  // Braveheart: eng_mentieth(3) and eng_northumber_infantry(4) in Mentieth
  scotland_event(f, "herald");
  f.dice({2});
  f.act(kScotland, roll());
  f.act(kScotland, herald_of("mentieth"));

  ASSERT_TRUE(is_at(f, "sco_mentieth", "mentieth"));
  EXPECT_EQ(strength(f, "sco_mentieth"), 3);
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.area, area("mentieth"));
  EXPECT_EQ(f.state().battle.round, 1);
  EXPECT_EQ(f.state().battle.attacker, index_of(kScotland));
  EXPECT_EQ(f.state().battles[area("mentieth")].attacker, index_of(kScotland));
  EXPECT_FALSE(blk(f, "sco_mentieth").reserve);
  EXPECT_FALSE(blk(f, "eng_northumber_infantry").reserve);
  EXPECT_EQ(f.view(Role::Observer)["areas"][area("mentieth")]["england"]["reserves"],
            json::array());
  EXPECT_EQ(f.view(Role::Observer)["areas"][area("mentieth")]["scotland"]["reserves"],
            json::array());
  ASSERT_EQ(f.state().active, index_of(kScotland));  // attacking B comes before defending C
  EXPECT_EQ(acting_blocks(f), std::set<std::string>{"sco_mentieth"});

  // B2: of 2, 3, 3 only the 2 hits (B3 would score all three).
  f.dice({2, 3, 3});
  f.act(kScotland, with_block(ActionKind::Fire, block("sco_mentieth")));
  EXPECT_EQ(strength(f, "eng_northumber_infantry"), 3);
  ASSERT_EQ(f.state().active, index_of(kEngland));
  f.dice({6, 6, 6});
  f.act(kEngland, with_block(ActionKind::Fire, block("eng_northumber_infantry")));
  EXPECT_EQ(strength(f, "sco_mentieth"), 3);

  // Round 2: three hits eliminate the infantry; Scotland wins and may regroup.
  ASSERT_EQ(f.state().battle.round, 2);
  f.dice({1, 1, 1});
  f.act(kScotland, with_block(ActionKind::Fire, block("sco_mentieth")));
  EXPECT_EQ(blk(f, "eng_northumber_infantry").loc, kPool);
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  EXPECT_EQ(f.state().active, index_of(kScotland));
  f.act(kScotland, simple(ActionKind::EndRegroup));

  EXPECT_TRUE(no_border_record(f));
  EXPECT_EQ(f.state().battles[area("mentieth")].attacker, kNone);
  EXPECT_FALSE(f.state().in_defection);
  EXPECT_TRUE(in_move_phase_of(f, kEngland)) << "P2's player turn follows the battle";
}

// ---------------------------------------------------------------------------------------------
// Sea Move (RULES 7.4)

// E-09 Sea Move (RULES 7.4.1): two blocks from one coastal area to one friendly coastal area;
// not to a vacant area, not to an inland one; the first move fixes origin and destination.
TEST(Event, SeaMoveTakesUpToTwoBlocksBetweenOnePairOfAreasE09) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife")
      .place("sco_barclay", "fife")
      .place("sco_grant", "fife")
      .place("sco_fraser", "moray")
      .place("sco_keith", "lanark");  // friendly but inland
  scotland_event(f, "sea_move");
  ASSERT_TRUE(in_event_of(f, kScotland));
  for (auto id : {"sco_douglas", "sco_barclay", "sco_grant"}) {
    EXPECT_TRUE(f.offered(kScotland, sea(id, "moray"))) << id;
    EXPECT_TRUE(f.offered(kScotland, sea(id, "galloway"))) << id;  // the parked nobles' area
    EXPECT_FALSE(f.offered(kScotland, sea(id, "lothian"))) << id << ": vacant";
    EXPECT_FALSE(f.offered(kScotland, sea(id, "lanark"))) << id << ": inland";
    EXPECT_FALSE(f.offered(kScotland, sea(id, "fife"))) << id << ": its own area";
  }
  EXPECT_FALSE(f.offered(kScotland, sea("sco_keith", "fife"))) << "Lanark is inland";
  f.refuse(kScotland, sea("sco_douglas", "lothian"));
  EXPECT_FALSE(f.offered(kScotland, done())) << "nothing moved yet: decline, not done";
  EXPECT_TRUE(f.offered(kScotland, decline()));

  f.act(kScotland, sea("sco_douglas", "moray"));
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_EQ(actions(f, kScotland),
            as_set({sea("sco_barclay", "moray"), sea("sco_grant", "moray"), done()}));
  f.refuse(kScotland, sea("sco_barclay", "galloway"));
  f.refuse(kScotland, sea("sco_fraser", "fife"));

  f.act(kScotland, sea("sco_barclay", "moray"));
  EXPECT_TRUE(is_at(f, "sco_douglas", "moray"));
  EXPECT_TRUE(is_at(f, "sco_barclay", "moray"));
  EXPECT_TRUE(blk(f, "sco_douglas").moved);
  EXPECT_TRUE(blk(f, "sco_barclay").moved);
  EXPECT_TRUE(is_at(f, "sco_grant", "fife"));
  EXPECT_TRUE(no_border_record(f));
  EXPECT_TRUE(in_move_phase_of(f, kEngland)) << "the event ends after the second block";
  EXPECT_TRUE(of_kind(f, kScotland, ActionKind::SeaMove).empty());
}

// RULES 7.4.1, 14 #7: after one block, `done` ends the Sea Move.
TEST(Event, SeaMoveMayStopAfterOneBlock) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife").place("sco_barclay", "fife").place("sco_fraser", "moray");
  scotland_event(f, "sea_move");
  f.act(kScotland, sea("sco_douglas", "moray")).act(kScotland, done());
  EXPECT_TRUE(is_at(f, "sco_douglas", "moray"));
  EXPECT_TRUE(is_at(f, "sco_barclay", "fife"));
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
}

// E-10 English Sea Move to Scotland (RULES 7.4.1): England is coastal; england->fife for two.
TEST(Event, EnglishSeaMoveFromEnglandToFifeE10) {
  Fixture f = blank_map();
  f.place("eng_york_infantry", "england")
      .place("eng_lancaster_infantry", "england")
      .place("eng_durham_infantry", "england")
      .place("eng_york_knights", "fife");
  england_event(f, "sea_move");
  ASSERT_TRUE(in_event_of(f, kEngland));
  for (auto id : {"eng_york_infantry", "eng_lancaster_infantry", "eng_durham_infantry"}) {
    EXPECT_TRUE(f.offered(kEngland, sea(id, "fife"))) << id;
  }
  EXPECT_TRUE(f.offered(kEngland, sea("eng_york_knights", "england")));

  f.act(kEngland, sea("eng_york_infantry", "fife"));
  EXPECT_EQ(actions(f, kEngland), as_set({sea("eng_lancaster_infantry", "fife"),
                                          sea("eng_durham_infantry", "fife"), done()}));
  f.act(kEngland, sea("eng_lancaster_infantry", "fife"));
  EXPECT_TRUE(is_at(f, "eng_york_infantry", "fife"));
  EXPECT_TRUE(is_at(f, "eng_lancaster_infantry", "fife"));
  EXPECT_TRUE(is_at(f, "eng_durham_infantry", "england"));
  EXPECT_TRUE(in_move_phase_of(f, kScotland));
}

// E-11 Truce and Sea Move (RULES 4.9.2, 7.4.4): under England's Truce, Scotland (double event)
// may not sail into England, even though Scots already hold it.
TEST(Event, NoScottishSeaMoveIntoEnglandUnderEnglishTruceE11) {
  Fixture f = blank_map();
  f.place("sco_douglas", "england").place("sco_barclay", "fife");
  double_event(f, "sea_move", "truce");
  ASSERT_TRUE(in_event_of(f, kEngland));
  f.act(kEngland, truce());
  ASSERT_TRUE(in_event_of(f, kScotland));
  ASSERT_EQ(f.state().truce_against, index_of(kScotland));
  for (const auto& a : of_kind(f, kScotland, ActionKind::SeaMove)) {
    EXPECT_NE(a.b, area("england")) << action_to_json(a).dump();
  }
  EXPECT_TRUE(f.offered(kScotland, sea("sco_barclay", "galloway")));
  EXPECT_TRUE(f.offered(kScotland, sea("sco_douglas", "fife"))) << "leaving England is allowed";
  f.refuse(kScotland, sea("sco_barclay", "england"));
}

// E-11 control: without the Truce the same sea move into England is offered.
TEST(Event, ScottishSeaMoveIntoHeldEnglandWithoutTruceE11) {
  Fixture f = blank_map();
  f.place("sco_douglas", "england").place("sco_barclay", "fife");
  double_event(f, "sea_move", "truce");
  f.act(kEngland, decline());
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_TRUE(f.offered(kScotland, sea("sco_barclay", "england")));
}

// C-25 companion (RULES 7.4.2): the Norse is never moved by the Sea Move card.
TEST(Event, SeaMoveNeverOffersTheNorse) {
  Fixture f = blank_map();
  f.place("sco_norse", "ross").place("sco_fraser", "ross").place("sco_douglas", "fife");
  scotland_event(f, "sea_move");
  EXPECT_TRUE(f.offered(kScotland, sea("sco_fraser", "fife")));
  for (const auto& a : of_kind(f, kScotland, ActionKind::SeaMove)) {
    EXPECT_NE(a.a, block("sco_norse")) << action_to_json(a).dump();
  }
  f.act(kScotland, sea("sco_fraser", "fife"));
  EXPECT_EQ(actions(f, kScotland), as_set({done()})) << "the Norse cannot follow Fraser";
}

// ---------------------------------------------------------------------------------------------
// Victuals (RULES 7.6)

// E-12 Victuals (RULES 7.6.1, 7.6.2): one area (the first step fixes it), never above maximum,
// at most 3 steps; Scotland may finish after 1.
TEST(Event, VictualsAddsUpToThreeStepsInOneAreaE12) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife", 2)
      .place("sco_fraser", "fife", 3)  // at its maximum of 3
      .place("sco_barclay", "fife", 2)
      .place("sco_grant", "moray", 1);
  scotland_event(f, "victuals");
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_TRUE(f.offered(kScotland, victual_to("sco_douglas")));
  EXPECT_TRUE(f.offered(kScotland, victual_to("sco_grant")));
  EXPECT_FALSE(f.offered(kScotland, victual_to("sco_fraser"))) << "already at maximum";
  f.refuse(kScotland, victual_to("sco_fraser"));

  f.act(kScotland, victual_to("sco_douglas"));
  EXPECT_EQ(strength(f, "sco_douglas"), 3);
  EXPECT_EQ(actions(f, kScotland),
            as_set({victual_to("sco_douglas"), victual_to("sco_barclay"), done()}));
  f.refuse(kScotland, victual_to("sco_grant"));  // the first step fixed Fife

  f.act(kScotland, victual_to("sco_douglas"));
  EXPECT_EQ(strength(f, "sco_douglas"), 4);
  EXPECT_FALSE(f.offered(kScotland, victual_to("sco_douglas"))) << "now at its maximum of 4";
  f.act(kScotland, victual_to("sco_barclay"));
  EXPECT_EQ(strength(f, "sco_barclay"), 3);
  EXPECT_TRUE(of_kind(f, kScotland, ActionKind::Victual).empty()) << "three steps placed";
  EXPECT_TRUE(f.offered(kScotland, done()));
  f.act(kScotland, done());
  EXPECT_EQ(strength(f, "sco_grant"), 1);
  EXPECT_EQ(strength(f, "sco_fraser"), 3);
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
}

// E-12 (RULES 7.6.2): Scotland may stop after a single step.
TEST(Event, VictualsMayStopAfterOneStepE12) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife", 2).place("sco_fraser", "fife", 3);
  scotland_event(f, "victuals");
  f.act(kScotland, victual_to("sco_douglas")).act(kScotland, done());
  EXPECT_EQ(strength(f, "sco_douglas"), 3);
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
}

// ---------------------------------------------------------------------------------------------
// Truce (RULES 7.1.1, 7.5)

// E-13 position: Keith in Annan, York Infantry in Carrick; England (P1) plays Truce.
Fixture truce_position() {
  Fixture f = blank_map();
  f.place("sco_keith", "annan").place("eng_york_infantry", "carrick");
  england_event(f, "truce");
  return f;
}

// E-13 Truce in force (RULES 7.5): shown to all for the rest of the game turn, then cleared.
TEST(Event, TruceIsPublicForTheRestOfTheGameTurnE13) {
  Fixture f = truce_position();
  ASSERT_TRUE(in_event_of(f, kEngland));
  EXPECT_EQ(actions(f, kEngland), as_set({truce(), decline()}));
  f.act(kEngland, truce());
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  for (Role role : {kScotland, kEngland, Role::Observer}) {
    EXPECT_EQ(f.view(role)["truce_against"], "scotland") << role_name(role);
  }
  EXPECT_FALSE(f.offered(kScotland, move_to("sco_keith", "carrick")));
  EXPECT_FALSE(f.offered(kScotland, move_to("sco_keith", "england")));
  EXPECT_TRUE(f.offered(kScotland, move_to("sco_keith", "lanark")));

  f.act(kScotland, simple(ActionKind::EndMovePhase));
  ASSERT_EQ(f.state().phase, Phase::CardChoice);
  EXPECT_EQ(f.state().turn, 2);
  for (Role role : {kScotland, kEngland, Role::Observer}) {
    EXPECT_TRUE(f.view(role)["truce_against"].is_null()) << role_name(role);
  }
}

// E-13 Truce declined (RULES 7.1.1): no Truce; Scotland may attack and enter England.
TEST(Event, DeclinedTruceHasNoEffectE13) {
  Fixture f = truce_position();
  f.act(kEngland, decline());
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  EXPECT_EQ(f.state().truce_against, kNone);
  EXPECT_TRUE(f.view(Role::Observer)["truce_against"].is_null());
  EXPECT_TRUE(f.offered(kScotland, move_to("sco_keith", "carrick")));
  EXPECT_TRUE(f.offered(kScotland, move_to("sco_keith", "england")));
  EXPECT_TRUE(logged(f, Role::Observer, "declined"));
}

// E-14 Truce does not stop defection battles (RULES 7.5.4, 5.14.6): double event, England's
// Truce, then Scotland's Herald converts Mentieth next to Northumber Infantry: it is fought.
TEST(Event, TruceDoesNotPreventAHeraldBattleE14) {
  Fixture f;  // Braveheart: eng_mentieth and eng_northumber_infantry in Mentieth
  double_event(f, "herald", "truce");
  f.act(kEngland, truce());
  ASSERT_TRUE(in_event_of(f, kScotland));
  f.dice({1});
  f.act(kScotland, roll()).act(kScotland, herald_of("mentieth"));
  EXPECT_EQ(f.state().truce_against, index_of(kScotland));
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.area, area("mentieth"));
  EXPECT_EQ(f.state().battle.attacker, index_of(kScotland));
}

}  // namespace
}  // namespace blockfog::hots::testing
