// ACCEPTANCE group H, first part: the order of the winter turn and its opaque steps (RULES 10,
// 13.1.4, 14), the nobles' homecoming (10.1, 10.2), Moray (10.3), the King (10.5), Edward
// (10.6), English disbanding (10.7), Wallace (10.8) and Scottish disbanding (10.9). Builds, the
// French Knights, the levy and the new year are in winter_build_test.cpp.
//
// Every case reaches its winter the ordinary way: one card per side, both move phases ended,
// nothing contested, so the empty hands start the winter with the position built beforehand.

#include <algorithm>
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

Action home(std::string_view id) { return with_area(ActionKind::Home, area(id)); }
Action move_king(std::string_view id) { return with_area(ActionKind::MoveKing, area(id)); }
Action go_home() { return simple(ActionKind::GoHome); }
Action to_selkirk() { return simple(ActionKind::ToSelkirk); }

bool not_in_play(const Fixture& f, std::string_view id) { return blk(f, id).loc == kNotInPlay; }

// Index of the first log line of `role` containing `text`, or -1.
int log_index(const Fixture& f, Role role, std::string_view text) {
  const auto lines = log_lines(f, role);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(text) != std::string::npos) return static_cast<int>(i);
  }
  return -1;
}

std::string phase_text(const Fixture& f, Role role) { return f.view(role).at("phase_text"); }

// --- The order of the winter (RULES 10, 13.1.4, 14) -----------------------------------------

// RULES 10, 13.1.4, 14: every opaque step is entered and waits for its owner's `done` even when
// he has nothing to decide; others see only "<side>: winter".
TEST(WinterSequence, OpaqueStepsAreEnteredInOrderAndWaitForDone) {
  Fixture f = quiet();
  to_winter(f);
  const struct {
    WinterStep step;
    Role owner;
    const char* text;
  } expected[] = {
      {WinterStep::ScotlandHomes, kScotland, "Scotland: winter"},
      {WinterStep::EnglandDisband, kEngland, "England: winter"},
      {WinterStep::ScotlandDisband, kScotland, "Scotland: winter"},
      {WinterStep::ScotlandBuild, kScotland, "Scotland: winter"},
      {WinterStep::EnglandBuild, kEngland, "England: winter"},
  };
  for (const auto& e : expected) {
    ASSERT_EQ(step_of(f), e.step);
    ASSERT_TRUE(awaits(f, e.owner));
    EXPECT_EQ(active_roles(f.state()), std::vector<Role>{e.owner});
    EXPECT_EQ(legal_texts(f, e.owner), texts({done()}));
    EXPECT_TRUE(legal(f, core::other_side(e.owner)).empty());
    for (Role role : {kScotland, kEngland, kObserver}) {
      EXPECT_EQ(phase_text(f, role), e.text) << core::role_name(role);
      EXPECT_EQ(f.view(role).at("phase"), "winter");
    }
    f.refuse(core::other_side(e.owner), done());
    f.act(e.owner, done());
  }
  EXPECT_EQ(f.state().phase, Phase::CardChoice);
  EXPECT_EQ(f.state().year, 1298);
}

// --- Homecoming (RULES 10.1, 10.2, 13.4.1, 13.4.5) -------------------------------------------

// H-01 (RULES 10.1.1): an English noble whose home holds Scots goes home and changes sides
// there at its strength; the defection is public with name and home (13.4.1, J-14).
TEST(WinterHomecoming, EnglishNobleDefectsAtHomeH01) {
  Fixture f = quiet();
  f.clear({"mar", "angus"}).place("eng_angus", "mar", 2).place("sco_douglas", "angus");
  to_winter(f);
  EXPECT_TRUE(not_in_play(f, "eng_angus"));
  ASSERT_TRUE(is_at(f, "sco_angus", "angus"));
  EXPECT_EQ(blk(f, "sco_angus").strength, 2);
  EXPECT_TRUE(is_at(f, "sco_douglas", "angus"));
  EXPECT_EQ(step_of(f), WinterStep::ScotlandHomes);
  for (Role role : {kScotland, kEngland, kObserver}) {
    EXPECT_TRUE(log_has(f, role, "Angus changes sides at home in Angus: now Scotland"))
        << core::role_name(role);
  }
}

// H-02 (RULES 10.1-10.2): English nobles go home first; Angus defects to the Scottish Mar
// standing in Angus, then the Scottish Mar goes home to the vacant Mar and stays Scottish.
TEST(WinterHomecoming, EnglishNoblesGoHomeBeforeScottishH02) {
  Fixture f = quiet();
  f.clear({"buchan", "angus", "mar"}).place("eng_angus", "buchan", 3).place("sco_mar", "angus", 3);
  to_winter(f);
  ASSERT_TRUE(is_at(f, "sco_angus", "angus"));
  EXPECT_EQ(blk(f, "sco_angus").strength, 3);
  EXPECT_TRUE(not_in_play(f, "eng_angus"));
  ASSERT_TRUE(is_at(f, "sco_mar", "mar"));
  EXPECT_TRUE(not_in_play(f, "eng_mar"));
  EXPECT_EQ(blk(f, "sco_mar").strength, 3);
  const int defection = log_index(f, kObserver, "Angus changes sides");
  const int mar_home = log_index(f, kObserver, "Mar goes home to Mar");
  ASSERT_GE(defection, 0);
  ASSERT_GE(mar_home, 0);
  EXPECT_LT(defection, mar_home);
}

