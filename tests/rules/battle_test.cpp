// ACCEPTANCE group D (RULES 5): combat order, firing, hits, elimination, reserves, round
// transitions, Celtic Unity, battle order, Schiltroms; and I-09 (12.2.4). Retreat cases (D-14,
// D-24 to D-32) are in battle_retreat_test.cpp. Every battle is reached with real move actions.

#include <algorithm>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "rules/hots/engine.h"
#include "tests/rules/fixture.h"
#include "tests/rules/helpers.h"

namespace blockfog::hots::testing {
namespace {

using nlohmann::json;

// Public Celtic Unity rolls of a block so far (RULES 5.3.2: the rolls are public).
int celtic_rolls(const Fixture& f, std::string_view id) {
  const auto& log = f.state().log;
  return static_cast<int>(std::count_if(log.begin(), log.end(), [&](const LogEntry& e) {
    return e.kind == LogKind::CelticRoll && e.a == block(id) && e.audience == Audience::Public;
  }));
}

// ---------------------------------------------------------------------------------------------
// Combat order (RULES 5.4)

// D-01 Combat order, rulebook example (RULES 5.4.2, 5.4.3): Mar, York Knights, Grant, York
// Infantry in every round.
TEST(Battle, CombatTurnsFollowInitiativeWithDefenderFirstD01) {
  Fixture f = blank_map();
  f.place("sco_mar", "angus")
      .place("sco_grant", "angus")
      .place("eng_york_knights", "buchan")
      .place("eng_york_infantry", "buchan");
  english_attack(f, {"eng_york_knights", "eng_york_infantry"}, "angus");
  ASSERT_EQ(f.state().phase, Phase::Combat);
  const std::vector<std::pair<Role, std::string>> order = {{kScotland, "sco_mar"},
                                                           {kEngland, "eng_york_knights"},
                                                           {kScotland, "sco_grant"},
                                                           {kEngland, "eng_york_infantry"}};
  for (int round = 1; round <= 3; ++round) {
    for (const auto& [side, id] : order) {
      ASSERT_EQ(f.state().phase, Phase::Combat);
      EXPECT_EQ(f.state().battle.round, round);
      EXPECT_EQ(awaited(f), side) << id << " in round " << round;
      EXPECT_EQ(acting_blocks(f), std::set<std::string>{id}) << "round " << round;
      EXPECT_TRUE(legal_actions(f.state(), core::other_side(side)).empty());
      pass(f, side, id);
    }
  }
  EXPECT_EQ(f.state().phase, Phase::MandatoryRetreat) << "both remain after round 3 (5.11.3)";
}

// D-02 Defender first in a letter (RULES 5.4.2): Wallace (A3, defending) before the Hobelars
// (A2, attacking) in every round.
TEST(Battle, DefendingABlockActsBeforeAttackingABlockD02) {
  Fixture f = blank_map();
  f.place("sco_wallace", "lothian").place("eng_hobelars", "dunbar");
  english_attack(f, {"eng_hobelars"}, "lothian");
  for (int round = 1; round <= 3; ++round) {
    ASSERT_EQ(f.state().phase, Phase::Combat);
    EXPECT_EQ(f.state().battle.round, round);
    EXPECT_EQ(awaited(f), kScotland);
    EXPECT_EQ(acting_blocks(f), std::set<std::string>{"sco_wallace"});
    pass(f, kScotland, "sco_wallace");
    EXPECT_EQ(awaited(f), kEngland);
    EXPECT_EQ(acting_blocks(f), std::set<std::string>{"eng_hobelars"});
    pass(f, kEngland, "eng_hobelars");
  }
}

// ---------------------------------------------------------------------------------------------
// Hits (RULES 5.7)

// D-03 Choice among tied blocks (RULES 5.7.2, 5.7.4).
TEST(Battle, OwnerChoosesAmongTiedStrongestD03) {
  Fixture f = blank_map();
  f.place("sco_douglas", "lanark", 4)
      .place("sco_barclay", "lanark", 4)
      .place("sco_fraser", "lanark", 2)
      .place("eng_york_knights", "lothian");
  english_attack(f, {"eng_york_knights"}, "lanark");
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"eng_york_knights"});
  fire(f, kEngland, "eng_york_knights", {1, 1, 1, 6});
  ASSERT_EQ(f.state().phase, Phase::HitAllocation);
  EXPECT_EQ(awaited(f), kScotland);
  EXPECT_EQ(blk(f, "sco_douglas").strength, 3);
  EXPECT_EQ(blk(f, "sco_barclay").strength, 3);
  EXPECT_EQ(blk(f, "sco_fraser").strength, 2);
  EXPECT_EQ(legal_actions(f.state(), kScotland),
            (std::vector<Action>{hit_on("sco_douglas"), hit_on("sco_barclay")}));
  EXPECT_TRUE(legal_actions(f.state(), kEngland).empty());
  f.refuse(kScotland, hit_on("sco_fraser"));
  f.act(kScotland, hit_on("sco_barclay"));
  EXPECT_EQ(blk(f, "sco_douglas").strength, 3);
  EXPECT_EQ(blk(f, "sco_barclay").strength, 2);
  EXPECT_EQ(blk(f, "sco_fraser").strength, 2);
  EXPECT_EQ(f.state().phase, Phase::Combat);
}

// D-04 No prompt without a choice (RULES 5.7.4).
TEST(Battle, HitsWithoutChoiceNeedNoPromptD04) {
  Fixture f = blank_map();
  f.place("sco_douglas", "lanark", 4)
      .place("sco_fraser", "lanark", 2)
      .place("eng_york_knights", "lothian");
  english_attack(f, {"eng_york_knights"}, "lanark");
  fire(f, kEngland, "eng_york_knights", {1, 1, 6, 6});
  EXPECT_EQ(f.state().phase, Phase::Combat) << "no allocation prompt";
  EXPECT_EQ(blk(f, "sco_douglas").strength, 2);
  EXPECT_EQ(blk(f, "sco_fraser").strength, 2);
  EXPECT_EQ(awaited(f), kScotland);
  EXPECT_EQ(acting_blocks(f), (std::set<std::string>{"sco_douglas", "sco_fraser"}));
}

