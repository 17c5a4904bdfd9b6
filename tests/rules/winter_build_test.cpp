// ACCEPTANCE group H, second part: the French Knights (RULES 10.10), Scottish and English builds
// (10.11, 10.12), the feudal levy (10.13) and the new year (10.14, 2.2). The winter's order and
// its disbanding steps are in winter_test.cpp; the scenario's end is in victory_test.cpp.
//
// Every case reaches its winter the ordinary way: one card per side, both move phases ended,
// nothing contested, so the empty hands start the winter with the position built beforehand.

#include <algorithm>
#include <initializer_list>
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

Action add_step(std::string_view id) { return with_block(ActionKind::AddStep, block(id)); }
Action draw(std::string_view id) { return with_area(ActionKind::Draw, area(id)); }

int rp(const Fixture& f, std::string_view area_id) { return f.state().winter.rp[area(area_id)]; }

// Puts every pool block of `side` except `keep` out of play, so that a draw or a levy has
// exactly those candidates.
void pool_only(Fixture& f, Side side, std::initializer_list<std::string_view> keep) {
  for (BlockId b = 0; b < kBlockCount; ++b) {
    if (f.state().blocks.loc[b] != kPool || owner_of(b) != side) continue;
    const auto& id = game_data().blocks[b].id;
    if (std::find(keep.begin(), keep.end(), id) == keep.end()) {
      f.state().blocks.set(b, BlockState{kNotInPlay, 0});
    }
  }
}
int pool_size(const Fixture& f, Side side) {
  int n = 0;
  for (BlockId b = 0; b < kBlockCount; ++b) {
    n += f.state().blocks.loc[b] == kPool && owner_of(b) == side;
  }
  return n;
}
// Places the Scottish twin of each noble at its (first) home.
void scottish_nobles(Fixture& f, std::initializer_list<std::string_view> keys) {
  for (auto key : keys) {
    const std::string id = "sco_" + std::string(key);
    const auto& info = game_data().blocks[block(id)];
    f.place(id, game_data().areas[info.homes.front()].id);
  }
}

// --- French Knights (RULES 10.10) ------------------------------------------------------------

constexpr const char* kFrenchKnightsLine = "The French Knights join the Scottish pool";

// H-18 (RULES 10.10): Scotland controls 8 nobles after disbanding: the French Knights go to the
// Scottish pool, publicly; a later winter with 8 or more adds nothing more.
TEST(WinterFrenchKnights, EightNoblesAddTheKnightsOnceH18) {
  Fixture f = quiet();
  scottish_nobles(f, {"angus", "argyll", "buchan", "atholl", "dunbar", "mentieth"});
  ASSERT_EQ(nobles_controlled(f.state(), Side::Scotland), 8);
  to_winter(f);
  play_until(f, WinterStep::ScotlandDisband);
  EXPECT_FALSE(f.state().french_knights_added) << "checked after disbanding";
  play_until(f, WinterStep::ScotlandBuild);
  EXPECT_TRUE(f.state().french_knights_added);
  EXPECT_TRUE(in_pool(f, "sco_french_knights"));
  for (Role role : {kScotland, kEngland, kObserver}) {
    EXPECT_TRUE(log_has(f, role, kFrenchKnightsLine)) << core::role_name(role);
    EXPECT_EQ(f.view(role).at("french_knights_added"), true) << core::role_name(role);
  }
  finish_winter(f);
  ASSERT_EQ(f.state().year, 1298);
  to_winter(f);
  finish_winter(f);
  ASSERT_EQ(f.state().year, 1299);
  EXPECT_GE(nobles_controlled(f.state(), Side::Scotland), 8);
  EXPECT_TRUE(f.state().french_knights_added);
  EXPECT_EQ(count_lines(f, kObserver, kFrenchKnightsLine), 1) << "at most once per game";
  EXPECT_NE(blk(f, "sco_french_knights").loc, kNotInPlay);
}

