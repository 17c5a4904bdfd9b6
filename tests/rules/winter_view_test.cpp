// Fog of war in the winter (RULES 13, ACCEPTANCE J-08, J-09, J-14 winter part, J-17, J-18 after
// a winter): draws and levies show only that blocks arrived, step additions and Wallace's
// healing show nothing, homecomings are public, and the opaque winter steps look the same to
// the other side and to observers whether or not a hidden decision existed (13.1.4).
//
// The strongest form used here: two games that differ only in a fact hidden from a role are
// played side by side with the same actions, and that role's whole views are compared.

#include <algorithm>
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

// The log lines of `role` since the last winter began.
std::vector<std::string> winter_log(const Fixture& f, Role role) {
  const auto lines = log_lines(f, role);
  std::size_t start = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("Winter of", 0) == 0) start = i;
  }
  return {lines.begin() + static_cast<std::ptrdiff_t>(start), lines.end()};
}
bool contains(const std::vector<std::string>& lines, std::string_view text) {
  return std::any_of(lines.begin(), lines.end(), [text](const std::string& line) {
    return line.find(text) != std::string::npos;
  });
}

// What the driver does next in a winter: `done` or Wallace's `stay` when offered, else a step,
// else a draw (its
// block scripted: the first eligible pool block not in `avoid`), else the first legal action.
// The draw's script is returned so that a twin game can be given the same one.
struct Choice {
  Role role = kScotland;
  Action action;
  std::string scripted;  // block id to script before the action, or ""
};
Choice next_choice(const Fixture& f, const std::set<std::string>& avoid = {}) {
  const Role role = side_of(f.state().active);
  const auto actions = legal_actions(f.state(), role);
  if (actions.empty()) return {role, done(), ""};
  const auto first_of = [&](ActionKind kind) {
    return std::find_if(actions.begin(), actions.end(),
                        [kind](const Action& a) { return a.kind == kind; });
  };
  if (first_of(ActionKind::Done) != actions.end()) return {role, done(), ""};
  if (first_of(ActionKind::Stay) != actions.end()) return {role, simple(ActionKind::Stay), ""};
  if (const auto it = first_of(ActionKind::AddStep); it != actions.end()) return {role, *it, ""};
  if (const auto it = first_of(ActionKind::Draw); it != actions.end()) {
    const bool coastal = game_data().areas[it->a].coastal;
    for (BlockId b = 0; b < kBlockCount; ++b) {
      const auto& info = game_data().blocks[b];
      if (f.state().blocks.loc[b] != kPool || info.owner != Side::Scotland) continue;
      if (avoid.count(info.id)) continue;
      if (!coastal && (b == game_data().norse || b == game_data().french_knights)) continue;
      return {role, *it, info.id};
    }
    return {role, *it, ""};
  }
  return {role, actions.front(), ""};
}
void apply_choice(Fixture& f, const Choice& c) {
  if (!c.scripted.empty()) f.draws({c.scripted});
  f.act(c.role, c.action);
}
// Plays the driver's choices (next_choice: it builds and draws, unlike play_until's) until the
// winter reaches `until` or ends.
void play_choices_until(Fixture& f, WinterStep until, const std::set<std::string>& avoid = {}) {
  for (int guard = 0; guard < 300; ++guard) {
    if (f.state().phase != Phase::Winter || step_of(f) == until) return;
    apply_choice(f, next_choice(f, avoid));
  }
  FAIL() << "the winter did not progress";
}

// Plays two games side by side with the driver's choices on `a` (applied to both) until `a`'s
// winter reaches `until` or ends, comparing the views of `roles` before and after every action.
void lockstep(Fixture& a, Fixture& b, WinterStep until, std::initializer_list<Role> roles) {
  expect_same_views(a, b, roles, "at the start");
  for (int guard = 0; guard < 300; ++guard) {
    if (a.state().phase != Phase::Winter || step_of(a) == until) return;
    const Choice c = next_choice(a);
    const std::string when = "after " + name_of(c.role) + " " + action_to_json(c.action).dump() +
                             " in winter step " + std::to_string(static_cast<int>(step_of(a)));
    apply_choice(a, c);
    apply_choice(b, c);
    expect_same_views(a, b, roles, when);
    if (::testing::Test::HasFailure()) return;
  }
  FAIL() << "the winter did not progress";
}

