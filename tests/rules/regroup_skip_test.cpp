// Table 14 #16, RULES 5.12, 13.1.4: the victor's regroup is left out only where public facts
// alone rule it out. Under hots-4 those facts include the victor's blocks in the battle area
// when each of them was revealed in the battle or named when captured (13.2, 13.4.1): their
// own destinations then decide. A reserve that never joined keeps the rule of hots-3, which
// asks only the map and whether the Norse are in play, so that the step looks the same to
// England and observers whatever that reserve is. hots-3 and hots-2 games keep their rules.

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

// The areas offered to `id` by Scotland's regroup actions.
std::set<std::string> regroup_areas(const Fixture& f, std::string_view id) {
  std::set<std::string> out;
  for (const auto& a : legal_actions(f.state(), kScotland)) {
    if (a.kind == ActionKind::Regroup && a.a == block(id)) out.insert(game_data().areas[a.b].id);
  }
  return out;
}

// The battle is over and the game has gone on past it without asking for a regroup.
void expect_regroup_skipped(const Fixture& f) {
  EXPECT_NE(f.state().phase, Phase::Regroup);
  EXPECT_EQ(f.state().battle.area, kNone);
  for (Role role : {kScotland, kEngland}) EXPECT_FALSE(f.offered(role, end_regroup()));
}

// The regroup waits for Scotland, who has nothing to regroup: `end_regroup` is all he may do.
void expect_empty_regroup_waits(const Fixture& f) {
  ASSERT_EQ(f.state().phase, Phase::Regroup);
  EXPECT_EQ(awaited(f), kScotland);
  EXPECT_EQ(legal_actions(f.state(), kScotland), std::vector<Action>{end_regroup()});
}

// Douglas defends Fife against York Infantry (1) from Angus; every land neighbour of Fife
// (Angus, Atholl, Mentieth) holds English blocks, and Scotland holds `coast` (or nothing
// coastal). With the reserve `reserve` (arrived by sea, never revealed: the battle ends in
// round 1) Scotland wins. The Norse are in the Scottish pool unless placed.
Fixture fife_surrounded(std::string_view reserve, std::string_view coast,
                        std::uint8_t procedures = kProcedures4,
                        std::string_view coast_block = "sco_fraser") {
  Fixture f = blank_map();
  f.state().procedures = procedures;
  f.place("sco_galloway", "badenoch")
      .place("sco_bruce", "badenoch")
      .place("sco_douglas", "fife")
      .place("eng_york_infantry", "angus", 1)
      .place("eng_durham_infantry", "angus")
      .place("eng_wales_infantry", "atholl")
      .place("eng_lancaster_infantry", "mentieth");
  if (!reserve.empty()) f.place(reserve, "fife");
  if (!coast.empty()) f.place(coast_block, coast);
  england_first(f);
  go(f, kEngland, "eng_york_infantry", {"fife"});
  end_moves(f, kEngland);
  if (!reserve.empty()) {  // as if it had come by sea in Scotland's move phase (4.6.1.3)
    f.state().blocks.reserve.set(block(reserve), true);
    f.state().blocks.entry[block(reserve)] = kEntryBySea;
  }
  end_moves(f, kScotland);
  for (int guard = 0; guard < 20 && f.state().phase == Phase::Combat; ++guard) {
    if (awaited(f) == kScotland) {
      fire(f, kScotland, "sco_douglas", {6});
    } else {
      pass(f, kEngland, "eng_york_infantry");
    }
  }
  return f;
}

// With no friendly coast the Norse could regroup to, the map alone rules the regroup out, in
// every version that skips it; hots-2 games always enter it.
TEST(RegroupSkip, SkippedWhenTheMapAloneRulesItOut14n16) {
  for (std::uint8_t procedures : {kProcedures4, kProcedures3}) {
    Fixture f = fife_surrounded("", "", procedures);
    EXPECT_EQ(blk(f, "eng_york_infantry").loc, kPool);
    expect_regroup_skipped(f);
  }
  Fixture g = fife_surrounded("", "", kProcedures2);
  expect_empty_regroup_waits(g);
}