// RULES 10.10, 14 "Undo", 13.2: the French Knights' arrival is announced and tells everybody
// that Scotland controls 8 nobles (with Moray, whose status is otherwise hidden): Scotland's
// disbanding can no longer be taken back once it is published.
TEST(WinterFrenchKnights, AnnouncementClearsUndoH18) {
  Fixture f = quiet();
  scottish_nobles(f, {"angus", "argyll", "buchan", "atholl", "dunbar"});
  f.place("sco_moray", "moray").place("sco_douglas", "fife");
  to_winter(f);
  play_until(f, WinterStep::ScotlandDisband);
  f.act(kScotland, disband("sco_douglas")).act(kScotland, done());
  ASSERT_EQ(step_of(f), WinterStep::ScotlandBuild);
  ASSERT_TRUE(f.state().french_knights_added);
  EXPECT_FALSE(f.offered(kScotland, simple(ActionKind::Undo)));
}

// H-18 (RULES 10.10): seven nobles: nothing.
TEST(WinterFrenchKnights, SevenNoblesAddNothingH18) {
  Fixture f = quiet();
  scottish_nobles(f, {"angus", "argyll", "buchan", "atholl", "dunbar"});
  ASSERT_EQ(nobles_controlled(f.state(), Side::Scotland), 7);
  to_winter(f);
  play_until(f, WinterStep::ScotlandBuild);
  EXPECT_FALSE(f.state().french_knights_added);
  EXPECT_EQ(blk(f, "sco_french_knights").loc, kNotInPlay);
  EXPECT_FALSE(log_has(f, kObserver, kFrenchKnightsLine));
}

// H-18 (RULES 10.10): Moray on the map counts as the eighth noble.
TEST(WinterFrenchKnights, MorayCountsAsTheEighthNobleH18) {
  Fixture f = quiet();
  scottish_nobles(f, {"angus", "argyll", "buchan", "atholl", "dunbar"});
  f.place("sco_moray", "moray");
  ASSERT_EQ(nobles_controlled(f.state(), Side::Scotland), 8);
  to_winter(f);
  play_until(f, WinterStep::ScotlandBuild);
  EXPECT_TRUE(f.state().french_knights_added);
  EXPECT_TRUE(in_pool(f, "sco_french_knights"));
}

// H-18 (RULES 10.10): the count is taken after disbanding: Moray disbanded that winter
// leaves 7.
TEST(WinterFrenchKnights, CountIsTakenAfterDisbandingH18) {
  Fixture f = quiet();
  scottish_nobles(f, {"angus", "argyll", "buchan", "atholl", "dunbar"});
  f.place("sco_moray", "moray");
  to_winter(f);
  play_until(f, WinterStep::ScotlandDisband);
  f.act(kScotland, disband("sco_moray")).act(kScotland, done());
  ASSERT_EQ(step_of(f), WinterStep::ScotlandBuild);
  EXPECT_FALSE(f.state().french_knights_added);
  EXPECT_EQ(blk(f, "sco_french_knights").loc, kNotInPlay);
}

// --- Scottish builds (RULES 10.11) -----------------------------------------------------------

// H-19 (RULES 10.11.1, 10.11.2): Fife with 2 full Scottish blocks yields 3 RP: one draw (the
// Norse is eligible in coastal Fife) fills it to its limit of 3, and the other 2 RP may go to
// the drawn block.
TEST(WinterScottishBuild, FifeDrawThenStepsH19) {
  Fixture f = quiet();
  f.place("sco_douglas", "fife").place("sco_barclay", "fife");
  to_winter(f);
  play_until(f, WinterStep::ScotlandBuild);
  ASSERT_TRUE(awaits(f, kScotland));
  EXPECT_EQ(rp(f, "fife"), 3);
  EXPECT_EQ(legal_texts(f, kScotland), texts({draw("fife")}));
  f.draws({"sco_norse"});
  f.act(kScotland, draw("fife"));
  ASSERT_TRUE(is_at(f, "sco_norse", "fife"));
  EXPECT_EQ(blk(f, "sco_norse").strength, 1);
  EXPECT_EQ(rp(f, "fife"), 2);
  EXPECT_EQ(legal_texts(f, kScotland), texts({add_step("sco_norse")})) << "Fife is at its limit";
  f.act(kScotland, add_step("sco_norse")).act(kScotland, add_step("sco_norse"));
  EXPECT_EQ(blk(f, "sco_norse").strength, 3);
  EXPECT_EQ(rp(f, "fife"), 0);
  EXPECT_EQ(legal_texts(f, kScotland), texts({done()}));
  f.act(kScotland, done());
  EXPECT_EQ(step_of(f), WinterStep::EnglandBuild);
}