// --- J-14 (winter part): homecomings are public (RULES 13.4.1, 13.4.5) ----------------------

// J-14 (RULES 13.4.1, 13.4.5): a winter homecoming and a defection at home show the noble's
// name and home to everybody, and the public roster follows the change.
TEST(WinterView, HomecomingIsPublicJ14) {
  Fixture f = quiet();
  f.clear({"mar", "angus", "buchan"})
      .place("eng_angus", "buchan", 2)
      .place("sco_douglas", "angus")
      .place("sco_mar", "fife");
  to_winter(f);
  for (Role role : {kScotland, kEngland, kObserver}) {
    const auto lines = winter_log(f, role);
    EXPECT_TRUE(contains(lines, "Angus goes home to Angus")) << name_of(role);
    EXPECT_TRUE(contains(lines, "Angus changes sides at home in Angus: now Scotland"))
        << name_of(role);
    EXPECT_TRUE(contains(lines, "Mar goes home to Mar")) << name_of(role);
    const json v = f.view(role);
    EXPECT_EQ(v.at("nobles").at("roster").at("angus"), "scotland") << name_of(role);
    EXPECT_EQ(v.at("nobles").at("roster").at("mar"), "scotland") << name_of(role);
    EXPECT_EQ(area_entry(v, "mar").at("scotland").at("count"), 1) << name_of(role);
  }
  // The Scottish Douglas that caused it stays anonymous to England.
  EXPECT_EQ(f.view(kEngland).dump().find("Douglas"), std::string::npos);
}

// --- J-08: draws and levies (RULES 10.11.4, 10.13.3) ----------------------------------------

// J-08 (RULES 10.11.4, 13.1.3): a Scottish draw into Lanark: England and observers read only
// that a Scottish block appeared there; Scotland reads which block, at strength 1.
TEST(WinterView, ScottishDrawShowsOnlyABlockAppearingJ08) {
  Fixture f = quiet();
  f.clear("lanark").place("sco_steward", "lanark");
  to_winter(f);
  play_choices_until(f, WinterStep::ScotlandBuild);
  const json before = f.view(kEngland);
  f.draws({"sco_graham"});
  f.act(kScotland, with_area(ActionKind::Draw, area("lanark")));
  ASSERT_EQ(blk(f, "sco_graham").loc, area("lanark"));
  for (Role role : {kEngland, kObserver}) {
    const json v = f.view(role);
    const auto lines = winter_log(f, role);
    EXPECT_NE(lines.back().find("block into Lanark"), std::string::npos) << name_of(role);
    EXPECT_EQ(area_entry(v, "lanark").at("scotland"),
              json({{"count", 2}, {"moved", 0}, {"reserves", json::array()}}))
        << name_of(role);
    const std::string text = v.dump();
    EXPECT_EQ(text.find("Graham"), std::string::npos) << name_of(role);
    EXPECT_EQ(text.find("sco_graham"), std::string::npos) << name_of(role);
  }
  const std::string own = winter_log(f, kScotland).back();
  EXPECT_NE(own.find("Graham"), std::string::npos) << own;
  EXPECT_NE(own.find("Lanark"), std::string::npos) << own;
  // England's view changed only by that count, that line and the Scottish pool size.
  json after = f.view(kEngland);
  EXPECT_EQ(after.at("pools").at("scotland").at("count").get<int>(),
            before.at("pools").at("scotland").at("count").get<int>() - 1);
}

