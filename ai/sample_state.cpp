// One draw of a determinization (ai/determinize.h, sample_state_json): the state's JSON in the
// format hots::state_from_json reads (rules/hots/serialize.cpp), built section by section from
// the seat's view. The state's rows are positional arrays; each has a struct here and one
// writer that states its layout. The order of the draws from `random` is part of the contract
// (the same view, history and generator give the same sample; tests/ai/sample_state_json_test).

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ai/determinize.h"
#include "rules/hots/data.h"
#include "rules/hots/engine.h"

namespace blockfog::ai {
namespace {

using hots::game_data;
using nlohmann::json;

// A small number, or null for kNone (serialize.cpp's `small`).
json small_or_null(int v) { return v == hots::kNone ? json(nullptr) : json(v); }
json optional_int(const std::optional<int>& v) { return v ? json(*v) : json(nullptr); }

int side_index_of(const std::string& name) { return name == "scotland" ? 0 : 1; }
std::string side_name_of(int side) { return side == 0 ? "scotland" : "england"; }

// The seat (view["role"]) and its enemy, as side indexes and names.
struct Seat {
  int me = 0;
  int enemy = 1;
  std::string my_name;
  std::string enemy_name;

  explicit Seat(const json& view)
      : me(side_index_of(view.at("role"))),
        enemy(1 - me),
        my_name(side_name_of(me)),
        enemy_name(side_name_of(enemy)) {}
};

// A block's row: [place, strength, moved, reserve, entry (border index, sea or captured, or
// null), acted in the current battle, arrival hidden (RULES 13.5.3)].
struct BlockRow {
  std::string loc = "not_in_play";
  int strength = 0;
  bool moved = false;
  bool reserve = false;
  std::optional<int> entry;
  bool acted = false;
  bool arrival_hidden = false;