// Lanark held by the Scottish Steward alone (2 RP), with the French Knights added.
Fixture lanark_steward() {
  Fixture f = quiet();
  f.state().french_knights_added = true;
  f.to_pool("sco_french_knights");
  f.clear("lanark");
  scottish_nobles(f, {"steward"});
  return f;
}

// H-19 (RULES 10.11.2): a draw into inland Lanark never yields the Norse or the French Knights.
TEST(WinterScottishBuild, InlandDrawSkipsNorseAndKnightsH19) {
  Fixture f = lanark_steward();
  pool_only(f, Side::Scotland, {"sco_norse", "sco_french_knights", "sco_graham"});
  to_winter(f);
  play_until(f, WinterStep::ScotlandBuild);
  EXPECT_EQ(rp(f, "lanark"), 2);
  EXPECT_EQ(legal_texts(f, kScotland), texts({draw("lanark")}));
  f.act(kScotland, draw("lanark"));  // unscripted: only Graham is eligible
  EXPECT_TRUE(is_at(f, "sco_graham", "lanark"));
  EXPECT_TRUE(in_pool(f, "sco_norse"));
  EXPECT_TRUE(in_pool(f, "sco_french_knights"));
  EXPECT_EQ(legal_texts(f, kScotland), texts({add_step("sco_graham")}));
}

// H-19 (RULES 10.11.2): with only the Norse and the French Knights in the pool, `draw(lanark)`
// is not offered; the RP have no use and Scotland may end.
TEST(WinterScottishBuild, NoInlandDrawOfNorseOrKnightsH19) {
  for (bool with_knights : {false, true}) {
    SCOPED_TRACE(with_knights ? "Norse and French Knights" : "Norse only");
    Fixture f = lanark_steward();
    if (with_knights) {
      pool_only(f, Side::Scotland, {"sco_norse", "sco_french_knights"});
    } else {
      pool_only(f, Side::Scotland, {"sco_norse"});
    }
    to_winter(f);
    play_until(f, WinterStep::ScotlandBuild);
    EXPECT_EQ(rp(f, "lanark"), 2);
    EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::Draw));
    f.refuse(kScotland, draw("lanark"));
    EXPECT_EQ(legal_texts(f, kScotland), texts({done()}));
  }
}

// H-19 (RULES 10.11.2): a coastal area may draw the Norse even when it is the only candidate.
TEST(WinterScottishBuild, CoastalDrawMayYieldTheNorseH19) {
  Fixture f = quiet();
  f.place("sco_douglas", "fife");
  pool_only(f, Side::Scotland, {"sco_norse"});
  to_winter(f);
  play_until(f, WinterStep::ScotlandBuild);
  ASSERT_TRUE(kind_offered(f, kScotland, ActionKind::Draw));
  f.act(kScotland, draw("fife"));
  EXPECT_TRUE(is_at(f, "sco_norse", "fife"));
}