// Scots defending Fife, their only block revealed in the battle (5.3.1): everybody sees that
// Douglas has no open neighbour, so hots-4 skips the step. hots-3 keeps it, asking only whether
// the Norse could be among his blocks and regroup to Ross by sea (5.12.4).
TEST(RegroupSkip, SkippedWhenTheScotsDefendingFifeWereAllRevealed14n16) {
  Fixture f = fife_surrounded("", "ross");
  EXPECT_EQ(blk(f, "eng_york_infantry").loc, kPool);
  expect_regroup_skipped(f);
  EXPECT_TRUE(is_at(f, "sco_douglas", "fife"));
  Fixture hots3 = fife_surrounded("", "ross", kProcedures3);
  expect_empty_regroup_waits(hots3);
}

// A reserve that never joined keeps the step under hots-4 whatever block it is, whether or not
// it could regroup: England and observers see the same game, at the regroup and after it.
TEST(RegroupSkip, KeptWhenAScottishReserveWasNeverRevealed14n16) {
  for (std::uint8_t procedures : {kProcedures4, kProcedures3}) {
    SCOPED_TRACE(procedures == kProcedures4 ? "hots-4" : "hots-3");
    std::vector<Fixture> games;
    for (auto reserve : {"sco_norse", "sco_barclay", "sco_moray"}) {
      games.push_back(fife_surrounded(reserve, "ross", procedures));
      const Fixture& f = games.back();
      ASSERT_EQ(f.state().phase, Phase::Regroup) << reserve;
      EXPECT_EQ(f.state().battle.round, 1) << "the reserve never joined";
      EXPECT_TRUE(f.offered(kScotland, end_regroup())) << reserve;
    }
    EXPECT_EQ(regroup_areas(games[0], "sco_norse"), std::set<std::string>{"ross"});
    for (std::size_t i = 1; i < games.size(); ++i) {
      EXPECT_EQ(legal_actions(games[i].state(), kScotland), std::vector<Action>{end_regroup()});
      expect_same_views(games[0], games[i], {kEngland, kObserver}, "at the regroup");
    }
    for (auto& f : games) f.act(kScotland, end_regroup());
    for (std::size_t i = 1; i < games.size(); ++i) {
      expect_same_views(games[0], games[i], {kEngland, kObserver}, "after the regroup");
    }
  }
  Fixture norse = fife_surrounded("sco_norse", "ross");
  norse.act(kScotland, regroup_of("sco_norse", "ross")).act(kScotland, end_regroup());
  EXPECT_TRUE(is_at(norse, "sco_norse", "ross"));
}

// The known blocks' destinations decide, not hidden facts elsewhere: whether the Norse or
// Fraser holds Ross, hots-4 skips the step after Douglas's battle, and England and observers
// see the same. (hots-3 keeps the step in both, as the Norse are in play either way.)
TEST(RegroupSkip, SkippedAlikeWhetherOrNotTheNorseAreElsewhere14n16) {
  Fixture fraser = fife_surrounded("", "ross");
  Fixture norse = fife_surrounded("", "ross", kProcedures4, "sco_norse");
  ASSERT_TRUE(is_at(norse, "sco_norse", "ross"));
  expect_regroup_skipped(fraser);
  expect_regroup_skipped(norse);
  expect_same_views(fraser, norse, {kEngland, kObserver}, "after the battle");
  expect_empty_regroup_waits(fife_surrounded("", "ross", kProcedures3, "sco_norse"));
}

// A Herald battle (7.2.3, 5.14): Scotland converts Buchan in Fife next to York Infantry (1);
// Fife's land neighbours are English, Fraser holds Ross, the Norse are in the pool. Buchan
// (1), revealed as the attacker, eliminates the infantry in round 1.
Fixture herald_in_fife(std::uint8_t procedures) {
  Fixture f = blank_map();
  f.state().procedures = procedures;
  f.place("eng_buchan", "fife", 1)
      .place("eng_york_infantry", "fife", 1)
      .place("eng_durham_infantry", "angus")
      .place("eng_wales_infantry", "atholl")
      .place("eng_lancaster_infantry", "mentieth")
      .place("sco_fraser", "ross");
  scotland_event(f, "herald");
  f.dice({2});
  f.act(kScotland, roll()).act(kScotland, herald_of("buchan"));
  EXPECT_EQ(f.state().battle.attacker, index_of(kScotland));
  fire(f, kScotland, "sco_buchan", {1});
  EXPECT_EQ(blk(f, "eng_york_infantry").loc, kPool);
  return f;
}

