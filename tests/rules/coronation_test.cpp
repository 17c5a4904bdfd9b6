// ACCEPTANCE group F: coronation of a Scottish King (RULES 8, 7.1.2, 14 #2) and the coronation
// battles (8.4, 5.14). Every coronation is announced with real actions in Scotland's event.

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

Action crown_bruce() { return simple(ActionKind::CrownBruce); }
Action crown_comyn() { return simple(ActionKind::CrownComyn); }
Action return_of_the_king() { return simple(ActionKind::ReturnOfTheKing); }

// The coronations offered to Scotland now, by action name.
std::set<std::string> coronations(const Fixture& f) {
  std::set<std::string> out;
  for (const auto& a : legal_actions(f.state(), kScotland)) {
    if (a.kind == ActionKind::CrownBruce || a.kind == ActionKind::CrownComyn ||
        a.kind == ActionKind::ReturnOfTheKing) {
      out.insert(std::string(action_kind_name(a.kind)));
    }
  }
  return out;
}

std::set<std::string> battle_choices(const Fixture& f, Role role) {
  std::set<std::string> out;
  for (const auto& a : legal_actions(f.state(), role)) {
    if (a.kind == ActionKind::ChooseBattle) out.insert(game_data().areas[a.a].id);
  }
  return out;
}

// Passes every combat turn, with the first block offered a pass, until the battle leaves its
// combat rounds.
void pass_first_offered_to_end_of_rounds(Fixture& f) {
  for (int guard = 0; guard < 100 && f.state().phase == Phase::Combat; ++guard) {
    const Role side = side_of(f.state().active);
    const auto actions = legal_actions(f.state(), side);
    const auto pass = std::find_if(actions.begin(), actions.end(),
                                   [](const Action& a) { return a.kind == ActionKind::Pass; });
    ASSERT_NE(pass, actions.end());
    f.act(side, *pass);
  }
}

// ---------------------------------------------------------------------------------------------
// Availability (RULES 8.1, 8.2)

// F-01 No coronation while Wallace lives (RULES 8.2.1, 8.2.2): 1299, Bruce in Fife, Wallace on
// the map.
TEST(Coronation, NoneWhileWallaceIsOnTheMapF01) {
  Fixture f;
  f.state().year = 1299;
  f.place("sco_bruce", "fife");
  ASSERT_TRUE(is_at(f, "sco_wallace", "fife"));
  scotland_event(f, "herald");
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_TRUE(coronations(f).empty());
  f.refuse(kScotland, crown_bruce());
}

// F-01 with Wallace in the pool (RULES 1.5: in the pool is not dead).
TEST(Coronation, NoneWhileWallaceIsInThePoolF01) {
  Fixture f;
  f.state().year = 1299;
  f.place("sco_bruce", "fife").to_pool("sco_wallace");
  scotland_event(f, "pillage");
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_TRUE(coronations(f).empty());
  f.refuse(kScotland, crown_bruce());
}

// RULES 8.1.2, 14 #2: never for England.
TEST(Coronation, NeverOfferedToEngland) {
  Fixture f;
  f.kill("sco_wallace").place("sco_bruce", "fife");
  f.hands({"move2_1", "move2_2"}, {"victuals", "move1_7"}).play_cards("move2_1", "victuals");
  ASSERT_TRUE(in_event_of(f, kEngland));
  for (const auto& a : legal_actions(f.state(), kEngland)) {
    EXPECT_NE(a.kind, ActionKind::CrownBruce);
    EXPECT_NE(a.kind, ActionKind::CrownComyn);
    EXPECT_NE(a.kind, ActionKind::ReturnOfTheKing);
  }
}

// ---------------------------------------------------------------------------------------------
// Effects (RULES 8.3)