// D-05 Excess hits lost (RULES 5.7.3, 5.2.3): reserves cannot absorb hits in round 1.
TEST(Battle, ExcessHitsAreLostAndReservesUntouchedD05) {
  Fixture f = blank_map();
  f.place("sco_fraser", "lanark", 1)
      .place("sco_douglas", "carrick")
      .place("sco_barclay", "carrick")
      .place("eng_york_knights", "lothian");
  england_first(f);
  go(f, kEngland, "eng_york_knights", {"lanark"});
  end_moves(f, kEngland);
  go(f, kScotland, "sco_douglas", {"lanark"});
  go(f, kScotland, "sco_barclay", {"lanark"});
  end_moves(f, kScotland);
  ASSERT_TRUE(blk(f, "sco_douglas").reserve);
  ASSERT_TRUE(blk(f, "sco_barclay").reserve);
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"eng_york_knights"});
  fire(f, kEngland, "eng_york_knights", {1, 1, 1, 6});
  EXPECT_TRUE(logged(f, kScotland, {"York Knights", "1,1,1,6", "3 hits"}));
  EXPECT_EQ(blk(f, "sco_fraser").loc, kPool);
  EXPECT_TRUE(is_at(f, "sco_douglas", "lanark"));
  EXPECT_TRUE(is_at(f, "sco_barclay", "lanark"));
  EXPECT_EQ(blk(f, "sco_douglas").strength, 4);
  EXPECT_EQ(blk(f, "sco_barclay").strength, 4);
  EXPECT_EQ(f.state().battle.hits, 0);
  EXPECT_NE(f.state().phase, Phase::HitAllocation);
}

// ---------------------------------------------------------------------------------------------
// Fire values (RULES 5.6)

// D-06 Home bonus (RULES 5.6.2.1): Angus defending at home fires B3.
TEST(Battle, NobleDefendingAtHomeFiresAtPlusOneD06) {
  Fixture f = blank_map();
  f.place("eng_angus", "angus", 3).place("sco_douglas", "fife");
  scotland_first(f);
  go(f, kScotland, "sco_douglas", {"angus"});
  end_moves(f, kScotland);
  end_moves(f, kEngland);
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"eng_angus"});
  fire(f, kEngland, "eng_angus", {3, 3, 6});
  EXPECT_TRUE(logged(f, kScotland, {"Angus", "3,3,6", "2 hits"}));
  EXPECT_EQ(blk(f, "sco_douglas").strength, 2);
}

// D-06 (RULES 5.6.2.1): never for a noble on the attacking side, even in its home area.
TEST(Battle, NobleAttackingIntoItsHomeHasNoBonusD06) {
  Fixture f = blank_map();
  f.place("sco_douglas", "angus").place("eng_angus", "buchan", 3);
  english_attack(f, {"eng_angus"}, "angus");
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"eng_angus"});
  fire(f, kEngland, "eng_angus", {3, 3, 6});
  EXPECT_TRUE(logged(f, kScotland, {"Angus", "3,3,6", "0 hits"}));
  EXPECT_EQ(blk(f, "sco_douglas").strength, 4);
}

// D-07 Moray at home (RULES 5.6.2.1).
TEST(Battle, MorayDefendingInMorayFiresB3D07) {
  Fixture f = blank_map();
  f.place("sco_moray", "moray", 3).place("eng_york_infantry", "strathspey");
  english_attack(f, {"eng_york_infantry"}, "moray");
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"sco_moray"});
  fire(f, kScotland, "sco_moray", {3, 4, 5});
  EXPECT_TRUE(logged(f, kEngland, {"Moray", "3,4,5", "1 hit"}));
  EXPECT_EQ(blk(f, "eng_york_infantry").strength, 3);
}

// ---------------------------------------------------------------------------------------------
// Elimination (RULES 5.8)

// D-08 Capture of a noble (RULES 5.8.2, 5.4.5, 5.9.3).
TEST(Battle, CapturedNobleChangesSidesAsReserveAndActsFromRoundTwoD08) {
  Fixture f = blank_map();
  f.place("sco_mar", "mar", 1).place("sco_douglas", "mar", 1).place("eng_york_knights", "buchan");
  english_attack(f, {"eng_york_knights"}, "mar");
  const int england_before = nobles_controlled(f.state(), kEngland);
  const int scotland_before = nobles_controlled(f.state(), kScotland);
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"sco_mar"});
  pass(f, kScotland, "sco_mar");
  fire(f, kEngland, "eng_york_knights", {1, 6, 6, 6});
  ASSERT_EQ(f.state().phase, Phase::HitAllocation);
  EXPECT_EQ(legal_actions(f.state(), kScotland),
            (std::vector<Action>{hit_on("sco_douglas"), hit_on("sco_mar")}));
  f.act(kScotland, hit_on("sco_mar"));

  EXPECT_EQ(blk(f, "sco_mar").loc, kNotInPlay);
  EXPECT_TRUE(is_at(f, "eng_mar", "mar"));
  EXPECT_EQ(blk(f, "eng_mar").strength, 1);
  EXPECT_TRUE(blk(f, "eng_mar").reserve);
  EXPECT_EQ(nobles_controlled(f.state(), kEngland), england_before + 1);
  EXPECT_EQ(nobles_controlled(f.state(), kScotland), scotland_before - 1);
  EXPECT_TRUE(logged(f, kScotland, {"Mar changes sides", "England"}));
  EXPECT_EQ(f.view(kScotland).at("nobles").at("roster").at("mar"), "england");

  // Round 1 goes on without Mar: Douglas, then nobody (Mar does not act).
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.round, 1);
  EXPECT_EQ(acting_blocks(f), std::set<std::string>{"sco_douglas"});
  EXPECT_TRUE(legal_actions(f.state(), kEngland).empty());
  pass(f, kScotland, "sco_douglas");
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.round, 2);
  EXPECT_FALSE(blk(f, "eng_mar").reserve);
  EXPECT_EQ(awaited(f), kEngland);
  EXPECT_EQ(acting_blocks(f), (std::set<std::string>{"eng_york_knights", "eng_mar"}));
}