// H-20 (RULES 10.11.1, 10.11.3): RP are spent only in the area that yields them, and `done` is
// offered only when no RP has a legal use.
TEST(WinterScottishBuild, ReplacementPointsStayLocalAndMustBeUsedH20) {
  Fixture f = quiet();
  f.clear("mentieth");
  f.place("sco_barclay", "fife", 1).place("sco_lindsay", "fife").place("sco_macdonald", "fife");
  f.place("sco_mentieth", "mentieth", 1)
      .place("sco_douglas", "mentieth", 1)
      .place("sco_campbell", "mentieth", 1);
  to_winter(f);
  play_until(f, WinterStep::ScotlandBuild);
  EXPECT_EQ(rp(f, "fife"), 3);
  EXPECT_EQ(rp(f, "mentieth"), 3);
  EXPECT_EQ(legal_texts(f, kScotland), texts({add_step("sco_barclay"), add_step("sco_mentieth"),
                                              add_step("sco_douglas"), add_step("sco_campbell")}));
  for (int i = 0; i < 3; ++i) f.act(kScotland, add_step("sco_douglas"));
  EXPECT_EQ(blk(f, "sco_douglas").strength, 4);
  EXPECT_EQ(rp(f, "mentieth"), 0);
  // Fife's points cannot help Mentieth's blocks.
  EXPECT_EQ(legal_texts(f, kScotland), texts({add_step("sco_barclay")}));
  f.refuse(kScotland, add_step("sco_campbell"));
  f.refuse(kScotland, add_step("sco_mentieth"));
  f.refuse(kScotland, done());
  for (int i = 0; i < 3; ++i) f.act(kScotland, add_step("sco_barclay"));
  EXPECT_EQ(blk(f, "sco_barclay").strength, 4);
  EXPECT_EQ(legal_texts(f, kScotland), texts({done()}));
  EXPECT_EQ(blk(f, "sco_campbell").strength, 1);
}

// H-20 (RULES 10.11.1): RP with no legal use are lost: `done` is offered with points left.
TEST(WinterScottishBuild, UnusablePointsAreLostH20) {
  Fixture f = quiet();
  f.place("sco_barclay", "fife", 3).place("sco_lindsay", "fife").place("sco_macdonald", "fife");
  to_winter(f);
  play_until(f, WinterStep::ScotlandBuild);
  EXPECT_EQ(legal_texts(f, kScotland), texts({add_step("sco_barclay")}));
  f.act(kScotland, add_step("sco_barclay"));
  EXPECT_EQ(rp(f, "fife"), 2);
  EXPECT_EQ(legal_texts(f, kScotland), texts({done()}));
  f.act(kScotland, done());
  ASSERT_EQ(step_of(f), WinterStep::EnglandBuild);
  EXPECT_EQ(rp(f, "fife"), 0);
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::AddStep));
}

// RULES 10.11.1: only areas friendly to Scotland yield RP (Selkirk yields none, Wallace there
// cannot be built up beyond his healing).
TEST(WinterScottishBuild, SelkirkYieldsNothing) {
  Fixture f = quiet();
  f.place("sco_wallace", "selkirk", 1);
  to_winter(f);
  play_until(f, WinterStep::ScotlandBuild);
  EXPECT_EQ(rp(f, "selkirk"), 0);
  EXPECT_EQ(blk(f, "sco_wallace").strength, 3);
  EXPECT_EQ(legal_texts(f, kScotland), texts({done()}));
}

// --- English builds (RULES 10.12) ------------------------------------------------------------