// F-02 Crown Bruce (RULES 8.3): the King at full strength in Fife; the Scottish Comyn faction
// (Galloway, Ross) turns English in place at its strength; Moray stays; no Pillage.
TEST(Coronation, CrownBruceDrivesTheComynFactionToEnglandF02) {
  Fixture f;
  f.kill("sco_wallace")
      .place("sco_bruce", "fife")
      .place("sco_galloway", "galloway", 2)
      .place("sco_ross", "ross", 3)
      .place("sco_moray", "moray", 3);
  scotland_event(f, "pillage");
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_EQ(coronations(f), std::set<std::string>{name_of(ActionKind::CrownBruce)});
  const auto offered = legal_actions(f.state(), kScotland);
  EXPECT_TRUE(std::any_of(offered.begin(), offered.end(), [](const Action& a) {
    return a.kind == ActionKind::Pillage;
  })) << "offered together with the event's first actions (14 #2)";
  const auto before = f.state().blocks;

  f.act(kScotland, crown_bruce());
  EXPECT_TRUE(f.state().king_crowned);
  EXPECT_TRUE(is_at(f, "sco_king", "fife"));
  EXPECT_EQ(strength(f, "sco_king"), 4);
  EXPECT_TRUE(is_at(f, "sco_bruce", "fife")) << "the crowned noble stays an ordinary noble";
  EXPECT_TRUE(is_at(f, "eng_galloway", "galloway"));
  EXPECT_EQ(strength(f, "eng_galloway"), 2);
  EXPECT_EQ(blk(f, "sco_galloway").loc, kNotInPlay);
  EXPECT_TRUE(is_at(f, "eng_ross", "ross"));
  EXPECT_EQ(strength(f, "eng_ross"), 3);
  EXPECT_EQ(blk(f, "sco_ross").loc, kNotInPlay);
  EXPECT_TRUE(is_at(f, "sco_moray", "moray"));
  EXPECT_EQ(strength(f, "sco_moray"), 3);

  // No Pillage: every block other than the King and the two defectors is as it was.
  for (BlockId b = 0; b < kBlockCount; ++b) {
    const auto& id = game_data().blocks[b].id;
    if (id == "sco_king" || id.ends_with("_galloway") || id.ends_with("_ross")) continue;
    EXPECT_TRUE(f.state().blocks.get(b) == before.get(b)) << id;
  }
  EXPECT_EQ(f.state().battle.area, kNone);
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
}

// F-03 Crown Comyn (RULES 8.3.2): every Scottish Bruce-faction noble turns English in place at
// its strength; Comyn (and the Comyn faction) stays Scottish.
TEST(Coronation, CrownComynDrivesTheBruceFactionToEnglandF03) {
  Fixture f;
  f.kill("sco_wallace")
      .place("sco_comyn", "fife")
      .place("sco_bruce", "annan", 3)
      .place("sco_mar", "mar", 2)
      .place("sco_lennox", "lennox", 3);
  scotland_event(f, "victuals");
  EXPECT_EQ(coronations(f), std::set<std::string>{name_of(ActionKind::CrownComyn)});
  f.act(kScotland, crown_comyn());

  EXPECT_TRUE(f.state().king_crowned);
  EXPECT_TRUE(is_at(f, "sco_king", "fife"));
  EXPECT_EQ(strength(f, "sco_king"), 4);
  EXPECT_TRUE(is_at(f, "sco_comyn", "fife"));
  EXPECT_TRUE(is_at(f, "sco_galloway", "galloway"));
  EXPECT_TRUE(is_at(f, "eng_bruce", "annan"));
  EXPECT_EQ(strength(f, "eng_bruce"), 3);
  EXPECT_TRUE(is_at(f, "eng_mar", "mar"));
  EXPECT_EQ(strength(f, "eng_mar"), 2);
  EXPECT_TRUE(is_at(f, "eng_lennox", "lennox"));
  EXPECT_EQ(strength(f, "eng_lennox"), 3);
  for (auto id : {"sco_bruce", "sco_mar", "sco_lennox"}) {
    EXPECT_EQ(blk(f, id).loc, kNotInPlay) << id;
  }
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
}

// F-04 Balliol year (RULES 8.2.3): with the French Knights in Angus and Wallace alive, no
// Return of the King in 1300.
TEST(Coronation, NoReturnOfTheKingBefore1301F04) {
  Fixture f;
  f.state().year = 1300;
  f.clear("angus").place("sco_french_knights", "angus");
  scotland_event(f, "herald");
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_TRUE(coronations(f).empty());
  f.refuse(kScotland, return_of_the_king());
}

// F-04 (RULES 8.2.3, 8.3.1, 8.3.2): in 1301 it is offered; the King appears in the French
// Knights' area and the Scottish Bruce faction turns English.
TEST(Coronation, ReturnOfTheKingFrom1301F04) {
  Fixture f;
  f.state().year = 1301;
  f.clear("angus").place("sco_french_knights", "angus").place("sco_steward", "lanark", 2);
  ASSERT_TRUE(is_at(f, "sco_wallace", "fife"));
  scotland_event(f, "herald");
  EXPECT_EQ(coronations(f), std::set<std::string>{name_of(ActionKind::ReturnOfTheKing)});
  f.act(kScotland, return_of_the_king());

  EXPECT_TRUE(f.state().king_crowned);
  EXPECT_TRUE(is_at(f, "sco_king", "angus"));
  EXPECT_EQ(strength(f, "sco_king"), 4);
  EXPECT_TRUE(is_at(f, "eng_bruce", "annan"));
  EXPECT_EQ(strength(f, "eng_bruce"), 4);
  EXPECT_TRUE(is_at(f, "eng_steward", "lanark"));
  EXPECT_EQ(strength(f, "eng_steward"), 2);
  EXPECT_TRUE(is_at(f, "sco_galloway", "galloway")) << "the Comyn faction stays";
  EXPECT_TRUE(is_at(f, "sco_wallace", "fife"));
  EXPECT_TRUE(in_move_phase_of(f, kEngland));
}

