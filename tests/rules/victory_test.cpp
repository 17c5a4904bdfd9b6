// ACCEPTANCE group I (except I-09, the mid-battle sudden deaths of the battle tests): the "all
// nobles" sudden death at the end of a game turn and of a winter (RULES 12.2.3), the count after
// the scenario's last winter (12.1), The Bruce (12.1.3) and the Campaign (12.3).
//
// Positions are built with the fixture; turns and winters are played with real actions.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "rules/hots/adjudication.h"
#include "rules/hots/engine.h"
#include "rules/hots/module.h"
#include "tests/rules/fixture.h"
#include "tests/rules/helpers.h"

namespace blockfog::hots::testing {
namespace {

using nlohmann::json;

// Index of the last log line of `role` containing `text`, or -1.
int last_line(const Fixture& f, Role role, std::string_view text) {
  const auto lines = log_lines(f, role);
  for (int i = static_cast<int>(lines.size()) - 1; i >= 0; --i) {
    if (lines[static_cast<std::size_t>(i)].find(text) != std::string::npos) return i;
  }
  return -1;
}

// Every non-noble off the map; each two-block noble at its first home, English for the keys in
// `english`, Scottish otherwise. Moray and Wallace are in the pool unless a case puts them.
Fixture with_roster(std::string_view scenario, const std::vector<std::string_view>& english) {
  Fixture f(scenario);
  f.clear_non_nobles();
  for (const auto& noble : game_data().nobles) {
    const bool is_english = std::find(english.begin(), english.end(), noble.key) != english.end();
    const BlockId b = noble.blocks[index_of(is_english ? Side::England : Side::Scotland)];
    const auto& info = game_data().blocks[b];
    f.place(info.id, game_data().areas[info.homes.front()].id);
  }
  return f;
}

// The next winter action of the driver below (it builds, unlike play_until's): `done` (or
// Wallace's `stay`) when offered, else a step, else a draw (scripted to a block other than
// Wallace, so that a case decides where Wallace is), else the first legal action (a home, a
// forced disband).
void winter_action_with_builds(Fixture& f) {
  const Role role = side_of(f.state().active);
  const auto actions = legal_actions(f.state(), role);
  ASSERT_FALSE(actions.empty());
  const auto first_of = [&](ActionKind kind) {
    return std::find_if(actions.begin(), actions.end(),
                        [kind](const Action& a) { return a.kind == kind; });
  };
  if (first_of(ActionKind::Done) != actions.end()) {
    f.act(role, done());
    return;
  }
  if (first_of(ActionKind::Stay) != actions.end()) {  // Wallace stays (10.8.2)
    f.act(role, simple(ActionKind::Stay));
    return;
  }
  if (const auto it = first_of(ActionKind::AddStep); it != actions.end()) {
    f.act(role, *it);
    return;
  }
  if (const auto it = first_of(ActionKind::Draw); it != actions.end()) {
    const bool coastal = game_data().areas[it->a].coastal;
    for (BlockId b = 0; b < kBlockCount; ++b) {
      if (f.state().blocks.loc[b] != kPool || owner_of(b) != Side::Scotland) continue;
      if (b == game_data().wallace) continue;
      if (!coastal && (b == game_data().norse || b == game_data().french_knights)) continue;
      f.draws({game_data().blocks[b].id});
      break;
    }
    f.act(role, *it);
    return;
  }
  f.act(role, actions.front());
}

void play_until_with_builds(Fixture& f, WinterStep until) {
  for (int guard = 0; guard < 300; ++guard) {
    if (f.state().phase != Phase::Winter || f.state().winter.step == until) return;
    winter_action_with_builds(f);
  }
  FAIL() << "the winter did not progress";
}
// Plays the winter out with the driver above.
void finish_winter_with_builds(Fixture& f) { play_until_with_builds(f, WinterStep::None); }

void expect_won(const Fixture& f, Role winner, std::string_view reason) {
  const auto result = outcome(f.state());
  EXPECT_TRUE(result.finished);
  ASSERT_TRUE(result.winner.has_value());
  EXPECT_EQ(*result.winner, winner);
  EXPECT_EQ(result.reason, reason);
  EXPECT_EQ(f.state().phase, Phase::GameOver);
  for (Role role : {kScotland, kEngland, kObserver}) {
    const json v = f.view(role);
    EXPECT_EQ(v.at("outcome").at("winner"), core::role_name(winner)) << core::role_name(role);
    EXPECT_EQ(v.at("outcome").at("reason"), reason) << core::role_name(role);
    EXPECT_TRUE(v.at("legal_actions").empty()) << core::role_name(role);
  }
}
void expect_running(const Fixture& f) {
  EXPECT_FALSE(outcome(f.state()).finished);
  EXPECT_NE(f.state().phase, Phase::GameOver);
}

constexpr const char* kAllNoblesScotland = "england_has_no_nobles";
constexpr const char* kAllNoblesEngland = "scotland_has_no_nobles";
constexpr const char* kMajority = "nobles_majority";
constexpr const char* kTieBreak = "wallace_tie_break";

// Seven English nobles, six Scottish ones (+ Moray where a case puts him).
const std::vector<std::string_view> kSevenEnglish = {"comyn",    "angus", "argyll", "buchan",
                                                     "galloway", "ross",  "mar"};
// Eight English nobles, five Scottish ones.
const std::vector<std::string_view> kEightEnglish = {"comyn",    "angus", "argyll", "buchan",
                                                     "galloway", "ross",  "mar",    "lennox"};

// --- Sudden death "all nobles" (RULES 12.2.3) ------------------------------------------------

// I-01 (RULES 12.2.3): at the end of a game turn England controls no noble: Scotland wins at
// once, without waiting for the winter.
TEST(VictoryAllNobles, EnglandWithoutNoblesLosesAtTurnEndI01) {
  Fixture f = with_roster("braveheart", {});
  f.hands({"move1_1", "move1_3"}, {"move1_2", "move1_4"}).play_cards("move1_1", "move1_2");
  end_move_phases(f);
  expect_won(f, kScotland, kAllNoblesScotland);
  EXPECT_EQ(f.state().year, 1297);
  EXPECT_EQ(f.state().turn, 1);
}

// I-02 (RULES 12.2.3, 1.4.2): no Scottish two-block noble but Moray on the map: no winner.
TEST(VictoryAllNobles, MorayOnTheMapKeepsScotlandAliveI02) {
  Fixture f =
      with_roster("braveheart", {"comyn", "angus", "argyll", "buchan", "galloway", "ross", "bruce",
                                 "mar", "lennox", "atholl", "dunbar", "mentieth", "steward"});
  f.place("sco_moray", "moray");
  f.hands({"move1_1", "move1_3"}, {"move1_2", "move1_4"}).play_cards("move1_1", "move1_2");
  end_move_phases(f);
  expect_running(f);
  EXPECT_EQ(f.state().phase, Phase::CardChoice);
  EXPECT_EQ(f.state().turn, 2);
}

// I-02 (RULES 12.2.3): Moray in the pool or dead: England wins at the end of the turn.
TEST(VictoryAllNobles, ScotlandWithoutNoblesLosesAtTurnEndI02) {
  for (bool moray_dead : {false, true}) {
    SCOPED_TRACE(moray_dead ? "Moray dead" : "Moray in the pool");
    Fixture f = with_roster(
        "braveheart", {"comyn", "angus", "argyll", "buchan", "galloway", "ross", "bruce", "mar",
                       "lennox", "atholl", "dunbar", "mentieth", "steward"});
    if (moray_dead) f.kill("sco_moray");
    f.place("sco_douglas", "fife");
    f.hands({"move1_1", "move1_3"}, {"move1_2", "move1_4"}).play_cards("move1_1", "move1_2");
    end_move_phases(f);
    expect_won(f, kEngland, kAllNoblesEngland);
  }
}

// I-03 (RULES 12.2.3 Interpretation, 10.14.1): a winter defection leaves England without a
// noble: the winter is played to its end (levy included), then Scotland wins before a new year.
TEST(VictoryAllNobles, WinterDefectionEndsTheGameAfterTheWinterI03) {
  Fixture f = with_roster("braveheart", {"angus"});
  f.place("eng_angus", "garmoran", 2).place("sco_douglas", "angus");
  to_winter(f);
  EXPECT_EQ(nobles_controlled(f.state(), Side::England), 0) << "Angus defected at home";
  expect_running(f);
  EXPECT_EQ(f.state().phase, Phase::Winter) << "the winter goes on";
  finish_winter_with_builds(f);
  expect_won(f, kScotland, kAllNoblesScotland);
  EXPECT_EQ(f.state().year, 1297);
  EXPECT_EQ(last_line(f, kObserver, "Year 1298"), -1);
  const int levy = last_line(f, kObserver, "England levied");
  const int end = last_line(f, kObserver, "Game over");
  EXPECT_GT(levy, last_line(f, kObserver, "Winter of 1297")) << "the levy was made";
  EXPECT_LT(levy, end);
}

// I-10 (RULES 12.2.3, 2.3): England's last noble is captured in the first of two battles: the
// game goes on. A Scot alone in England makes a border raid due after the battles, so the
// end-of-turn check comes after it.
Fixture two_battles() {
  Fixture f = with_roster("braveheart", {"mar"});
  f.place("eng_mar", "mar", 1)
      .place("sco_dunbar", "dunbar", 1)
      .place("sco_douglas", "buchan")
      .place("sco_keith", "england")
      .place("eng_york_infantry", "lothian");
  f.hands({"move2_1"}, {"move1_1"}).play_cards("move2_1", "move1_1");  // Scotland is P1
  f.act(kScotland, move(block("sco_douglas"), area("mar")));
  f.act(kScotland, end_phase());
  f.act(kEngland, move(block("eng_york_infantry"), area("dunbar")));
  end_move_phases(f);
  // Battle order is P1's choice (5.1): Mar first.
  EXPECT_EQ(f.state().phase, Phase::BattleChoice);
  f.act(kScotland, with_area(ActionKind::ChooseBattle, area("mar")));
  // Mar: the English noble (B) passes; Douglas (C3) hits once and captures it.
  f.act(kEngland, with_block(ActionKind::Pass, block("eng_mar")));
  f.dice({1, 6, 6, 6});
  f.act(kScotland, with_block(ActionKind::Fire, block("sco_douglas")));
  EXPECT_TRUE(f.state().blocks.loc[block("sco_mar")] == area("mar"));
  EXPECT_EQ(nobles_controlled(f.state(), Side::England), 0);
  EXPECT_EQ(f.state().phase, Phase::Regroup);
  f.act(kScotland, simple(ActionKind::EndRegroup));
  // The game goes on: the second battle starts by itself (the only one left).
  EXPECT_EQ(f.state().phase, Phase::Combat);
  EXPECT_EQ(f.state().battle.area, area("dunbar"));
  EXPECT_FALSE(outcome(f.state()).finished);
  // Dunbar: the Scottish noble (B) passes first.
  f.act(kScotland, with_block(ActionKind::Pass, block("sco_dunbar")));
  return f;
}

// I-10: England recaptures a noble (Dunbar) in the second battle: nobody wins at the turn's end.
TEST(VictoryAllNobles, NotCheckedMidTurnRecaptureSavesEnglandI10) {
  Fixture f = two_battles();
  ASSERT_EQ(f.state().phase, Phase::Combat);
  f.dice({1, 6, 6, 6});
  f.act(kEngland, with_block(ActionKind::Fire, block("eng_york_infantry")));
  EXPECT_TRUE(f.state().blocks.loc[block("eng_dunbar")] == area("dunbar"));
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  f.act(kEngland, simple(ActionKind::EndRegroup));
  ASSERT_EQ(f.state().phase, Phase::BorderRaid);
  f.act(kEngland, with_block(ActionKind::RaidVictim, block("eng_york_infantry")));
  expect_running(f);
  EXPECT_EQ(nobles_controlled(f.state(), Side::England), 1);
  EXPECT_EQ(f.state().phase, Phase::Winter) << "the turn ended normally";
}

// I-10: without a recapture, Scotland wins at the end-of-turn check, after the border raid.
TEST(VictoryAllNobles, NotCheckedMidTurnScotlandWinsAtTurnEndI10) {
  Fixture f = two_battles();
  ASSERT_EQ(f.state().phase, Phase::Combat);
  f.act(kEngland, to_area(ActionKind::Retreat, block("eng_york_infantry"), area("lothian")));
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  expect_running(f);
  f.act(kScotland, simple(ActionKind::EndRegroup));
  ASSERT_EQ(f.state().phase, Phase::BorderRaid);
  expect_running(f);
  f.act(kEngland, with_block(ActionKind::RaidVictim, block("eng_york_infantry")));
  expect_won(f, kScotland, kAllNoblesScotland);
}

// --- End of a scenario (RULES 12.1, 10.14.2) -------------------------------------------------

// I-04 (RULES 12.1.1, 12.1.2): after the whole 1305 winter (levy included), England with 8
// nobles against 6 wins Braveheart.
TEST(VictoryScenarioEnd, MajorityAfterTheLastWinterI04) {
  Fixture f = with_roster("braveheart", kEightEnglish);
  f.place("sco_moray", "moray");
  f.state().year = 1305;
  to_winter(f);
  finish_winter_with_builds(f);
  expect_won(f, kEngland, kMajority);
  EXPECT_NE(last_line(f, kObserver, "End of 1305: England 8 nobles, Scotland 6"), -1);
  const int levy = last_line(f, kObserver, "England levied");
  EXPECT_GT(levy, last_line(f, kObserver, "Winter of 1305")) << "the winter was played in full";
}

// I-05 (RULES 12.1.3): 7-7 with Moray and Wallace on the map: Scotland wins; with Wallace in the
// pool or dead: England wins.
TEST(VictoryScenarioEnd, TieBrokenByWallaceI05) {
  const struct {
    const char* wallace;
    Role winner;
  } cases[] = {{"map", kScotland}, {"pool", kEngland}, {"dead", kEngland}};
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string("Wallace ") + c.wallace);
    Fixture f = with_roster("braveheart", kSevenEnglish);
    f.place("sco_moray", "moray");
    if (std::string_view(c.wallace) == "map") f.place("sco_wallace", "fife");
    if (std::string_view(c.wallace) == "dead") f.kill("sco_wallace");
    f.state().year = 1305;
    to_winter(f);
    finish_winter_with_builds(f);
    ASSERT_EQ(nobles_controlled(f.state(), Side::England), 7);
    ASSERT_EQ(nobles_controlled(f.state(), Side::Scotland), 7);
    expect_won(f, c.winner, kTieBreak);
  }
}

