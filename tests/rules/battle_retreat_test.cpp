// ACCEPTANCE group D, retreats and regroups (RULES 5.10-5.12): destinations, border control,
// limits per window, England, the mandatory end-of-battle retreat, regroup, the Norse; and the
// King trapped in a mandatory retreat (D-14 with I-09, 12.2).

#include <algorithm>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "rules/hots/engine.h"
#include "tests/rules/fixture.h"
#include "tests/rules/helpers.h"

namespace blockfog::hots::testing {
namespace {

using nlohmann::json;

Action finish_retreat() { return simple(ActionKind::FinishRetreat); }

// Areas offered to `id` by actions of `kind` (retreat or regroup).
std::set<std::string> destinations(const Fixture& f, Role side, ActionKind kind,
                                   std::string_view id) {
  std::set<std::string> out;
  for (const auto& a : legal_actions(f.state(), side)) {
    if (a.kind == kind && a.a == block(id)) out.insert(game_data().areas[a.b].id);
  }
  return out;
}
std::set<std::string> retreats(const Fixture& f, Role side, std::string_view id) {
  return destinations(f, side, ActionKind::Retreat, id);
}
std::set<std::string> regroups(const Fixture& f, Role side, std::string_view id) {
  return destinations(f, side, ActionKind::Regroup, id);
}

// ---------------------------------------------------------------------------------------------
// Retreat destinations (RULES 5.10)

// D-24 Retreat destinations (RULES 5.10.1): friendly or neutral only. Around Lanark: Lennox
// friendly, Selkirk and Annan vacant, Carrick and Lothian English, Mentieth contested.
TEST(BattleRetreat, OnlyFriendlyOrVacantNeighboursAreOfferedD24) {
  Fixture f = blank_map();
  f.place("sco_douglas", "lanark")
      .place("sco_fraser", "lennox")
      .place("sco_grant", "mentieth")
      .place("eng_durham_infantry", "carrick")
      .place("eng_york_infantry", "lothian")
      .place("eng_lancaster_infantry", "lothian")
      .place("eng_westmor_infantry", "lothian");
  england_first(f);
  go(f, kEngland, "eng_york_infantry", {"lanark"});
  go(f, kEngland, "eng_lancaster_infantry", {"mentieth"});
  end_moves(f, kEngland);
  end_moves(f, kScotland);
  ASSERT_EQ(f.state().phase, Phase::BattleChoice);
  f.act(kEngland, with_area(ActionKind::ChooseBattle, area("lanark")));
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"sco_douglas"});
  EXPECT_EQ(retreats(f, kScotland, "sco_douglas"),
            (std::set<std::string>{"lennox", "selkirk", "annan"}));
  for (auto to : {"mentieth", "carrick", "lothian"}) {
    f.refuse(kScotland, retreat_of("sco_douglas", to));
  }
  f.act(kScotland, retreat_of("sco_douglas", "lennox"));
  EXPECT_TRUE(is_at(f, "sco_douglas", "lennox"));
}

// D-25 position: England attacks Lanark (Douglas) from Mentieth with York Infantry. With
// `reinforce`, Scotland (P2) then sends Fraser from Fife through Mentieth into Lanark.
Fixture border_control_position(bool reinforce) {
  Fixture f = blank_map();
  f.place("sco_douglas", "lanark").place("eng_york_infantry", "mentieth");
  if (reinforce) f.place("sco_fraser", "fife");
  england_first(f);
  go(f, kEngland, "eng_york_infantry", {"lanark"});
  end_moves(f, kEngland);
  if (reinforce) go(f, kScotland, "sco_fraser", {"mentieth", "lanark"});
  end_moves(f, kScotland);
  return f;
}

// D-25 Border control in retreat (RULES 5.10.3, 4.8).
TEST(BattleRetreat, NoRetreatAcrossABorderTheEnemyUsedD25) {
  Fixture f = border_control_position(false);
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"sco_douglas"});
  EXPECT_EQ(retreats(f, kScotland, "sco_douglas"),
            (std::set<std::string>{"lennox", "carrick", "lothian", "selkirk", "annan"}))
      << "Mentieth is vacant but England came from there";
  f.refuse(kScotland, retreat_of("sco_douglas", "mentieth"));
}