// H-21 (RULES 10.12): Lennox friendly to England with its noble at 1, Edward I wintering there
// with York Knights: 1 RP (no cathedral bonus); only the noble may gain it; no draw ever.
TEST(WinterEnglishBuild, OnlyInfantryAndNoblesGainStepsH21) {
  Fixture f = quiet();
  f.state().year = 1298;
  f.place("eng_lennox", "lennox", 1)
      .place("eng_edward", "lennox", 3)
      .place("eng_york_knights", "lennox", 2)
      .place("eng_york_infantry", "lothian", 3);
  to_winter(f);
  play_until(f, WinterStep::EnglandDisband);
  f.act(kEngland, winter()).act(kEngland, done());
  play_until(f, WinterStep::EnglandBuild);
  ASSERT_TRUE(awaits(f, kEngland));
  EXPECT_EQ(rp(f, "lennox"), 1);
  EXPECT_EQ(rp(f, "lothian"), 2);
  EXPECT_EQ(legal_texts(f, kEngland),
            texts({add_step("eng_lennox"), add_step("eng_york_infantry")}));
  f.refuse(kEngland, add_step("eng_edward"));
  f.refuse(kEngland, add_step("eng_york_knights"));
  f.refuse(kEngland, draw("lothian"));
  f.act(kEngland, add_step("eng_lennox"));
  EXPECT_EQ(blk(f, "eng_lennox").strength, 2);
  EXPECT_EQ(legal_texts(f, kEngland), texts({add_step("eng_york_infantry")}));
  f.act(kEngland, add_step("eng_york_infantry"));
  EXPECT_EQ(legal_texts(f, kEngland), texts({done()})) << "York Infantry is at its maximum";
  EXPECT_EQ(rp(f, "lothian"), 1);
  f.act(kEngland, done());
  EXPECT_EQ(f.state().year, 1299);
  EXPECT_EQ(blk(f, "eng_edward").strength, 3);
  EXPECT_EQ(blk(f, "eng_york_knights").strength, 2);
}

// --- Feudal levy (RULES 10.13) ---------------------------------------------------------------

// H-22 (RULES 10.13.2): the levy draws half the English pool, rounded up, into England at full
// strength; Scotland learns only the number (10.13.3).
TEST(WinterLevy, HalfThePoolRoundedUpH22) {
  for (int pool : {9, 1, 0}) {
    SCOPED_TRACE("pool of " + std::to_string(pool));
    Fixture f = quiet();
    to_winter(f);
    play_until(f, WinterStep::EnglandBuild);
    // Keep exactly `pool` English pool blocks (the others leave play for this check).
    int kept = 0;
    for (BlockId b = 0; b < kBlockCount; ++b) {
      if (f.state().blocks.loc[b] != kPool || owner_of(b) != Side::England) continue;
      if (kept++ >= pool) f.state().blocks.set(b, BlockState{kNotInPlay, 0});
    }
    ASSERT_EQ(pool_size(f, Side::England), pool);
    f.act(kEngland, done());
    ASSERT_EQ(f.state().year, 1298);
    const int levied = (pool + 1) / 2;
    EXPECT_EQ(count_in_area(f.state(), game_data().england, Side::England), levied);
    EXPECT_EQ(pool_size(f, Side::England), pool - levied);
    for (BlockId b = 0; b < kBlockCount; ++b) {
      if (f.state().blocks.loc[b] == game_data().england) {
        EXPECT_EQ(f.state().blocks.strength[b], game_data().blocks[b].max_strength)
            << game_data().blocks[b].id;
      }
    }
    if (levied > 0) {
      EXPECT_TRUE(winter_log_has(f, kScotland,
                                 "England levied " + std::to_string(levied) +
                                     (levied == 1 ? " block into" : " blocks into")));
    }
    EXPECT_EQ(count_lines(f, kEngland, "Levied "), 4 + levied) << "4 from the set-up levy";
  }
}

// H-22 (RULES 10.13.2): with 6 of the 15 English non-nobles wintering in Scotland the pool holds 9
// at the levy: 5 blocks are raised.
TEST(WinterLevy, NaturalPoolOfNineRaisesFiveH22) {
  Fixture f = quiet();
  f.place("eng_york_infantry", "lothian")
      .place("eng_lancaster_infantry", "lothian")
      .place("eng_durham_infantry", "teviot")
      .place("eng_westmor_infantry", "dunbar")
      .place("eng_cumbria_infantry", "mentieth")
      .place("eng_northumber_infantry", "mentieth");
  to_winter(f);
  play_until(f, WinterStep::EnglandBuild);
  ASSERT_EQ(pool_size(f, Side::England), 9);
  f.act(kEngland, done());
  EXPECT_EQ(count_in_area(f.state(), game_data().england, Side::England), 5);
  EXPECT_TRUE(winter_log_has(f, kScotland, "England levied 5 blocks into England"));
  EXPECT_TRUE(winter_log_has(f, kObserver, "England levied 5 blocks into England"));
}