// I-06 (RULES 12.1.1 Interpretation): 7-7 at the start of the 1305 winter with Wallace in Fife
// over the Scottish limit; the count is taken after the winter: if Scotland disbands Wallace,
// England wins; if he disbands another block, Scotland wins.
TEST(VictoryScenarioEnd, FinalWinterCountsI06) {
  for (bool drop_wallace : {true, false}) {
    SCOPED_TRACE(drop_wallace ? "Wallace disbanded" : "Grant disbanded");
    Fixture f = with_roster("braveheart", kSevenEnglish);
    f.place("sco_moray", "moray");
    f.place("sco_wallace", "fife")
        .place("sco_douglas", "fife")
        .place("sco_barclay", "fife")
        .place("sco_grant", "fife");
    f.state().year = 1305;
    to_winter(f);
    play_until_with_builds(f, WinterStep::ScotlandDisband);
    ASSERT_FALSE(f.offered(kScotland, done())) << "Fife holds 4 (limit 3)";
    f.act(kScotland,
          with_block(ActionKind::Disband, block(drop_wallace ? "sco_wallace" : "sco_grant")));
    f.act(kScotland, done());
    finish_winter_with_builds(f);
    expect_won(f, drop_wallace ? kEngland : kScotland, kTieBreak);
  }
}

