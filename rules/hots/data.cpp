#include "rules/hots/data.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

namespace blockfog::hots {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& what) { throw GameDataError("game-data.json: " + what); }

template <class T>
std::optional<std::uint8_t> position_of(const std::vector<T>& items, std::string_view id) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].id == id) return static_cast<std::uint8_t>(i);
  }
  return std::nullopt;
}

Side parse_side(const std::string& owner) {
  if (owner == "Scotland") return Side::Scotland;
  if (owner == "England") return Side::England;
  fail("unknown owner '" + owner + "'");
}

BlockType parse_block_type(const std::string& type) {
  static const std::map<std::string, BlockType, std::less<>> kTypes = {
      {"wallace", BlockType::Wallace},
      {"king", BlockType::King},
      {"infantry", BlockType::Infantry},
      {"cavalry", BlockType::Cavalry},
      {"archers", BlockType::Archers},
      {"norse", BlockType::Norse},
      {"french-knights", BlockType::FrenchKnights},
      {"moray", BlockType::Moray},
      {"noble", BlockType::Noble},
      {"edward", BlockType::Edward},
      {"knights", BlockType::Knights},
      {"hobelars", BlockType::Hobelars},
  };
  auto it = kTypes.find(type);
  if (it == kTypes.end()) fail("unknown block type '" + type + "'");
  return it->second;
}

EventKind parse_event(const std::string& id) {
  if (id == "herald") return EventKind::Herald;
  if (id == "pillage") return EventKind::Pillage;
  if (id == "sea_move") return EventKind::SeaMove;
  if (id == "truce") return EventKind::Truce;
  if (id == "victuals") return EventKind::Victuals;
  fail("unknown event card '" + id + "'");
}

Faction parse_faction(const json& value) {
  if (value.is_null()) return Faction::None;
  const auto name = value.get<std::string>();
  if (name == "bruce") return Faction::Bruce;
  if (name == "comyn") return Faction::Comyn;
  fail("unknown faction '" + name + "'");
}

void parse_areas(const json& doc, GameData& data) {
  for (const auto& a : doc.at("areas")) {
    AreaInfo area;
    area.id = a.at("id").get<std::string>();
    area.name = a.at("name").get<std::string>();
    area.is_england = a.at("is_england").get<bool>();
    area.castle_limit = a.at("castle_limit").get<int>();
    area.scottish_castle_limit = a.at("scottish_castle_limit").get<int>();
    area.cathedral = a.at("cathedral").get<bool>();
    area.coastal = a.at("coastal").get<bool>();
    area.map_xy = {a.at("map_xy").at(0).get<int>(), a.at("map_xy").at(1).get<int>()};
    data.areas.push_back(std::move(area));
  }
  if (data.areas.size() != kAreaCount) fail("expected 23 areas (RULES 1.1.1)");
  auto england = position_of(data.areas, "england");
  if (!england || !data.areas[*england].is_england) fail("no area 'england'");
  data.england = *england;
}

AreaId area_ref(const GameData& data, const std::string& id) {
  auto area = data.area_by_id(id);
  if (!area) fail("unknown area '" + id + "'");
  return *area;
}

BlockId block_ref(const GameData& data, const std::string& id) {
  auto block = data.block_by_id(id);
  if (!block) fail("unknown block '" + id + "'");
  return *block;
}

void parse_borders(const json& doc, GameData& data) {
  for (auto& row : data.border_between) row.fill(kNone);
  int black = 0;
  for (const auto& b : doc.at("borders")) {
    BorderInfo border;
    border.id = b.at("id").get<std::string>();
    border.areas = {area_ref(data, b.at("areas").at(0).get<std::string>()),
                    area_ref(data, b.at("areas").at(1).get<std::string>())};
    const auto type = b.at("type").get<std::string>();
    if (type != "black" && type != "red") fail("border " + border.id + ": bad type");
    border.type = type == "red" ? BorderType::Red : BorderType::Black;
    black += border.type == BorderType::Black;
    border.limit = b.at("limit").get<int>();
    border.must_stop = b.at("must_stop").get<bool>();
    border.anglo_scottish = b.at("anglo_scottish").get<bool>();
    const auto [x, y] = border.areas;
    if (x == y) fail("border " + border.id + " joins an area to itself");
    if (data.border_between[x][y] != kNone) fail("border " + border.id + " is listed twice");
    const auto id = static_cast<BorderId>(data.borders.size());
    data.border_between[x][y] = id;
    data.border_between[y][x] = id;
    data.areas[x].neighbors.push_back({y, id});
    data.areas[y].neighbors.push_back({x, id});
    data.borders.push_back(std::move(border));
  }
  if (data.borders.size() != kBorderCount || black != 21) {
    fail("expected 49 borders, 21 black and 28 red (RULES 1.2.1)");
  }
  // Every area's neighbour list must name exactly the areas its borders join (symmetry).
  const auto& areas = doc.at("areas");
  for (std::size_t i = 0; i < areas.size(); ++i) {
    std::vector<AreaId> listed;
    for (const auto& n : areas[i].at("neighbors")) listed.push_back(area_ref(data, n));
    std::vector<AreaId> joined;
    for (const auto& n : data.areas[i].neighbors) joined.push_back(n.area);
    std::sort(listed.begin(), listed.end());
    std::sort(joined.begin(), joined.end());
    if (listed != joined) {
      fail("area " + data.areas[i].id + ": neighbours do not match its borders");
    }
    if (joined.size() > kMaxNeighbors) fail("area " + data.areas[i].id + ": too many borders");
  }
}