// D-09 Moray dies (RULES 5.8.2).
TEST(Battle, MorayEliminatedInBattleIsDeadD09) {
  Fixture f = blank_map();
  f.place("sco_moray", "moray", 1).place("eng_york_knights", "strathspey");
  english_attack(f, {"eng_york_knights"}, "moray");
  const int before = nobles_controlled(f.state(), kScotland);
  pass(f, kScotland, "sco_moray");
  fire(f, kEngland, "eng_york_knights", {1, 6, 6, 6});
  EXPECT_EQ(blk(f, "sco_moray").loc, kDead);
  EXPECT_EQ(nobles_controlled(f.state(), kScotland), before - 1);
  for (Role role : {kScotland, kEngland, Role::Observer}) {
    EXPECT_EQ(f.view(role).at("nobles").at("scotland").at("moray"), "dead");
  }
  EXPECT_EQ(f.state().phase, Phase::Regroup);
  EXPECT_EQ(awaited(f), kEngland);
}

// D-10 Black cross vs pool (RULES 5.8.2): the Hobelars die.
TEST(Battle, HobelarsEliminatedInBattleAreDeadD10) {
  Fixture f = blank_map();
  f.place("sco_keith", "lothian").place("eng_hobelars", "dunbar", 1);
  english_attack(f, {"eng_hobelars"}, "lothian");
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"eng_hobelars"});
  pass(f, kEngland, "eng_hobelars");
  fire(f, kScotland, "sco_keith", {1, 6, 6});
  EXPECT_EQ(blk(f, "eng_hobelars").loc, kDead);
  EXPECT_TRUE(logged(f, kScotland, {"Hobelars", "eliminated"}));
}

// D-10 (RULES 5.8.2): any other block goes to its pool.
TEST(Battle, DouglasEliminatedInBattleGoesToPoolD10) {
  Fixture f = blank_map();
  f.place("sco_douglas", "lanark", 1).place("eng_york_knights", "lothian");
  english_attack(f, {"eng_york_knights"}, "lanark");
  fire(f, kEngland, "eng_york_knights", {1, 6, 6, 6});
  EXPECT_EQ(blk(f, "sco_douglas").loc, kPool);
  const json pool = f.view(kScotland).at("pools").at("scotland").at("blocks");
  EXPECT_NE(std::find(pool.begin(), pool.end(), json("sco_douglas")), pool.end());
}

// D-11 Edward I killed (RULES 5.8.2, 6.1.2).
TEST(Battle, EdwardIKilledBecomesEdwardIIInPoolD11) {
  Fixture f = blank_map();
  f.place("sco_wallace", "lothian").place("eng_edward", "dunbar", 1);
  english_attack(f, {"eng_edward"}, "lothian");
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"sco_wallace"});
  fire(f, kScotland, "sco_wallace", {1, 6, 6, 6});
  EXPECT_EQ(blk(f, "eng_edward").loc, kPool);
  // RULES 5.8.4: the pool holds no strength; a levy returns the block at full strength.
  EXPECT_TRUE(blk(f, "eng_edward").strength == 0 || blk(f, "eng_edward").strength == 4);
  EXPECT_TRUE(f.state().edward_ii);
  for (Role role : {kScotland, kEngland, Role::Observer}) {
    EXPECT_EQ(f.view(role).at("edward"), "Edward II");
  }
  EXPECT_TRUE(logged(f, kScotland, {"Edward II"}));
  EXPECT_FALSE(outcome(f.state()).finished);
  EXPECT_EQ(f.state().phase, Phase::Regroup);
}

// I-09 (RULES 12.2.4): after a sudden death nothing further is offered to anybody.
void expect_game_over(Fixture& f, Side winner, std::string_view reason) {
  EXPECT_EQ(f.state().phase, Phase::GameOver);
  const auto result = outcome(f.state());
  EXPECT_TRUE(result.finished);
  ASSERT_TRUE(result.winner.has_value());
  EXPECT_EQ(*result.winner, winner);
  EXPECT_EQ(result.reason, reason);
  EXPECT_TRUE(active_roles(f.state()).empty());
  for (Role role : {kScotland, kEngland, Role::Observer}) {
    EXPECT_TRUE(legal_actions(f.state(), role).empty());
    const json v = f.view(role);
    EXPECT_EQ(v.at("awaiting"), json::array());
    EXPECT_EQ(v.at("legal_actions"), json::array());
    EXPECT_EQ(v.at("outcome").at("winner"), winner == kScotland ? "scotland" : "england");
    EXPECT_EQ(v.at("outcome").at("reason"), reason);
  }
  for (Role role : {kScotland, kEngland}) {
    EXPECT_EQ(f.refuse(role, simple(ActionKind::EndRegroup)), core::RuleErrorCode::GameOver);
    EXPECT_EQ(f.refuse(role, simple(ActionKind::FinishRetreat)), core::RuleErrorCode::GameOver);
  }
}