// J-08 (RULES 10.13.3): the English levy: Scotland and observers see only how many blocks
// arrived in England, never which.
TEST(WinterView, LevyShowsOnlyTheNumberJ08) {
  Fixture f = quiet();
  to_winter(f);
  play_choices_until(f, WinterStep::EnglandBuild);
  f.act(kEngland, done());
  ASSERT_EQ(f.state().year, 1298);
  const int levied = count_in_area(f.state(), game_data().england, Side::England);
  ASSERT_GT(levied, 0);
  for (Role role : {kScotland, kObserver}) {
    const json v = f.view(role);
    EXPECT_TRUE(contains(winter_log(f, role), "levied " + std::to_string(levied) + " blocks"))
        << name_of(role);
    const json& england = area_entry(v, "england").at("england");
    EXPECT_EQ(england.at("count"), levied) << name_of(role);
    EXPECT_FALSE(england.contains("blocks")) << name_of(role);
    const std::string text = v.dump();
    for (BlockId b = 0; b < kBlockCount; ++b) {
      const auto& info = game_data().blocks[b];
      if (info.owner != Side::England || info.type == BlockType::Noble) continue;
      EXPECT_EQ(text.find(info.id), std::string::npos) << name_of(role) << " sees " << info.id;
      if (info.type != BlockType::Edward && info.type != BlockType::Hobelars) {
        EXPECT_EQ(text.find(info.name), std::string::npos)
            << name_of(role) << " sees " << info.name;
      }
    }
  }
  // England reads its own levy block by block.
  EXPECT_TRUE(contains(winter_log(f, kEngland), "Levied "));
}

// --- J-09: strengths stay hidden (RULES 10.11.4, 10.8.3, 13.6) ------------------------------

// J-09 (RULES 10.11.4, 13.3, 13.6): a Scottish step addition changes nothing at all in
// England's or the observer's view, log included.
TEST(WinterView, StepAdditionsAreInvisibleJ09) {
  Fixture f = quiet();
  f.place("sco_douglas", "fife", 1).place("sco_barclay", "fife", 2).place("sco_keith", "fife", 1);
  to_winter(f);
  play_choices_until(f, WinterStep::ScotlandBuild);
  for (std::string_view id : {"sco_douglas", "sco_douglas", "sco_keith"}) {
    const json england = f.view(kEngland);
    const json observer = f.view(kObserver);
    f.act(kScotland, with_block(ActionKind::AddStep, block(id)));
    EXPECT_EQ(first_difference(england, f.view(kEngland)), "") << id;
    EXPECT_EQ(first_difference(observer, f.view(kObserver)), "") << id;
  }
  EXPECT_TRUE(contains(winter_log(f, kScotland), "Douglas gains a step (3)."));
  f.act(kScotland, done());
  for (Role role : {kEngland, kObserver}) {
    for (const auto& line : winter_log(f, role)) {
      EXPECT_EQ(line.find("step"), std::string::npos) << name_of(role) << ": " << line;
      EXPECT_EQ(line.find("strength"), std::string::npos) << name_of(role) << ": " << line;
    }
  }
}

// J-09 (RULES 10.8, 10.8.3): Wallace's healing in Selkirk: two games differing only in his
// strength (1 or 3 before the winter; 3 or 4 after) look the same to England and observers
// through the whole winter and into the next year.
TEST(WinterView, WallaceHealingIsInvisibleJ09) {
  Fixture a = quiet();
  Fixture b = quiet();
  a.place("sco_wallace", "selkirk", 1);
  b.place("sco_wallace", "selkirk", 3);
  to_winter(a);
  to_winter(b);
  lockstep(a, b, WinterStep::None, {kEngland, kObserver});
  EXPECT_EQ(blk(a, "sco_wallace").strength, 3);
  EXPECT_EQ(blk(b, "sco_wallace").strength, 4);
  EXPECT_TRUE(contains(log_lines(a, kEngland), "Wallace winters in Selkirk"));
  EXPECT_EQ(a.state().year, 1298);
}

