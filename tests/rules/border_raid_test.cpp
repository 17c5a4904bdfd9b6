// ACCEPTANCE group G, border raids (RULES 9), and J-10: the raid victim is hidden from
// Scotland (9.4, 13.3, 13.6).

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

// A game turn in which nobody moves: England P1 (2 MP), Scotland P2 (1 MP); spare cards keep
// the year going.
void quiet_turn(Fixture& f) {
  f.hands({"move1_1", "move1_2"}, {"move2_1", "move2_2"}).play_cards("move1_1", "move2_1");
  end_moves(f, kEngland);
  end_moves(f, kScotland);
}

Action raid_on(std::string_view id) { return with_block(ActionKind::RaidVictim, block(id)); }

std::set<std::string> raid_choices(const Fixture& f) {
  std::set<std::string> ids;
  for (const auto& a : legal_actions(f.state(), kEngland)) {
    EXPECT_EQ(a.kind, ActionKind::RaidVictim);
    ids.insert(game_data().blocks[a.a].id);
  }
  return ids;
}

int english_count(const json& v, std::string_view area_id) {
  for (const auto& a : v.at("areas")) {
    if (a.at("id") == area_id) return a.at("england").at("count").get<int>();
  }
  return -1;
}

// J-10 (RULES 9.4): Scotland's and the observer's views and logs name no raided block, show
// one English block fewer in `from` and one raid line for that area; England's own log names it.
void expect_victim_hidden(const Fixture& f, std::string_view victim, std::string_view from,
                          int count_before) {
  const auto& info = game_data().blocks[block(victim)];
  const auto& area_name = game_data().areas[area(from)].name;
  for (Role role : {kScotland, Role::Observer}) {
    const json v = f.view(role);
    EXPECT_EQ(v.dump().find(info.id), std::string::npos) << "view names " << info.id;
    const auto lines = log_lines(v);
    for (const auto& line : lines) {
      EXPECT_EQ(line.find(info.name), std::string::npos) << "log names the victim: " << line;
    }
    EXPECT_EQ(count_lines(lines, {"raid", area_name}), 1) << core::role_name(role);
    EXPECT_EQ(english_count(v, from), count_before - 1);
  }
  EXPECT_EQ(count_lines(log_lines(f.view(kEngland)), {"raid", info.name, area_name}), 1)
      << "England's own line";
}

// G-01 Raid (RULES 9.1, 9.4) and J-10.
TEST(BorderRaid, EnglandGivesUpANonNobleWhenScotsAloneHoldEnglandG01J10) {
  Fixture f = blank_map();
  f.place("sco_keith", "england")
      .place("eng_york_infantry", "lothian")
      .place("eng_hobelars", "mentieth")
      .place("eng_mar", "mar");
  quiet_turn(f);
  ASSERT_EQ(f.state().phase, Phase::BorderRaid);
  EXPECT_EQ(active_roles(f.state()), std::vector<Role>{kEngland});
  EXPECT_TRUE(legal_actions(f.state(), kScotland).empty());
  EXPECT_EQ(raid_choices(f), (std::set<std::string>{"eng_york_infantry", "eng_hobelars"}))
      << "nobles are never raided";
  f.refuse(kEngland, raid_on("eng_mar"));
  const json scotland_before = f.view(kScotland);
  EXPECT_EQ(scotland_before.at("phase_text"), "England: border raid");
  EXPECT_EQ(scotland_before.at("legal_actions"), json::array());
  const int before = english_count(scotland_before, "lothian");

  f.act(kEngland, raid_on("eng_york_infantry"));
  EXPECT_EQ(blk(f, "eng_york_infantry").loc, kPool);
  EXPECT_EQ(f.state().phase, Phase::CardChoice) << "the turn ends after the raid";
  EXPECT_EQ(f.state().turn, 2);
  expect_victim_hidden(f, "eng_york_infantry", "lothian", before);
}

// G-02 Only nobles (RULES 9.2): no raid decision, the turn ends.
TEST(BorderRaid, NoRaidWhenEnglandHasOnlyNoblesOnTheMapG02) {
  Fixture f = blank_map();
  f.place("sco_keith", "england");
  quiet_turn(f);
  EXPECT_EQ(f.state().phase, Phase::CardChoice);
  EXPECT_EQ(f.state().turn, 2);
  for (const auto& line : log_lines(f.view(Role::Observer))) {
    EXPECT_EQ(line.find("raid"), std::string::npos) << line;
  }
}

