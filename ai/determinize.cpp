#include "ai/determinize.h"

#include <algorithm>
#include <array>
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
  if (phase == "move") {
    // A block of the seat's own in the middle of its move (RULES 4.3.7): the view names it.
    return !view.contains("move") || !view["move"].contains("moving") ||
           view["move"]["moving"].contains("block");
  }
  if (phase == "combat") return in_combat_turn(view);
  return phase == "card_choice" || phase == "battle_choice" || phase == "hit_allocation" ||
         phase == "mandatory_retreat" || phase == "regroup" || phase == "border_raid" ||
         phase == "winter" || phase == "event";
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
  std::map<std::string, int> own_count;  // the seat's blocks per area
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
    own_count[id] = static_cast<int>(mine.at("blocks").size());
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
  // Blocks that left the current battle and whose destination is not yet published (RULES
  // 13.5.3): the view counts them per side, nothing more. The enemy's stand in a neighbour of
  // the battle area holding none of the seat's blocks (a retreat goes to a friendly or vacant
  // area, 5.10.1): nobles the roster puts on the map first, then blocks last seen in the battle.
  const json no_battle;
  const json& battle_shown =
      view.contains("battle") && view["battle"].is_object() ? view["battle"] : no_battle;
  if (battle_shown.is_object()) {
    const std::string battle_area = battle_shown.at("area");
    const auto& neighbors = data.areas[*data.area_by_id(battle_area)].neighbors;
    std::vector<std::string> open_areas;
    for (const auto& n : neighbors) {
      const auto& id = data.areas[n.area].id;
      if (own_count[id] == 0) open_areas.push_back(id);
    }
    const int leaving = battle_shown.at("leaving").at(enemy_name);
    for (int i = 0; i < leaving && !open_areas.empty() && !remaining.empty(); ++i) {
      auto pick = std::find_if(remaining.begin(), remaining.end(),
                               [&](hots::BlockId b) { return must_map.contains(b); });
      if (pick == remaining.end()) {
        pick = std::find_if(remaining.begin(), remaining.end(), [&](hots::BlockId b) {
          const auto where = seen.find(data.blocks[b].id);
          return where != seen.end() && where->second == battle_area;
        });
      }
      if (pick == remaining.end()) pick = remaining.begin();
      const auto b = *pick;
      remaining.erase(pick);
      const int max = data.blocks[b].max_strength;
      json row = block_row(open_areas[random() % open_areas.size()],
                           std::uniform_int_distribution<int>(1, max)(random));
      row[6] = true;
      blocks[data.blocks[b].id] = row;
    }
    // The seat's own: blocks of its in a neighbour of the battle area, preferably those an
    // earlier view showed in the battle area.
    const int own_leaving = battle_shown.at("leaving").at(my_name);
    if (own_leaving > 0) {
      std::set<std::string> were_there;
      for (const auto& earlier : history) {
        if (!earlier.contains("areas") || !earlier["areas"].is_array()) continue;
        for (const auto& area : earlier["areas"]) {
          if (area.at("id") != battle_area) continue;
          for (const auto& b : area.at(my_name).at("blocks")) were_there.insert(b.at("block"));
        }
      }
      std::vector<std::string> first;
      std::vector<std::string> then;
      for (const auto& [id, row] : blocks.items()) {
        if (static_cast<int>(hots::owner_of(*data.block_by_id(id))) != me) continue;
        if (!row[0].is_string()) continue;
        const std::string loc = row[0];
        if (std::none_of(neighbors.begin(), neighbors.end(),
                         [&](const hots::Neighbor& n) { return data.areas[n.area].id == loc; })) {
          continue;
        }
        (were_there.contains(id) ? first : then).push_back(id);
      }
      std::shuffle(first.begin(), first.end(), random);
      std::shuffle(then.begin(), then.end(), random);
      first.insert(first.end(), then.begin(), then.end());
      for (int i = 0; i < own_leaving && i < static_cast<int>(first.size()); ++i) {
        blocks[first[i]][6] = true;
      }
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
  const std::string phase = view.at("phase");
  if (battle_shown.is_object()) {
    // The battle being fought (RULES 5): its area, round, attacker, initiative step, victor and
    // the hits the seat must allocate are public (13.3). In a combat turn or a hit allocation, a
    // block in the battle whose step came before the current one has acted; of the current
    // step's blocks, the seat's own have acted unless a legal action names them, and of the
    // enemy's (whose shot the seat allocates) at least the one that fired: the others are drawn.
    static const std::vector<std::string> kSteps = {"defending A", "attacking A", "defending B",
                                                    "attacking B", "defending C", "attacking C"};
    const auto step_it = std::find(kSteps.begin(), kSteps.end(), battle_shown.at("step"));
    const int step = static_cast<int>(step_it - kSteps.begin()) % 6;
    const int attacker = side_of(battle_shown.at("attacker"));
    const std::string area = battle_shown.at("area");
    const int hits = battle_shown.at("hits_to_allocate");
    const bool allocating = phase == "hit_allocation";
    if (phase == "combat" || allocating) {
      std::set<std::string> waiting;
      for (const auto& a : view.at("legal_actions")) {
        if (!allocating && a.contains("block") && a["block"].is_string())
          waiting.insert(a["block"]);
      }
      std::vector<std::string> fired;  // the enemy's blocks of the current step
      for (const auto& [id, row] : blocks.items()) {
        if (row[0] != area || row[3].get<bool>()) continue;
        const auto b = *data.block_by_id(id);
        const int side = static_cast<int>(hots::owner_of(b));
        const int own_step = 2 * (data.blocks[b].initiative - 'A') + (side == attacker ? 1 : 0);
        row[5] = own_step < step || (own_step == step && side == me && !waiting.contains(id));
        if (allocating && own_step == step && side == enemy) {
          row[5] = random() % 2 == 0;
          fired.push_back(id);
        }
      }
      if (!fired.empty()) blocks[fired[random() % fired.size()]][5] = true;
    }
    const json victor =
        battle_shown.contains("victor") ? json(side_of(battle_shown["victor"])) : json(nullptr);
    battle_row = json::array({small(*data.area_by_id(area)), battle_shown.at("round"), attacker,
                              step, victor, hits, allocating ? json(me) : json(nullptr)});
  }
  // Whose player turn it is (RULES 2.3): P2's once the battles begin; in an event, the player
  // whose card it is (the settling of the event's stage below corrects a pillage's losses).
  int player_turn = 0;
  if (moving_phase || phase == "event") {
    player_turn = p1 != hots::kNone && active != p1 ? 1 : 0;
  } else if (phase != "card_choice" && phase != "winter") {
    player_turn = 1;
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
      {"player_turn", player_turn},
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

// The seat's legal actions in `s`, the undo offer aside, equal `wanted`.
bool offers_exactly(const hots::State& s, core::Role role,
                    const std::vector<hots::Action>& wanted) {
  hots::ActionList list;
  hots::legal_actions(s, role, list);
  std::size_t n = list.size();
  if (n > 0 && list[n - 1].kind == hots::ActionKind::Undo) --n;
  if (n != wanted.size()) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(list[i] == wanted[i])) return false;
  }
  return true;
}

// The areas where the blocks the wanted actions name stand in `s`, in area order.
std::vector<hots::AreaId> areas_named(const hots::State& s,
                                      const std::vector<hots::Action>& wanted) {
  std::set<hots::AreaId> out;
  for (const auto& a : wanted) {
    switch (a.kind) {
      case hots::ActionKind::SeaMove:
      case hots::ActionKind::Victual:
      case hots::ActionKind::Gain:
      case hots::ActionKind::TakeHit:
      case hots::ActionKind::AddStep:
        if (a.a < hots::kBlockCount && s.blocks.loc[a.a] < hots::kAreaCount) {
          out.insert(s.blocks.loc[a.a]);
        }
        break;
      case hots::ActionKind::Draw:
        out.insert(a.a);
        break;
      default:
        break;
    }
  }
  return {out.begin(), out.end()};
}

// The winter's bookkeeping (RULES 10, 13.1.4: the others see one "winter" step): which step,
// the Bruce or Comyn block whose home is chosen, which questions were answered (Edward's
// wintering, Moray's and the King's moves, Wallace's), the replacement points left. Candidates
// from the fewest answers up; the first that offers exactly the seat's actions is kept.
bool settle_winter(hots::State& s, core::Role role, const std::vector<hots::Action>& wanted,
                   bool homecoming) {
  using hots::WinterStep;
  const auto& data = game_data();
  const auto side = static_cast<hots::Side>(core::side_index(role));
  std::vector<WinterStep> steps;
  if (homecoming) {
    steps = {WinterStep::NobleHome};
  } else if (side == hots::Side::Scotland) {
    steps = {WinterStep::ScotlandHomes, WinterStep::ScotlandWallace, WinterStep::ScotlandDisband,
             WinterStep::ScotlandBuild};
  } else {
    steps = {WinterStep::EnglandDisband, WinterStep::EnglandBuild};
  }
  // Two-home nobles in the order of the homecoming (10.1.2): England's Bruce and Comyn, then
  // Scotland's.
  std::vector<std::pair<hots::BlockId, int>> two_home;
  for (const int s_index : {1, 0}) {
    for (std::size_t n = 0; n < data.nobles.size(); ++n) {
      const auto b = data.nobles[n].blocks[s_index];
      if (data.blocks[b].homes.size() == 2) two_home.push_back({b, static_cast<int>(n)});
    }
  }
  std::array<std::uint8_t, hots::kAreaCount> points{};
  for (const auto a : areas_named(s, wanted)) {
    points[a] =
        static_cast<std::uint8_t>(side == hots::Side::Scotland ? data.areas[a].scottish_castle_limit
                                                               : data.areas[a].castle_limit);
  }
  std::vector<int> answers(48);
  for (int i = 0; i < 48; ++i) answers[i] = i;
  // An answer set: Edward's question (bits % 3: not asked, answered "stays", "winters"), then a
  // bit each for Moray's, the King's and Wallace's moves and Edward's wintering last year.
  const auto answered = [](int bits) {
    return (bits % 3 > 0) + ((bits / 3) & 1) + ((bits / 6) & 1) + ((bits / 12) & 1) +
           ((bits / 24) & 1);
  };
  std::stable_sort(answers.begin(), answers.end(),
                   [&](int x, int y) { return answered(x) < answered(y); });
  for (const auto step : steps) {
    std::vector<std::pair<hots::BlockId, std::uint16_t>> homing = {{hots::kNone, 0}};
    if (step == WinterStep::NobleHome) {
      homing.clear();
      std::uint16_t placed = 0;
      for (const auto& [b, noble] : two_home) {
        placed = static_cast<std::uint16_t>(placed | (1U << noble));
        if (hots::owner_of(b) == side && hots::on_map(s, b)) homing.push_back({b, placed});
      }
    }
    for (const auto& [block, placed] : homing) {
      for (const int bits : answers) {
        hots::WinterState w{};
        w.step = step;
        w.homing = block;
        w.placed = placed;
        const int edward = bits % 3;
        w.edward_decided = edward > 0;
        w.edward_winters = edward == 2;
        w.moray_moved = (bits / 3) & 1;
        w.king_moved = (bits / 6) & 1;
        w.wallace_moved = (bits / 12) & 1;
        if (step == WinterStep::ScotlandBuild || step == WinterStep::EnglandBuild) w.rp = points;
        s.winter = w;
        s.edward_wintered_last = (bits / 24) & 1;
        if (offers_exactly(s, role, wanted)) return true;
      }
    }
  }
  return false;
}

// The event's stage (RULES 7, 13.1.4: the others see one "event" step, or "pillage losses"):
// the first decision of the card, the noble to name after the Herald's roll, a pillage's losses
// or gains, the second block of a Sea Move, more Victuals. Its areas come from the blocks the
// seat's actions name; candidates in that order, the first that offers exactly the seat's
// actions is kept.
bool settle_event(hots::State& s, core::Role role, const std::vector<hots::Action>& wanted) {
  using hots::EventStage;
  using hots::EventState;
  const auto& data = game_data();
  const std::uint8_t me = static_cast<std::uint8_t>(core::side_index(role));
  auto named = areas_named(s, wanted);
  if (named.empty()) {
    for (hots::AreaId a = 0; a < hots::kAreaCount; ++a) {
      if (hots::any_in_area(s, a, static_cast<hots::Side>(me))) named.push_back(a);
    }
  }
  std::set<hots::AreaId> around;  // a pillage's target next to the receiving areas
  for (const auto a : named) {
    for (const auto& n : data.areas[a].neighbors) around.insert(n.area);
  }
  hots::AreaId to = hots::kNone;
  for (const auto& a : wanted) {
    if (a.kind == hots::ActionKind::SeaMove) to = a.b;
  }
  std::vector<EventState> candidates = {EventState{}, EventState{EventStage::HeraldName}};
  for (const auto a : named) {
    candidates.push_back({EventStage::SeaMove, a, to, 1, 0, 0});
    for (std::uint8_t count = 1; count <= 3; ++count) {
      candidates.push_back({EventStage::Victuals, a, hots::kNone, count, 0, 0});
    }
    for (std::uint8_t hits = 0; hits <= 2; ++hits) {  // 7.3.2: two hits
      for (std::uint8_t inflicted = 0; inflicted + hits <= 2; ++inflicted) {
        candidates.push_back({EventStage::PillageLosses, a, hots::kNone, 0, hits, inflicted});
      }
    }
  }
  for (const auto target : around) {
    for (std::uint8_t inflicted = 1; inflicted <= 2; ++inflicted) {
      for (std::uint8_t count = 0; count < inflicted; ++count) {
        candidates.push_back({EventStage::PillageGains, target, hots::kNone, count, 0, inflicted});
        for (const auto a : named) {
          if (count > 0) {
            candidates.push_back({EventStage::PillageGains, target, a, count, 0, inflicted});
          }
        }
      }
    }
  }
  for (const auto& candidate : candidates) {
    s.event = candidate;
    // A pillage's losses wait for the victim; the player turn is the pillager's (7.3.2).
    const std::uint8_t player = candidate.stage == EventStage::PillageLosses ? 1 - me : me;
    s.player_turn = s.p1 != hots::kNone && player != s.p1 ? 1 : 0;
    if (offers_exactly(s, role, wanted)) return true;
  }
  return false;
}

// The phase's own bookkeeping that the view does not spell out, settled so that the sample
// offers exactly the seat's actions; false when no candidate does.
bool settle(hots::State& s, const json& view, core::Role role,
            const std::vector<hots::Action>& wanted) {
  if (s.phase == hots::Phase::Winter) {
    return settle_winter(s, role, wanted,
                         view.value("phase_text", "").find("homecoming") != std::string::npos);
  }
  if (s.phase == hots::Phase::Event) return settle_event(s, role, wanted);
  return offers_exactly(s, role, wanted);
}

}  // namespace

std::optional<hots::State> determinize(const json& view, const std::vector<json>& history,
                                       Random& random) {
  if (!can_determinize(view)) return std::nullopt;
  const auto wanted = comparable(view);
  const auto role = *core::role_from_name(view.at("role").get<std::string>());
  std::vector<hots::Action> wanted_actions;
  for (const auto& a : wanted.at("legal_actions")) {
    std::string error;
    const auto action = hots::action_from_json(a, error);
    if (!action) return std::nullopt;
    wanted_actions.push_back(*action);
  }
  for (int draw = 0; draw < kDraws; ++draw) {
    try {
      auto state = hots::state_from_json(sample_state_json(view, history, random));
      if (!settle(state, view, role, wanted_actions)) continue;
      auto game = hots::module().from_json(hots::to_json(state));
      if (!game.game) continue;
      if (comparable(game.game->view(role)) != wanted) continue;
      return state;
    } catch (const std::exception&) {
      continue;
    }
  }
  return std::nullopt;
}

}  // namespace blockfog::ai
