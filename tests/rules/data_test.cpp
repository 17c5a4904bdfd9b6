// ACCEPTANCE group A, cases A-01 and A-02 (RULES 1.1-1.7), and the loader's refusal of
// malformed game data.

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rules/core/json_writer.h"
#include "rules/hots/data.h"
#include "tests/rules/fixture.h"

namespace blockfog::hots::testing {
namespace {

using nlohmann::json;

// The neighbours of an area, by id, with the colour of the border to each.
std::map<std::string, BorderType> neighbours_of(std::string_view area_id) {
  const auto& data = game_data();
  std::map<std::string, BorderType> out;
  for (const auto& n : data.areas[area(area_id)].neighbors) {
    out[data.areas[n.area].id] = data.borders[n.border].type;
  }
  return out;
}

json embedded_doc() { return json::parse(embedded_game_data_json()); }

// Parses `doc` expecting a refusal; returns the message (empty if it was accepted).
std::string parse_error(const std::string& text) {
  try {
    GameData::parse(text);
  } catch (const GameDataError& e) {
    return e.what();
  }
  return "";
}

// A game-data document's entry for an area, to edit in place; throws when there is none.
json& area_entry_to_edit(json& doc, std::string_view id) {
  for (auto& a : doc["areas"]) {
    if (a["id"] == id) return a;
  }
  throw std::invalid_argument("no area " + std::string(id));
}

// A-01 (RULES 1.1-1.7): the published component counts.
TEST(GameData, ComponentCountsMatchThePublishedGame) {
  const auto& data = game_data();
  EXPECT_EQ(data.areas.size(), 23u);

  ASSERT_EQ(data.borders.size(), 49u);
  const auto black = std::count_if(data.borders.begin(), data.borders.end(),
                                   [](const BorderInfo& b) { return b.type == BorderType::Black; });
  EXPECT_EQ(black, 21);
  EXPECT_EQ(data.borders.size() - static_cast<std::size_t>(black), 28u);

  ASSERT_EQ(data.blocks.size(), 56u);
  const auto scottish = std::count_if(data.blocks.begin(), data.blocks.end(),
                                      [](const auto& b) { return b.owner == Side::Scotland; });
  EXPECT_EQ(scottish, 28);
  EXPECT_EQ(data.blocks.size() - static_cast<std::size_t>(scottish), 28u);

  ASSERT_EQ(data.cards.size(), 25u);
  std::map<int, int> by_value;
  std::set<EventKind> events;
  for (const auto& c : data.cards) {
    if (c.kind == CardKind::Move) {
      ++by_value[c.value];
    } else {
      events.insert(c.event);
    }
  }
  EXPECT_EQ(by_value[3], 3);
  EXPECT_EQ(by_value[2], 10);
  EXPECT_EQ(by_value[1], 7);
  EXPECT_EQ(events, (std::set<EventKind>{EventKind::Herald, EventKind::Pillage, EventKind::SeaMove,
                                         EventKind::Truce, EventKind::Victuals}));
}

// A-01 (RULES 1.2.1): adjacency is symmetric and no area is its own neighbour, both in the
// loaded tables and in the neighbour lists printed in game-data.json.
// Views write the ids as they are, without looking for characters to escape
// (core::JsonWriter::plain_string): every id must be a plain word.
TEST(GameData, EveryIdNeedsNoEscapingInJson) {
  const auto& data = game_data();
  std::vector<std::string_view> ids;
  for (const auto& a : data.areas) ids.push_back(a.id);
  for (const auto& b : data.borders) ids.push_back(b.id);
  for (const auto& b : data.blocks) ids.push_back(b.id);
  for (const auto& c : data.cards) ids.push_back(c.id);
  for (const auto& n : data.nobles) ids.push_back(n.key);
  for (const auto& s : data.scenarios) ids.push_back(s.id);
  ASSERT_GT(ids.size(), 100U);
  for (const auto id : ids) {
    EXPECT_FALSE(id.empty());
    EXPECT_TRUE(core::is_plain(id)) << id;
  }
}

TEST(GameData, EveryBorderJoinsTwoAreasThatListEachOther) {
  const auto& data = game_data();
  const auto doc = embedded_doc();
  std::map<std::string, std::set<std::string>> printed;
  for (const auto& a : doc.at("areas")) {
    for (const auto& n : a.at("neighbors")) {
      printed[a.at("id").get<std::string>()].insert(n.get<std::string>());
    }
  }
  for (BorderId b = 0; b < kBorderCount; ++b) {
    const auto& border = data.borders[b];
    const auto& x = data.areas[border.areas[0]];
    const auto& y = data.areas[border.areas[1]];
    SCOPED_TRACE(border.id);
    EXPECT_NE(border.areas[0], border.areas[1]);
    EXPECT_EQ(data.border_between[border.areas[0]][border.areas[1]], b);
    EXPECT_EQ(data.border_between[border.areas[1]][border.areas[0]], b);
    EXPECT_TRUE(printed[x.id].contains(y.id));
    EXPECT_TRUE(printed[y.id].contains(x.id));
  }
  std::size_t listed = 0;
  for (AreaId a = 0; a < kAreaCount; ++a) {
    SCOPED_TRACE(data.areas[a].id);
    EXPECT_FALSE(printed[data.areas[a].id].contains(data.areas[a].id));
    EXPECT_EQ(data.border_between[a][a], kNone);
    EXPECT_EQ(data.areas[a].neighbors.size(), printed[data.areas[a].id].size());
    for (const auto& n : data.areas[a].neighbors) {
      EXPECT_NE(n.area, a);
      EXPECT_EQ(data.border_between[n.area][a], n.border);
    }
    listed += data.areas[a].neighbors.size();
  }
  EXPECT_EQ(listed, 2 * 49u);  // every border seen from both of its sides
}

// A-02 (RULES 1.1, 1.2): Atholl is ringed by red borders.
TEST(GameData, AthollHasEightNeighboursAllAcrossRedBorders) {
  const auto n = neighbours_of("atholl");
  EXPECT_EQ(n.size(), 8u);
  for (const auto& [id, type] : n) EXPECT_EQ(type, BorderType::Red) << id;
}

// A-02 (RULES 1.2): Selkirk's borders.
TEST(GameData, SelkirkTouchesTeviotByBlackAndFourAreasByRed) {
  const std::map<std::string, BorderType> expected = {{"teviot", BorderType::Black},
                                                      {"annan", BorderType::Red},
                                                      {"dunbar", BorderType::Red},
                                                      {"lanark", BorderType::Red},
                                                      {"lothian", BorderType::Red}};
  EXPECT_EQ(neighbours_of("selkirk"), expected);
}

// A-02 (RULES 1.2.3): England touches exactly three areas; those borders form the
// Anglo-Scottish border.
TEST(GameData, EnglandTouchesOnlyAnnanDunbarAndTeviot) {
  const std::map<std::string, BorderType> expected = {
      {"annan", BorderType::Black}, {"dunbar", BorderType::Black}, {"teviot", BorderType::Red}};
  EXPECT_EQ(neighbours_of("england"), expected);
  const auto& data = game_data();
  int anglo_scottish = 0;
  for (const auto& b : data.borders) {
    const bool touches_england = b.areas[0] == data.england || b.areas[1] == data.england;
    EXPECT_EQ(b.anglo_scottish, touches_england) << b.id;
    anglo_scottish += b.anglo_scottish;
  }
  EXPECT_EQ(anglo_scottish, 3);
}

// A-02 (RULES 1.1.2, 1.1.3): castle limits, with Fife's cathedral counting for Scotland only.
TEST(GameData, CastleLimitsIncludeCathedralsForScotlandOnly) {
  const auto& areas = game_data().areas;
  EXPECT_EQ(areas[area("fife")].castle_limit, 2);
  EXPECT_EQ(areas[area("fife")].scottish_castle_limit, 3);
  EXPECT_TRUE(areas[area("fife")].cathedral);
  EXPECT_EQ(areas[area("mentieth")].castle_limit, 3);
  EXPECT_EQ(areas[area("garmoran")].castle_limit, 0);
  EXPECT_EQ(areas[area("selkirk")].castle_limit, 0);
  EXPECT_EQ(areas[area("selkirk")].scottish_castle_limit, 0);
}

// The embedded data is what the engine uses: parsing it again gives the same tables.
TEST(GameDataParse, AcceptsTheEmbeddedGameData) {
  const auto data = GameData::parse(embedded_game_data_json());
  EXPECT_EQ(data.areas.size(), 23u);
  EXPECT_EQ(data.borders.size(), 49u);
  EXPECT_EQ(data.scenarios.size(), 3u);
}

TEST(GameDataParse, RejectsTextThatIsNotJson) {
  const std::string text(embedded_game_data_json().substr(0, 500));
  EXPECT_NE(parse_error(text).find("not valid JSON"), std::string::npos) << parse_error(text);
  EXPECT_NE(parse_error("").find("not valid JSON"), std::string::npos);
}

TEST(GameDataParse, RejectsAMissingBorderBecauseTheCountIsOff) {
  auto doc = embedded_doc();
  auto& borders = doc["borders"];
  // Remove mentieth-lothian (black) and drop it from both neighbour lists, so that only the
  // count is wrong.
  const auto it = std::find_if(borders.begin(), borders.end(),
                               [](const json& b) { return b["id"] == "mentieth-lothian"; });
  ASSERT_NE(it, borders.end());
  borders.erase(it);
  for (const auto& [x, y] : {std::pair{"mentieth", "lothian"}, std::pair{"lothian", "mentieth"}}) {
    auto& list = area_entry_to_edit(doc, x)["neighbors"];
    list.erase(std::find(list.begin(), list.end(), y));
  }
  const auto message = parse_error(doc.dump());
  EXPECT_NE(message.find("expected 49 borders"), std::string::npos) << message;
}

TEST(GameDataParse, RejectsANeighbourListThatDoesNotMatchTheBorders) {
  {
    auto doc = embedded_doc();
    auto& list = area_entry_to_edit(doc, "england")["neighbors"];
    list.erase(std::find(list.begin(), list.end(), "teviot"));  // Teviot still lists England
    const auto message = parse_error(doc.dump());
    EXPECT_NE(message.find("area england"), std::string::npos) << message;
    EXPECT_NE(message.find("neighbours"), std::string::npos) << message;
  }
  {
    auto doc = embedded_doc();
    area_entry_to_edit(doc, "fife")["neighbors"].push_back("lothian");  // no such border
    const auto message = parse_error(doc.dump());
    EXPECT_NE(message.find("area fife"), std::string::npos) << message;
  }
}

TEST(GameDataParse, RejectsABorderNamingAnUnknownArea) {
  auto doc = embedded_doc();
  doc["borders"][0]["areas"][1] = "narnia";
  const auto message = parse_error(doc.dump());
  EXPECT_NE(message.find("unknown area 'narnia'"), std::string::npos) << message;
}

TEST(GameDataParse, RejectsABorderFromAnAreaToItself) {
  auto doc = embedded_doc();
  doc["borders"][0]["areas"] = {"dunbar", "dunbar"};
  const auto message = parse_error(doc.dump());
  EXPECT_NE(message.find("itself"), std::string::npos) << message;
}

TEST(GameDataParse, RejectsAMissingField) {
  auto doc = embedded_doc();
  doc["areas"][3].erase("castle_limit");
  const auto message = parse_error(doc.dump());
  EXPECT_NE(message.find("game-data.json"), std::string::npos) << message;
  EXPECT_NE(message.find("castle_limit"), std::string::npos) << message;
}

}  // namespace
}  // namespace blockfog::hots::testing