// H-22 (RULES 10.13.1): Edward wintering: no levy.
TEST(WinterLevy, NoLevyWhileEdwardWintersH22) {
  Fixture f = quiet();
  f.state().year = 1298;
  f.place("eng_edward", "lothian");
  to_winter(f);
  play_until(f, WinterStep::EnglandDisband);
  f.act(kEngland, winter()).act(kEngland, done());
  play_until(f, WinterStep::EnglandBuild);
  const int pool = pool_size(f, Side::England);
  f.act(kEngland, done());
  EXPECT_EQ(pool_size(f, Side::England), pool);
  EXPECT_EQ(count_in_area(f.state(), game_data().england, Side::England), 0);
  EXPECT_FALSE(winter_log_has(f, kScotland, "England levied"));
}

// --- The new year (RULES 10.14, 2.2, 3.3) ----------------------------------------------------

// H-23 (RULES 10.14.3, 2.2.1, 3.3): after a double-event year the cards left in hand are gone;
// the winter of 1297 leads to 1298, turn 1, all 25 cards reshuffled and 5 dealt to each side.
TEST(WinterNewYear, NewYearReshufflesAllCardsH23) {
  Fixture f = quiet();
  f.hands({"sea_move", "move1_1", "move3_1"}, {"victuals", "move2_1", "move3_2"});
  f.play_cards("sea_move", "victuals");
  // Events of a later rules issue: both are declined (7.1.1), England first (P1, 3.2).
  f.act(kEngland, simple(ActionKind::Decline)).act(kScotland, simple(ActionKind::Decline));
  ASSERT_EQ(f.state().phase, Phase::Winter) << "the double event ended the year (3.3)";
  for (const auto& c : f.state().cards.all()) EXPECT_NE(c.place, CardPlace::Hand);
  finish_winter(f);
  ASSERT_EQ(f.state().phase, Phase::CardChoice);
  EXPECT_EQ(f.state().year, 1298);
  EXPECT_EQ(f.state().turn, 1);
  int in_hand[2] = {0, 0};
  int deck = 0;
  for (const auto& c : f.state().cards.all()) {
    if (c.place == CardPlace::Hand) ++in_hand[c.holder];
    if (c.place == CardPlace::Deck) ++deck;
    EXPECT_NE(c.place, CardPlace::Played);
    EXPECT_NE(c.place, CardPlace::Chosen);
  }
  EXPECT_EQ(in_hand[0], 5);
  EXPECT_EQ(in_hand[1], 5);
  EXPECT_EQ(deck, 15);
  for (Role role : {kScotland, kEngland, kObserver}) {
    const json v = f.view(role);
    EXPECT_EQ(v.at("year"), 1298);
    EXPECT_EQ(v.at("turn"), 1);
    EXPECT_EQ(v.at("cards").at("hand_sizes").at("scotland"), 5);
    EXPECT_EQ(v.at("cards").at("hand_sizes").at("england"), 5);
    EXPECT_TRUE(v.at("cards").at("played_this_year").empty());
  }
  EXPECT_TRUE(log_has(f, kObserver, "Year 1298 begins"));
}

// H-23 (RULES 10.14.3): an ordinary year ends after its fifth card and starts the next one.
TEST(WinterNewYear, OrdinaryWinterStartsTheNextYearH23) {
  Fixture f = quiet();
  to_winter(f);
  EXPECT_EQ(f.view(kObserver).at("year"), 1297);
  finish_winter(f);
  EXPECT_EQ(f.state().year, 1298);
  EXPECT_EQ(f.state().turn, 1);
  EXPECT_EQ(f.state().phase, Phase::CardChoice);
  EXPECT_FALSE(outcome(f.state()).finished);
}

}  // namespace
}  // namespace blockfog::hots::testing