// H-03 (RULES 10.2): a Scottish noble whose home holds English blocks changes to England there.
TEST(WinterHomecoming, ScottishNobleDefectsAtHomeH03) {
  Fixture f = quiet();
  f.clear({"fife", "lennox"}).place("sco_lennox", "fife", 3).place("eng_york_infantry", "lennox");
  to_winter(f);
  EXPECT_TRUE(not_in_play(f, "sco_lennox"));
  ASSERT_TRUE(is_at(f, "eng_lennox", "lennox"));
  EXPECT_EQ(blk(f, "eng_lennox").strength, 3);
  EXPECT_TRUE(log_has(f, kScotland, "Lennox changes sides at home in Lennox: now England"));
}

// H-04's position in winter: the English Bruce in Lanark, both his homes held by Scots, so he
// defects and Scotland chooses his home.
Fixture bruce_defecting_with_both_homes_held() {
  Fixture f = quiet();
  f.clear({"lanark", "annan", "carrick"})
      .place("eng_bruce", "lanark", 3)
      .place("sco_douglas", "annan")
      .place("sco_campbell", "carrick");
  to_winter(f);
  return f;
}

// H-04 (RULES 10.1.2): both homes hold Scots: the English Bruce becomes Scottish at strength 3
// and Scotland, not England, chooses between Annan and Carrick.
TEST(WinterHomecoming, BruceWithBothHomesEnemyDefectsAndScotlandChoosesH04) {
  Fixture f = bruce_defecting_with_both_homes_held();
  ASSERT_EQ(step_of(f), WinterStep::NobleHome);
  ASSERT_TRUE(awaits(f, kScotland));
  EXPECT_TRUE(not_in_play(f, "eng_bruce"));
  EXPECT_TRUE(f.state().blocks.loc[block("sco_bruce")] < kAreaCount);
  EXPECT_EQ(blk(f, "sco_bruce").strength, 3);
  EXPECT_EQ(legal_texts(f, kScotland), texts({home("annan"), home("carrick")}));
  EXPECT_TRUE(legal(f, kEngland).empty());
  f.refuse(kEngland, home("annan"));
  // The choice is public (table 14 #18): everybody sees the homecoming awaited.
  for (Role role : {kScotland, kEngland, kObserver}) {
    EXPECT_EQ(phase_text(f, role), "Scotland: noble homecoming");
  }
  f.act(kScotland, home("carrick"));
  EXPECT_TRUE(is_at(f, "sco_bruce", "carrick"));
  EXPECT_EQ(blk(f, "sco_bruce").strength, 3);
  // Placed once: not moved again by the Scottish homecoming (10.1.2.3).
  EXPECT_EQ(step_of(f), WinterStep::ScotlandHomes);
  EXPECT_TRUE(log_has(f, kEngland, "Bruce goes home to Carrick"));
}

// RULES 14 "Undo", 13.4.5: a Bruce or Comyn home choice is public, so the undo history is
// cleared with it, even when the same side decides next (here Scotland's winter step; and
// England's second home choice, Comyn's, after Bruce's).
TEST(WinterHomecoming, AHomeChoiceCannotBeTakenBack14Undo) {
  Fixture f = bruce_defecting_with_both_homes_held();
  ASSERT_TRUE(awaits(f, kScotland));
  f.act(kScotland, home("carrick"));
  ASSERT_EQ(step_of(f), WinterStep::ScotlandHomes);
  ASSERT_TRUE(awaits(f, kScotland));
  EXPECT_FALSE(f.offered(kScotland, simple(ActionKind::Undo)));
  EXPECT_TRUE(f.state().undo.empty());

  Fixture g = quiet();
  g.clear({"carrick", "lochaber"});
  to_winter(g);
  ASSERT_EQ(step_of(g), WinterStep::NobleHome);
  g.act(kEngland, home("carrick"));
  ASSERT_EQ(step_of(g), WinterStep::NobleHome);
  ASSERT_EQ(g.state().winter.homing, block("eng_comyn"));
  ASSERT_TRUE(awaits(g, kEngland));
  EXPECT_FALSE(g.offered(kEngland, simple(ActionKind::Undo)));
}