// D-12 Edward II killed (RULES 12.2.2) and I-09 (12.2.4).
TEST(Battle, EdwardIIKilledEndsTheGameAtOnceD12I09) {
  Fixture f = blank_map();
  f.state().edward_ii = true;
  f.place("sco_wallace", "lothian")
      .place("eng_edward", "dunbar", 1)
      .place("eng_york_infantry", "dunbar", 1);
  english_attack(f, {"eng_edward", "eng_york_infantry"}, "lothian");
  fire(f, kScotland, "sco_wallace", {1, 6, 6, 6});
  ASSERT_EQ(f.state().phase, Phase::HitAllocation);
  ASSERT_EQ(awaited(f), kEngland);
  f.act(kEngland, hit_on("eng_edward"));
  EXPECT_EQ(blk(f, "eng_edward").loc, kDead);
  EXPECT_TRUE(is_at(f, "eng_york_infantry", "lothian")) << "the battle stops where it is";
  expect_game_over(f, kScotland, "edward_ii_killed");
}

// D-13 King killed (RULES 12.2.1) and I-09 (12.2.4).
TEST(Battle, KingKilledEndsTheGameD13I09) {
  Fixture f = blank_map();
  f.place("sco_king", "fife", 1).place("sco_douglas", "fife", 1).place("eng_york_knights", "angus");
  english_attack(f, {"eng_york_knights"}, "fife");
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"sco_king"});
  pass(f, kScotland, "sco_king");
  fire(f, kEngland, "eng_york_knights", {1, 1, 6, 6});
  EXPECT_EQ(blk(f, "sco_king").loc, kDead);
  expect_game_over(f, kEngland, "king_killed");
}

// ---------------------------------------------------------------------------------------------
// Reserves and round transitions (RULES 5.2, 5.9)

// D-15 position: S main Grant (3) in Lanark, S reserve Graham (4) from Carrick, attacked by
// York and Lancaster Infantry from Lothian.
Fixture reserve_position() {
  Fixture f = blank_map();
  f.place("sco_grant", "lanark", 3)
      .place("sco_graham", "carrick", 4)
      .place("eng_york_infantry", "lothian")
      .place("eng_lancaster_infantry", "lothian");
  england_first(f);
  go(f, kEngland, "eng_york_infantry", {"lanark"});
  go(f, kEngland, "eng_lancaster_infantry", {"lanark"});
  end_moves(f, kEngland);
  go(f, kScotland, "sco_graham", {"lanark"});
  end_moves(f, kScotland);
  return f;
}

// D-15 Reserves immune in round 1 (RULES 5.2.3).
TEST(Battle, ReservesTakeNoHitsAndNoTurnInRoundOneD15) {
  Fixture f = reserve_position();
  ASSERT_TRUE(blk(f, "sco_graham").reserve);
  ASSERT_EQ(f.state().battle.round, 1);
  EXPECT_EQ(acting_blocks(f), std::set<std::string>{"sco_grant"});
  EXPECT_TRUE(kinds_for(f, kScotland, "sco_graham").empty());
  f.refuse(kScotland, pass_of("sco_graham"));
  pass(f, kScotland, "sco_grant");
  EXPECT_TRUE(kinds_for(f, kScotland, "sco_graham").empty());
  fire(f, kEngland, "eng_york_infantry", {1, 1, 6, 6});  // 2 hits
  EXPECT_EQ(blk(f, "sco_grant").strength, 1);
  fire(f, kEngland, "eng_lancaster_infantry", {1, 1, 1, 6});  // 3 more: 5 in all
  EXPECT_EQ(blk(f, "sco_grant").loc, kPool);
  EXPECT_TRUE(is_at(f, "sco_graham", "lanark"));
  EXPECT_EQ(blk(f, "sco_graham").strength, 4);
}

// D-16 Reserves join in round 2 (RULES 5.9.3); with D-17's control change, since Scotland's
// main force is gone.
TEST(Battle, ReservesJoinAndAreRevealedInRoundTwoD16) {
  Fixture f = reserve_position();
  pass(f, kScotland, "sco_grant");
  fire(f, kEngland, "eng_york_infantry", {1, 1, 6, 6});
  fire(f, kEngland, "eng_lancaster_infantry", {1, 1, 1, 6});
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.round, 2);
  EXPECT_FALSE(blk(f, "sco_graham").reserve);
  const std::set<std::pair<std::string, int>> graham = {{"sco_graham", 4}};
  EXPECT_EQ(revealed(f, kEngland, kScotland), graham);
  EXPECT_EQ(revealed(f, Role::Observer, kScotland), graham);
  EXPECT_TRUE(logged(f, kEngland, {"Graham", "(4)", "revealed"}));
  // England now defends: its C blocks act first, then Graham in his step.
  EXPECT_EQ(awaited(f), kEngland);
  pass(f, kEngland, "eng_york_infantry");
  pass(f, kEngland, "eng_lancaster_infantry");
  EXPECT_EQ(awaited(f), kScotland);
  EXPECT_EQ(acting_blocks(f), std::set<std::string>{"sco_graham"});
  EXPECT_TRUE(kinds_for(f, kScotland, "sco_graham").count(ActionKind::Fire));
}

// D-17 position: E (P1) attacks Buchan (Fraser) from Angus with 4 blocks; S (P2) reinforces
// with 3 blocks from Strathspey.
Fixture control_change_position() {
  Fixture f = blank_map();
  f.place("sco_fraser", "buchan", 1)
      .place("eng_york_knights", "angus")
      .place("eng_york_infantry", "angus")
      .place("eng_lancaster_infantry", "angus")
      .place("eng_northumber_infantry", "angus")
      .place("sco_douglas", "strathspey")
      .place("sco_barclay", "strathspey")
      .place("sco_grant", "strathspey");
  england_first(f);
  for (auto id : {"eng_york_knights", "eng_york_infantry", "eng_lancaster_infantry",
                  "eng_northumber_infantry"}) {
    go(f, kEngland, id, {"buchan"});
  }
  end_moves(f, kEngland);
  for (auto id : {"sco_douglas", "sco_barclay", "sco_grant"}) go(f, kScotland, id, {"buchan"});
  end_moves(f, kScotland);
  return f;
}