  json to_json() const {
    return json::array({loc, strength, moved, reserve, optional_int(entry), acted, arrival_hidden});
  }
};

BlockRow block_at(std::string loc, int strength = 0, bool moved = false, bool reserve = false) {
  BlockRow row;
  row.loc = std::move(loc);
  row.strength = strength;
  row.moved = moved;
  row.reserve = reserve;
  return row;
}

// Every block's row by block id, in id order (the order of a JSON object's keys).
using BlockRows = std::map<std::string, BlockRow>;

std::optional<int> entry_of(const std::string& name) {
  if (name == "sea") return hots::kEntryBySea;
  if (name == "captured") return hots::kEntryCaptured;
  const auto border = game_data().border_by_id(name);
  return border ? std::optional<int>(*border) : std::nullopt;
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

// The battle the view shows (RULES 13.3), or null when none is being fought.
const json& battle_shown_of(const json& view) {
  static const json none;
  return view.contains("battle") && view["battle"].is_object() ? view["battle"] : none;
}

// What the enemy has in an area, as the view counts it (RULES 13.1.2).
struct AreaNeed {
  std::string area;
  int count = 0;
  int moved = 0;
  std::vector<std::string> reserves;
};

// The public facts about the blocks: the seat's own where the view puts them, the places of
// the dead and of those not in play, and the enemy's counts per area.
struct KnownBlocks {
  std::vector<AreaNeed> needs;
  std::map<std::string, int> own_count;  // the seat's blocks per area
  std::set<std::string> fixed;           // enemy blocks whose place the view gives
};

KnownBlocks place_known_blocks(const json& view, const Seat& seat, BlockRows& blocks) {
  KnownBlocks known;
  for (const auto& area : view.at("areas")) {
    const std::string id = area.at("id");
    const auto& mine = area.at(seat.my_name);
    for (const auto& block : mine.at("blocks")) {
      blocks[block.at("block").get<std::string>()] =
          block_at(id, block.at("strength"), block.at("moved"), block.at("reserve"));
    }
    // Own reserves' entries: the view lists them per side, in block order among the reserves.
    std::size_t next = 0;
    for (const auto& block : mine.at("blocks")) {
      if (block.at("reserve").get<bool>() && next < mine.at("reserves").size()) {
        blocks[block.at("block").get<std::string>()].entry = entry_of(mine["reserves"][next++]);
      }
    }
    known.own_count[id] = static_cast<int>(mine.at("blocks").size());
    const auto& theirs = area.at(seat.enemy_name);
    if (theirs.at("count").get<int>() > 0) {
      known.needs.push_back({id, theirs.at("count"), theirs.at("moved"),
                             theirs.at("reserves").get<std::vector<std::string>>()});
    }
  }
  for (const auto& b : view.at("pools").at(seat.my_name).at("blocks")) {
    blocks[b.get<std::string>()] = block_at("pool");
  }
  for (const auto& b : view.at("dead")) {
    blocks[b.get<std::string>()] = block_at("dead");
    known.fixed.insert(b);
  }
  for (const auto& b : view.at("not_in_play")) {
    blocks[b.get<std::string>()] = block_at("not_in_play");
    known.fixed.insert(b);
  }
  return known;
}

// The enemy blocks whose place is hidden, in the order they are dealt: shuffled, the nobles
// the roster puts on the map first (RULES 13.1.4).
struct HiddenBlocks {
  std::vector<hots::BlockId> order;
  std::set<hots::BlockId> must_map;
};

HiddenBlocks hidden_enemy_blocks(const json& view, const Seat& seat,
                                 const std::set<std::string>& fixed, Random& random) {
  const auto& data = game_data();
  HiddenBlocks hidden;
  const auto& roster = view.at("nobles").at("roster");
  for (hots::BlockId b = 0; b < hots::kBlockCount; ++b) {
    const auto& info = data.blocks[b];
    if (static_cast<int>(hots::owner_of(b)) != seat.enemy || fixed.contains(info.id)) continue;
    if (info.noble >= 0) {
      const auto& noble = data.nobles[info.noble];
      if (roster.value(noble.key, "") != seat.enemy_name) continue;  // out of play
      hidden.must_map.insert(b);
    }
    if (info.id == "sco_king" && !view.value("king_crowned", false)) continue;
    if (info.id == "sco_french_knights" && !view.value("french_knights_added", false)) continue;
    hidden.order.push_back(b);
  }
  std::shuffle(hidden.order.begin(), hidden.order.end(), random);
  std::stable_sort(hidden.order.begin(), hidden.order.end(), [&](auto x, auto y) {
    return hidden.must_map.contains(x) > hidden.must_map.contains(y);
  });
  return hidden;
}

// The enemy's hidden blocks still to be dealt, taken from the front.
struct Deck {
  std::vector<hots::BlockId> remaining;

  std::optional<hots::BlockId> take() {
    if (remaining.empty()) return std::nullopt;
    const auto b = remaining.front();
    remaining.erase(remaining.begin());
    return b;
  }
};

// Deals the enemy's blocks to the areas the view counts them in: the blocks revealed in the
// current battle there at the strength shown (RULES 13.3), then blocks last seen in an area
// that still holds enemy blocks, then the rest; strengths drawn where not shown, the moved
// count and the reserves' entries given to blocks of the area.
void deal_enemy_to_areas(const json& view, const Seat& seat, const std::vector<AreaNeed>& needs,
                         const std::map<std::string, std::string>& seen, const HiddenBlocks& hidden,
                         Deck& deck, BlockRows& blocks, Random& random) {
  const auto& data = game_data();
  std::map<std::string, std::vector<std::pair<hots::BlockId, int>>> placed;
  std::set<hots::BlockId> used;
  if (view.contains("battle") && !view["battle"].is_null()) {
    const auto& battle = view["battle"];
    for (const auto& shown : battle["revealed"][seat.enemy_name]) {
      const auto b = data.block_by_id(shown["block"].get<std::string>());
      if (!b) continue;
      placed[battle["area"]].push_back({*b, shown["strength"]});
      used.insert(*b);
    }
  }
  for (const auto b : hidden.order) {
    if (!used.contains(b)) deck.remaining.push_back(b);
  }
  auto& remaining = deck.remaining;
  for (const auto& need : needs) {
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
  for (const auto& need : needs) {
    auto& here = placed[need.area];
    while (static_cast<int>(here.size()) < need.count) {
      const auto b = deck.take();
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
      auto row = block_at(need.area, s, moved-- > 0, is_reserve);
      if (is_reserve) row.entry = entry_of(need.reserves[reserve++]);
      blocks[data.blocks[b].id] = row;
    }
  }
}

// Blocks that left the current battle and whose destination is not yet published (RULES
// 13.5.3): the view counts them per side, nothing more. The enemy's stand in a neighbour of
// the battle area holding none of the seat's blocks (a retreat goes to a friendly or vacant
// area, 5.10.1): nobles the roster puts on the map first, then blocks last seen in the battle.
void place_enemy_leaving(const json& battle, const Seat& seat, const KnownBlocks& known,
                         const std::map<std::string, std::string>& seen, const HiddenBlocks& hidden,
                         Deck& deck, BlockRows& blocks, Random& random) {
  const auto& data = game_data();
  const std::string battle_area = battle.at("area");
  std::vector<std::string> open_areas;
  for (const auto& n : data.areas[*data.area_by_id(battle_area)].neighbors) {
    const auto& id = data.areas[n.area].id;
    const auto own = known.own_count.find(id);
    if (own == known.own_count.end() || own->second == 0) open_areas.push_back(id);
  }
  auto& remaining = deck.remaining;
  const int leaving = battle.at("leaving").at(seat.enemy_name);
  for (int i = 0; i < leaving && !open_areas.empty() && !remaining.empty(); ++i) {
    auto pick = std::find_if(remaining.begin(), remaining.end(),
                             [&](hots::BlockId b) { return hidden.must_map.contains(b); });
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
    const auto& to = open_areas[random() % open_areas.size()];
    auto row = block_at(to, std::uniform_int_distribution<int>(1, max)(random));
    row.arrival_hidden = true;
    blocks[data.blocks[b].id] = row;
  }
}

// The seat's own blocks that left the battle hidden: its blocks in a neighbour of the battle
// area, preferably those an earlier view showed in the battle area.
void mark_own_leaving(const json& battle, const Seat& seat, const std::vector<json>& history,
                      BlockRows& blocks, Random& random) {
  const auto& data = game_data();
  const int own_leaving = battle.at("leaving").at(seat.my_name);
  if (own_leaving <= 0) return;
  const std::string battle_area = battle.at("area");
  const auto& neighbors = data.areas[*data.area_by_id(battle_area)].neighbors;
  std::set<std::string> were_there;
  for (const auto& earlier : history) {
    if (!earlier.contains("areas") || !earlier["areas"].is_array()) continue;
    for (const auto& area : earlier["areas"]) {
      if (area.at("id") != battle_area) continue;
      for (const auto& b : area.at(seat.my_name).at("blocks")) were_there.insert(b.at("block"));
    }
  }
  std::vector<std::string> first;
  std::vector<std::string> then;
  for (const auto& [id, row] : blocks) {
    if (static_cast<int>(hots::owner_of(*data.block_by_id(id))) != seat.me) continue;
    const std::string& loc = row.loc;
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
    blocks[first[i]].arrival_hidden = true;
  }
}

// The enemy pool holds the count the view shows. It holds no noble the roster puts on the map:
// those were dealt first. Enemy blocks left over stay out of play.
void deal_enemy_pool(const json& view, const Seat& seat, Deck& deck, BlockRows& blocks) {
  const int pool_count = view.at("pools").at(seat.enemy_name).at("count");
  for (int i = 0; i < pool_count; ++i) {
    const auto b = deck.take();
    if (!b) break;
    blocks[game_data().blocks[*b].id] = block_at("pool");
  }
}

// A card's row: [place (deck, hand, chosen, played), holder side or null, turn played].
struct CardRow {
  std::string place = "deck";
  std::optional<int> holder;
  int turn = 0;

  json to_json() const { return json::array({place, optional_int(holder), turn}); }
};

CardRow card_at(std::string place, int holder, int turn = 0) {
  CardRow row;
  row.place = std::move(place);
  row.holder = holder;
  row.turn = turn;
  return row;
}

// Cards (RULES 3, 13.2): those the seat holds, chose or saw played this year where they are;
// the others dealt at random to the enemy's chosen card, its hand (the public hand size, which
// counts a chosen card too) and the deck.
json sample_cards(const json& view, const Seat& seat, Random& random) {
  const auto& data = game_data();
  const auto& cards_view = view.at("cards");
  std::map<std::string, CardRow> cards;
  std::set<std::string> known;
  for (const auto& c : data.cards) cards[c.id] = {};
  const json hand = cards_view.value("hand", json::array());
  for (const auto& c : hand) {
    cards[c.get<std::string>()] = card_at("hand", seat.me);
    known.insert(c);
  }
  if (cards_view.contains("my_choice") && cards_view["my_choice"].is_string()) {
    cards[cards_view["my_choice"].get<std::string>()] = card_at("chosen", seat.me);
    known.insert(cards_view["my_choice"]);
  }
  for (const auto& played : cards_view.at("played_this_year")) {
    cards[played["card"].get<std::string>()] =
        card_at("played", side_index_of(played["side"]), played["turn"].get<int>());
    known.insert(played["card"]);
  }
  std::vector<std::string> unknown;
  for (const auto& c : data.cards) {
    if (!known.contains(c.id)) unknown.push_back(c.id);
  }
  std::shuffle(unknown.begin(), unknown.end(), random);
  std::size_t next_card = 0;
  int enemy_hand = cards_view.at("hand_sizes").at(seat.enemy_name);
  if (cards_view.at("chosen").value(seat.enemy_name, false) && next_card < unknown.size()) {
    cards[unknown[next_card++]] = card_at("chosen", seat.enemy);
    --enemy_hand;
  }
  for (int i = 0; i < enemy_hand && next_card < unknown.size(); ++i) {
    cards[unknown[next_card++]] = card_at("hand", seat.enemy);
  }
  json out = json::object();
  for (const auto& [id, row] : cards) out[id] = row.to_json();
  return out;
}

// The battle markers of the areas (RULES 4.5.1), by area id: [attacker side, index of the area
// the main attack came from or null, index of its border or null].
json battle_markers(const json& view) {
  const auto& data = game_data();
  json battles = json::object();
  for (const auto& area : view.at("areas")) {
    if (!area.contains("battle")) continue;
    const auto& marker = area["battle"];
    json origin = nullptr;
    json border = nullptr;
    if (marker.contains("main_origin") && marker["main_origin"].is_string()) {
      origin = small_or_null(*data.area_by_id(marker["main_origin"].get<std::string>()));
    }
    if (marker.contains("main_border") && marker["main_border"].is_string()) {
      border = small_or_null(*data.border_by_id(marker["main_border"].get<std::string>()));
    }
    battles[area["id"].get<std::string>()] =
        json::array({side_index_of(marker["attacker"]), origin, border});
  }
  return battles;
}

// The borders (RULES 4.1, 13.2): the seat's own crossing counters (the enemy's are hidden) per
// side and border index, and which side used each border this turn (kNone where none).
struct Borders {
  std::vector<std::vector<int>> crossings;
  std::vector<int> use;
};

Borders borders_of(const json& view, const Seat& seat) {
  const auto& data = game_data();
  Borders out{std::vector<std::vector<int>>(2, std::vector<int>(data.borders.size(), 0)),
              std::vector<int>(data.borders.size(), hots::kNone)};
  const auto& borders = view.at("borders");
  const json my_crossings = borders.value("my_crossings", json::object());
  for (const auto& [border, n] : my_crossings.items()) {
    out.crossings[seat.me][*data.border_by_id(border)] = n;
  }
  for (const auto& [border, side] : borders.at("use").items()) {
    out.use[*data.border_by_id(border)] = side_index_of(side);
  }
  return out;
}

// Who is awaited and, in the move phase (RULES 4), the moving side's points and activated
// areas.
struct Turn {
  int p1 = hots::kNone;
  int active = hots::kNone;
  int mp = 0;
  std::uint32_t activated = 0;
};

Turn turn_of(const json& view) {
  const auto& data = game_data();
  Turn turn;
  const auto awaiting = view.at("awaiting");
  turn.p1 = view.at("player1").is_string() ? side_index_of(view["player1"]) : hots::kNone;
  turn.active = awaiting.size() == 1 ? side_index_of(awaiting[0]) : hots::kNone;
  if (view.contains("move")) {
    const auto& move = view["move"];
    turn.active = side_index_of(move.at("side"));
    turn.mp = move.at("mp");
    for (const auto& a : move.at("activated")) {
      turn.activated |= 1U << *data.area_by_id(a.get<std::string>());
    }
  }
  return turn;
}

// The block in the middle of its move: [block, origin area, area it came from, steps, crossed
// the Anglo-Scottish border]; none: [null, null, null, 0, false].
struct Moving {
  std::optional<int> block;
  std::optional<int> origin;
  std::optional<int> previous;
  int steps = 0;
  bool crossed = false;

  json to_json() const {
    return json::array(
        {optional_int(block), optional_int(origin), optional_int(previous), steps, crossed});
  }
};

// The seat's own block in the middle of its move (RULES 4.3.7). The view shows where it started
// and stands and its steps; the area it came from (no doubling back, 4.3.2.5) and whether it
// crossed the Anglo-Scottish border (4.1.3) it does not show after the first step: they are
// drawn, and the consistency check (the legal steps are part of the view) keeps only a draw
// that offers exactly the seat's steps.
Moving moving_of(const json& view, Random& random) {
  if (!view.contains("move") || !view["move"].contains("moving")) return {};
  const auto& data = game_data();
  const auto& m = view["move"]["moving"];
  const auto origin = *data.area_by_id(m.at("origin").get<std::string>());
  const auto at = *data.area_by_id(m.at("at").get<std::string>());
  Moving moving;
  moving.block = *data.block_by_id(m.at("block").get<std::string>());
  moving.origin = origin;
  moving.previous = origin;
  moving.steps = m.at("steps").get<int>();
  const auto& neighbors = data.areas[at].neighbors;
  if (moving.steps == 1) {
    for (const auto& n : neighbors) {
      if (n.area == origin) moving.crossed = data.borders[n.border].anglo_scottish;
    }
  } else if (!neighbors.empty()) {
    const auto& n = neighbors[random() % neighbors.size()];
    moving.previous = n.area;
    moving.crossed = data.borders[n.border].anglo_scottish || random() % 2 == 0;
  }
  return moving;
}

// The battle being fought: [area index, round, attacker side, initiative step (0-5: defending
// A, attacking A, ... attacking C), victor side, hits to allocate, side allocating them]; the
// null ones null when there is none, and no battle: [null, 0, null, 0, null, 0, null].
struct BattleRow {
  std::optional<int> area;
  int round = 0;
  std::optional<int> attacker;
  int step = 0;
  std::optional<int> victor;
  int hits = 0;
  std::optional<int> target;

  json to_json() const {
    return json::array({optional_int(area), round, optional_int(attacker), step,
                        optional_int(victor), hits, optional_int(target)});
  }
};

// The battle being fought (RULES 5): its area, round, attacker, initiative step, victor and the
// hits the seat must allocate are public (13.3). In a combat turn or a hit allocation, a block
// in the battle whose step came before the current one has acted; of the current step's blocks,
// the seat's own have acted unless a legal action names them, and of the enemy's (whose shot
// the seat allocates) at least the one that fired: the others are drawn.
BattleRow battle_of(const json& view, const json& battle, const Seat& seat, BlockRows& blocks,
                    Random& random) {
  if (!battle.is_object()) return {};
  const auto& data = game_data();
  static const std::vector<std::string> kSteps = {"defending A", "attacking A", "defending B",
                                                  "attacking B", "defending C", "attacking C"};
  const std::string phase = view.at("phase");
  const auto step_it = std::find(kSteps.begin(), kSteps.end(), battle.at("step"));
  BattleRow row;
  row.step = static_cast<int>(step_it - kSteps.begin()) % 6;
  const int attacker = side_index_of(battle.at("attacker"));
  const std::string area = battle.at("area");
  const bool allocating = phase == "hit_allocation";
  if (phase == "combat" || allocating) {
    std::set<std::string> waiting;
    for (const auto& a : view.at("legal_actions")) {
      if (!allocating && a.contains("block") && a["block"].is_string()) {
        waiting.insert(a["block"]);
      }
    }
    std::vector<std::string> fired;  // the enemy's blocks of the current step
    for (auto& [id, block] : blocks) {
      if (block.loc != area || block.reserve) continue;
      const auto b = *data.block_by_id(id);
      const int side = static_cast<int>(hots::owner_of(b));
      const int own_step = 2 * (data.blocks[b].initiative - 'A') + (side == attacker ? 1 : 0);
      block.acted =
          own_step < row.step || (own_step == row.step && side == seat.me && !waiting.contains(id));
      if (allocating && own_step == row.step && side == seat.enemy) {
        block.acted = random() % 2 == 0;
        fired.push_back(id);
      }
    }
    if (!fired.empty()) blocks[fired[random() % fired.size()]].acted = true;
  }
  row.area = *data.area_by_id(area);
  row.round = battle.at("round");
  row.attacker = attacker;
  if (battle.contains("victor")) row.victor = side_index_of(battle["victor"]);
  row.hits = battle.at("hits_to_allocate");
  if (allocating) row.target = seat.me;
  return row;
}

// Whose player turn it is (RULES 2.3): P2's once the battles begin; in an event, the player
// whose card it is (the settling of the event's stage corrects a pillage's losses).
int player_turn_of(const json& view, const Turn& turn) {
  const std::string phase = view.at("phase");
  if (phase == "move" || phase == "event") {
    return turn.p1 != hots::kNone && turn.active != turn.p1 ? 1 : 0;
  }
  return phase != "card_choice" && phase != "winter" ? 1 : 0;
}

// The winter's bookkeeping, left for settling (determinize.cpp): [step, homing block, nobles
// placed, Edward decided, Edward winters, Moray moved, King moved, Wallace moved, replacement
// points per area], all at their start.
json winter_at_start() {
  return json::array({0, nullptr, 0, false, false, false, false, false,
                      std::vector<int>(game_data().areas.size(), 0)});
}

// The event's stage, left for settling: [stage, area, destination, count, hits, inflicted].
json event_at_start() { return json::array({0, nullptr, nullptr, 0, 0, 0}); }

// The dice of the sampled futures: a generator keyed by the sampler, never the game's.
json fresh_rng(Random& random) {
  std::string key;
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 64; ++i) key += kHex[random() & 15];
  return {{"key", key},
          {"stream", 0},
          {"block_counter", 0},
          {"word_offset", 0},
          {"script", json::array()},
          {"script_position", 0}};
}

json blocks_json(const BlockRows& blocks) {
  json out = json::object();
  for (const auto& [id, row] : blocks) out[id] = row.to_json();
  return out;
}

}  // namespace

json sample_state_json(const json& view, const std::vector<json>& history, Random& random) {
  const Seat seat(view);
  BlockRows blocks;
  for (const auto& b : game_data().blocks) blocks[b.id] = {};
  const auto known = place_known_blocks(view, seat, blocks);
  const auto hidden = hidden_enemy_blocks(view, seat, known.fixed, random);
  const auto seen = last_seen(history, view);
  Deck deck;
  deal_enemy_to_areas(view, seat, known.needs, seen, hidden, deck, blocks, random);
  const json& battle = battle_shown_of(view);
  if (battle.is_object()) {
    place_enemy_leaving(battle, seat, known, seen, hidden, deck, blocks, random);
    mark_own_leaving(battle, seat, history, blocks, random);
  }
  deal_enemy_pool(view, seat, deck, blocks);
  const json cards = sample_cards(view, seat, random);
  const auto borders = borders_of(view, seat);
  const auto turn = turn_of(view);
  const auto moving = moving_of(view, random);
  const auto battle_row = battle_of(view, battle, seat, blocks, random);
  const json position = {
      {"blocks", blocks_json(blocks)},
      {"cards", cards},
      {"battles", battle_markers(view)},
      {"crossings", borders.crossings},
      {"border_use", borders.use},
      {"scenario", view.at("scenario")},
      {"schiltroms", view.at("options").at("schiltroms")},
      {"year", view.at("year")},
      {"turn", view.at("turn")},
      {"phase", view.at("phase")},
      {"p1", small_or_null(turn.p1)},
      {"player_turn", player_turn_of(view, turn)},
      {"active", small_or_null(turn.active)},
      {"edward_ii", view.at("edward") == "Edward II"},
      {"edward_wintered_last", false},
      {"king_crowned", view.at("king_crowned")},
      {"french_knights_added", view.at("french_knights_added")},
      {"truce_against", view.at("truce_against").is_string()
                            ? json(side_index_of(view["truce_against"]))
                            : json(nullptr)},
      {"double_event", false},
      {"mp", turn.mp},
      {"activated", turn.activated},
      {"moving", moving.to_json()},
      {"battle", battle_row.to_json()},
      {"winter", winter_at_start()},
      {"event", event_at_start()},
      {"defection_areas", 0},
      {"in_defection", false},
      {"end_reason", 0},
      {"winner", nullptr},
  };
  return {{"format", 1},
          {"rules_version", view.at("rules_version")},
          {"position", position},
          {"rng", fresh_rng(random)},
          {"log", ""},
          {"undo", json::array()}};
}

}  // namespace blockfog::ai