// RULES 14 #2: the coronation is offered only with the event's first actions.
TEST(Coronation, NotOfferedOnceTheEventHasBegun) {
  Fixture f;
  f.kill("sco_wallace").place("sco_bruce", "fife").place("sco_douglas", "fife", 2);
  scotland_event(f, "victuals");
  ASSERT_FALSE(coronations(f).empty());
  f.act(kScotland, with_block(ActionKind::Victual, block("sco_douglas")));
  EXPECT_TRUE(coronations(f).empty());
  f.refuse(kScotland, crown_bruce());
}

// ---------------------------------------------------------------------------------------------
// Coronation battles (RULES 8.4, 5.14)

// F-05 position: Bruce crowned in Fife; the newly English Ross and Buchan share their areas
// with Fraser and Grant.
Fixture coronation_battles_position() {
  Fixture f = blank_map();
  f.kill("sco_wallace")
      .place("sco_bruce", "fife")
      .place("sco_ross", "ross")
      .place("sco_fraser", "ross")
      .place("sco_buchan", "buchan")
      .place("sco_grant", "buchan");
  return f;
}

// F-05 Coronation battles (RULES 8.4, 5.14.3, 5.14.4): P1 (Scotland) chooses the order; each
// battle has England attacking; both are fought before Scotland's player turn ends.
TEST(Coronation, BattlesAreFoughtAtOnceInPlayerOnesOrderF05) {
  Fixture f = coronation_battles_position();
  scotland_event(f, "victuals");
  f.act(kScotland, crown_bruce());
  EXPECT_TRUE(is_at(f, "eng_ross", "ross"));
  EXPECT_TRUE(is_at(f, "eng_buchan", "buchan"));
  EXPECT_TRUE(is_at(f, "eng_galloway", "galloway")) << "alone there: no battle";

  ASSERT_EQ(f.state().phase, Phase::BattleChoice);
  EXPECT_EQ(f.state().active, index_of(kScotland));
  EXPECT_EQ(battle_choices(f, kScotland), (std::set<std::string>{"ross", "buchan"}));
  EXPECT_TRUE(legal_actions(f.state(), kEngland).empty());
  f.act(kScotland, with_area(ActionKind::ChooseBattle, area("buchan")));

  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.area, area("buchan"));
  EXPECT_EQ(f.state().battle.attacker, index_of(kEngland));
  ASSERT_EQ(f.state().active, index_of(kEngland));  // attacking B: Buchan; Grant is C
  f.dice({1, 1, 1});
  f.act(kEngland, with_block(ActionKind::Fire, block("eng_buchan")));
  EXPECT_EQ(blk(f, "sco_grant").loc, kPool);
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  f.act(kEngland, simple(ActionKind::EndRegroup));

  // The last battle starts by itself.
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.area, area("ross"));
  EXPECT_EQ(f.state().battle.attacker, index_of(kEngland));
  ASSERT_EQ(f.state().active, index_of(kEngland));
  f.dice({1, 1, 1});
  f.act(kEngland, with_block(ActionKind::Fire, block("eng_ross")));
  EXPECT_EQ(blk(f, "sco_fraser").loc, kPool);
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  f.act(kEngland, simple(ActionKind::EndRegroup));

  EXPECT_FALSE(f.state().in_defection);
  EXPECT_TRUE(in_move_phase_of(f, kEngland)) << "Scotland's player turn is over";
  EXPECT_TRUE(is_at(f, "sco_king", "fife"));
}