// D-17 Battlefield control change (RULES 5.9.2, 5.11.3, 5.10.3).
TEST(Battle, DefenderMainForceGoneChangesBattlefieldControlD17) {
  Fixture f = control_change_position();
  ASSERT_EQ(f.state().phase, Phase::Combat);
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"eng_york_knights"});
  fire(f, kEngland, "eng_york_knights", {1, 6, 6, 6});
  ASSERT_EQ(blk(f, "sco_fraser").loc, kPool);
  // The English infantry still get their turns in round 1, with nothing to fire at (5.9.1).
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(f.state().battle.round, 1);
    ASSERT_EQ(awaited(f), kEngland);
    const auto ids = acting_blocks(f);
    ASSERT_EQ(ids.size(), static_cast<std::size_t>(3 - i));
    EXPECT_FALSE(has_kind(f, kEngland, ActionKind::Fire));
    pass(f, kEngland, *ids.begin());
  }
  ASSERT_EQ(f.state().battle.round, 2);
  EXPECT_EQ(f.state().battle.attacker, index_of(kScotland));
  for (Role role : {kScotland, kEngland, Role::Observer}) {
    EXPECT_EQ(f.view(role).at("battle").at("attacker"), "scotland");
    EXPECT_EQ(f.view(role).at("battle").at("defender"), "england");
  }
  EXPECT_TRUE(logged(f, kScotland, {"control", "Buchan", "Scotland"}));
  // Round 2: England (defending) B, England C, then Scotland (attacking) C.
  EXPECT_EQ(awaited(f), kEngland);
  EXPECT_EQ(acting_blocks(f), std::set<std::string>{"eng_york_knights"});
  pass(f, kEngland, "eng_york_knights");
  EXPECT_EQ(awaited(f), kEngland);
  EXPECT_EQ(acting_blocks(f), (std::set<std::string>{"eng_york_infantry", "eng_lancaster_infantry",
                                                     "eng_northumber_infantry"}));
  for (auto id : {"eng_york_infantry", "eng_lancaster_infantry", "eng_northumber_infantry"}) {
    pass(f, kEngland, id);
  }
  EXPECT_EQ(awaited(f), kScotland);
  EXPECT_EQ(acting_blocks(f), (std::set<std::string>{"sco_douglas", "sco_barclay", "sco_grant"}));
  pass_to_end_of_rounds(f);
  // Both remain after round 3: Scotland, now the attacker, must retreat, not across the
  // border England used (buchan-angus).
  ASSERT_EQ(f.state().phase, Phase::MandatoryRetreat);
  EXPECT_EQ(awaited(f), kScotland);
  for (auto id : {"sco_douglas", "sco_barclay", "sco_grant"}) {
    EXPECT_FALSE(f.offered(kScotland, retreat_of(id, "angus"))) << id;
    EXPECT_TRUE(f.offered(kScotland, retreat_of(id, "strathspey"))) << id;
  }
  f.refuse(kScotland, retreat_of("sco_douglas", "angus"));
}

// D-18 Attacker main gone (RULES 5.9.1, 5.9.2).
TEST(Battle, AttackerMainGoneLeavesTurnsWithoutFireAndNoControlChangeD18) {
  Fixture f = blank_map();
  f.place("sco_wallace", "lanark")
      .place("sco_douglas", "lanark")
      .place("eng_york_infantry", "lothian", 1)
      .place("eng_lancaster_infantry", "mentieth");
  england_first(f);
  go(f, kEngland, "eng_york_infantry", {"lanark"});
  go(f, kEngland, "eng_lancaster_infantry", {"lanark"});
  ASSERT_TRUE(blk(f, "eng_lancaster_infantry").reserve);
  end_moves(f, kEngland);
  end_moves(f, kScotland);
  fire(f, kScotland, "sco_wallace", {1, 6, 6, 6});
  ASSERT_EQ(blk(f, "eng_york_infantry").loc, kPool);
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.round, 1);
  EXPECT_EQ(acting_blocks(f), std::set<std::string>{"sco_douglas"});
  const auto kinds = kinds_for(f, kScotland, "sco_douglas");
  EXPECT_FALSE(kinds.count(ActionKind::Fire));
  EXPECT_TRUE(kinds.count(ActionKind::Pass));
  EXPECT_TRUE(kinds.count(ActionKind::Retreat));
  f.refuse(kScotland, fire_of("sco_douglas"));
  pass(f, kScotland, "sco_douglas");
  ASSERT_EQ(f.state().battle.round, 2);
  EXPECT_EQ(f.state().battle.attacker, index_of(kEngland)) << "no control change";
  EXPECT_FALSE(blk(f, "eng_lancaster_infantry").reserve);
  EXPECT_EQ(revealed(f, kScotland, kEngland),
            (std::set<std::pair<std::string, int>>{{"eng_lancaster_infantry", 4}}));
  EXPECT_EQ(f.view(Role::Observer).at("battle").at("attacker"), "england");
}