// H-05 (RULES 10.1.2): only Carrick is open to England: Bruce goes there without a prompt.
TEST(WinterHomecoming, BruceWithOneHomeAllowedGoesThereH05) {
  Fixture f = quiet();
  f.clear({"lanark", "annan", "carrick"})
      .place("eng_bruce", "lanark", 3)
      .place("sco_douglas", "annan");
  to_winter(f);
  EXPECT_EQ(step_of(f), WinterStep::ScotlandHomes) << "no Bruce question";
  EXPECT_TRUE(is_at(f, "eng_bruce", "carrick"));
  EXPECT_EQ(blk(f, "eng_bruce").strength, 3);
  EXPECT_TRUE(not_in_play(f, "sco_bruce"));
}

// H-06 (RULES 10.1.2): both homes open to England: England chooses, and may move Bruce from
// Annan to Carrick.
TEST(WinterHomecoming, BruceWithBothHomesOpenOwnerChoosesH06) {
  Fixture f = quiet();
  f.clear("carrick");
  to_winter(f);
  ASSERT_EQ(step_of(f), WinterStep::NobleHome);
  ASSERT_TRUE(awaits(f, kEngland));
  EXPECT_EQ(legal_texts(f, kEngland), texts({home("annan"), home("carrick")}));
  EXPECT_TRUE(legal(f, kScotland).empty());
  EXPECT_EQ(phase_text(f, kScotland), "England: noble homecoming");
  f.act(kEngland, home("carrick"));
  EXPECT_TRUE(is_at(f, "eng_bruce", "carrick"));
  EXPECT_EQ(step_of(f), WinterStep::ScotlandHomes);
  EXPECT_TRUE(log_has(f, kScotland, "Bruce goes home to Carrick"));
}

// H-06 (RULES 10.1.2): he may also stay in the home he stands in.
TEST(WinterHomecoming, BruceMayStayInTheHomeHeStandsInH06) {
  Fixture f = quiet();
  f.clear("carrick");
  to_winter(f);
  ASSERT_EQ(step_of(f), WinterStep::NobleHome);
  f.act(kEngland, home("annan"));
  EXPECT_TRUE(is_at(f, "eng_bruce", "annan"));
  EXPECT_EQ(step_of(f), WinterStep::ScotlandHomes);
}

// RULES 10.2, 10.1.2: the Scottish Bruce with both homes English-held changes to England, and
// England chooses his home.
TEST(WinterHomecoming, ScottishBruceWithBothHomesEnemyEnglandChooses) {
  Fixture f = quiet();
  f.clear({"annan", "carrick"})
      .place("sco_bruce", "teviot", 2)
      .place("eng_york_infantry", "annan")
      .place("eng_lancaster_infantry", "carrick");
  to_winter(f);
  ASSERT_EQ(step_of(f), WinterStep::NobleHome);
  ASSERT_TRUE(awaits(f, kEngland));
  EXPECT_TRUE(not_in_play(f, "sco_bruce"));
  EXPECT_TRUE(is_at(f, "eng_bruce", "teviot"));
  EXPECT_EQ(blk(f, "eng_bruce").strength, 2);
  EXPECT_EQ(legal_texts(f, kEngland), texts({home("annan"), home("carrick")}));
  EXPECT_TRUE(legal(f, kScotland).empty());
  f.act(kEngland, home("annan"));
  EXPECT_TRUE(is_at(f, "eng_bruce", "annan"));
  EXPECT_EQ(step_of(f), WinterStep::ScotlandHomes);
}

// RULES 10.1.2: English Bruce first, then English Comyn, each asked in turn.
TEST(WinterHomecoming, BruceIsAskedBeforeComyn) {
  Fixture f = quiet();
  f.clear({"carrick", "lochaber"});
  to_winter(f);
  ASSERT_EQ(step_of(f), WinterStep::NobleHome);
  EXPECT_EQ(f.state().winter.homing, block("eng_bruce"));
  EXPECT_EQ(legal_texts(f, kEngland), texts({home("annan"), home("carrick")}));
  f.act(kEngland, home("carrick"));
  ASSERT_EQ(step_of(f), WinterStep::NobleHome);
  EXPECT_EQ(f.state().winter.homing, block("eng_comyn"));
  EXPECT_EQ(legal_texts(f, kEngland), texts({home("badenoch"), home("lochaber")}));
  f.refuse(kEngland, home("carrick"));
  f.act(kEngland, home("lochaber"));
  EXPECT_TRUE(is_at(f, "eng_bruce", "carrick"));
  EXPECT_TRUE(is_at(f, "eng_comyn", "lochaber"));
  EXPECT_EQ(step_of(f), WinterStep::ScotlandHomes);
}

// --- Moray and the King (RULES 10.3, 10.5) ---------------------------------------------------

