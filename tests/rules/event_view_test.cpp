// Fog of war of the events and coronations (RULES 7.2.4, 7.3.5, 7.4.5, 7.6.3, 8.3.3, 13.1.4,
// 13.4; ACCEPTANCE J-11, J-14 and the event parts of J-09): what each seat's view and log show
// of Herald, Pillage, Sea Move, Victuals and coronations. Two games that differ only in hidden
// facts must look exactly alike to the seats that may not know them.

#include <algorithm>
#include <initializer_list>
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

int lines_containing(const std::vector<std::string>& lines, std::string_view text) {
  return static_cast<int>(std::count_if(lines.begin(), lines.end(),
                                        [&](const std::string& l) { return has(l, text); }));
}

// One side's entry for an area in a role's view.
json area_side(const Fixture& f, Role role, std::string_view area_id, std::string_view side) {
  return f.view(role).at("areas").at(area(area_id)).at(side);
}

// ---------------------------------------------------------------------------------------------
// Pillage (RULES 7.3.5)

// Pillage of Angus: York Knights(4) and Durham Infantry(`durham`); Douglas(2) in Fife. With
// Durham at 3 England chooses the second hit; at 2 both hits go to York Knights by force.
Fixture angus_pillage(int durham) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife", 2)
      .place("eng_york_knights", "angus", 4)
      .place("eng_durham_infantry", "angus", durham);
  scotland_event(f, "pillage");
  f.act(kScotland, pillage_of("angus"));
  return f;
}

// J-11 Pillage hits hidden (RULES 7.3.5, 13.3): no English block was eliminated; Scotland's view
// and log name no English block and no English strength, and show 2 hits inflicted.
TEST(EventView, PillageNamesNoEnglishBlockToThePillagerJ11) {
  Fixture f = angus_pillage(3);
  ASSERT_EQ(f.state().phase, Phase::Event);
  f.act(kEngland, hit_on("eng_durham_infantry"));
  ASSERT_EQ(blk(f, "eng_durham_infantry").strength, 2);
  ASSERT_EQ(blk(f, "eng_york_knights").strength, 3);
  f.act(kScotland, gain_to("sco_douglas")).act(kScotland, gain_to("sco_douglas"));

  for (Role role : {kScotland, kObserver}) {
    const std::string dump = f.view(role).dump();
    EXPECT_FALSE(has(dump, "eng_")) << name_of(role);
    EXPECT_FALSE(has(dump, "York Knights")) << name_of(role);
    EXPECT_FALSE(has(dump, "Durham Infantry")) << name_of(role);
    const json angus = area_side(f, role, "angus", "england");
    EXPECT_EQ(angus, (json{{"count", 2}, {"moved", 0}, {"reserves", json::array()}}))
        << name_of(role) << ": a count, no block and no strength";
    const auto lines = log_lines(f, role);
    EXPECT_TRUE(logged(f, role, {"Scotland", "pillages", "Angus"})) << name_of(role);
    EXPECT_TRUE(logged(f, role, {"Angus", "2 hits"})) << name_of(role);
    EXPECT_EQ(lines_containing(lines, "loses a step"), 0) << name_of(role);
    EXPECT_EQ(lines_containing(lines, "left)"), 0) << name_of(role);
  }
  // England reads its own losses.
  EXPECT_TRUE(logged(f, kEngland, {"York Knights", "(3 left)"}));
  EXPECT_TRUE(logged(f, kEngland, {"Durham Infantry", "(2 left)"}));
}

// RULES 13.1.4, 14 #5: "pillage losses" waits for England and looks the same to Scotland and
// observers whether England had a choice (Durham at 3) or not (Durham at 2).
TEST(EventView, PillageLossesLookTheSameWithOrWithoutAChoice) {
  Fixture choice = angus_pillage(3);
  Fixture forced = angus_pillage(2);
  ASSERT_EQ(legal_actions(choice.state(), kEngland).size(), 2U);
  ASSERT_EQ(legal_actions(forced.state(), kEngland), std::vector<Action>{done()});
  for (const Fixture* f : {&choice, &forced}) {
    EXPECT_EQ(f->view(kScotland)["phase_text"], "England: pillage losses");
    EXPECT_EQ(f->view(kObserver)["awaiting"], json::array({"england"}));
  }
  expect_same_views(choice, forced, {kScotland, kObserver}, "while England takes its losses");

  choice.act(kEngland, hit_on("eng_york_knights"));
  forced.act(kEngland, done());
  expect_same_views(choice, forced, {kScotland, kObserver}, "when Scotland places its gains");

  for (Fixture* f : {&choice, &forced}) {
    f->act(kScotland, gain_to("sco_douglas")).act(kScotland, gain_to("sco_douglas"));
    ASSERT_EQ(f->state().phase, Phase::Move);
  }
  expect_same_views(choice, forced, {kScotland, kObserver}, "after the Pillage");
}