// F-05 with England as P1 (double event, RULES 3.3, 8.4): England chooses the order, and the
// battles are fought before the year ends.
TEST(Coronation, EnglandChoosesTheOrderWhenPlayerOneF05) {
  Fixture f = coronation_battles_position();
  double_event(f, "victuals", "truce");
  f.act(kEngland, simple(ActionKind::Decline));
  ASSERT_TRUE(in_event_of(f, kScotland));
  f.act(kScotland, crown_bruce());
  ASSERT_EQ(f.state().phase, Phase::BattleChoice);
  EXPECT_EQ(f.state().active, index_of(kEngland));
  EXPECT_EQ(battle_choices(f, kEngland), (std::set<std::string>{"ross", "buchan"}));
  EXPECT_TRUE(legal_actions(f.state(), kScotland).empty());

  // Both are fought although the year ends with this turn (8.4); then the winter follows.
  f.act(kEngland, with_area(ActionKind::ChooseBattle, area("ross")));
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.attacker, index_of(kEngland));
  f.dice({1, 1, 1});
  f.act(kEngland, with_block(ActionKind::Fire, block("eng_ross")));
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  f.act(kEngland, simple(ActionKind::EndRegroup));
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.area, area("buchan"));
  f.dice({1, 1, 1});
  f.act(kEngland, with_block(ActionKind::Fire, block("eng_buchan")));
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  f.act(kEngland, simple(ActionKind::EndRegroup));
  EXPECT_EQ(blk(f, "sco_fraser").loc, kPool);
  EXPECT_EQ(blk(f, "sco_grant").loc, kPool);
  EXPECT_EQ(f.state().phase, Phase::Winter);
}

// F-06 Once per game (RULES 8.1.1, 6.2.4): after a coronation, a later Scottish event offers
// none, even with the King in the pool and every condition met.
TEST(Coronation, OnlyOncePerGameF06) {
  Fixture f;
  f.state().year = 1301;
  f.kill("sco_wallace").place("sco_bruce", "fife");
  f.clear("angus").place("sco_french_knights", "angus");
  f.hands({"pillage", "victuals", "move1_7"}, {"move2_1", "move2_2", "move2_3"});
  f.play_cards("pillage", "move2_1");
  EXPECT_EQ(coronations(f), (std::set<std::string>{name_of(ActionKind::CrownBruce),
                                                   name_of(ActionKind::ReturnOfTheKing)}));
  f.act(kScotland, crown_bruce());
  ASSERT_TRUE(in_move_phase_of(f, kEngland));
  f.act(kEngland, simple(ActionKind::EndMovePhase));
  ASSERT_EQ(f.state().phase, Phase::CardChoice);

  f.to_pool("sco_king");  // e.g. disbanded in winter
  f.play_cards("victuals", "move2_2");
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_TRUE(coronations(f).empty());
  f.refuse(kScotland, crown_bruce());
  f.refuse(kScotland, return_of_the_king());
}

// F-06 (RULES 8.1.1): never in The Bruce, where a King is crowned from the start.
TEST(Coronation, NeverInTheBruceF06) {
  Fixture f("the_bruce");
  f.place("sco_bruce", "fife").place("sco_french_knights", "angus");
  ASSERT_TRUE(f.state().king_crowned);
  scotland_event(f, "herald");
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_TRUE(coronations(f).empty());
}

// F-07 Coronation after the English event (RULES 7.1.2): England's Herald turns Bruce (in
// Fife) English first; after that battle Scotland is offered only Comyn's coronation.
TEST(Coronation, OnlyCoronationsStillPossibleAfterEnglandsEventF07) {
  Fixture f;
  f.kill("sco_wallace").place("sco_bruce", "fife").place("sco_comyn", "fife");
  double_event(f, "victuals", "herald");
  ASSERT_TRUE(in_event_of(f, kEngland));
  f.dice({1});
  f.act(kEngland, simple(ActionKind::Roll)).act(kEngland, herald_of("bruce"));
  ASSERT_TRUE(is_at(f, "eng_bruce", "fife"));

  // The Herald battle in Fife: everybody passes; England, the attacker, retreats to Angus.
  // Comyn, revealed in the battle, then has no open neighbour (Angus, Atholl and Mentieth are
  // English), which everybody sees: no regroup (table 14 #16).
  ASSERT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.attacker, index_of(kEngland));
  pass_first_offered_to_end_of_rounds(f);
  ASSERT_EQ(f.state().phase, Phase::MandatoryRetreat);
  f.act(kEngland, to_area(ActionKind::Retreat, block("eng_bruce"), area("angus")));
  EXPECT_NE(f.state().phase, Phase::Regroup);

  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_EQ(coronations(f), std::set<std::string>{name_of(ActionKind::CrownComyn)});
  f.refuse(kScotland, crown_bruce());
}

// F-07 control: when England's Herald fails, both coronations remain possible.
TEST(Coronation, BothCoronationsAfterAFailedEnglishHeraldF07) {
  Fixture f;
  f.kill("sco_wallace").place("sco_bruce", "fife").place("sco_comyn", "fife");
  double_event(f, "victuals", "herald");
  f.dice({5});
  f.act(kEngland, simple(ActionKind::Roll));
  ASSERT_TRUE(in_event_of(f, kScotland));
  EXPECT_EQ(coronations(f), (std::set<std::string>{name_of(ActionKind::CrownBruce),
                                                   name_of(ActionKind::CrownComyn)}));
}

}  // namespace
}  // namespace blockfog::hots::testing