// D-19 Turns without a target (RULES 5.9.1, 5.9.2).
TEST(Battle, DefenderMainRetreatedLeavesAttackerNothingToFireAtD19) {
  Fixture f = blank_map();
  f.place("sco_fraser", "buchan")
      .place("eng_york_infantry", "angus")
      .place("eng_lancaster_infantry", "angus")
      .place("sco_douglas", "strathspey")
      .place("sco_barclay", "strathspey");
  england_first(f);
  go(f, kEngland, "eng_york_infantry", {"buchan"});
  go(f, kEngland, "eng_lancaster_infantry", {"buchan"});
  end_moves(f, kEngland);
  go(f, kScotland, "sco_douglas", {"buchan"});
  go(f, kScotland, "sco_barclay", {"buchan"});
  end_moves(f, kScotland);
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"sco_fraser"});
  f.act(kScotland, retreat_of("sco_fraser", "mar"));
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(f.state().battle.round, 1);
    ASSERT_EQ(awaited(f), kEngland);
    EXPECT_FALSE(has_kind(f, kEngland, ActionKind::Fire));
    EXPECT_TRUE(has_kind(f, kEngland, ActionKind::Pass));
    f.refuse(kEngland, fire_of("eng_york_infantry"));
    pass(f, kEngland, *acting_blocks(f).begin());
  }
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.round, 2);
  EXPECT_EQ(f.state().battle.attacker, index_of(kScotland));
  EXPECT_FALSE(blk(f, "sco_douglas").reserve);
}

// D-20 Immediate end (RULES 5.9.5, 5.11.1).
TEST(Battle, LastAttackerEliminatedEndsTheBattleAtOnceD20) {
  Fixture f = blank_map();
  f.place("sco_douglas", "lanark").place("eng_york_infantry", "lothian", 2);
  english_attack(f, {"eng_york_infantry"}, "lanark");
  fire(f, kScotland, "sco_douglas", {1, 6, 6, 6});
  EXPECT_EQ(blk(f, "eng_york_infantry").strength, 1);
  pass(f, kEngland, "eng_york_infantry");
  ASSERT_EQ(f.state().battle.round, 2);
  fire(f, kScotland, "sco_douglas", {1, 6, 6, 6});
  EXPECT_EQ(blk(f, "eng_york_infantry").loc, kPool);
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  EXPECT_EQ(f.state().battle.round, 2);
  EXPECT_EQ(awaited(f), kScotland);
  EXPECT_EQ(f.view(kEngland).at("battle").at("victor"), "scotland");
  EXPECT_TRUE(
      f.offered(kScotland, to_area(ActionKind::Regroup, block("sco_douglas"), area("lothian"))));
  EXPECT_TRUE(f.offered(kScotland, simple(ActionKind::EndRegroup)));
  EXPECT_TRUE(logged(f, kEngland, {"Scotland", "wins", "Lanark"}));
}

// ---------------------------------------------------------------------------------------------
// Celtic Unity (RULES 5.3)

Fixture wales_attack(int die) {
  Fixture f = blank_map();
  f.place("sco_douglas", "lanark")
      .place("eng_wales_infantry", "lothian")
      .place("eng_york_infantry", "lothian");
  england_first(f);
  go(f, kEngland, "eng_wales_infantry", {"lanark"});
  go(f, kEngland, "eng_york_infantry", {"lanark"});
  end_moves(f, kEngland);
  f.dice({die});  // rolled as the battle begins
  end_moves(f, kScotland);
  return f;
}

// D-21 Celtic Unity, main block (RULES 5.3.2): 5 sends it to the English pool.
TEST(Battle, CelticMainBlockLeavesOnFiveD21) {
  Fixture f = wales_attack(5);
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(blk(f, "eng_wales_infantry").loc, kPool);
  for (Role role : {kScotland, kEngland, Role::Observer}) {
    EXPECT_TRUE(logged(f, role, {"Wales Infantry", "5", "Celtic", "leaves"}));
    EXPECT_EQ(revealed(f, role, kEngland),
              (std::set<std::pair<std::string, int>>{{"eng_york_infantry", 4}}));
  }
  pass(f, kScotland, "sco_douglas");
  EXPECT_EQ(acting_blocks(f), std::set<std::string>{"eng_york_infantry"});
}

// D-21 (RULES 5.3.2): 4 has no effect.
TEST(Battle, CelticMainBlockStaysOnFourD21) {
  Fixture f = wales_attack(4);
  EXPECT_TRUE(is_at(f, "eng_wales_infantry", "lanark"));
  EXPECT_TRUE(logged(f, kScotland, {"Wales Infantry", "4", "Celtic", "stays"}));
  EXPECT_EQ(
      revealed(f, kScotland, kEngland),
      (std::set<std::pair<std::string, int>>{{"eng_wales_infantry", 3}, {"eng_york_infantry", 4}}));
  pass(f, kScotland, "sco_douglas");
  EXPECT_EQ(acting_blocks(f), (std::set<std::string>{"eng_wales_infantry", "eng_york_infantry"}));
}

// D-22 position: York Infantry main from Lothian, Ulster Infantry reserve from Mentieth.
Fixture ulster_reserve_position() {
  Fixture f = blank_map();
  f.place("sco_douglas", "lanark")
      .place("eng_york_infantry", "lothian")
      .place("eng_ulster_infantry", "mentieth");
  england_first(f);
  go(f, kEngland, "eng_york_infantry", {"lanark"});
  go(f, kEngland, "eng_ulster_infantry", {"lanark"});
  end_moves(f, kEngland);
  end_moves(f, kScotland);
  return f;
}

// D-22 Celtic Unity, reserve (RULES 5.3.3): no roll in round 1, none if the battle ends then.
TEST(Battle, CelticReserveNeverRollsIfBattleEndsInRoundOneD22) {
  Fixture f = ulster_reserve_position();
  ASSERT_TRUE(blk(f, "eng_ulster_infantry").reserve);
  EXPECT_EQ(celtic_rolls(f, "eng_ulster_infantry"), 0);
  EXPECT_FALSE(f.state().rng.has_script());
  pass(f, kScotland, "sco_douglas");
  fire(f, kEngland, "eng_york_infantry", {1, 1, 1, 1});
  ASSERT_EQ(blk(f, "sco_douglas").loc, kPool);
  EXPECT_EQ(f.state().phase, Phase::Regroup);
  EXPECT_EQ(celtic_rolls(f, "eng_ulster_infantry"), 0);
  EXPECT_TRUE(is_at(f, "eng_ulster_infantry", "lanark"));
}