// RULES 7.3.5: the area receiving the pillaged steps is public; which blocks gained and how
// many steps are not. The gains end with the last step placed, k of them or fewer when no
// recipient is left (table 14 #6).
TEST(EventView, PillageGainsShowTheAreaOnly) {
  Fixture one = blank_map();
  Fixture two = blank_map();
  // Douglas can take 2 steps in `two` but only 1 in `one`.
  one.place("sco_douglas", "fife", 3).place("eng_york_knights", "angus", 4);
  two.place("sco_douglas", "fife", 2).place("eng_york_knights", "angus", 4);
  for (Fixture* f : {&one, &two}) {
    scotland_event(*f, "pillage");
    f->act(kScotland, pillage_of("angus")).act(kEngland, done());
  }
  one.act(kScotland, gain_to("sco_douglas"));
  two.act(kScotland, gain_to("sco_douglas")).act(kScotland, gain_to("sco_douglas"));
  for (Fixture* f : {&one, &two}) ASSERT_EQ(f->state().phase, Phase::Move);
  expect_same_views(one, two, {kEngland, kObserver}, "after the Pillage");
  for (Role role : {kEngland, kObserver}) {
    EXPECT_TRUE(logged(one, role, {"Scotland", "plunder", "Fife"})) << name_of(role);
    EXPECT_EQ(lines_containing(log_lines(one, role), "gains a step"), 0) << name_of(role);
    EXPECT_FALSE(has(one.view(role).dump(), "Douglas")) << name_of(role);
  }
  EXPECT_TRUE(logged(two, kScotland, {"Douglas", "gains a step", "4"}));
}

// RULES 7.3.5: a non-noble block removed by the pillage is announced as an anonymous block.
TEST(EventView, PillagedBlockRemovedAnonymously) {
  Fixture f = blank_map();
  f.place("sco_douglas", "fife", 2).place("eng_hobelars", "angus", 1);
  scotland_event(f, "pillage");
  f.act(kScotland, pillage_of("angus"));
  ASSERT_EQ(blk(f, "eng_hobelars").loc, kPool);
  for (Role role : {kScotland, kObserver}) {
    const std::string dump = f.view(role).dump();
    EXPECT_FALSE(has(dump, "Hobelars")) << name_of(role);
    EXPECT_FALSE(has(dump, "eng_hobelars")) << name_of(role);
    EXPECT_EQ(lines_containing(log_lines(f, role), "block in Angus is eliminated"), 1)
        << name_of(role);
    EXPECT_EQ(f.view(role)["pools"]["england"]["count"],
              f.view(kEngland)["pools"]["england"]["count"]);
  }
  EXPECT_TRUE(logged(f, kEngland, {"Hobelars", "eliminated"}));
}

// J-14 (RULES 7.3.5, 13.4.1): a noble captured by Pillage is named, with its area and new side.
TEST(EventView, PillageCaptureIsPublicJ14) {
  Fixture f = blank_map();
  f.place("eng_buchan", "buchan", 2).place("sco_grant", "strathspey", 1);
  scotland_event(f, "pillage");
  f.act(kScotland, pillage_of("buchan"));
  for (Role role : {kScotland, kEngland, kObserver}) {
    EXPECT_TRUE(logged(f, role, {"Buchan changes sides in Buchan", "Scotland"})) << name_of(role);
    EXPECT_EQ(f.view(role)["nobles"]["roster"]["buchan"], "scotland") << name_of(role);
    EXPECT_EQ(area_side(f, role, "buchan", "scotland")["count"], 1) << name_of(role);
    EXPECT_EQ(area_side(f, role, "buchan", "england")["count"], 0) << name_of(role);
  }
}

// ---------------------------------------------------------------------------------------------
// Victuals (RULES 7.6.3)