// I-07 (RULES 12.1.2, 12.1.3): The Bruce has 13 nobles in play (Moray is dead) and ends after
// the 1314 winter by majority, either way.
TEST(VictoryScenarioEnd, TheBruceIsDecidedByMajorityI07) {
  const struct {
    std::vector<std::string_view> english;
    Role winner;
  } cases[] = {
      {{"comyn", "angus", "argyll", "buchan", "galloway", "ross", "mentieth", "steward"}, kEngland},
      {{"comyn", "angus", "argyll", "buchan", "galloway", "ross"}, kScotland},
  };
  for (const auto& c : cases) {
    Fixture f = with_roster("the_bruce", c.english);
    f.state().year = 1314;
    f.state().edward_ii = true;
    EXPECT_EQ(f.state().blocks.loc[block("sco_moray")], kDead);
    EXPECT_EQ(
        nobles_controlled(f.state(), Side::England) + nobles_controlled(f.state(), Side::Scotland),
        13);
    to_winter(f);
    finish_winter_with_builds(f);
    expect_won(f, c.winner, kMajority);
  }
}

// I-07 (RULES 12.1): The Bruce does not end before its last year.
TEST(VictoryScenarioEnd, TheBruceGoesOnBefore1314I07) {
  Fixture f = with_roster("the_bruce", kEightEnglish);
  f.state().year = 1313;
  f.state().edward_ii = true;
  to_winter(f);
  finish_winter_with_builds(f);
  expect_running(f);
  EXPECT_EQ(f.state().year, 1314);
}

