// ACCEPTANCE group A, cases: scenario set-ups (RULES 2.1, 12.3), as the engine
// builds them and as each role's view shows them (RULES 13.2, 13.3).

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rules/hots/engine.h"
#include "rules/hots/view.h"
#include "tests/rules/fixture.h"
#include "tests/rules/helpers.h"

namespace blockfog::hots::testing {
namespace {

using nlohmann::json;

State setup_scenario(std::string_view scenario, std::uint8_t seed_byte,
                     std::vector<core::ScriptedOutcome> script = {}) {
  const auto index = scenario_index(scenario);
  if (!index) throw std::invalid_argument("no scenario " + std::string(scenario));
  return setup(filled_seed(seed_byte), *index, Options{}, std::move(script));
}

// Ids of `side`'s blocks at `loc` (an area, kPool, kNotInPlay or kDead).
std::set<std::string> blocks_at(const State& s, Side side, std::uint8_t loc) {
  std::set<std::string> ids;
  for (BlockId b = 0; b < kBlockCount; ++b) {
    if (s.blocks.loc[b] == loc && owner_of(b) == side) ids.insert(game_data().blocks[b].id);
  }
  return ids;
}

std::set<std::string> blocks_on_map(const State& s, Side side) {
  std::set<std::string> ids;
  for (BlockId b = 0; b < kBlockCount; ++b) {
    if (on_map(s, b) && owner_of(b) == side) ids.insert(game_data().blocks[b].id);
  }
  return ids;
}

int hand_size(const State& s, Side side) {
  const auto cards = s.cards.all();
  return static_cast<int>(std::count_if(cards.begin(), cards.end(), [&](const CardState& c) {
    return c.place == CardPlace::Hand && c.holder == index_of(side);
  }));
}

bool at_full_strength(const State& s, BlockId b) {
  return s.blocks.strength[b] == game_data().blocks[b].max_strength;
}

const json& area_view(const json& view, std::string_view id) {
  for (const auto& a : view.at("areas")) {
    if (a.at("id") == id) return a;
  }
  throw std::invalid_argument("no area in view: " + std::string(id));
}

core::ScriptedOutcome pick(int item) { return {core::ScriptedOutcome::Kind::Pick, item}; }

// A-03 (RULES 2.1): the fixed part of the Braveheart set-up, for several seeds.
TEST(BraveheartSetup, PlacesEveryFixedBlockWhereTheScenarioSays) {
  for (std::uint8_t seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE(seed);
    const State s = setup_scenario("braveheart", seed);
    const auto& data = game_data();

    // English nobles stand in a home area of their own; Comyn in Badenoch.
    int english_nobles = 0;
    for (BlockId b = 0; b < kBlockCount; ++b) {
      const auto& info = data.blocks[b];
      if (info.owner != Side::England || info.type != BlockType::Noble || !on_map(s, b)) continue;
      ++english_nobles;
      EXPECT_NE(std::find(info.homes.begin(), info.homes.end(), s.blocks.loc[b]), info.homes.end())
          << info.id << " is not at home";
      EXPECT_TRUE(at_full_strength(s, b)) << info.id;
    }
    EXPECT_EQ(english_nobles, 11);
    EXPECT_EQ(s.blocks.loc[block("eng_comyn")], area("badenoch"));
    EXPECT_EQ(s.blocks.loc[block("eng_bruce")], kNotInPlay);
    EXPECT_EQ(s.blocks.loc[block("eng_galloway")], kNotInPlay);
    EXPECT_EQ(s.blocks.loc[block("eng_cumbria_infantry")], area("lothian"));
    EXPECT_EQ(s.blocks.strength[block("eng_cumbria_infantry")], 3);
    EXPECT_EQ(s.blocks.loc[block("eng_northumber_infantry")], area("mentieth"));
    EXPECT_EQ(s.blocks.strength[block("eng_northumber_infantry")], 4);

    const std::vector<std::pair<std::string_view, std::string_view>> scots = {
        {"sco_bruce", "annan"},  {"sco_galloway", "galloway"}, {"sco_wallace", "fife"},
        {"sco_douglas", "fife"}, {"sco_barclay", "fife"},      {"sco_moray", "moray"},
        {"sco_fraser", "moray"}, {"sco_grant", "strathspey"}};
    for (const auto& [id, where] : scots) {
      EXPECT_EQ(s.blocks.loc[block(id)], area(where)) << id;
      EXPECT_TRUE(at_full_strength(s, block(id))) << id;
    }
    EXPECT_EQ(blocks_on_map(s, Side::Scotland).size(), scots.size());
    EXPECT_EQ(blocks_at(s, Side::Scotland, kPool),
              (std::set<std::string>{"sco_campbell", "sco_graham", "sco_macdonald", "sco_lindsay",
                                     "sco_keith", "sco_etterick", "sco_norse"}));
    EXPECT_EQ(s.blocks.loc[block("sco_king")], kNotInPlay);
    EXPECT_EQ(s.blocks.loc[block("sco_french_knights")], kNotInPlay);

    EXPECT_EQ(s.year, 1297);
    EXPECT_EQ(s.turn, 1);
    EXPECT_FALSE(s.edward_ii);
    EXPECT_FALSE(s.king_crowned);
    EXPECT_EQ(hand_size(s, Side::Scotland), 5);
    EXPECT_EQ(hand_size(s, Side::England), 5);
    EXPECT_EQ(nobles_controlled(s, Side::England), 11);
    EXPECT_EQ(nobles_controlled(s, Side::Scotland), 3);
  }
}

// A-03 (RULES 2.1.2.3): the initial levy puts 4 random pool blocks into England at full
// strength and leaves 9 in the pool.
TEST(BraveheartSetup, LeviesFourFullStrengthBlocksIntoEngland) {
  std::set<std::set<std::string>> levies;
  for (std::uint8_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    const State s = setup_scenario("braveheart", seed);
    const auto in_england = blocks_at(s, Side::England, game_data().england);
    EXPECT_EQ(in_england.size(), 4u);
    for (const auto& id : in_england) EXPECT_TRUE(at_full_strength(s, block(id))) << id;
    EXPECT_TRUE(blocks_at(s, Side::Scotland, game_data().england).empty());
    EXPECT_EQ(blocks_at(s, Side::England, kPool).size(), 9u);
    levies.insert(in_england);
  }
  EXPECT_GT(levies.size(), 1u) << "every seed levied the same four blocks";
}

// A-03 (RULES 2.1.2.3, 1.9): a scripted levy ("Draw: ...") places exactly the drawn blocks.
TEST(BraveheartSetup, ScriptedLevyPlacesTheDrawnBlocks) {
  const State s =
      setup_scenario("braveheart", 3,
                     {pick(block("eng_edward")), pick(block("eng_hobelars")),
                      pick(block("eng_york_knights")), pick(block("eng_wales_archers"))});
  EXPECT_EQ(blocks_at(s, Side::England, game_data().england),
            (std::set<std::string>{"eng_edward", "eng_hobelars", "eng_york_knights",
                                   "eng_wales_archers"}));
  EXPECT_EQ(s.blocks.strength[block("eng_edward")], 4);
  EXPECT_EQ(s.blocks.strength[block("eng_hobelars")], 3);
}

// RULES 2.2.1, 1.9: the deal is random too, and a scripted deal gives the scripted hands
// (Scotland is dealt first).
TEST(BraveheartSetup, ScriptedDealGivesEachPlayerTheScriptedHand) {
  std::vector<core::ScriptedOutcome> script = {
      pick(block("eng_edward")), pick(block("eng_hobelars")), pick(block("eng_york_knights")),
      pick(block("eng_wales_archers"))};
  const std::vector<std::string_view> scotland = {"move3_1", "move2_1", "herald", "move1_1",
                                                  "truce"};
  const std::vector<std::string_view> england = {"move3_2", "move2_2", "pillage", "move1_2",
                                                 "move2_10"};
  for (auto id : scotland) script.push_back(pick(card(id)));
  for (auto id : england) script.push_back(pick(card(id)));
  const State s = setup_scenario("braveheart", 3, script);
  EXPECT_FALSE(s.rng.has_script());
  for (auto id : scotland) {
    EXPECT_EQ(s.cards.place[card(id)], CardPlace::Hand) << id;
    EXPECT_EQ(s.cards.holder[card(id)], index_of(Side::Scotland)) << id;
  }
  for (auto id : england) {
    EXPECT_EQ(s.cards.place[card(id)], CardPlace::Hand) << id;
    EXPECT_EQ(s.cards.holder[card(id)], index_of(Side::England)) << id;
  }
  auto sorted = [](std::vector<std::string_view> ids) {
    std::set<std::string> out(ids.begin(), ids.end());
    return json(out);
  };
  auto hand_of = [](const json& view) {
    std::set<std::string> out;
    for (const auto& c : view["cards"]["hand"]) out.insert(c.get<std::string>());
    return json(out);
  };
  EXPECT_EQ(hand_of(view(s, Role::Scotland)), sorted(scotland));
  EXPECT_EQ(hand_of(view(s, Role::England)), sorted(england));
}

// A-03 (RULES 2.1, 13.2, 13.3): what each role is shown of the opening position.
TEST(BraveheartSetup, ViewsShowTheOpeningPositionWithMorayHiddenFromOthers) {
  const State s = setup_scenario("braveheart", 4);
  for (Role role : {Role::Scotland, Role::England, Role::Observer}) {
    SCOPED_TRACE(core::role_name(role));
    auto v = view(s, role);
    EXPECT_EQ(v["scenario"], "braveheart");
    EXPECT_EQ(v["year"], 1297);
    EXPECT_EQ(v["turn"], 1);
    EXPECT_EQ(v["edward"], "Edward I");
    EXPECT_EQ(v["king_crowned"], false);
    EXPECT_EQ(v["phase"], "card_choice");
    EXPECT_EQ(v["cards"]["hand_sizes"], (json{{"scotland", 5}, {"england", 5}}));
    EXPECT_EQ(v["nobles"]["england"]["total"], 11);
    EXPECT_EQ(v["nobles"]["scotland"]["two_block"], 2);
    // RULES 13.2: the roster of the 13 two-block nobles is public.
    const auto& roster = v["nobles"]["roster"];
    EXPECT_EQ(roster.size(), 13u);
    EXPECT_EQ(roster["bruce"], "scotland");
    EXPECT_EQ(roster["galloway"], "scotland");
    EXPECT_EQ(std::count(roster.begin(), roster.end(), "england"), 11);
    EXPECT_EQ(v["pools"]["england"]["count"], 9);
    EXPECT_EQ(v["pools"]["scotland"]["count"], 7);
    EXPECT_EQ(area_view(v, "england")["england"]["count"], 4);
    const auto not_in_play = v["not_in_play"].get<std::set<std::string>>();
    EXPECT_TRUE(not_in_play.contains("sco_king"));
    EXPECT_TRUE(not_in_play.contains("sco_french_knights"));
    if (role == Role::Scotland) {
      EXPECT_EQ(v["nobles"]["scotland"]["total"], 3);
      EXPECT_EQ(v["nobles"]["scotland"]["moray"], "on_map");
    } else {
      // RULES 13.2: "2 two-block nobles (+ Moray?)" for England and observers.
      EXPECT_FALSE(v["nobles"]["scotland"].contains("total"));
      EXPECT_NE(v["nobles"]["scotland"]["moray"], "on_map");
      EXPECT_EQ(v.dump().find("sco_moray"), std::string::npos);
    }
    // RULES 13.3: the levied blocks are England's secret.
    const auto& england_area = area_view(v, "england")["england"];
    if (role == Role::England) {
      EXPECT_EQ(england_area["blocks"].size(), 4u);
    } else {
      EXPECT_FALSE(england_area.contains("blocks"));
      for (const auto& id : blocks_at(s, Side::England, game_data().england)) {
        EXPECT_EQ(v.dump().find('"' + id + '"'), std::string::npos) << id;
      }
    }
  }
}

// A-04 (RULES 2.1): The Bruce.
TEST(TheBruceSetup, StartsIn1306WithTheKingInFifeAndWallaceAndMorayDead) {
  for (std::uint8_t seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE(seed);
    const State s = setup_scenario("the_bruce", seed);
    const auto in_england = blocks_at(s, Side::England, game_data().england);
    EXPECT_EQ(in_england.size(), 6u);
    for (const auto& id : in_england) EXPECT_TRUE(at_full_strength(s, block(id))) << id;
    EXPECT_EQ(blocks_at(s, Side::England, kPool).size(), 5u);
    EXPECT_EQ(s.blocks.loc[block("sco_wallace")], kDead);
    EXPECT_EQ(s.blocks.loc[block("sco_moray")], kDead);
    EXPECT_EQ(s.blocks.loc[block("sco_king")], area("fife"));
    EXPECT_EQ(s.blocks.strength[block("sco_king")], 4);
    EXPECT_EQ(nobles_controlled(s, Side::England), 8);
    EXPECT_EQ(nobles_controlled(s, Side::Scotland), 5);
    EXPECT_EQ(s.year, 1306);
    EXPECT_FALSE(s.edward_ii);
    EXPECT_TRUE(s.king_crowned);
    EXPECT_EQ(hand_size(s, Side::Scotland), 5);
    EXPECT_EQ(hand_size(s, Side::England), 5);
  }
}

// A-04 (RULES 2.1, 13.2): dead blocks and, with Moray dead, the exact Scottish total are public.
TEST(TheBruceSetup, EveryRoleSeesTheDeadAndTheNobleTotals) {
  const State s = setup_scenario("bruce", 2);  // "bruce" is accepted for "the_bruce"
  for (Role role : {Role::Scotland, Role::England, Role::Observer}) {
    SCOPED_TRACE(core::role_name(role));
    auto v = view(s, role);
    EXPECT_EQ(v["scenario"], "the_bruce");
    EXPECT_EQ(v["year"], 1306);
    EXPECT_EQ(v["edward"], "Edward I");
    EXPECT_EQ(v["king_crowned"], true);
    EXPECT_EQ(v["dead"].get<std::set<std::string>>(),
              (std::set<std::string>{"sco_wallace", "sco_moray"}));
    EXPECT_EQ(v["nobles"]["england"]["total"], 8);
    EXPECT_EQ(v["nobles"]["scotland"]["moray"], "dead");
    EXPECT_EQ(v["nobles"]["scotland"]["total"], 5);
    EXPECT_EQ(v["pools"]["england"]["count"], 5);
    EXPECT_EQ(area_view(v, "england")["england"]["count"], 6);
  }
}

// A-05 (RULES 12.3.1): the Campaign starts exactly as Braveheart does with the same seed.
TEST(CampaignSetup, IsTheBraveheartSetupWithTheSameSeed) {
  for (std::uint8_t seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE(seed);
    const State campaign = setup_scenario("campaign", seed);
    const State braveheart = setup_scenario("braveheart", seed);
    EXPECT_EQ(campaign.blocks, braveheart.blocks);
    EXPECT_EQ(campaign.cards, braveheart.cards);
    EXPECT_EQ(campaign.year, 1297);
    EXPECT_EQ(campaign.turn, 1);
    EXPECT_FALSE(campaign.edward_ii);
    EXPECT_FALSE(campaign.king_crowned);
    EXPECT_EQ(view(campaign, Role::Observer)["scenario"], "campaign");
  }
}

// A-05 (RULES 12.1, 12.3): only the scenario's end differs: scheduled last year 1314, extended
// only on a tie up to the 1400 backstop, and no Wallace tie-break before that.
TEST(CampaignSetup, EndsIn1314UnlessTiedWithA1400Backstop) {
  const auto& scenarios = game_data().scenarios;
  const auto& campaign = scenarios.at(static_cast<std::size_t>(*scenario_index("campaign")));
  const auto& braveheart = scenarios.at(static_cast<std::size_t>(*scenario_index("braveheart")));
  const auto& bruce = scenarios.at(static_cast<std::size_t>(*scenario_index("the_bruce")));
  EXPECT_EQ(campaign.start_year, 1297);
  EXPECT_EQ(campaign.end_year, 1314);
  EXPECT_EQ(campaign.backstop_end_year, 1400);
  EXPECT_FALSE(campaign.tie_break_by_wallace);
  EXPECT_EQ(braveheart.start_year, 1297);
  EXPECT_EQ(braveheart.end_year, 1305);
  EXPECT_EQ(braveheart.backstop_end_year, 1305);
  EXPECT_TRUE(braveheart.tie_break_by_wallace);
  EXPECT_EQ(bruce.start_year, 1306);
  EXPECT_EQ(bruce.end_year, 1314);
  EXPECT_EQ(campaign.initial_levy, braveheart.initial_levy);
}

}  // namespace
}  // namespace blockfog::hots::testing