TEST(RegroupSkip, SkippedAfterAHeraldBattle14n16) {
  Fixture f = herald_in_fife(kProcedures4);
  expect_regroup_skipped(f);
  EXPECT_TRUE(is_at(f, "sco_buchan", "fife"));
  EXPECT_TRUE(in_move_phase_of(f, kEngland)) << "P2's player turn follows the battle";
  Fixture hots3 = herald_in_fife(kProcedures3);
  expect_empty_regroup_waits(hots3);
}

// A coronation battle (8.4, 5.14): Bruce is crowned in Fife; Ross (1) defects in Ross, where
// Fraser (1) stands, and attacks for England. Garmoran (the parked English nobles) and Moray
// (York Infantry) close Ross's land neighbours; the King's Fife is a friendly coast. Fraser,
// revealed, hits Ross, who is captured back (5.8.2): named, he joins the victor (13.4.1).
Fixture coronation_in_ross(std::uint8_t procedures) {
  Fixture f = blank_map();
  f.state().procedures = procedures;
  f.kill("sco_wallace")
      .place("sco_bruce", "fife")
      .place("sco_ross", "ross", 1)
      .place("sco_fraser", "ross", 1)
      .place("eng_york_infantry", "moray");
  scotland_event(f, "victuals");
  f.act(kScotland, simple(ActionKind::CrownBruce));
  EXPECT_EQ(f.state().battle.area, area("ross"));
  EXPECT_EQ(f.state().battle.attacker, index_of(kEngland));
  for (int guard = 0; guard < 10 && f.state().phase == Phase::Combat; ++guard) {
    if (awaited(f) == kScotland) {
      fire(f, kScotland, "sco_fraser", {1});
    } else {
      pass(f, kEngland, "eng_ross");
    }
  }
  EXPECT_TRUE(is_at(f, "sco_ross", "ross")) << "captured back";
  return f;
}

TEST(RegroupSkip, SkippedAfterACoronationBattle14n16) {
  Fixture f = coronation_in_ross(kProcedures4);
  expect_regroup_skipped(f);
  EXPECT_FALSE(f.state().in_defection);
  EXPECT_TRUE(in_move_phase_of(f, kEngland)) << "Scotland's player turn is over";
  Fixture hots3 = coronation_in_ross(kProcedures3);
  expect_empty_regroup_waits(hots3);
}

// Angus (1) attacks Douglas (1) in Fife from Angus, where Durham Infantry stays; Atholl and
// Mentieth are English, Fraser holds Ross. Both pass two rounds; in round 3 Douglas eliminates
// Angus, who is captured (5.8.2) and named (13.4.1) but never joins: the battle is over.
Fixture capture_in_round_three(std::uint8_t procedures) {
  Fixture f = blank_map();
  f.state().procedures = procedures;
  f.place("sco_douglas", "fife", 1)
      .place("eng_angus", "angus", 1)
      .place("eng_durham_infantry", "angus")
      .place("eng_wales_infantry", "atholl")
      .place("eng_lancaster_infantry", "mentieth")
      .place("sco_fraser", "ross");
  english_attack(f, {"eng_angus"}, "fife");
  for (int guard = 0; guard < 10 && f.state().phase == Phase::Combat; ++guard) {
    if (awaited(f) == kEngland) {
      pass(f, kEngland, "eng_angus");
    } else if (f.state().battle.round < 3) {
      pass(f, kScotland, "sco_douglas");
    } else {
      fire(f, kScotland, "sco_douglas", {1});
    }
  }
  EXPECT_TRUE(is_at(f, "sco_angus", "fife"));
  EXPECT_TRUE(logged(f, kEngland, {"Angus changes sides in Fife"}));
  return f;
}

TEST(RegroupSkip, SkippedAfterCapturingANobleInRoundThree14n16) {
  Fixture f = capture_in_round_three(kProcedures4);
  expect_regroup_skipped(f);
  Fixture hots3 = capture_in_round_three(kProcedures3);
  ASSERT_EQ(hots3.state().battle.round, 3);
  expect_empty_regroup_waits(hots3);
}

}  // namespace
}  // namespace blockfog::hots::testing