// RULES 7.6.3, J-09: England learns the area only: 1 step or 3 steps look alike while Scotland
// is still adding and after it is done.
TEST(EventView, VictualsShowTheAreaNeverTheSteps) {
  Fixture one = blank_map();
  Fixture three = blank_map();
  for (Fixture* f : {&one, &three}) {
    f->place("sco_douglas", "fife", 1).place("sco_barclay", "fife", 1);
    scotland_event(*f, "victuals");
  }
  one.act(kScotland, victual_to("sco_douglas"));
  three.act(kScotland, victual_to("sco_douglas"))
      .act(kScotland, victual_to("sco_douglas"))
      .act(kScotland, victual_to("sco_barclay"));
  ASSERT_EQ(blk(three, "sco_douglas").strength + blk(three, "sco_barclay").strength, 5);
  expect_same_views(one, three, {kEngland, kObserver}, "while Scotland adds steps");
  EXPECT_EQ(one.view(kEngland)["phase_text"], "Scotland: event");

  one.act(kScotland, done());
  three.act(kScotland, done());
  expect_same_views(one, three, {kEngland, kObserver}, "after Victuals");
  for (Role role : {kEngland, kObserver}) {
    const auto lines = log_lines(three, role);
    EXPECT_EQ(lines_containing(lines, "Victuals in Fife"), 1) << name_of(role);
    EXPECT_EQ(lines_containing(lines, "gains a step"), 0) << name_of(role);
    const std::string dump = three.view(role).dump();
    EXPECT_FALSE(has(dump, "Douglas")) << name_of(role);
    EXPECT_FALSE(has(dump, "Barclay")) << name_of(role);
  }
}

// ---------------------------------------------------------------------------------------------
// Sea Move (RULES 7.4.5, 13.5.4)

// RULES 7.4.5: origin, destination and number are public, which blocks are not: Douglas and
// Barclay sailing look exactly like Grant and Douglas sailing.
TEST(EventView, SeaMoveShowsOriginDestinationAndNumberOnly) {
  Fixture a = blank_map();
  Fixture b = blank_map();
  for (Fixture* f : {&a, &b}) {
    f->place("sco_douglas", "fife", 2)
        .place("sco_barclay", "fife", 4)
        .place("sco_grant", "fife", 3)
        .place("sco_fraser", "moray");
    scotland_event(*f, "sea_move");
  }
  a.act(kScotland, sea("sco_douglas", "moray"));
  b.act(kScotland, sea("sco_grant", "moray"));
  expect_same_views(a, b, {kEngland, kObserver}, "after the first block sailed");
  a.act(kScotland, sea("sco_barclay", "moray"));
  b.act(kScotland, sea("sco_douglas", "moray"));
  ASSERT_EQ(a.state().phase, Phase::Move);
  expect_same_views(a, b, {kEngland, kObserver}, "after the Sea Move");

  for (Role role : {kEngland, kObserver}) {
    EXPECT_EQ(lines_containing(log_lines(a, role), "block sails from Fife to Moray."), 2)
        << name_of(role);
    EXPECT_EQ(area_side(a, role, "fife", "scotland")["count"], 1) << name_of(role);
    EXPECT_EQ(area_side(a, role, "moray", "scotland")["count"], 3) << name_of(role);
    EXPECT_EQ(area_side(a, role, "moray", "scotland")["moved"], 2) << name_of(role);
    const std::string dump = a.view(role).dump();
    for (auto name : {"Douglas", "Barclay", "Grant", "Fraser"}) {
      EXPECT_FALSE(has(dump, name)) << name_of(role) << " sees " << name;
    }
  }
  EXPECT_TRUE(logged(a, kScotland, {"Douglas sails from Fife to Moray"}));
}

// ---------------------------------------------------------------------------------------------
// Herald (RULES 7.2.4)

// RULES 7.2.4: a failed roll is public and names no noble; no noble was asked for before it.
TEST(EventView, FailedHeraldRollNamesNoNoble) {
  Fixture f;  // Braveheart set-up: English nobles all over the map
  scotland_event(f, "herald");
  for (const auto& a : legal_actions(f.state(), kScotland)) {
    EXPECT_NE(a.kind, ActionKind::Herald) << "no noble is named before the roll";
  }
  std::size_t seen[3] = {0, 0, 0};
  for (Role role : {kScotland, kEngland, kObserver}) {
    seen[static_cast<int>(role)] = log_lines(f, role).size();
  }
  const json roster = f.view(kObserver)["nobles"];
  f.dice({6});
  f.act(kScotland, roll());
  for (Role role : {kScotland, kEngland, kObserver}) {
    EXPECT_TRUE(logged(f, role, {"Herald rolls 6", "no effect"})) << name_of(role);
    const auto lines = log_lines(f, role);
    for (std::size_t i = seen[static_cast<int>(role)]; i < lines.size(); ++i) {
      for (const auto& noble : game_data().nobles) {
        EXPECT_FALSE(has(lines[i], noble.name)) << name_of(role) << ": " << lines[i];
        EXPECT_FALSE(has(lines[i], noble.key)) << name_of(role) << ": " << lines[i];
      }
    }
    EXPECT_EQ(f.view(role)["nobles"]["roster"], roster["roster"]) << name_of(role);
  }
}