// D-25 (RULES 4.8.1, 5.10.3): the later user of a border is Scotland, so only Scotland may
// retreat across it.
TEST(BattleRetreat, LaterReinforcementReopensTheBorderForItsSideOnlyD25) {
  Fixture f = border_control_position(true);
  ASSERT_TRUE(blk(f, "sco_fraser").reserve);
  ASSERT_EQ(f.state().border_use[*game_data().border_by_id("mentieth-lanark")],
            index_of(kScotland));
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"sco_douglas"});
  EXPECT_TRUE(retreats(f, kScotland, "sco_douglas").count("mentieth"));
  pass(f, kScotland, "sco_douglas");
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"eng_york_infantry"});
  const auto english = retreats(f, kEngland, "eng_york_infantry");
  EXPECT_FALSE(english.count("mentieth"));
  EXPECT_TRUE(english.count("lothian"));
  f.refuse(kEngland, retreat_of("eng_york_infantry", "mentieth"));
}

// D-26 position: 3 S blocks defend Atholl against York Infantry from Fife; Mar and Lennox
// vacant.
Fixture atholl_position() {
  Fixture f = blank_map();
  f.place("sco_douglas", "atholl")
      .place("sco_barclay", "atholl")
      .place("sco_fraser", "atholl")
      .place("eng_york_infantry", "fife");
  english_attack(f, {"eng_york_infantry"}, "atholl");
  return f;
}

// D-26 Retreat limit per round (RULES 5.10.2, 4.4): 2 across the red Atholl-Mar.
TEST(BattleRetreat, RedBorderTakesTwoRetreatsPerRoundD26) {
  Fixture f = atholl_position();
  f.act(kScotland, retreat_of("sco_douglas", "mar"));
  f.act(kScotland, retreat_of("sco_barclay", "mar"));
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"sco_fraser"});
  const auto third = retreats(f, kScotland, "sco_fraser");
  EXPECT_FALSE(third.count("mar"));
  EXPECT_TRUE(third.count("lennox"));
  f.refuse(kScotland, retreat_of("sco_fraser", "mar"));
  f.act(kScotland, retreat_of("sco_fraser", "lennox"));
  EXPECT_TRUE(is_at(f, "sco_fraser", "lennox"));
}

// D-26 (RULES 4.4.2): each combat round is a new window.
TEST(BattleRetreat, NextRoundOpensANewLimitWindowD26) {
  Fixture f = atholl_position();
  f.act(kScotland, retreat_of("sco_douglas", "mar"));
  f.act(kScotland, retreat_of("sco_barclay", "mar"));
  pass(f, kScotland, "sco_fraser");
  pass(f, kEngland, "eng_york_infantry");
  ASSERT_EQ(f.state().battle.round, 2);
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"sco_fraser"});
  EXPECT_TRUE(retreats(f, kScotland, "sco_fraser").count("mar"));
  f.act(kScotland, retreat_of("sco_fraser", "mar"));
  EXPECT_TRUE(is_at(f, "sco_fraser", "mar"));
}

// D-27 English in England cannot retreat (RULES 5.10.4): defending in England.
TEST(BattleRetreat, EnglishBlocksInEnglandAreNeverOfferedRetreatD27) {
  Fixture f = blank_map();
  f.place("sco_douglas", "annan").place("eng_york_infantry", "england");
  scotland_first(f);
  go(f, kScotland, "sco_douglas", {"england"});
  end_moves(f, kScotland);
  end_moves(f, kEngland);
  for (int guard = 0; guard < 20 && f.state().phase == Phase::Combat; ++guard) {
    if (awaited(f) == kEngland) {
      EXPECT_FALSE(has_kind(f, kEngland, ActionKind::Retreat))
          << "round " << f.state().battle.round;
      EXPECT_TRUE(retreats(f, kEngland, "eng_york_infantry").empty());
    }
    pass(f, awaited(f), *acting_blocks(f).begin());
  }
  ASSERT_EQ(f.state().phase, Phase::MandatoryRetreat);
  EXPECT_EQ(awaited(f), kScotland) << "Scotland attacked and must retreat";
  EXPECT_TRUE(retreats(f, kScotland, "sco_douglas").count("annan"));
  f.act(kScotland, retreat_of("sco_douglas", "annan"));
  // RULES 5.12.3: nor may the victor in England regroup into Scotland, which everybody knows:
  // the regroup is skipped (table 14 #16).
  EXPECT_NE(f.state().phase, Phase::Regroup);
  EXPECT_FALSE(f.offered(kEngland, end_regroup()));
}