void parse_blocks(const json& doc, GameData& data) {
  int per_side[2] = {0, 0};
  for (const auto& b : doc.at("blocks")) {
    BlockInfo block;
    block.id = b.at("id").get<std::string>();
    block.name = b.at("name").get<std::string>();
    block.owner = parse_side(b.at("owner").get<std::string>());
    block.type = parse_block_type(b.at("type").get<std::string>());
    block.movement = b.at("movement").is_null() ? 0 : b.at("movement").get<int>();
    block.initiative = b.at("initiative").get<std::string>().at(0);
    block.fire = b.at("fire").get<int>();
    block.max_strength = b.at("max_strength").get<int>();
    block.black_cross = b.at("black_cross").get<bool>();
    block.celtic = b.at("celtic").get<bool>();
    if (block.initiative < 'A' || block.initiative > 'C') fail(block.id + ": bad initiative");
    if (block.max_strength < 1 || block.max_strength > 4) fail(block.id + ": bad strength");
    block.faction = parse_faction(b.value("faction", json()));
    ++per_side[core::side_index(block.owner)];
    data.blocks.push_back(std::move(block));
  }
  if (data.blocks.size() != kBlockCount || per_side[0] != 28 || per_side[1] != 28) {
    fail("expected 56 blocks, 28 per side (RULES 1.3.1)");
  }
  for (int b = 0; b < kBlockCount; ++b) {
    if ((data.blocks[b].owner == Side::England) != (b >= kBlocksPerSide)) {
      fail("blocks must list Scotland's 28 blocks, then England's");
    }
  }
  // Homes and twins need every block id first.
  const auto& blocks = doc.at("blocks");
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    auto& block = data.blocks[i];
    for (const auto& home : blocks[i].value("home_areas", json::array())) {
      block.homes.push_back(area_ref(data, home.get<std::string>()));
    }
    const auto twin = blocks[i].value("twin", json());
    if (!twin.is_null()) block.twin = block_ref(data, twin.get<std::string>());
  }
  auto find = [&](BlockType type) {
    auto it = std::find_if(data.blocks.begin(), data.blocks.end(),
                           [type](const BlockInfo& b) { return b.type == type; });
    if (it == data.blocks.end()) fail("a unique block is missing");
    return static_cast<BlockId>(it - data.blocks.begin());
  };
  data.moray = find(BlockType::Moray);
  data.norse = find(BlockType::Norse);
  data.wallace = find(BlockType::Wallace);
  data.king = find(BlockType::King);
  data.edward = find(BlockType::Edward);
  data.french_knights = find(BlockType::FrenchKnights);
}

void index_nobles(GameData& data) {
  for (std::size_t i = 0; i < data.blocks.size(); ++i) {
    auto& block = data.blocks[i];
    if (block.type != BlockType::Noble || block.owner != Side::Scotland) continue;
    if (block.twin == kNone || data.blocks[block.twin].twin != i) {
      fail(block.id + ": twin blocks must name each other (RULES 1.4.1)");
    }
    NobleInfo noble;
    noble.key = block.id.substr(4);
    noble.name = block.name;
    noble.blocks = {static_cast<BlockId>(i), block.twin};
    noble.faction = block.faction;
    const int index = static_cast<int>(data.nobles.size());
    block.noble = index;
    data.blocks[block.twin].noble = index;
    data.nobles.push_back(std::move(noble));
  }
  if (data.nobles.size() != kNobleCount) fail("expected 13 two-block nobles (RULES 1.4.1)");
}