// H-07 (RULES 10.3): Moray in Fife, Moray vacant: Scotland may send him home (public, 13.4.5).
TEST(WinterMoray, MorayMayGoHomeH07) {
  Fixture f = quiet();
  f.place("sco_moray", "fife");
  to_winter(f);
  ASSERT_EQ(step_of(f), WinterStep::ScotlandHomes);
  EXPECT_EQ(legal_texts(f, kScotland), texts({go_home(), done()}));
  f.act(kScotland, go_home());
  EXPECT_TRUE(is_at(f, "sco_moray", "moray"));
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::GoHome)) << "once";
  for (Role role : {kEngland, kObserver}) {
    EXPECT_TRUE(log_has(f, role, "Moray goes home to Moray")) << core::role_name(role);
  }
  f.act(kScotland, done());
  EXPECT_EQ(step_of(f), WinterStep::EnglandDisband);
}

// H-07 (RULES 10.3): he may also stay.
TEST(WinterMoray, MorayMayStayH07) {
  Fixture f = quiet();
  f.place("sco_moray", "fife");
  to_winter(f);
  f.act(kScotland, done());
  EXPECT_TRUE(is_at(f, "sco_moray", "fife"));
  EXPECT_EQ(step_of(f), WinterStep::EnglandDisband);
}

// H-07 (RULES 10.3): Moray area held by England: no question, and Moray stays Scottish in Fife.
TEST(WinterMoray, NoQuestionWhenMorayIsEnemyHeldH07) {
  Fixture f = quiet();
  f.place("sco_moray", "fife").place("eng_york_infantry", "moray");
  to_winter(f);
  ASSERT_EQ(step_of(f), WinterStep::ScotlandHomes);
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::GoHome));
  f.refuse(kScotland, go_home());
  EXPECT_EQ(legal_texts(f, kScotland), texts({done()}));
  f.act(kScotland, done());
  EXPECT_TRUE(is_at(f, "sco_moray", "fife"));
  EXPECT_EQ(owner_of(block("sco_moray")), Side::Scotland);
}

// RULES 10.3: Moray already in Moray: nothing to ask.
TEST(WinterMoray, NoQuestionWhenMorayIsHome) {
  Fixture f = quiet();
  f.place("sco_moray", "moray");
  to_winter(f);
  EXPECT_EQ(legal_texts(f, kScotland), texts({done()}));
}

// H-08 (RULES 10.5): the King may go to any cathedral friendly or neutral for Scotland, not to
// an English-held one; or stay.
TEST(WinterKing, KingMayMoveToAnOpenCathedralH08) {
  Fixture f = quiet();
  f.state().king_crowned = true;
  f.clear({"lanark", "lennox", "fife", "strathspey"})
      .place("sco_king", "lanark")
      .place("sco_steward", "lanark")
      .place("sco_lennox", "lennox")
      .place("eng_york_infantry", "fife");
  to_winter(f);
  ASSERT_EQ(step_of(f), WinterStep::ScotlandHomes);
  EXPECT_EQ(legal_texts(f, kScotland),
            texts({move_king("lennox"), move_king("strathspey"), done()}));
  f.refuse(kScotland, move_king("fife"));
  f.act(kScotland, move_king("lennox"));
  EXPECT_TRUE(is_at(f, "sco_king", "lennox"));
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::MoveKing)) << "once";
  EXPECT_TRUE(log_has(f, kEngland, "The King moves from Lanark to Lennox"));
}

// H-08 (RULES 10.5): staying is a plain `done`.
TEST(WinterKing, KingMayStayH08) {
  Fixture f = quiet();
  f.state().king_crowned = true;
  f.clear({"lanark", "strathspey"}).place("sco_king", "lanark").place("sco_steward", "lanark");
  to_winter(f);
  f.act(kScotland, done());
  EXPECT_TRUE(is_at(f, "sco_king", "lanark"));
}

// --- Edward (RULES 6.1, 10.6) ----------------------------------------------------------------

// Edward I in Fife with York Knights and three infantry, knights elsewhere (H-09 position).
Fixture edward_in_fife(int year) {
  Fixture f = quiet();
  f.state().year = static_cast<std::uint16_t>(year);
  f.clear("fife")
      .place("eng_edward", "fife")
      .place("eng_york_knights", "fife")
      .place("eng_york_infantry", "fife")
      .place("eng_lancaster_infantry", "fife")
      .place("eng_durham_infantry", "fife")
      .place("eng_lancaster_knights", "lothian");
  return f;
}

int english_pool(const Fixture& f) {
  int n = 0;
  for (BlockId b = 0; b < kBlockCount; ++b) {
    n += f.state().blocks.loc[b] == kPool && owner_of(b) == Side::England;
  }
  return n;
}
int english_in_england(const Fixture& f) {
  return count_in_area(f.state(), game_data().england, Side::England);
}