// D-22 (RULES 5.3.3): otherwise it rolls at the start of round 2, before it joins.
TEST(Battle, CelticReserveRollsAtStartOfRoundTwoD22) {
  for (int die : {4, 5}) {
    SCOPED_TRACE(die);
    Fixture f = ulster_reserve_position();
    pass(f, kScotland, "sco_douglas");
    EXPECT_EQ(celtic_rolls(f, "eng_ulster_infantry"), 0);
    f.dice({die});
    pass(f, kEngland, "eng_york_infantry");
    ASSERT_EQ(f.state().battle.round, 2);
    EXPECT_FALSE(f.state().rng.has_script()) << "the die was rolled";
    EXPECT_EQ(celtic_rolls(f, "eng_ulster_infantry"), 1);
    if (die == 4) {
      EXPECT_TRUE(logged(f, kScotland, {"Ulster Infantry", "4", "Celtic", "stays"}));
      EXPECT_FALSE(blk(f, "eng_ulster_infantry").reserve);
      EXPECT_TRUE(revealed(f, kScotland, kEngland).count({"eng_ulster_infantry", 3}));
    } else {
      EXPECT_EQ(blk(f, "eng_ulster_infantry").loc, kPool);
      EXPECT_FALSE(revealed(f, kScotland, kEngland).count({"eng_ulster_infantry", 3}));
    }
  }
}

// D-23 Celtic Unity every battle (RULES 5.3.1, 5.3.3).
TEST(Battle, CelticBlockRollsAgainInEveryBattleD23) {
  Fixture f = blank_map();
  f.place("sco_douglas", "lanark", 1)
      .place("sco_fraser", "carrick")
      .place("eng_wales_infantry", "lothian");
  f.hands({"move1_1", "move1_2", "move1_3"}, {"move2_1", "move2_2", "move2_3"});
  f.play_cards("move1_1", "move2_1");
  go(f, kEngland, "eng_wales_infantry", {"lanark"});
  end_moves(f, kEngland);
  f.dice({4});
  end_moves(f, kScotland);
  ASSERT_TRUE(is_at(f, "eng_wales_infantry", "lanark"));
  pass(f, kScotland, "sco_douglas");
  fire(f, kEngland, "eng_wales_infantry", {1, 6, 6});
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  f.act(kEngland, simple(ActionKind::EndRegroup));
  ASSERT_EQ(f.state().phase, Phase::CardChoice);
  ASSERT_EQ(f.state().turn, 2);

  f.play_cards("move1_2", "move2_2");
  go(f, kEngland, "eng_wales_infantry", {"carrick"});
  end_moves(f, kEngland);
  f.dice({4});
  end_moves(f, kScotland);
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_FALSE(f.state().rng.has_script()) << "the die was rolled";
  EXPECT_EQ(celtic_rolls(f, "eng_wales_infantry"), 2);
}

// ---------------------------------------------------------------------------------------------
// Battle order, Schiltroms, hit timing, captured nobles

// D-33 Battle order by P1 (RULES 5.1.1).
TEST(Battle, PlayerOneChoosesBattleOrderAndEachIsFoughtCompletelyD33) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife")
      .place("sco_fraser", "lanark", 1)
      .place("eng_york_infantry", "angus")
      .place("eng_lancaster_infantry", "lothian");
  england_first(f);
  go(f, kEngland, "eng_york_infantry", {"fife"});
  go(f, kEngland, "eng_lancaster_infantry", {"lanark"});
  end_moves(f, kEngland);
  end_moves(f, kScotland);
  ASSERT_EQ(f.state().phase, Phase::BattleChoice);
  EXPECT_EQ(awaited(f), kEngland);
  EXPECT_EQ(legal_actions(f.state(), kEngland),
            (std::vector<Action>{with_area(ActionKind::ChooseBattle, area("fife")),
                                 with_area(ActionKind::ChooseBattle, area("lanark"))}));
  EXPECT_TRUE(legal_actions(f.state(), kScotland).empty());
  f.act(kEngland, with_area(ActionKind::ChooseBattle, area("lanark")));
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.area, area("lanark"));
  pass(f, kScotland, "sco_fraser");
  fire(f, kEngland, "eng_lancaster_infantry", {1, 6, 6, 6});
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  EXPECT_EQ(f.state().battle.area, area("lanark"));
  EXPECT_NE(f.state().battles[area("fife")].attacker, kNone) << "Fife is still to be fought";
  EXPECT_TRUE(is_at(f, "sco_douglas", "fife"));
  f.act(kEngland, simple(ActionKind::EndRegroup));
  // Only Fife is left: it starts by itself (RULES 5.1.1, 14 #12).
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.area, area("fife"));
  EXPECT_EQ(f.state().battles[area("lanark")].attacker, kNone);
}

// D-34 position: Graham (C2, 2) defends Lanark against York Infantry (with Lancaster Archers if
// `archers`) and fires 3,3; returns the hits scored.
int schiltroms_hits(bool option, bool archers) {
  Fixture f = blank_map();
  f.state().schiltroms = option;
  f.place("sco_graham", "lanark", 2).place("eng_york_infantry", "lothian");
  if (archers) f.place("eng_lancaster_archers", "lothian");
  england_first(f);
  go(f, kEngland, "eng_york_infantry", {"lanark"});
  if (archers) go(f, kEngland, "eng_lancaster_archers", {"lanark"});
  end_moves(f, kEngland);
  end_moves(f, kScotland);
  if (archers) pass(f, kEngland, "eng_lancaster_archers");
  EXPECT_EQ(acting_blocks(f), std::set<std::string>{"sco_graham"});
  fire(f, kScotland, "sco_graham", {3, 3});
  return 4 - blk(f, "eng_york_infantry").strength;
}