// D-27 (RULES 5.10.4, 5.11.3): an English attacker in England cannot make the mandatory
// retreat, so all its blocks are eliminated.
TEST(BattleRetreat, EnglishAttackerInEnglandIsEliminatedAtMandatoryRetreatD27) {
  Fixture f = blank_map();
  f.place("sco_douglas", "england").place("eng_york_infantry", "dunbar");
  english_attack(f, {"eng_york_infantry"}, "england");
  ASSERT_EQ(f.state().battle.attacker, index_of(kEngland));
  for (int guard = 0; guard < 20 && f.state().phase == Phase::Combat; ++guard) {
    if (awaited(f) == kEngland) {
      EXPECT_FALSE(has_kind(f, kEngland, ActionKind::Retreat));
    }
    pass(f, awaited(f), *acting_blocks(f).begin());
  }
  ASSERT_EQ(f.state().phase, Phase::MandatoryRetreat);
  EXPECT_EQ(legal_actions(f.state(), kEngland), std::vector<Action>{finish_retreat()});
  f.act(kEngland, finish_retreat());
  EXPECT_EQ(blk(f, "eng_york_infantry").loc, kPool);
  EXPECT_EQ(f.state().phase, Phase::Regroup);
  EXPECT_EQ(awaited(f), kScotland);
  EXPECT_TRUE(logged(f, kScotland, {"1 ", "could not retreat from England"}));
}

// D-28 Scots never into England (RULES 5.10.4, 5.12.3).
TEST(BattleRetreat, ScotsNeitherRetreatNorRegroupIntoEnglandD28) {
  Fixture f = blank_map();
  f.place("sco_douglas", "dunbar").place("eng_york_infantry", "lothian", 1);
  english_attack(f, {"eng_york_infantry"}, "dunbar");
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"sco_douglas"});
  EXPECT_EQ(retreats(f, kScotland, "sco_douglas"), (std::set<std::string>{"selkirk", "teviot"}));
  f.refuse(kScotland, retreat_of("sco_douglas", "england"));
  fire(f, kScotland, "sco_douglas", {1, 6, 6, 6});
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  EXPECT_EQ(regroups(f, kScotland, "sco_douglas"),
            (std::set<std::string>{"lothian", "selkirk", "teviot"}));
  f.refuse(kScotland, regroup_of("sco_douglas", "england"));
}

// ---------------------------------------------------------------------------------------------
// The mandatory retreat (RULES 5.11.3)

// D-29 position: E (P1) attacks Lennox (Douglas) from Lanark with York Infantry (2) and Mar (2);
// S holds Argyll, Atholl, Mentieth and (unless `carrick_vacant`) Carrick, and S (P2) moves
// Grant from Selkirk into Lanark behind them. Every combat turn is passed.
Fixture lennox_trap(bool carrick_vacant) {
  Fixture f = blank_map();
  f.place("sco_douglas", "lennox")
      .place("sco_campbell", "argyll")
      .place("sco_graham", "atholl")
      .place("sco_lindsay", "mentieth")
      .place("sco_grant", "selkirk")
      .place("eng_york_infantry", "lanark", 2)
      .place("eng_mar", "lanark", 2);
  if (!carrick_vacant) f.place("sco_macdonald", "carrick");
  england_first(f);
  go(f, kEngland, "eng_york_infantry", {"lennox"});
  go(f, kEngland, "eng_mar", {"lennox"});
  end_moves(f, kEngland);
  go(f, kScotland, "sco_grant", {"lanark"});
  end_moves(f, kScotland);
  pass_to_end_of_rounds(f);
  return f;
}

// D-29 Mandatory retreat with every exit closed (RULES 5.11.3, 5.8.2).
TEST(BattleRetreat, TrappedAttackersAreEliminatedAndNobleCapturedD29) {
  Fixture f = lennox_trap(false);
  ASSERT_EQ(f.state().phase, Phase::MandatoryRetreat);
  ASSERT_EQ(awaited(f), kEngland);
  EXPECT_EQ(legal_actions(f.state(), kEngland), std::vector<Action>{finish_retreat()});
  f.act(kEngland, finish_retreat());
  EXPECT_EQ(blk(f, "eng_york_infantry").loc, kPool);
  EXPECT_EQ(blk(f, "eng_mar").loc, kNotInPlay);
  EXPECT_TRUE(is_at(f, "sco_mar", "lennox"));
  EXPECT_EQ(blk(f, "sco_mar").strength, 1);
  EXPECT_FALSE(blk(f, "sco_mar").reserve);
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  EXPECT_EQ(awaited(f), kScotland);
  EXPECT_TRUE(f.offered(kScotland, end_regroup()));
  // RULES 13.5.5: York Infantry goes to the pool anonymously; Mar's capture is announced.
  EXPECT_TRUE(logged(f, kScotland, {"Mar changes sides", "Lennox", "Scotland"}));
  EXPECT_TRUE(logged(f, kScotland, {"block in Lennox", "eliminated"}));
  for (const auto& line : log_lines(f, kScotland)) {
    EXPECT_EQ(line.find("York Infantry is eliminated"), std::string::npos) << line;
  }
}