// H-09 (RULES 10.6.1, 10.7.2, 10.7.4, 10.13.1): Edward I winters in Fife: his knights and all
// the infantry there may stay over the castle limit; knights elsewhere disband; no levy; the
// wintering is public.
TEST(WinterEdward, EdwardIWintersWithHisRetinueH09) {
  Fixture f = edward_in_fife(1298);
  to_winter(f);
  play_until(f, WinterStep::EnglandDisband);
  ASSERT_TRUE(awaits(f, kEngland));
  EXPECT_EQ(legal_texts(f, kEngland), texts({winter(), disband("eng_edward")}));
  // Knights away from Edward go as England's step begins, before the answer, exactly as when
  // there is no Edward question (RULES 13.1.4): the timing must not tell Scotland about him.
  EXPECT_TRUE(in_pool(f, "eng_lancaster_knights"));
  EXPECT_TRUE(is_at(f, "eng_york_knights", "fife")) << "his own retinue waits for his answer";
  f.act(kEngland, winter());
  EXPECT_TRUE(in_pool(f, "eng_lancaster_knights"));
  // Nothing forced in Edward's area; the retinue and the infantry may be disbanded at will.
  EXPECT_EQ(legal_texts(f, kEngland),
            texts({disband("eng_york_knights"), disband("eng_york_infantry"),
                   disband("eng_lancaster_infantry"), disband("eng_durham_infantry"), done()}));
  for (Role role : {kScotland, kObserver}) {
    EXPECT_TRUE(log_has(f, role, "Edward I winters in Fife")) << core::role_name(role);
    EXPECT_EQ(phase_text(f, role), "England: winter");
  }
  f.act(kEngland, done());
  play_until(f, WinterStep::EnglandBuild);
  const int pool_before_levy = english_pool(f);
  finish_winter(f);
  ASSERT_EQ(f.state().year, 1299);
  for (std::string_view id : {"eng_edward", "eng_york_knights", "eng_york_infantry",
                              "eng_lancaster_infantry", "eng_durham_infantry"}) {
    EXPECT_TRUE(is_at(f, id, "fife")) << id;
  }
  EXPECT_EQ(english_pool(f), pool_before_levy) << "no feudal levy (10.13.1)";
  EXPECT_EQ(english_in_england(f), 0);
  EXPECT_FALSE(winter_log_has(f, kScotland, "England levied"));
  EXPECT_TRUE(f.state().edward_wintered_last);
}

// H-09 (RULES 10.6.1): the alternative answer: Edward disbands, and the rest of his area falls
// under the ordinary rules (knights go, infantry over the limit must go).
TEST(WinterEdward, EdwardIMayBeDisbandedInsteadH09) {
  Fixture f = edward_in_fife(1298);
  to_winter(f);
  play_until(f, WinterStep::EnglandDisband);
  f.act(kEngland, disband("eng_edward"));
  EXPECT_TRUE(in_pool(f, "eng_edward"));
  EXPECT_FALSE(f.state().edward_ii);
  EXPECT_TRUE(in_pool(f, "eng_york_knights"));
  EXPECT_TRUE(in_pool(f, "eng_lancaster_knights"));
  // Three infantry in Fife (printed limit 2): one must go first.
  EXPECT_EQ(legal_texts(f, kEngland),
            texts({disband("eng_york_infantry"), disband("eng_lancaster_infantry"),
                   disband("eng_durham_infantry")}));
  EXPECT_FALSE(winter_log_has(f, kScotland, "Edward"));
}

// H-10 (RULES 10.6.1, 10.6.3, 10.13): Edward wintered in 1298: in 1299 he is disbanded without
// a question and the levy takes place.
TEST(WinterEdward, NoTwoWintersInARowH10) {
  Fixture f = edward_in_fife(1299);
  f.state().edward_wintered_last = true;
  to_winter(f);
  play_until(f, WinterStep::EnglandDisband);
  EXPECT_TRUE(in_pool(f, "eng_edward"));
  EXPECT_FALSE(kind_offered(f, kEngland, ActionKind::Winter));
  f.refuse(kEngland, winter());
  play_until(f, WinterStep::EnglandBuild);
  const int pool = english_pool(f);
  finish_winter(f);
  ASSERT_EQ(f.state().year, 1300);
  EXPECT_EQ(english_in_england(f), (pool + 1) / 2);
  const int levied = (pool + 1) / 2;
  EXPECT_TRUE(log_has(f, kScotland,
                      "England levied " + std::to_string(levied) +
                          (levied == 1 ? " block into England" : " blocks into England")));
  EXPECT_FALSE(f.state().edward_wintered_last);
}

// RULES 10.6.1, 10.7.1: Edward I in England is not asked about: he disbands with England.
TEST(WinterEdward, EdwardInEnglandIsNotAsked) {
  Fixture f = quiet();
  f.state().year = 1298;
  f.place("eng_edward", "england");
  to_winter(f);
  play_until(f, WinterStep::EnglandDisband);
  EXPECT_TRUE(in_pool(f, "eng_edward"));
  EXPECT_FALSE(kind_offered(f, kEngland, ActionKind::Winter));
  EXPECT_EQ(legal_texts(f, kEngland), texts({done()}));
}