void parse_cards(const json& doc, GameData& data) {
  int by_value[4] = {0, 0, 0, 0};
  for (const auto& c : doc.at("cards").at("deck")) {
    CardInfo card;
    card.id = c.at("id").get<std::string>();
    const auto kind = c.at("kind").get<std::string>();
    if (kind == "move") {
      card.kind = CardKind::Move;
      card.value = c.at("value").get<int>();
      if (card.value < 1 || card.value > 3) fail(card.id + ": bad move value");
      ++by_value[card.value];
      card.name = std::to_string(card.value);
    } else if (kind == "event") {
      card.kind = CardKind::Event;
      card.event = parse_event(card.id);
      card.name = c.at("name").get<std::string>();
      ++by_value[0];
    } else {
      fail(card.id + ": unknown card kind");
    }
    data.cards.push_back(std::move(card));
  }
  if (data.cards.size() != kCardCount || by_value[3] != 3 || by_value[2] != 10 ||
      by_value[1] != 7 || by_value[0] != 5) {
    fail("expected 25 cards: three 3s, ten 2s, seven 1s, 5 events (RULES 1.7)");
  }
}

SideSetup parse_side_setup(const json& side, const GameData& data) {
  SideSetup setup;
  for (const auto& p : side.at("on_map")) {
    if (p.value("strength", std::string("full")) != "full") fail("only full-strength set-up");
    setup.on_map.push_back({block_ref(data, p.at("block").get<std::string>()),
                            area_ref(data, p.at("area").get<std::string>())});
  }
  for (const auto& b : side.value("draw_pool", json::array())) {
    setup.draw_pool.push_back(block_ref(data, b.get<std::string>()));
  }
  for (const char* key : {"off_map_not_yet_in_play", "twin_nobles_not_in_play"}) {
    for (const auto& b : side.value(key, json::array())) {
      setup.not_in_play.push_back(block_ref(data, b.get<std::string>()));
    }
  }
  for (const auto& b : side.value("permanently_eliminated", json::array())) {
    setup.dead.push_back(block_ref(data, b.get<std::string>()));
  }
  return setup;
}

void check_scenario_covers_all_blocks(const ScenarioInfo& scenario, const GameData& data) {
  std::vector<int> seen(kBlockCount, 0);
  for (const auto& side : scenario.sides) {
    for (const auto& p : side.on_map) ++seen[p.block];
    for (auto b : side.draw_pool) ++seen[b];
    for (auto b : side.not_in_play) ++seen[b];
    for (auto b : side.dead) ++seen[b];
  }
  for (int b = 0; b < kBlockCount; ++b) {
    if (seen[b] != 1) {
      fail("scenario " + scenario.id + " places block " + data.blocks[b].id + " " +
           std::to_string(seen[b]) + " times (every block exactly once, RULES 1.5)");
    }
  }
}

void parse_scenarios(const json& doc, GameData& data) {
  for (const auto& s : doc.at("scenarios")) {
    ScenarioInfo scenario;
    scenario.id = s.at("id").get<std::string>();
    scenario.name = s.at("name").get<std::string>();
    scenario.start_year = s.at("start_year").get<int>();
    scenario.end_year = s.at("end_year").get<int>();
    scenario.backstop_end_year = s.value("engine_backstop_end_year", scenario.end_year);
    scenario.king_crowned = s.at("scottish_king_crowned_at_start").get<bool>();
    // The Wallace tie-break is printed for Braveheart only; the Campaign extends instead.
    scenario.tie_break_by_wallace =
        s.at("tie_possible").get<bool>() && !s.contains("engine_backstop_end_year");
    scenario.initial_levy = s.at("england").at("initial_levy").at("count").get<int>();
    scenario.sides[core::side_index(Side::Scotland)] = parse_side_setup(s.at("scotland"), data);
    scenario.sides[core::side_index(Side::England)] = parse_side_setup(s.at("england"), data);
    check_scenario_covers_all_blocks(scenario, data);
    data.scenarios.push_back(std::move(scenario));
  }
  if (data.scenarios.empty()) fail("no scenarios");
}

}  // namespace

std::optional<AreaId> GameData::area_by_id(std::string_view id) const {
  return position_of(areas, id);
}
std::optional<BorderId> GameData::border_by_id(std::string_view id) const {
  return position_of(borders, id);
}
std::optional<BlockId> GameData::block_by_id(std::string_view id) const {
  return position_of(blocks, id);
}
std::optional<CardId> GameData::card_by_id(std::string_view id) const {
  return position_of(cards, id);
}
std::optional<int> GameData::scenario_by_id(std::string_view id) const {
  auto index = position_of(scenarios, id);
  if (!index) return std::nullopt;
  return static_cast<int>(*index);
}

GameData GameData::parse(std::string_view json_text) {
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::exception& e) {
    fail(std::string("not valid JSON: ") + e.what());
  }
  GameData data;
  try {
    parse_areas(doc, data);
    parse_borders(doc, data);
    parse_blocks(doc, data);
    index_nobles(data);
    parse_cards(doc, data);
    parse_scenarios(doc, data);
  } catch (const json::exception& e) {
    fail(std::string("missing or mistyped field: ") + e.what());
  }
  return data;
}

const GameData& load_embedded_game_data() {
  static const GameData data = GameData::parse(embedded_game_data_json());
  return data;
}

}  // namespace blockfog::hots