// D-30 Must retreat all that can (RULES 5.11.3).
TEST(BattleRetreat, AttackerMustRetreatEveryBlockThatCanD30) {
  Fixture f = lennox_trap(true);
  ASSERT_EQ(f.state().phase, Phase::MandatoryRetreat);
  EXPECT_EQ(retreats(f, kEngland, "eng_york_infantry"), std::set<std::string>{"carrick"});
  EXPECT_EQ(retreats(f, kEngland, "eng_mar"), std::set<std::string>{"carrick"});
  EXPECT_FALSE(f.offered(kEngland, finish_retreat()));
  f.refuse(kEngland, finish_retreat());
  f.act(kEngland, retreat_of("eng_york_infantry", "carrick"));
  ASSERT_EQ(f.state().phase, Phase::MandatoryRetreat);
  EXPECT_FALSE(f.offered(kEngland, finish_retreat()));
  f.refuse(kEngland, finish_retreat());
  f.act(kEngland, retreat_of("eng_mar", "carrick"));
  EXPECT_TRUE(is_at(f, "eng_york_infantry", "carrick"));
  EXPECT_TRUE(is_at(f, "eng_mar", "carrick"));
  EXPECT_EQ(f.state().phase, Phase::Regroup);
  EXPECT_EQ(awaited(f), kScotland);
}

// ---------------------------------------------------------------------------------------------
// Regroup (RULES 5.12)

// D-31 Regroup ignores border control, not limits (RULES 5.12.2).
TEST(BattleRetreat, RegroupIgnoresBorderControlButKeepsLimitsD31) {
  Fixture f = blank_map();
  f.place("sco_douglas", "lanark")
      .place("sco_barclay", "lanark")
      .place("sco_fraser", "lanark")
      .place("eng_york_infantry", "mentieth", 1);
  english_attack(f, {"eng_york_infantry"}, "lanark");
  ASSERT_EQ(f.state().border_use[*game_data().border_by_id("mentieth-lanark")], index_of(kEngland));
  fire(f, kScotland, "sco_douglas", {1, 6, 6, 6});
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  ASSERT_EQ(awaited(f), kScotland);
  for (auto id : {"sco_douglas", "sco_barclay", "sco_fraser"}) {
    EXPECT_EQ(regroups(f, kScotland, id), (std::set<std::string>{"lennox", "mentieth", "carrick",
                                                                 "lothian", "selkirk", "annan"}))
        << id;
  }
  f.act(kScotland, regroup_of("sco_barclay", "selkirk"));
  f.act(kScotland, regroup_of("sco_fraser", "selkirk"));
  EXPECT_FALSE(regroups(f, kScotland, "sco_douglas").count("selkirk")) << "red border: 2";
  f.refuse(kScotland, regroup_of("sco_douglas", "selkirk"));
  f.act(kScotland, regroup_of("sco_douglas", "mentieth"));
  EXPECT_TRUE(is_at(f, "sco_douglas", "mentieth"));
  f.act(kScotland, end_regroup());
  EXPECT_NE(f.state().phase, Phase::Regroup);
}

// D-32 position: the Norse defend Fife against York Infantry from Angus. Scotland's parked
// nobles go inland, so no coastal area is Scottish unless `ross_friendly`.
Fixture norse_retreat_position(bool ross_friendly, int york_strength = 0) {
  Fixture f = blank_map();
  f.place("sco_galloway", "badenoch")
      .place("sco_bruce", "badenoch")
      .place("sco_norse", "fife")
      .place("eng_lancaster_infantry", "lennox")
      .place("eng_york_infantry", "angus", york_strength);
  if (ross_friendly) f.place("sco_fraser", "ross");
  english_attack(f, {"eng_york_infantry"}, "fife");
  return f;
}