// H-11 (RULES 6.1.2, 10.6.2): in the 1306 winter Edward I in Scotland is not offered to winter,
// becomes Edward II (public) and goes to the pool; in 1307 Edward II is disbanded unasked.
TEST(WinterEdward, Edward1306BecomesEdwardIIH11) {
  for (std::string_view scenario : {"campaign", "the_bruce"}) {
    SCOPED_TRACE(scenario);
    Fixture f = quiet(scenario);
    f.state().year = 1306;
    f.clear("fife").place("eng_edward", "fife").place("eng_york_infantry", "fife");
    to_winter(f);
    play_until(f, WinterStep::EnglandDisband);
    EXPECT_TRUE(f.state().edward_ii);
    EXPECT_TRUE(in_pool(f, "eng_edward"));
    EXPECT_FALSE(kind_offered(f, kEngland, ActionKind::Winter));
    EXPECT_EQ(f.view(kScotland).at("edward"), "Edward II");
    EXPECT_TRUE(log_has(f, kObserver, "Edward II"));
    finish_winter(f);
    ASSERT_EQ(f.state().year, 1307);
    EXPECT_FALSE(f.state().edward_wintered_last);

    f.state().blocks.set(block("eng_edward"), BlockState{area("fife"), 4});
    to_winter(f);
    play_until(f, WinterStep::EnglandDisband);
    EXPECT_TRUE(in_pool(f, "eng_edward"));
    EXPECT_FALSE(kind_offered(f, kEngland, ActionKind::Winter));
  }
}

// H-11 (RULES 6.1.2(b)): the change happens in the 1306 winter wherever the block is.
TEST(WinterEdward, Edward1306ChangesEvenInThePoolH11) {
  Fixture f = quiet("campaign");
  f.state().year = 1306;
  ASSERT_TRUE(in_pool(f, "eng_edward"));
  to_winter(f);
  play_until(f, WinterStep::EnglandDisband);
  EXPECT_TRUE(f.state().edward_ii);
}

// --- English disbanding (RULES 10.7) ---------------------------------------------------------

// H-12 (RULES 10.7.1, 10.7.2): blocks in England and archers, knights and hobelars away from a
// wintering Edward go to the pool by themselves; England is then asked only for `done`.
TEST(WinterEnglishDisband, AutomaticDisbandingH12) {
  Fixture f = quiet();
  f.place("eng_york_infantry", "england")
      .place("eng_york_knights", "england")
      .place("eng_lancaster_archers", "lothian")
      .place("eng_durham_knights", "lanark")
      .place("eng_hobelars", "teviot")
      .place("eng_lancaster_infantry", "lothian");
  to_winter(f);
  play_until(f, WinterStep::EnglandDisband);
  for (std::string_view id : {"eng_york_infantry", "eng_york_knights", "eng_lancaster_archers",
                              "eng_durham_knights", "eng_hobelars"}) {
    EXPECT_TRUE(in_pool(f, id)) << id;
  }
  EXPECT_TRUE(is_at(f, "eng_lancaster_infantry", "lothian"));
  EXPECT_EQ(legal_texts(f, kEngland), texts({disband("eng_lancaster_infantry"), done()}));
  // Others see each as an anonymous block leaving its area (13.3).
  EXPECT_TRUE(log_has(f, kScotland, "block in Lothian disbands"));
  EXPECT_FALSE(log_has(f, kScotland, "Archers"));
  EXPECT_TRUE(log_has(f, kEngland, "Lancaster Archers in Lothian disbands"));
}

// H-13 (RULES 10.7.3): Lanark (limit 2) with Steward and two infantry: England must disband one
// infantry of his choice before `done`; the noble is never offered.
TEST(WinterEnglishDisband, InfantryOverTheCastleLimitH13) {
  Fixture f = quiet();
  f.place("eng_westmor_infantry", "lanark").place("eng_durham_infantry", "lanark");
  ASSERT_TRUE(is_at(f, "eng_steward", "lanark"));
  to_winter(f);
  play_until(f, WinterStep::EnglandDisband);
  EXPECT_EQ(legal_texts(f, kEngland),
            texts({disband("eng_westmor_infantry"), disband("eng_durham_infantry")}));
  f.refuse(kEngland, done());
  f.refuse(kEngland, disband("eng_steward"));
  f.act(kEngland, disband("eng_durham_infantry"));
  EXPECT_TRUE(in_pool(f, "eng_durham_infantry"));
  EXPECT_EQ(legal_texts(f, kEngland), texts({disband("eng_westmor_infantry"), done()}));
  f.act(kEngland, done());
  EXPECT_TRUE(is_at(f, "eng_westmor_infantry", "lanark"));
  EXPECT_TRUE(is_at(f, "eng_steward", "lanark"));
}

// H-14 (RULES 1.1.3, 10.7.3, 10.9.1): no cathedral bonus for England: three English infantry in
// Fife (limit 2) lose one; three Scottish non-nobles in Fife (limit 3) all stay.
TEST(WinterEnglishDisband, NoCathedralBonusForEnglandH14) {
  Fixture f = quiet();
  f.place("eng_york_infantry", "fife")
      .place("eng_lancaster_infantry", "fife")
      .place("eng_durham_infantry", "fife");
  to_winter(f);
  play_until(f, WinterStep::EnglandDisband);
  EXPECT_EQ(legal_texts(f, kEngland),
            texts({disband("eng_york_infantry"), disband("eng_lancaster_infantry"),
                   disband("eng_durham_infantry")}));
  f.refuse(kEngland, done());
}