// J-09 (RULES 10.8.2, 10.8.3): the same when Wallace goes to Selkirk from elsewhere.
TEST(WinterView, WallaceToSelkirkHidesHisStrengthJ09) {
  Fixture a = quiet();
  Fixture b = quiet();
  a.place("sco_wallace", "lothian", 1);
  b.place("sco_wallace", "lothian", 3);
  to_winter(a);
  to_winter(b);
  lockstep(a, b, WinterStep::ScotlandWallace, {kEngland, kObserver});
  for (Fixture* f : {&a, &b}) f->act(kScotland, simple(ActionKind::ToSelkirk));
  expect_same_views(a, b, {kEngland, kObserver}, "after Wallace went to Selkirk");
  lockstep(a, b, WinterStep::None, {kEngland, kObserver});
  EXPECT_EQ(blk(a, "sco_wallace").loc, area("selkirk"));
}

// J-09 (RULES 7.6.3, 13.3, 13.6): Victuals: one step or three look the same to England and
// observers once Scotland's event is over (only its area is public).
TEST(WinterView, VictualsStepsAreInvisibleJ09) {
  Fixture a = quiet();
  Fixture b = quiet();
  for (Fixture* f : {&a, &b}) {
    f->place("sco_douglas", "fife", 1).place("sco_barclay", "fife", 1);
    f->hands({"victuals"}, {"move1_1"}).play_cards("victuals", "move1_1");
    ASSERT_EQ(f->state().phase, Phase::Event);
  }
  const Action douglas = with_block(ActionKind::Victual, block("sco_douglas"));
  const Action barclay = with_block(ActionKind::Victual, block("sco_barclay"));
  a.act(kScotland, douglas).act(kScotland, done());
  b.act(kScotland, douglas).act(kScotland, douglas).act(kScotland, barclay);
  if (b.state().phase == Phase::Event) b.act(kScotland, done());
  ASSERT_EQ(blk(a, "sco_douglas").strength + blk(a, "sco_barclay").strength, 3);
  ASSERT_EQ(blk(b, "sco_douglas").strength + blk(b, "sco_barclay").strength, 5);
  expect_same_views(a, b, {kEngland, kObserver}, "after Scotland's Victuals");
  EXPECT_TRUE(contains(log_lines(a, kEngland), "Scotland uses Victuals in Fife."));
}

// --- J-17: the opaque winter steps (RULES 13.1.4, 14) ---------------------------------------

// 1298, Edward I did not winter in 1297. `edward_in_fife`: Edward I in Fife and York Infantry in
// the pool; otherwise York Infantry in Fife and Edward in the pool. Both look alike to Scotland.
// `with_automatic` adds blocks that disband without a choice (10.7.1, 10.7.2): Durham Infantry
// in England and Lancaster Knights in Lothian.
Fixture edward_case(bool edward_in_fife, bool with_automatic = false) {
  Fixture f = quiet_in_year(1298);
  f.place(edward_in_fife ? "eng_edward" : "eng_york_infantry", "fife");
  if (with_automatic) {
    f.place("eng_durham_infantry", "england").place("eng_lancaster_knights", "lothian");
  }
  return f;
}

// J-17 (RULES 13.1.4, 10.6, 14): England's winter step, with or without an Edward question:
// England disbands the Fife block in both (answering the question in one, by choice in the
// other). Scotland's and the observer's views are identical at every moment of the winter.
TEST(WinterView, EdwardQuestionIsInvisibleJ17) {
  Fixture a = edward_case(false);
  Fixture b = edward_case(true);
  to_winter(a);
  to_winter(b);
  lockstep(a, b, WinterStep::EnglandDisband, {kScotland, kObserver});
  ASSERT_EQ(step_of(a), WinterStep::EnglandDisband);
  ASSERT_EQ(step_of(b), WinterStep::EnglandDisband);
  EXPECT_TRUE(b.offered(kEngland, simple(ActionKind::Winter)));
  EXPECT_FALSE(a.offered(kEngland, simple(ActionKind::Winter)));
  for (Role role : {kScotland, kObserver}) {
    EXPECT_EQ(a.view(role).at("phase_text"), "England: winter");
    EXPECT_EQ(a.view(role).at("awaiting"), json::array({"england"}));
  }
  a.act(kEngland, disband("eng_york_infantry"));
  b.act(kEngland, disband("eng_edward"));
  expect_same_views(a, b, {kScotland, kObserver}, "after the Fife block disbanded");
  lockstep(a, b, WinterStep::None, {kScotland, kObserver});
  EXPECT_EQ(a.state().year, 1299);
}