// RULES 13.1.4: naming the noble is part of Scotland's generic event step for the others.
TEST(EventView, HeraldNamingLooksLikeTheEventStep) {
  Fixture f;
  scotland_event(f, "herald");
  f.dice({2});
  f.act(kScotland, roll());
  ASSERT_EQ(f.state().event.stage, EventStage::HeraldName);
  for (Role role : {kEngland, kObserver}) {
    EXPECT_EQ(f.view(role)["phase_text"], "Scotland: event") << name_of(role);
    EXPECT_EQ(f.view(role)["legal_actions"], json::array()) << name_of(role);
  }
}

// J-14 (RULES 7.2.4, 13.4.1, 13.4.2): a successful Herald shows the roll, the noble and its area.
TEST(EventView, HeraldConversionIsPublicJ14) {
  Fixture f = blank_map();
  f.place("eng_buchan", "buchan", 2);
  scotland_event(f, "herald");
  f.dice({4});
  f.act(kScotland, roll()).act(kScotland, herald_of("buchan"));
  for (Role role : {kScotland, kEngland, kObserver}) {
    EXPECT_TRUE(logged(f, role, {"Herald rolls 4", "success"})) << name_of(role);
    EXPECT_TRUE(logged(f, role, {"Buchan in Buchan is won over", "Scotland"})) << name_of(role);
    EXPECT_EQ(f.view(role)["nobles"]["roster"]["buchan"], "scotland") << name_of(role);
  }
}

// ---------------------------------------------------------------------------------------------
// Coronation (RULES 8.3.3, 13.4.4)

// J-14 (RULES 8.3.3): the coronation, the candidate, the King's area and the defecting nobles
// with their areas are public.
TEST(EventView, CoronationAndDefectionsArePublicJ14) {
  Fixture f;
  f.kill("sco_wallace")
      .place("sco_bruce", "fife")
      .place("sco_galloway", "galloway", 2)
      .place("sco_ross", "ross", 3);
  scotland_event(f, "pillage");
  const int fife_before = area_side(f, kEngland, "fife", "scotland")["count"];
  f.act(kScotland, simple(ActionKind::CrownBruce));
  for (Role role : {kScotland, kEngland, kObserver}) {
    EXPECT_TRUE(logged(f, role, {"Bruce is crowned", "Fife"})) << name_of(role);
    EXPECT_TRUE(logged(f, role, {"Galloway in Galloway defects", "England"})) << name_of(role);
    EXPECT_TRUE(logged(f, role, {"Ross in Ross defects", "England"})) << name_of(role);
    const json v = f.view(role);
    EXPECT_EQ(v["king_crowned"], true) << name_of(role);
    EXPECT_EQ(v["nobles"]["roster"]["galloway"], "england") << name_of(role);
    EXPECT_EQ(v["nobles"]["roster"]["ross"], "england") << name_of(role);
    EXPECT_EQ(v["nobles"]["roster"]["bruce"], "scotland") << name_of(role);
    const auto& not_in_play = v["not_in_play"];
    EXPECT_EQ(std::find(not_in_play.begin(), not_in_play.end(), "sco_king"), not_in_play.end())
        << name_of(role);
    EXPECT_EQ(area_side(f, role, "fife", "scotland")["count"], fife_before + 1) << name_of(role);
  }
}

// RULES 13.1.4, 14 #2: whether Scotland could crown a King (Bruce in Fife, a hidden fact) does
// not show: England and observers see the same event step, and the same after a decline.
TEST(EventView, PossibleCoronationIsInvisibleToOthers) {
  Fixture can = blank_map();
  Fixture cannot = blank_map();
  can.place("sco_bruce", "fife").place("sco_douglas", "fife").place("sco_barclay", "annan");
  cannot.place("sco_barclay", "fife").place("sco_douglas", "fife").place("sco_bruce", "annan");
  for (Fixture* f : {&can, &cannot}) {
    f->kill("sco_wallace");
    scotland_event(*f, "victuals");
  }
  ASSERT_TRUE(can.offered(kScotland, simple(ActionKind::CrownBruce)));
  ASSERT_FALSE(cannot.offered(kScotland, simple(ActionKind::CrownBruce)));
  expect_same_views(can, cannot, {kEngland, kObserver}, "at Scotland's event step");
  EXPECT_EQ(can.view(kEngland)["phase_text"], "Scotland: event");
  for (Fixture* f : {&can, &cannot}) f->act(kScotland, simple(ActionKind::Decline));
  expect_same_views(can, cannot, {kEngland, kObserver}, "after Scotland declined");
}

}  // namespace
}  // namespace blockfog::hots::testing