TEST(WinterScottishDisband, CathedralBonusForScotlandH14) {
  Fixture f = quiet();
  f.place("sco_douglas", "fife").place("sco_barclay", "fife").place("sco_lindsay", "fife");
  to_winter(f);
  play_until(f, WinterStep::ScotlandDisband);
  EXPECT_EQ(legal_texts(f, kScotland), texts({disband("sco_douglas"), disband("sco_barclay"),
                                              disband("sco_lindsay"), done()}));
  f.act(kScotland, done());
  for (std::string_view id : {"sco_douglas", "sco_barclay", "sco_lindsay"}) {
    EXPECT_TRUE(is_at(f, id, "fife")) << id;
  }
}

// --- Wallace (RULES 10.8) --------------------------------------------------------------------

// H-15 (RULES 10.8.1): Wallace in Selkirk gains 2 steps without a question (public: that he
// winters there; hidden: his strength).
TEST(WinterWallace, WallaceInSelkirkHealsH15) {
  Fixture f = quiet();
  f.place("sco_wallace", "selkirk", 1);
  to_winter(f);
  play_until(f, WinterStep::ScotlandDisband);
  EXPECT_EQ(blk(f, "sco_wallace").strength, 3);
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::ToSelkirk));
  EXPECT_TRUE(log_has(f, kEngland, "Wallace winters in Selkirk"));
  // Wallace in Selkirk is exempt from its limit of 0 (10.9.1).
  EXPECT_EQ(legal_texts(f, kScotland), texts({disband("sco_wallace"), done()}));
}

// H-15 (RULES 10.8.2 Interpretation): Wallace in England may go to Selkirk (healed to at most
// 4) and is then not disbanded for having been in England.
TEST(WinterWallace, WallaceFromEnglandToSelkirkH15) {
  Fixture f = quiet();
  f.place("sco_wallace", "england", 3);
  to_winter(f);
  play_until(f, WinterStep::ScotlandWallace);
  ASSERT_TRUE(is_at(f, "sco_wallace", "england")) << "not removed by English disbanding";
  // Wallace's own step (table 14 #23), before the disbanding in which, in England (limit 0),
  // he would have to go.
  EXPECT_EQ(legal_texts(f, kScotland), texts({to_selkirk(), stay()}));
  f.act(kScotland, to_selkirk());
  EXPECT_TRUE(is_at(f, "sco_wallace", "selkirk"));
  EXPECT_EQ(blk(f, "sco_wallace").strength, 4);
  EXPECT_EQ(step_of(f), WinterStep::ScotlandDisband);
  EXPECT_FALSE(f.offered(kScotland, simple(ActionKind::Undo))) << "announced (13.4.5)";
  EXPECT_EQ(legal_texts(f, kScotland), texts({disband("sco_wallace"), done()}));
  f.act(kScotland, done());
  EXPECT_TRUE(is_at(f, "sco_wallace", "selkirk"));
  EXPECT_TRUE(log_has(f, kEngland, "Wallace winters in Selkirk"));
}

// RULES 10.8.2: Selkirk held by England (Edward I wintering there): no Selkirk for Wallace.
TEST(WinterWallace, NoSelkirkWhenEnglandHoldsIt) {
  Fixture f = quiet();
  f.state().year = 1298;
  f.place("sco_wallace", "fife", 2).place("eng_edward", "selkirk");
  to_winter(f);
  play_until(f, WinterStep::EnglandDisband);
  f.act(kEngland, winter()).act(kEngland, done());
  ASSERT_EQ(step_of(f), WinterStep::ScotlandDisband);
  EXPECT_TRUE(is_at(f, "eng_edward", "selkirk"));
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::ToSelkirk));
  f.refuse(kScotland, to_selkirk());
}

// RULES 10.8.2, 14 #23: Wallace may go to Selkirk from anywhere, at any distance (16), and
// stays put when Scotland says `stay`; the disbanding follows (10.9), and `stay` can be taken
// back while Scotland decides on.
TEST(WinterWallace, WallaceFromAfarAndStaying) {
  Fixture f = quiet();
  f.clear("moray").place("sco_wallace", "moray", 2);
  to_winter(f);
  play_until(f, WinterStep::ScotlandWallace);
  EXPECT_EQ(legal_texts(f, kScotland), texts({to_selkirk(), stay()}));
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::Done));
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::Disband)) << "10.8 before 10.9";
  f.act(kScotland, stay());
  EXPECT_TRUE(is_at(f, "sco_wallace", "moray"));
  EXPECT_EQ(blk(f, "sco_wallace").strength, 2);
  ASSERT_EQ(step_of(f), WinterStep::ScotlandDisband);
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::ToSelkirk));
  EXPECT_TRUE(kind_offered(f, kScotland, ActionKind::Disband));
  f.act(kScotland, simple(ActionKind::Undo));
  EXPECT_EQ(step_of(f), WinterStep::ScotlandWallace);
  f.act(kScotland, stay()).act(kScotland, done());
  EXPECT_TRUE(is_at(f, "sco_wallace", "moray"));
  EXPECT_FALSE(winter_log_has(f, kEngland, "Wallace"));
}