// J-17 (RULES 13.1.4, 13.4.5): Edward I wintering differs from a plain `done` only by the
// published announcement, up to the end of England's winter step.
TEST(WinterView, EdwardWinteringDiffersOnlyByItsAnnouncementJ17) {
  Fixture a = edward_case(false);
  Fixture b = edward_case(true);
  to_winter(a);
  to_winter(b);
  lockstep(a, b, WinterStep::EnglandDisband, {kScotland, kObserver});
  a.act(kEngland, done());
  b.act(kEngland, simple(ActionKind::Winter));
  b.act(kEngland, done());
  ASSERT_EQ(step_of(a), WinterStep::ScotlandDisband);
  ASSERT_EQ(step_of(b), WinterStep::ScotlandDisband);
  for (Role role : {kScotland, kObserver}) {
    json va = a.view(role);
    json vb = b.view(role);
    std::vector<std::string> la = log_lines(a, role);
    std::vector<std::string> lb = log_lines(b, role);
    lb.erase(std::remove(lb.begin(), lb.end(), "Edward I winters in Fife."), lb.end());
    EXPECT_EQ(la, lb) << name_of(role);
    for (const char* key : {"log", "log_size"}) {
      va.erase(key);
      vb.erase(key);
    }
    EXPECT_EQ(first_difference(va, vb), "") << name_of(role);
    EXPECT_TRUE(contains(log_lines(b, role), "Edward I winters in Fife.")) << name_of(role);
  }
}

// J-17 (RULES 13.1.4, 10.6, 10.7.1, 10.7.2): blocks that disband without a choice (in England;
// knights away from Fife) must not show, by when or in which order they leave, whether England
// was first asked about Edward: Scotland's and the observer's views must be the same at every
// moment whether the Fife block England disbands is Edward (answering the question) or
// infantry (by choice).
TEST(WinterView, EdwardQuestionDoesNotShiftAutomaticDisbandingJ17) {
  Fixture a = edward_case(false, true);
  Fixture b = edward_case(true, true);
  to_winter(a);
  to_winter(b);
  lockstep(a, b, WinterStep::EnglandDisband, {kScotland, kObserver});
  ASSERT_EQ(step_of(a), WinterStep::EnglandDisband);
  a.act(kEngland, disband("eng_york_infantry"));
  b.act(kEngland, disband("eng_edward"));
  expect_same_views(a, b, {kScotland, kObserver}, "after the Fife block disbanded");
  a.act(kEngland, done());
  b.act(kEngland, done());
  expect_same_views(a, b, {kScotland, kObserver}, "after England's winter step");
}