// RULES 12.1.1: Braveheart does not end before 1305.
TEST(VictoryScenarioEnd, BraveheartGoesOnBefore1305) {
  Fixture f = with_roster("braveheart", kEightEnglish);
  f.state().year = 1304;
  to_winter(f);
  finish_winter_with_builds(f);
  expect_running(f);
  EXPECT_EQ(f.state().year, 1305);
}

// --- Campaign (RULES 12.3) -------------------------------------------------------------------

// I-08 (RULES 12.3.1): no count after the 1305 winter in the Campaign, whatever the count.
TEST(VictoryCampaign, GoesOnAfter1305I08) {
  Fixture f = with_roster("campaign", kEightEnglish);
  f.place("sco_moray", "moray");
  f.state().year = 1305;
  to_winter(f);
  finish_winter_with_builds(f);
  expect_running(f);
  EXPECT_EQ(f.state().year, 1306);
  EXPECT_EQ(f.state().phase, Phase::CardChoice);
  EXPECT_EQ(last_line(f, kObserver, "End of 1305"), -1);
}

// I-08 (RULES 12.3.2): after the 1314 winter (and every later one) a majority wins.
TEST(VictoryCampaign, MajorityAfter1314AndLaterI08) {
  for (int year : {1314, 1315}) {
    SCOPED_TRACE(year);
    Fixture f = with_roster("campaign", kEightEnglish);
    f.place("sco_moray", "moray");
    f.state().year = static_cast<std::uint16_t>(year);
    f.state().edward_ii = true;
    to_winter(f);
    finish_winter_with_builds(f);
    expect_won(f, kEngland, kMajority);
  }
}