// D-34 Schiltroms (RULES 5.6.2.2, 15.1): +1 for Scottish infantry only with the option on and no
// English archer block fighting.
TEST(Battle, SchiltromsAddOneWithoutEnglishArchersD34) {
  EXPECT_EQ(schiltroms_hits(true, false), 2);
  EXPECT_EQ(schiltroms_hits(true, true), 0);
  EXPECT_EQ(schiltroms_hits(false, false), 0);
  EXPECT_EQ(schiltroms_hits(false, true), 0);
}

// D-35 Hits applied before the next shot (RULES 5.7.1).
TEST(Battle, HitsAreAllocatedBeforeTheNextShotD35) {
  Fixture f = blank_map();
  f.place("sco_douglas", "lanark", 3)
      .place("sco_barclay", "lanark", 3)
      .place("eng_york_knights", "lothian")
      .place("eng_lancaster_knights", "lothian");
  english_attack(f, {"eng_york_knights", "eng_lancaster_knights"}, "lanark");
  ASSERT_EQ(acting_blocks(f), (std::set<std::string>{"eng_york_knights", "eng_lancaster_knights"}));
  fire(f, kEngland, "eng_york_knights", {1, 6, 6, 6});
  ASSERT_EQ(f.state().phase, Phase::HitAllocation);
  EXPECT_TRUE(legal_actions(f.state(), kEngland).empty()) << "no second shot before allocation";
  f.refuse(kEngland, fire_of("eng_lancaster_knights"));
  EXPECT_EQ(awaited(f), kScotland);
  f.act(kScotland, hit_on("sco_douglas"));
  EXPECT_EQ(blk(f, "sco_douglas").strength, 2);
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(awaited(f), kEngland);
  EXPECT_EQ(acting_blocks(f), std::set<std::string>{"eng_lancaster_knights"});
}

// D-36 Captured noble as defender gets bonus (RULES 5.6.2.1, 5.8.2).
TEST(Battle, CapturedNobleDefendingAtHomeFiresAtPlusOneD36) {
  Fixture f = blank_map();
  f.place("sco_douglas", "lennox")
      .place("eng_lennox", "lanark", 1)
      .place("eng_york_infantry", "mentieth");
  england_first(f);
  go(f, kEngland, "eng_lennox", {"lennox"});
  go(f, kEngland, "eng_york_infantry", {"lennox"});
  ASSERT_TRUE(blk(f, "eng_york_infantry").reserve);
  end_moves(f, kEngland);
  end_moves(f, kScotland);
  pass(f, kEngland, "eng_lennox");
  fire(f, kScotland, "sco_douglas", {1, 6, 6, 6});
  ASSERT_TRUE(is_at(f, "sco_lennox", "lennox"));
  EXPECT_EQ(blk(f, "sco_lennox").strength, 1);
  ASSERT_EQ(f.state().phase, Phase::Combat);
  ASSERT_EQ(f.state().battle.round, 2);
  EXPECT_EQ(acting_blocks(f), std::set<std::string>{"sco_lennox"});
  fire(f, kScotland, "sco_lennox", {3});
  EXPECT_TRUE(logged(f, kEngland, {"Lennox", "fires", "1 hit"}));
  EXPECT_EQ(blk(f, "eng_york_infantry").strength, 3);
}

// D-37 Captured noble is safe until it joins (RULES 5.8.2, 5.9.4).
TEST(Battle, CapturedNobleCannotBeHitUntilItJoinsInRoundThreeD37) {
  Fixture f = blank_map();
  f.place("sco_etterick", "lanark", 1)
      .place("eng_atholl", "lothian", 1)
      .place("eng_york_infantry", "lothian", 1);
  english_attack(f, {"eng_atholl", "eng_york_infantry"}, "lanark");
  pass(f, kScotland, "sco_etterick");
  pass(f, kEngland, "eng_atholl");
  pass(f, kEngland, "eng_york_infantry");
  ASSERT_EQ(f.state().battle.round, 2);
  fire(f, kScotland, "sco_etterick", {1});
  ASSERT_EQ(f.state().phase, Phase::HitAllocation);
  f.act(kEngland, hit_on("eng_atholl"));
  ASSERT_TRUE(is_at(f, "sco_atholl", "lanark"));
  EXPECT_TRUE(blk(f, "sco_atholl").reserve);
  EXPECT_EQ(blk(f, "sco_atholl").strength, 1);
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"eng_york_infantry"});
  // Etterick (1) and Atholl (1) would tie: a candidate Atholl would need a choice.
  fire(f, kEngland, "eng_york_infantry", {1});
  EXPECT_NE(f.state().phase, Phase::HitAllocation) << "Atholl is no target while in reserve";
  EXPECT_EQ(blk(f, "sco_etterick").loc, kPool);
  EXPECT_TRUE(is_at(f, "sco_atholl", "lanark"));
  EXPECT_EQ(blk(f, "sco_atholl").strength, 1);
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.round, 3);
  EXPECT_FALSE(blk(f, "sco_atholl").reserve);
  EXPECT_EQ(acting_blocks(f), std::set<std::string>{"sco_atholl"});
  EXPECT_TRUE(revealed(f, kEngland, kScotland).count({"sco_atholl", 1}));
}

}  // namespace
}  // namespace blockfog::hots::testing
