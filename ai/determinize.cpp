#include "ai/determinize.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "rules/hots/data.h"
#include "rules/hots/engine.h"
#include "rules/hots/module.h"
#include "rules/hots/serialize.h"

namespace blockfog::ai {

namespace {

using hots::game_data;
using nlohmann::json;

constexpr int kDraws = 8;  // draws tried before giving up on a view

json small(int v) { return v == hots::kNone ? json(nullptr) : json(v); }

int side_of(const std::string& name) { return name == "scotland" ? 0 : 1; }
std::string side_name(int side) { return side == 0 ? "scotland" : "england"; }

json block_row(const std::string& loc, int strength, bool moved = false, bool reserve = false,
               json entry = nullptr) {
  return json::array({loc, strength, moved, reserve, entry, false, false});
}

json entry_of(const std::string& name) {
  if (name == "sea") return hots::kEntryBySea;
  if (name == "captured") return hots::kEntryCaptured;
  const auto border = game_data().border_by_id(name);
  return border ? json(*border) : json(nullptr);
}

// Where enemy blocks were last seen revealed (block id -> area id), from the battles of the
// views received, the latest last.
std::map<std::string, std::string> last_seen(const std::vector<json>& history, const json& view) {
  std::map<std::string, std::string> seen;
  auto scan = [&](const json& v) {
    if (!v.contains("battle") || v["battle"].is_null()) return;
    const auto& battle = v["battle"];
    const auto enemy = v["role"] == "scotland" ? "england" : "scotland";
    for (const auto& shown : battle["revealed"][enemy]) seen[shown["block"]] = battle["area"];
  };
  for (const auto& v : history) scan(v);
  scan(view);
  return seen;
}

}  // namespace

bool in_combat_turn(const json& view) {
  if (view.value("phase", "") != "combat") return false;
  const auto battle = view.find("battle");
  return battle != view.end() && battle->is_object() && !battle->contains("victor") &&
         battle->value("hits_to_allocate", 0) == 0;
}

bool can_determinize(const json& view) {
  const auto phase = view.value("phase", "");
  if (phase == "card_choice" || in_combat_turn(view)) return true;
  if (phase != "move") return false;
  // A block of the seat's own in the middle of its move (RULES 4.3.7): the view names it.
  return !view.contains("move") || !view["move"].contains("moving") ||
         view["move"]["moving"].contains("block");
}

json sample_state_json(const json& view, const std::vector<json>& history, Random& random) {
  const auto& data = game_data();
  const int me = side_of(view.at("role"));
  const int enemy = 1 - me;
  const auto my_name = side_name(me);
  const auto enemy_name = side_name(enemy);

  json blocks = json::object();
  for (const auto& b : data.blocks) blocks[b.id] = block_row("not_in_play", 0);

  // Own blocks and the public facts about the enemy's.
  struct AreaNeed {
    std::string area;
    int count = 0;
    int moved = 0;
    std::vector<std::string> reserves;
  };
  std::vector<AreaNeed> needs;
  for (const auto& area : view.at("areas")) {
    const std::string id = area.at("id");
    for (const auto& block : area.at(my_name).at("blocks")) {
      json entry = nullptr;
      blocks[block.at("block").get<std::string>()] =
          block_row(id, block.at("strength"), block.at("moved"), block.at("reserve"), entry);
    }
    // Own reserves' entries: the view lists them per side, in block order among the reserves.
    std::size_t next = 0;
    const auto& mine = area.at(my_name);
    for (const auto& block : mine.at("blocks")) {
      if (block.at("reserve").get<bool>() && next < mine.at("reserves").size()) {
        blocks[block.at("block").get<std::string>()][4] = entry_of(mine["reserves"][next++]);
      }
    }
    const auto& theirs = area.at(enemy_name);
    if (theirs.at("count").get<int>() > 0) {
      needs.push_back({id, theirs.at("count"), theirs.at("moved"),
                       theirs.at("reserves").get<std::vector<std::string>>()});
    }
  }
  for (const auto& b : view.at("pools").at(my_name).at("blocks"))
    blocks[b.get<std::string>()] = block_row("pool", 0);
  std::set<std::string> fixed;  // enemy blocks whose place the view gives
  for (const auto& b : view.at("dead")) {
    blocks[b.get<std::string>()] = block_row("dead", 0);
    fixed.insert(b);
  }
  for (const auto& b : view.at("not_in_play")) {
    blocks[b.get<std::string>()] = block_row("not_in_play", 0);
    fixed.insert(b);
  }

  // Enemy blocks that may stand anywhere hidden, and those that must be on the map.
  std::vector<hots::BlockId> free_blocks;
  std::set<hots::BlockId> must_map;
  const auto& roster = view.at("nobles").at("roster");
  for (hots::BlockId b = 0; b < hots::kBlockCount; ++b) {
    const auto& info = data.blocks[b];
    if (static_cast<int>(hots::owner_of(b)) != enemy || fixed.contains(info.id)) continue;
    if (info.noble >= 0) {
      const auto& noble = data.nobles[info.noble];
      if (roster.value(noble.key, "") != enemy_name) continue;  // out of play
      must_map.insert(b);
    }
    if (info.id == "sco_king" && !view.value("king_crowned", false)) continue;
    if (info.id == "sco_french_knights" && !view.value("french_knights_added", false)) continue;
    free_blocks.push_back(b);
  }
  std::shuffle(free_blocks.begin(), free_blocks.end(), random);
  // Nobles that must be on the map first, then blocks last seen revealed in an area that still
  // holds enemy blocks, then the rest.
  const auto seen = last_seen(history, view);
  std::stable_sort(free_blocks.begin(), free_blocks.end(),
                   [&](auto x, auto y) { return must_map.contains(x) > must_map.contains(y); });

  // Revealed blocks of the current battle stand there at the strength shown.
  std::map<std::string, std::vector<std::pair<hots::BlockId, int>>> placed;
  std::set<hots::BlockId> used;
  if (view.contains("battle") && !view["battle"].is_null()) {
    const auto& battle = view["battle"];
    for (const auto& shown : battle["revealed"][enemy_name]) {
      const auto b = data.block_by_id(shown["block"].get<std::string>());
      if (!b) continue;
      placed[battle["area"]].push_back({*b, shown["strength"]});
      used.insert(*b);
    }
  }
  std::vector<hots::BlockId> remaining;
  for (const auto b : free_blocks) {
    if (!used.contains(b)) remaining.push_back(b);
  }
  // Blocks last seen in an area that still holds enemy blocks go there when room is left.
  for (auto& need : needs) {
    for (auto it = remaining.begin(); it != remaining.end();) {
      const auto where = seen.find(data.blocks[*it].id);
      if (where != seen.end() && where->second == need.area &&
          static_cast<int>(placed[need.area].size()) < need.count) {
        placed[need.area].push_back({*it, -1});
        it = remaining.erase(it);
      } else {
        ++it;
      }
    }
  }
  auto take = [&]() -> std::optional<hots::BlockId> {
    if (remaining.empty()) return std::nullopt;
    const auto b = remaining.front();
    remaining.erase(remaining.begin());
    return b;
  };
  for (auto& need : needs) {
    auto& here = placed[need.area];
    while (static_cast<int>(here.size()) < need.count) {
      const auto b = take();
      if (!b) break;
      here.push_back({*b, -1});
    }
    std::shuffle(here.begin(), here.end(), random);
    int moved = need.moved;
    std::size_t reserve = 0;
    for (const auto& [b, strength] : here) {
      const int max = data.blocks[b].max_strength;
      const int s = strength > 0 ? strength : std::uniform_int_distribution<int>(1, max)(random);
      const bool is_reserve = reserve < need.reserves.size();
      json row = block_row(need.area, s, moved-- > 0, is_reserve,
                           is_reserve ? entry_of(need.reserves[reserve]) : json(nullptr));
      if (is_reserve) ++reserve;
      blocks[data.blocks[b].id] = row;
    }
  }
  const int pool_count = view.at("pools").at(enemy_name).at("count");
  // The pool holds no noble the roster puts on the map: those were placed above, first.
  for (int i = 0; i < pool_count; ++i) {
    const auto b = take();
    if (!b) break;
    blocks[data.blocks[*b].id] = block_row("pool", 0);
  }
  // Enemy blocks left over are out of play.

  // Cards (RULES 3, 13.2): known ones where the seat saw them, the others dealt at random.
  const auto& cards_view = view.at("cards");
  json cards = json::object();
  std::set<std::string> known;
  for (const auto& c : data.cards) cards[c.id] = json::array({"deck", nullptr, 0});
  const json hand = cards_view.value("hand", json::array());
  for (const auto& c : hand) {
    cards[c.get<std::string>()] = json::array({"hand", me, 0});
    known.insert(c);
  }
  if (cards_view.contains("my_choice") && cards_view["my_choice"].is_string()) {
    cards[cards_view["my_choice"].get<std::string>()] = json::array({"chosen", me, 0});
    known.insert(cards_view["my_choice"]);
  }
  for (const auto& played : cards_view.at("played_this_year")) {
    cards[played["card"].get<std::string>()] =
        json::array({"played", side_of(played["side"]), played["turn"]});
    known.insert(played["card"]);
  }
  std::vector<std::string> unknown;
  for (const auto& c : data.cards) {
    if (!known.contains(c.id)) unknown.push_back(c.id);
  }
  std::shuffle(unknown.begin(), unknown.end(), random);
  std::size_t next_card = 0;
  // The public hand size counts a chosen card too.
  int enemy_hand = cards_view.at("hand_sizes").at(enemy_name);
  if (cards_view.at("chosen").value(enemy_name, false) && next_card < unknown.size()) {
    cards[unknown[next_card++]] = json::array({"chosen", enemy, 0});
    --enemy_hand;
  }
  for (int i = 0; i < enemy_hand && next_card < unknown.size(); ++i) {
    cards[unknown[next_card++]] = json::array({"hand", enemy, 0});
  }

  // Public position fields.
  json battles = json::object();
  for (const auto& area : view.at("areas")) {
    if (!area.contains("battle")) continue;
    const auto& marker = area["battle"];
    json origin = nullptr;
    json border = nullptr;
    if (marker.contains("main_origin") && marker["main_origin"].is_string()) {
      origin = small(*data.area_by_id(marker["main_origin"].get<std::string>()));
    }
    if (marker.contains("main_border") && marker["main_border"].is_string()) {
      border = small(*data.border_by_id(marker["main_border"].get<std::string>()));
    }
    battles[area["id"].get<std::string>()] =
        json::array({side_of(marker["attacker"]), origin, border});
  }
  std::vector<std::vector<int>> crossings(2, std::vector<int>(data.borders.size(), 0));
  std::vector<int> border_use(data.borders.size(), hots::kNone);
  const auto& borders = view.at("borders");
  const json my_crossings = borders.value("my_crossings", json::object());
  for (const auto& [border, n] : my_crossings.items()) {
    crossings[me][*data.border_by_id(border)] = n;
  }
  for (const auto& [border, side] : borders.at("use").items()) {
    border_use[*data.border_by_id(border)] = side_of(side);
  }
  const auto awaiting = view.at("awaiting");
  const int p1 = view.at("player1").is_string() ? side_of(view["player1"]) : hots::kNone;
  int active = awaiting.size() == 1 ? side_of(awaiting[0]) : hots::kNone;
  int mp = 0;
  std::uint32_t activated = 0;
  if (view.contains("move")) {
    const auto& move = view["move"];
    active = side_of(move.at("side"));
    mp = move.at("mp");
    for (const auto& a : move.at("activated"))
      activated |= 1U << *data.area_by_id(a.get<std::string>());
  }
  const bool moving_phase = view.at("phase") == "move";
  json moving = json::array({nullptr, nullptr, nullptr, 0, false});
  if (view.contains("move") && view["move"].contains("moving")) {
    // The seat's own block in the middle of its move (RULES 4.3.7). The view shows where it
    // started and stands and its steps; the area it came from (no doubling back, 4.3.2.5) and
    // whether it crossed the Anglo-Scottish border (4.1.3) it does not show after the first
    // step: they are drawn, and the consistency check (the legal steps are part of the view)
    // keeps only a draw that offers exactly the seat's steps.
    const auto& m = view["move"]["moving"];
    const auto block = *data.block_by_id(m.at("block").get<std::string>());
    const auto origin = *data.area_by_id(m.at("origin").get<std::string>());
    const auto at = *data.area_by_id(m.at("at").get<std::string>());
    const int steps = m.at("steps");
    int previous = origin;
    bool crossed = false;
    const auto& neighbors = data.areas[at].neighbors;
    if (steps == 1) {
      for (const auto& n : neighbors) {
        if (n.area == origin) crossed = data.borders[n.border].anglo_scottish;
      }
    } else if (!neighbors.empty()) {
      const auto& n = neighbors[random() % neighbors.size()];
      previous = n.area;
      crossed = data.borders[n.border].anglo_scottish || random() % 2 == 0;
    }
    moving = json::array({block, origin, previous, steps, crossed});
  }
  json battle_row = json::array({nullptr, 0, nullptr, 0, nullptr, 0, nullptr});
  if (in_combat_turn(view)) {
    // A combat turn (RULES 5.4-5.6): the battle's area, round, attacker and initiative step are
    // public (13.3). A block in the battle whose step came before the current one has acted; of
    // the current step's blocks, the seat's own have acted unless a legal action names them.
    const auto& battle = view["battle"];
    static const std::vector<std::string> kSteps = {"defending A", "attacking A", "defending B",
                                                    "attacking B", "defending C", "attacking C"};
    const auto step_it = std::find(kSteps.begin(), kSteps.end(), battle.at("step"));
    const int step = static_cast<int>(step_it - kSteps.begin()) % 6;
    const int attacker = side_of(battle.at("attacker"));
    const std::string area = battle.at("area");
    std::set<std::string> waiting;
    for (const auto& a : view.at("legal_actions")) {
      if (a.contains("block") && a["block"].is_string()) waiting.insert(a["block"]);
    }
    for (const auto& [id, row] : blocks.items()) {
      if (row[0] != area || row[3].get<bool>()) continue;
      const auto b = *data.block_by_id(id);
      const int side = static_cast<int>(hots::owner_of(b));
      const int own_step = 2 * (data.blocks[b].initiative - 'A') + (side == attacker ? 1 : 0);
      row[5] = own_step < step || (own_step == step && side == me && !waiting.contains(id));
    }
    battle_row = json::array(
        {small(*data.area_by_id(area)), battle.at("round"), attacker, step, nullptr, 0, nullptr});
  }
  const json position = {
      {"blocks", blocks},
      {"cards", cards},
      {"battles", battles},
      {"crossings", crossings},
      {"border_use", border_use},
      {"scenario", view.at("scenario")},
      {"schiltroms", view.at("options").at("schiltroms")},
      {"year", view.at("year")},
      {"turn", view.at("turn")},
      {"phase", view.at("phase")},
      {"p1", small(p1)},
      {"player_turn", moving_phase && p1 != hots::kNone && active != p1 ? 1 : 0},
      {"active", small(active)},
      {"edward_ii", view.at("edward") == "Edward II"},
      {"edward_wintered_last", false},
      {"king_crowned", view.at("king_crowned")},
      {"french_knights_added", view.at("french_knights_added")},
      {"truce_against",
       view.at("truce_against").is_string() ? json(side_of(view["truce_against"])) : json(nullptr)},
      {"double_event", false},
      {"mp", mp},
      {"activated", activated},
      {"moving", moving},
      {"battle", battle_row},
      {"winter", json::array({0, nullptr, 0, false, false, false, false, false,
                              std::vector<int>(data.areas.size(), 0)})},
      {"event", json::array({0, nullptr, nullptr, 0, 0, 0})},
      {"defection_areas", 0},
      {"in_defection", false},
      {"end_reason", 0},
      {"winner", nullptr},
  };
  // The dice of the sampled futures: a generator keyed by the sampler, never the game's.
  std::string key;
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 64; ++i) key += kHex[random() & 15];
  return {{"format", 1},
          {"rules_version", view.at("rules_version")},
          {"position", position},
          {"rng",
           {{"key", key},
            {"stream", 0},
            {"block_counter", 0},
            {"word_offset", 0},
            {"script", json::array()},
            {"script_position", 0}}},
          {"log", ""},
          {"undo", json::array()}};
}

namespace {

// The view minus what a sample cannot and need not reproduce: the log (the sample has none),
// the undo offer (the sample has no undo points).
json comparable(json view) {
  view.erase("log");
  view.erase("log_size");
  if (view.contains("legal_actions")) {
    auto& actions = view["legal_actions"];
    actions.erase(std::remove_if(actions.begin(), actions.end(),
                                 [](const json& a) { return a.value("kind", "") == "undo"; }),
                  actions.end());
  }
  return view;
}

}  // namespace

std::optional<hots::State> determinize(const json& view, const std::vector<json>& history,
                                       Random& random) {
  if (!can_determinize(view)) return std::nullopt;
  const auto wanted = comparable(view);
  const auto role = *core::role_from_name(view.at("role").get<std::string>());
  for (int draw = 0; draw < kDraws; ++draw) {
    try {
      const auto j = sample_state_json(view, history, random);
      auto game = hots::module().from_json(j);
      if (!game.game) continue;
      if (comparable(game.game->view(role)) != wanted) continue;
      return hots::state_from_json(j);
    } catch (const std::exception&) {
      continue;
    }
  }
  return std::nullopt;
}

}  // namespace blockfog::ai