// I-08 (RULES 12.3.3): a 7-7 count after 1314 continues the game, whether Wallace is on the map
// or dead; the count is taken again after the 1315 winter.
TEST(VictoryCampaign, TieContinuesWhateverWallaceI08) {
  for (bool wallace_dead : {false, true}) {
    SCOPED_TRACE(wallace_dead ? "Wallace dead" : "Wallace on the map");
    Fixture f = with_roster("campaign", kSevenEnglish);
    f.place("sco_moray", "moray");
    if (wallace_dead) {
      f.kill("sco_wallace");
    } else {
      f.place("sco_wallace", "fife");
    }
    f.state().year = 1314;
    f.state().edward_ii = true;
    to_winter(f);
    finish_winter_with_builds(f);
    expect_running(f);
    ASSERT_EQ(f.state().year, 1315);
    EXPECT_NE(last_line(f, kObserver, "End of 1314: England 7 nobles, Scotland 7"), -1);
    to_winter(f);
    finish_winter_with_builds(f);
    EXPECT_NE(last_line(f, kObserver, "End of 1315"), -1) << "counted again";
    expect_running(f);
    EXPECT_EQ(f.state().year, 1316);
  }
}

// I-08 (RULES 12.3.4 Interpretation): still 7-7 after the 1400 winter: Wallace decides.
TEST(VictoryCampaign, BackstopIn1400UsesWallaceI08) {
  for (bool wallace_on_map : {true, false}) {
    SCOPED_TRACE(wallace_on_map ? "Wallace on the map" : "Wallace in the pool");
    Fixture f = with_roster("campaign", kSevenEnglish);
    f.place("sco_moray", "moray");
    if (wallace_on_map) f.place("sco_wallace", "fife");
    f.state().year = 1400;
    f.state().edward_ii = true;
    to_winter(f);
    finish_winter_with_builds(f);
    expect_won(f, wallace_on_map ? kScotland : kEngland, kTieBreak);
  }
}