// G-03 Raid under Truce (RULES 9.3).
TEST(BorderRaid, RaidHappensUnderTruceG03) {
  Fixture f = blank_map();
  f.place("sco_keith", "england").place("eng_york_infantry", "lothian");
  f.hands({"move1_1", "move1_2"}, {"truce", "move2_2"}).play_cards("move1_1", "truce");
  ASSERT_EQ(f.state().phase, Phase::Event);
  f.act(kEngland, simple(ActionKind::Truce));
  ASSERT_EQ(f.state().truce_against, index_of(kScotland));
  end_moves(f, kScotland);
  ASSERT_EQ(f.state().phase, Phase::BorderRaid);
  EXPECT_EQ(raid_choices(f), std::set<std::string>{"eng_york_infantry"});
  const int before = english_count(f.view(kScotland), "lothian");
  f.act(kEngland, raid_on("eng_york_infantry"));
  EXPECT_EQ(blk(f, "eng_york_infantry").loc, kPool);
  expect_victim_hidden(f, "eng_york_infantry", "lothian", before);
}

// G-04 Raid victim with black cross (RULES 9.1, 5.8.3): to the pool, not dead.
TEST(BorderRaid, BlackCrossVictimGoesToThePoolG04) {
  Fixture f = blank_map();
  f.place("sco_keith", "england").place("eng_hobelars", "lothian");
  quiet_turn(f);
  ASSERT_EQ(f.state().phase, Phase::BorderRaid);
  f.act(kEngland, raid_on("eng_hobelars"));
  EXPECT_EQ(blk(f, "eng_hobelars").loc, kPool);
  for (Role role : {kScotland, kEngland, Role::Observer}) {
    EXPECT_EQ(f.view(role).at("dead"), json::array());
  }
  expect_victim_hidden(f, "eng_hobelars", "lothian", 1);
}

// G-04 (RULES 9.1, 6.1.2): Edward I raided stays Edward I.
TEST(BorderRaid, EdwardIRaidedStaysEdwardIG04) {
  Fixture f = blank_map();
  f.place("sco_keith", "england").place("eng_edward", "lothian");
  quiet_turn(f);
  ASSERT_EQ(f.state().phase, Phase::BorderRaid);
  f.act(kEngland, raid_on("eng_edward"));
  EXPECT_EQ(blk(f, "eng_edward").loc, kPool);
  EXPECT_FALSE(f.state().edward_ii);
  EXPECT_FALSE(outcome(f.state()).finished);
  for (Role role : {kScotland, kEngland, Role::Observer}) {
    EXPECT_EQ(f.view(role).at("edward"), "Edward I");
  }
  const auto lines = log_lines(f.view(kScotland));
  EXPECT_EQ(count_lines(lines, {"Edward II"}), 0);
  // The name "Edward" is public ("Edward I"); the anonymous line is what Scotland sees.
  EXPECT_EQ(count_lines(lines, {"raid", "Lothian"}), 1);
  EXPECT_EQ(f.view(kScotland).dump().find("eng_edward"), std::string::npos);
}

// G-05 Raid in the same turn (RULES 9.1): Keith enters vacant England as P2.
TEST(BorderRaid, RaidFollowsAnEntryInTheSameTurnG05) {
  Fixture f = blank_map();
  f.place("sco_keith", "dunbar").place("eng_york_infantry", "lothian");
  f.hands({"move1_1", "move1_2"}, {"move2_1", "move2_2"}).play_cards("move1_1", "move2_1");
  end_moves(f, kEngland);
  ASSERT_EQ(f.state().phase, Phase::Move);
  ASSERT_EQ(f.state().active, index_of(kScotland));
  f.act(kScotland, move(block("sco_keith"), area("england")));
  EXPECT_EQ(blk(f, "sco_keith").loc, area("england"));
  end_moves(f, kScotland);
  ASSERT_EQ(f.state().phase, Phase::BorderRaid);
  EXPECT_EQ(f.state().turn, 1);
  EXPECT_EQ(raid_choices(f), std::set<std::string>{"eng_york_infantry"});
  f.act(kEngland, raid_on("eng_york_infantry"));
  EXPECT_EQ(blk(f, "eng_york_infantry").loc, kPool);
  EXPECT_EQ(f.state().turn, 2);
}

}  // namespace
}  // namespace blockfog::hots::testing