// J-17 (RULES 13.1.4, 10.3, 10.5, 10.8, 14 #23): Scotland's winter steps look the same to
// England and observers whether or not Moray, the King and Wallace have a decision (all
// answered "stay"): Wallace's own step, asked only in `x`, is the same "Scotland: winter" as
// the disbanding that `y` is asked at once, and leaves no line.
TEST(WinterView, ScottishDecisionsAreInvisibleJ17) {
  Fixture x = quiet_in_year(1302);
  Fixture y = quiet_in_year(1302);
  x.state().king_crowned = true;
  y.state().king_crowned = true;
  x.place("sco_moray", "fife").place("sco_king", "strathspey").place("sco_wallace", "lothian");
  y.place("sco_douglas", "fife")
      .place("sco_campbell", "strathspey")
      .place("sco_barclay", "lothian");
  y.to_pool("sco_king");  // crowned, then disbanded in an earlier winter (6.2.4)
  to_winter(x);
  to_winter(y);
  ASSERT_EQ(step_of(x), WinterStep::ScotlandHomes);
  EXPECT_TRUE(x.offered(kScotland, simple(ActionKind::GoHome)));
  EXPECT_TRUE(x.offered(kScotland, with_area(ActionKind::MoveKing, area("fife"))));
  EXPECT_EQ(legal_actions(y.state(), kScotland), std::vector<Action>{done()});
  lockstep(x, y, WinterStep::ScotlandWallace, {kEngland, kObserver});
  ASSERT_EQ(step_of(x), WinterStep::ScotlandWallace);
  ASSERT_EQ(step_of(y), WinterStep::ScotlandDisband) << "no Wallace question in y";
  EXPECT_EQ(legal_actions(x.state(), kScotland),
            (std::vector<Action>{simple(ActionKind::ToSelkirk), simple(ActionKind::Stay)}));
  EXPECT_FALSE(y.offered(kScotland, simple(ActionKind::ToSelkirk)));
  for (Role role : {kEngland, kObserver}) {
    EXPECT_EQ(x.view(role).at("phase_text"), "Scotland: winter");
  }
  expect_same_views(x, y, {kEngland, kObserver}, "while Wallace's question is asked in x");
  x.act(kScotland, simple(ActionKind::Stay));
  ASSERT_EQ(step_of(x), WinterStep::ScotlandDisband);
  expect_same_views(x, y, {kEngland, kObserver}, "after Wallace stayed");
  x.act(kScotland, done());
  y.act(kScotland, done());
  expect_same_views(x, y, {kEngland, kObserver}, "after Scotland's disbanding step");
}

// --- J-18 after a winter: Moray's whereabouts (RULES 13.2) ----------------------------------

// J-18 (RULES 13.2, 13.3): Braveheart 1299, the same roster with Moray on the map (kept or
// disbanded in winter) or in the pool: after the winter England and observers see the same
// Scottish total and no Moray status; Scotland sees its exact total.
TEST(WinterView, MorayWhereaboutsAfterTheWinterJ18) {
  Fixture kept = quiet_in_year(1299);
  Fixture disbanded = quiet_in_year(1299);
  Fixture pooled = quiet_in_year(1299);
  kept.place("sco_moray", "fife");
  disbanded.place("sco_moray", "fife");
  for (Fixture* f : {&kept, &disbanded, &pooled}) to_winter(*f);
  const std::set<std::string> avoid = {"sco_moray"};  // no draw brings him back here
  play_choices_until(kept, WinterStep::None, avoid);
  play_choices_until(disbanded, WinterStep::ScotlandDisband, avoid);
  disbanded.act(kScotland, disband("sco_moray"));
  play_choices_until(disbanded, WinterStep::None, avoid);
  play_choices_until(pooled, WinterStep::None, avoid);
  ASSERT_EQ(kept.state().year, 1300);
  ASSERT_EQ(blk(kept, "sco_moray").loc, area("fife"));
  ASSERT_EQ(blk(disbanded, "sco_moray").loc, kPool);
  ASSERT_EQ(blk(pooled, "sco_moray").loc, kPool);
  const json reference = kept.view(kEngland).at("nobles");
  for (Fixture* f : {&kept, &disbanded, &pooled}) {
    for (Role role : {kEngland, kObserver}) {
      const json nobles = f->view(role).at("nobles");
      EXPECT_EQ(nobles, reference) << name_of(role);
      EXPECT_EQ(nobles.at("scotland").at("moray"), "unknown") << name_of(role);
      EXPECT_FALSE(nobles.at("scotland").contains("total")) << name_of(role);
    }
  }
  const int two_block = reference.at("scotland").at("two_block");
  EXPECT_EQ(kept.view(kScotland).at("nobles").at("scotland").at("total"), two_block + 1);
  EXPECT_EQ(kept.view(kScotland).at("nobles").at("scotland").at("moray"), "on_map");
  EXPECT_EQ(pooled.view(kScotland).at("nobles").at("scotland").at("total"), two_block);
  EXPECT_EQ(disbanded.view(kScotland).at("nobles").at("scotland").at("moray"), "pool");
}