// D-32 Norse retreat (RULES 5.10.6): by sea to a friendly coastal area only.
TEST(BattleRetreat, NorseRetreatBySeaToFriendlyCoastOnlyD32) {
  Fixture f = norse_retreat_position(true);
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"sco_norse"});
  EXPECT_EQ(retreats(f, kScotland, "sco_norse"), std::set<std::string>{"ross"});
  for (auto to : {"moray", "england", "fife", "lennox"}) {
    f.refuse(kScotland, retreat_of("sco_norse", to));
  }
  f.act(kScotland, retreat_of("sco_norse", "ross"));
  EXPECT_TRUE(is_at(f, "sco_norse", "ross"));
  // RULES 13.4.3: a Norse retreat by sea is public.
  EXPECT_TRUE(logged(f, kEngland, {"Norse", "Fife", "Ross"}));
}

// D-32 (RULES 5.10.6): with no friendly coastal area the Norse cannot retreat at all.
TEST(BattleRetreat, NorseWithoutFriendlyCoastCannotRetreatD32) {
  Fixture f = norse_retreat_position(false);
  ASSERT_EQ(acting_blocks(f), std::set<std::string>{"sco_norse"});
  EXPECT_TRUE(retreats(f, kScotland, "sco_norse").empty());
  EXPECT_FALSE(has_kind(f, kScotland, ActionKind::Retreat));
}

// RULES 5.12.4: the Norse regroup the same way, by sea to a friendly coastal area.
TEST(BattleRetreat, NorseRegroupBySeaToFriendlyCoastOnly) {
  Fixture f = norse_retreat_position(true, 1);
  fire(f, kScotland, "sco_norse", {1, 6, 6});
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  EXPECT_EQ(regroups(f, kScotland, "sco_norse"), std::set<std::string>{"ross"});
  f.refuse(kScotland, regroup_of("sco_norse", "angus"));
  f.act(kScotland, regroup_of("sco_norse", "ross"));
  EXPECT_TRUE(is_at(f, "sco_norse", "ross"));
}

// ---------------------------------------------------------------------------------------------
// D-14 King trapped (RULES 5.11.3, 12.2.1) and I-09 (12.2.4)

// The King attacks Ross (York Infantry) from Moray; Garmoran holds the parked English nobles.
// England (P2) then either occupies Moray, or reinforces Ross through it (closing the border).
Fixture king_in_ross(bool close_by_record) {
  Fixture f = blank_map();
  f.place("sco_king", "moray")
      .place("eng_york_infantry", "ross")
      .place("eng_york_knights", "strathspey");
  scotland_first(f);
  go(f, kScotland, "sco_king", {"ross"});
  end_moves(f, kScotland);
  if (close_by_record) {
    go(f, kEngland, "eng_york_knights", {"moray", "ross"});
  } else {
    go(f, kEngland, "eng_york_knights", {"moray"});
  }
  end_moves(f, kEngland);
  pass_to_end_of_rounds(f);
  return f;
}

// D-14 King trapped (RULES 5.11.3, 12.2.1): no adjacent area open, or the only one closed by
// England's border record: finishing the retreat kills the King and England wins; then I-09
// (12.2.4): nothing more is offered to anybody.
TEST(BattleRetreat, TrappedKingIsEliminatedAndEnglandWinsD14I09) {
  for (bool close_by_record : {false, true}) {
    SCOPED_TRACE(close_by_record ? "Ross-Moray closed by England's record" : "Moray English");
    Fixture f = king_in_ross(close_by_record);
    ASSERT_EQ(f.state().phase, Phase::MandatoryRetreat);
    ASSERT_EQ(awaited(f), kScotland);
    EXPECT_TRUE(retreats(f, kScotland, "sco_king").empty());
    EXPECT_EQ(legal_actions(f.state(), kScotland), std::vector<Action>{finish_retreat()});
    f.act(kScotland, finish_retreat());
    EXPECT_EQ(blk(f, "sco_king").loc, kDead);
    EXPECT_EQ(f.state().phase, Phase::GameOver);
    const auto result = outcome(f.state());
    EXPECT_TRUE(result.finished);
    ASSERT_TRUE(result.winner.has_value());
    EXPECT_EQ(*result.winner, kEngland);
    EXPECT_EQ(result.reason, "king_killed");
    // I-09: no regroup, no next battle, nothing for anybody.
    EXPECT_TRUE(active_roles(f.state()).empty());
    for (Role role : {kScotland, kEngland, Role::Observer}) {
      EXPECT_TRUE(legal_actions(f.state(), role).empty());
      EXPECT_EQ(f.view(role).at("outcome").at("reason"), "king_killed");
    }
    EXPECT_EQ(f.refuse(kEngland, end_regroup()), core::RuleErrorCode::GameOver);
  }
}

}  // namespace
}  // namespace blockfog::hots::testing