// RULES 10.8.1: Wallace in Selkirk heals without a question; Scotland's disbanding follows.
TEST(WinterWallace, WallaceInSelkirkHealsWithoutAQuestion) {
  Fixture f = quiet();
  f.place("sco_wallace", "selkirk", 1);
  to_winter(f);
  play_until(f, WinterStep::ScotlandDisband);
  EXPECT_EQ(blk(f, "sco_wallace").strength, 3);
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::ToSelkirk));
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::Stay));
}

// A game of rules version hots-2 keeps Wallace's move among the disbanding actions.
TEST(WinterWallace, AHots2GameOffersToSelkirkWithTheDisbanding) {
  Fixture f = quiet();
  f.state().procedures = kProcedures2;
  f.clear("moray").place("sco_wallace", "moray", 2);
  to_winter(f);
  play_until(f, WinterStep::ScotlandDisband);
  EXPECT_TRUE(kind_offered(f, kScotland, ActionKind::ToSelkirk));
  EXPECT_FALSE(kind_offered(f, kScotland, ActionKind::Stay));
  f.act(kScotland, done());
  EXPECT_TRUE(is_at(f, "sco_wallace", "moray"));
}

// --- Scottish disbanding (RULES 10.9) --------------------------------------------------------

// H-16 (RULES 10.9.1): Keith in Selkirk must go while Wallace stays; Fraser in England must go;
// Lennox (Scottish limit 2) with its noble, Campbell and the King: Campbell or the King must go,
// never the noble.
TEST(WinterScottishDisband, ScottishCastleLimitsH16) {
  Fixture f = quiet();
  f.state().king_crowned = true;
  f.clear("lennox")
      .place("sco_wallace", "selkirk")
      .place("sco_keith", "selkirk")
      .place("sco_fraser", "england")
      .place("sco_lennox", "lennox")
      .place("sco_campbell", "lennox")
      .place("sco_king", "lennox");
  to_winter(f);
  play_until(f, WinterStep::ScotlandDisband);
  EXPECT_EQ(legal_texts(f, kScotland), texts({disband("sco_keith"), disband("sco_fraser"),
                                              disband("sco_campbell"), disband("sco_king")}));
  f.refuse(kScotland, done());
  f.refuse(kScotland, disband("sco_wallace"));
  f.refuse(kScotland, disband("sco_lennox"));
  f.act(kScotland, disband("sco_keith"));
  f.act(kScotland, disband("sco_fraser"));
  EXPECT_EQ(legal_texts(f, kScotland), texts({disband("sco_campbell"), disband("sco_king")}));
  f.act(kScotland, disband("sco_king"));
  EXPECT_TRUE(in_pool(f, "sco_king")) << "disbanded King goes to the pool (6.2.4)";
  EXPECT_TRUE(kind_offered(f, kScotland, ActionKind::Done));
  f.act(kScotland, done());
  EXPECT_TRUE(is_at(f, "sco_wallace", "selkirk"));
  EXPECT_TRUE(is_at(f, "sco_campbell", "lennox"));
  EXPECT_TRUE(is_at(f, "sco_lennox", "lennox"));
  // England sees anonymous blocks leaving (13.3).
  EXPECT_TRUE(log_has(f, kEngland, "block in Selkirk disbands"));
  EXPECT_FALSE(log_has(f, kEngland, "Keith"));
}

// H-17 (RULES 10.9.2): Moray and the King may be disbanded voluntarily (to the pool); no noble
// is ever offered.
TEST(WinterScottishDisband, VoluntaryDisbandingH17) {
  Fixture f = quiet();
  f.state().king_crowned = true;
  f.clear("moray").place("sco_moray", "moray").place("sco_king", "fife");
  to_winter(f);
  play_until(f, WinterStep::ScotlandDisband);
  EXPECT_EQ(legal_texts(f, kScotland), texts({disband("sco_moray"), disband("sco_king"), done()}));
  f.refuse(kScotland, disband("sco_galloway"));
  f.act(kScotland, disband("sco_moray")).act(kScotland, disband("sco_king"));
  EXPECT_TRUE(in_pool(f, "sco_moray"));
  EXPECT_TRUE(in_pool(f, "sco_king"));
  EXPECT_EQ(legal_texts(f, kScotland), texts({done()}));
}

}  // namespace
}  // namespace blockfog::hots::testing