// --- Adjudication (a tournament organiser's, docs/tournaments.md) ----------------------------

// RULES 12.1.2: the side with more nobles wins an adjudication, counted as at the scenario's
// end (Moray for Scotland on the map).
TEST(Adjudication, MoreNoblesWinsAndTheSentenceGivesTheCounts) {
  Fixture f = with_roster("braveheart", kEightEnglish);
  f.place("sco_moray", "moray");
  const auto a = adjudicate(f.state());
  EXPECT_EQ(a.winner, kEngland);
  EXPECT_EQ(a.england, 8);
  EXPECT_EQ(a.scotland, 6) << "five two-block nobles and Moray";
  EXPECT_FALSE(a.tie_broken);
  EXPECT_EQ(a.text, "England wins: more nobles (8 to 6)");
}

// A 7-7 tie is broken as RULES 12.1.3: Scotland with Wallace on the map, else England.
TEST(Adjudication, ASevenAllTieGoesToScotlandOnlyWithWallaceOnTheMap) {
  for (bool wallace : {true, false}) {
    SCOPED_TRACE(wallace ? "Wallace on the map" : "Wallace in the pool");
    Fixture f = with_roster("braveheart", kSevenEnglish);
    f.place("sco_moray", "moray");
    if (wallace) f.place("sco_wallace", "lothian");
    const auto a = adjudicate(f.state());
    EXPECT_EQ(a.scotland, 7);
    EXPECT_EQ(a.england, 7);
    EXPECT_TRUE(a.tie_broken);
    EXPECT_EQ(a.winner, wallace ? kScotland : kEngland);
    EXPECT_EQ(a.text, wallace ? "Scotland wins: nobles tied (7 to 7), Wallace on the map"
                              : "England wins: nobles tied (7 to 7), Wallace not on the map");
  }
}

// A game behind the engine interface is adjudicated from its true state.
TEST(Adjudication, TheModulesGameIsAdjudicatedFromItsTrueState) {
  const auto setup = module().setup(core::Seed{}, "braveheart", nullptr);
  ASSERT_TRUE(setup.game) << setup.error;
  const auto a = adjudicate(*setup.game);
  ASSERT_TRUE(a.has_value());
  // Braveheart's set-up (game-data.json "nobles_at_start"): England 11, Scotland 3.
  EXPECT_EQ(a->england, 11);
  EXPECT_EQ(a->scotland, 3);
  EXPECT_EQ(a->winner, kEngland);
}

}  // namespace
}  // namespace blockfog::hots::testing