// J-18 (RULES 13.2): a dead Moray is public, and the total then leaves him out. (Here he is
// made dead by the fixture; his death in battle belongs to the battle tests.)
TEST(WinterView, DeadMorayIsPublicJ18) {
  Fixture f = quiet_in_year(1299);
  f.kill("sco_moray");
  for (Role role : {kScotland, kEngland, kObserver}) {
    const json scotland = f.view(role).at("nobles").at("scotland");
    EXPECT_EQ(scotland.at("moray"), "dead") << name_of(role);
    EXPECT_EQ(scotland.at("total"), scotland.at("two_block")) << name_of(role);
  }
}

// --- Every moment of a busy winter (RULES 13.1.4, 13.6) -------------------------------------

// RULES 13.1.4, 13.6, 14: through a winter full of hidden decisions, each view lists only its
// own role's actions, others see only "<side>: winter" (or a public homecoming), and no view
// names a hidden block of the other side.
TEST(WinterView, BusyWinterLeaksNothing) {
  Fixture f = quiet_in_year(1298);
  f.state().king_crowned = true;
  f.clear("lanark")
      .place("sco_moray", "fife")
      .place("sco_king", "strathspey")
      .place("sco_wallace", "lothian", 2)
      .place("sco_douglas", "fife", 1)
      .place("sco_steward", "lanark", 2)
      .place("eng_edward", "mentieth")
      .place("eng_york_knights", "mentieth")
      .place("eng_york_infantry", "mentieth", 2)
      .place("eng_lancaster_archers", "teviot")
      .place("eng_westmor_infantry", "dunbar", 1)
      .place("eng_durham_infantry", "england");
  to_winter(f);
  const std::set<std::string> generic = {"Scotland: winter", "England: winter",
                                         "Scotland: noble homecoming", "England: noble homecoming"};
  bool edward_asked = false;
  for (int guard = 0; guard < 300 && f.state().phase == Phase::Winter; ++guard) {
    const Role owner = side_of(f.state().active);
    for (Role role : {kScotland, kEngland, kObserver}) {
      const json v = f.view(role);
      const std::string when =
          name_of(role) + " in step " + std::to_string(static_cast<int>(step_of(f)));
      if (role != owner) {
        EXPECT_TRUE(v.at("legal_actions").empty()) << when;
      }
      EXPECT_TRUE(generic.count(v.at("phase_text").get<std::string>())) << when;
      const std::string text = v.dump();
      for (BlockId b = 0; b < kBlockCount; ++b) {
        const auto& info = game_data().blocks[b];
        const auto loc = f.state().blocks.loc[b];
        if (role == info.owner || (loc >= kAreaCount && loc != kPool)) continue;
        EXPECT_EQ(text.find("\"" + info.id + "\""), std::string::npos) << when << ": " << info.id;
        const bool public_name = info.type == BlockType::Noble || info.type == BlockType::Moray ||
                                 info.type == BlockType::Wallace || info.type == BlockType::King ||
                                 info.type == BlockType::Edward;
        if (!public_name) {
          EXPECT_EQ(text.find(info.name), std::string::npos) << when << ": " << info.name;
        }
      }
    }
    // Take every hidden decision there is, to exercise its redaction.
    if (f.offered(kScotland, simple(ActionKind::GoHome))) {
      f.act(kScotland, simple(ActionKind::GoHome));
    } else if (f.offered(kScotland, with_area(ActionKind::MoveKing, area("fife")))) {
      f.act(kScotland, with_area(ActionKind::MoveKing, area("fife")));
    } else if (f.offered(kEngland, simple(ActionKind::Winter))) {
      edward_asked = true;
      f.act(kEngland, simple(ActionKind::Winter));
    } else if (f.offered(kScotland, simple(ActionKind::ToSelkirk))) {
      f.act(kScotland, simple(ActionKind::ToSelkirk));
    } else {
      apply_choice(f, next_choice(f));
    }
  }
  EXPECT_TRUE(edward_asked);
  EXPECT_EQ(f.state().year, 1299);
  EXPECT_EQ(blk(f, "sco_wallace").loc, area("selkirk"));
  EXPECT_EQ(blk(f, "sco_moray").loc, area("moray"));
}

}  // namespace
}  // namespace blockfog::hots::testing
