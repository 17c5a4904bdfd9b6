#include "rules/hots/view.h"

#include <string>

#include "rules/core/hex.h"
#include "rules/hots/engine.h"
#include "rules/hots/phases.h"
#include "rules/hots/serialize.h"

namespace blockfog::hots {
namespace {

using core::Role;
using nlohmann::json;

std::string side_id(int side) { return std::string(core::role_name(side_of(side))); }
json side_or_null(std::uint8_t side) { return side == kNone ? json() : json(side_id(side)); }

// Only the owner sees a block on the map or in a pool by name; a battle's revealed blocks are in
// battle_view, and announced identities in the log (RULES 13.2-13.4).
bool sees_block(Role role, BlockId b) { return role != Role::Observer && owner_of(b) == role; }

json own_block(const Position& p, BlockId b) {
  const BlockState block = p.blocks.get(b);
  json j = {{"block", game_data().blocks[b].id},
            {"strength", block.strength},
            {"moved", block.moved},
            {"reserve", block.reserve}};
  return j;
}

std::string entry_name(std::uint8_t entry) {
  if (entry == kEntryBySea) return "sea";
  if (entry == kEntryCaptured) return "captured";
  return game_data().borders[entry].id;
}

// RULES 13.2: per area, counts for everybody; identities only for the owner.
json area_side(const Position& p, Role role, AreaId area, Side side) {
  int count = 0;
  int moved = 0;
  json blocks = json::array();
  json reserves = json::array();
  for (BlockId b = 0; b < kBlockCount; ++b) {
    const BlockState block = p.blocks.get(b);
    if (block.loc != area || owner_of(b) != side) continue;
    // 13.5.3: a retreating or regrouping block's destination is not yet known to others.
    if (block.arrival_hidden && role != side) continue;
    ++count;
    // "Moved" matters, and is shown, only in the move phase (4.2): afterwards it would tell
    // which retreating or regrouping block went where (13.5.2).
    moved += block.moved && p.phase == Phase::Move;
    if (block.reserve) reserves.push_back(entry_name(block.entry));
    if (sees_block(role, b)) blocks.push_back(own_block(p, b));
  }
  json j = {{"count", count}, {"moved", moved}, {"reserves", reserves}};
  if (role == side) j["blocks"] = blocks;
  return j;
}

json areas_view(const Position& p, Role role) {
  const auto& data = game_data();
  json areas = json::array();
  for (AreaId a = 0; a < kAreaCount; ++a) {
    json area = {{"id", data.areas[a].id},
                 {"scotland", area_side(p, role, a, Side::Scotland)},
                 {"england", area_side(p, role, a, Side::England)}};
    const auto& marker = p.battles[a];
    if (marker.attacker != kNone) {
      area["battle"] = {
          {"attacker", side_id(marker.attacker)},
          {"main_origin",
           marker.main_origin == kNone ? json() : json(data.areas[marker.main_origin].id)},
          {"main_border",
           marker.main_border == kNone ? json() : json(data.borders[marker.main_border].id)}};
    }
    areas.push_back(std::move(area));
  }
  return areas;
}

json pools_view(const Position& p, Role role) {
  json pools = json::object();
  for (Side side : {Side::Scotland, Side::England}) {
    int count = 0;
    json blocks = json::array();
    for (BlockId b = 0; b < kBlockCount; ++b) {
      if (p.blocks.loc[b] != kPool || owner_of(b) != side) continue;
      ++count;
      if (role == side) blocks.push_back(game_data().blocks[b].id);
    }
    json j = {{"count", count}};
    if (role == side) j["blocks"] = blocks;  // RULES 13.3: only the owner knows his pool
    pools[side_id(index_of(side))] = j;
  }
  return pools;
}

// RULES 13.2: dead blocks and non-noble blocks not yet in play are public.
json public_off_map(const Position& p, std::uint8_t place) {
  json ids = json::array();
  const auto& data = game_data();
  for (BlockId b = 0; b < kBlockCount; ++b) {
    if (p.blocks.loc[b] != place) continue;
    if (place == kNotInPlay && data.blocks[b].noble >= 0) continue;  // implied by the roster
    ids.push_back(data.blocks[b].id);
  }
  return ids;
}

// RULES 13.2: the two-block noble roster is public; Moray's status only to Scotland, or to
// everybody once he is dead.
json nobles_view(const Position& p, Role role) {
  const auto& data = game_data();
  json roster = json::object();
  for (const auto& noble : data.nobles) {
    const bool english = on_map(p, noble.blocks[index_of(Side::England)]);
    roster[noble.key] = english ? "england" : "scotland";
  }
  const BlockState moray = p.blocks.get(data.moray);
  json scotland = {{"two_block", two_block_nobles_controlled(p, Side::Scotland)}};
  if (moray.loc == kDead) {
    scotland["moray"] = "dead";
    scotland["total"] = two_block_nobles_controlled(p, Side::Scotland);
  } else if (role == Role::Scotland) {
    scotland["moray"] = moray.loc == kPool ? "pool" : "on_map";
    scotland["total"] = nobles_controlled(p, Side::Scotland);
  } else {
    scotland["moray"] = "unknown";
  }
  return {{"roster", roster},
          {"england", {{"total", nobles_controlled(p, Side::England)}}},
          {"scotland", scotland}};
}

json cards_view(const Position& p, Role role) {
  const auto& data = game_data();
  json hand = json::array();
  json chosen = {{"scotland", false}, {"england", false}};
  json hand_sizes = {{"scotland", 0}, {"england", 0}};
  json my_choice;
  json played = json::array();
  for (CardId c = 0; c < kCardCount; ++c) {
    const CardState card = p.cards.get(c);
    if (card.holder == kNone) continue;
    const auto holder = side_id(card.holder);
    const bool mine = role == side_of(card.holder);
    if (card.place == CardPlace::Hand || card.place == CardPlace::Chosen) {
      hand_sizes[holder] = hand_sizes[holder].get<int>() + 1;
      if (mine) hand.push_back(data.cards[c].id);
    }
    if (card.place == CardPlace::Chosen) {
      chosen[holder] = true;  // RULES 3.1.3: that, not which
      if (mine) my_choice = data.cards[c].id;
    }
    if (card.place == CardPlace::Played) {
      played.push_back({{"side", holder}, {"card", data.cards[c].id}, {"turn", card.turn}});
    }
  }
  json j = {{"hand_sizes", hand_sizes}, {"chosen", chosen}, {"played_this_year", played}};
  if (role != Role::Observer) {
    j["hand"] = hand;
    j["my_choice"] = my_choice;
  }
  return j;
}

json move_view(const Position& p, Role role) {
  const auto& data = game_data();
  json activated = json::array();
  for (AreaId a = 0; a < kAreaCount; ++a) {
    if ((p.activated >> a) & 1U) activated.push_back(data.areas[a].id);
  }
  json j = {{"side", side_id(p.active)}, {"mp", p.mp}, {"activated", activated}};
  if (p.moving.block != kNone) {
    // The moving block's path is public; which block it is, only its owner knows.
    json moving = {{"origin", data.areas[p.moving.origin].id},
                   {"at", data.areas[p.blocks.loc[p.moving.block]].id},
                   {"steps", p.moving.steps}};
    if (role == owner_of(p.moving.block)) moving["block"] = data.blocks[p.moving.block].id;
    j["moving"] = moving;
  }
  return j;
}

json border_view(const Position& p, Role role) {
  const auto& data = game_data();
  json use = json::object();
  for (BorderId b = 0; b < kBorderCount; ++b) {
    if (p.border_use[b] != kNone) use[data.borders[b].id] = side_id(p.border_use[b]);
  }
  json j = {{"use", use}};
  if (role != Role::Observer) {
    // RULES 13.2: each player sees only his own crossing counters.
    json counters = json::object();
    for (BorderId b = 0; b < kBorderCount; ++b) {
      const auto n = p.crossings[index_of(role)][b];
      if (n > 0) counters[data.borders[b].id] = n;
    }
    j["my_crossings"] = counters;
  }
  return j;
}

// RULES 13.2: during a battle its non-reserve blocks are revealed to everybody; reserves stay
// anonymous (their counts and entry borders are in the area entry).
json battle_view(const Position& p) {
  const auto& data = game_data();
  const auto& battle = p.battle;
  const Side attacking = side_of(battle.attacker);
  json revealed = {{"scotland", json::array()}, {"england", json::array()}};
  const bool fighting = battle.victor == kNone;
  int retreating[2] = {0, 0};
  for (BlockId b = 0; b < kBlockCount; ++b) {
    const BlockState block = p.blocks.get(b);
    if (block.arrival_hidden) ++retreating[index_of(owner_of(b))];
    if (!fighting || block.loc != battle.area || block.reserve) continue;
    revealed[side_id(index_of(owner_of(b)))].push_back(
        {{"block", data.blocks[b].id}, {"strength", block.strength}});
  }
  static constexpr const char* kSteps[] = {"defending A", "attacking A", "defending B",
                                           "attacking B", "defending C", "attacking C"};
  json j = {{"area", data.areas[battle.area].id},
            {"round", battle.round},
            {"attacker", side_id(index_of(attacking))},
            {"defender", side_id(index_of(core::other_side(attacking)))},
            {"step", kSteps[battle.step % 6]},
            {"revealed", revealed},
            {"leaving", {{"scotland", retreating[0]}, {"england", retreating[1]}}},
            {"hits_to_allocate", battle.hits}};
  if (battle.victor != kNone) j["victor"] = side_id(battle.victor);
  return j;
}

// Lines are numbered within the role's own log: numbering the whole log would show how many
// private lines of the other side there are (e.g. how many steps it built, 13.6).
json log_view(const State& s, Role role, std::size_t from, std::size_t& size) {
  json lines = json::array();
  size = 0;
  for (const auto& entry : s.log) {
    if (!can_read(entry.audience, role)) continue;
    if (size >= from) lines.push_back({{"i", size}, {"text", log_text(entry)}});
    ++size;
  }
  return lines;
}

}  // namespace

void append_phase_text(std::string& out, const State& s) {
  if (s.phase == Phase::CardChoice) {
    out += "Card choice";
    return;
  }
  if (s.phase == Phase::GameOver) {
    out += "Game over";
    return;
  }
  if (s.phase == Phase::BorderRaid) {
    out += "England: border raid";
    return;
  }
  out += s.active == kNone ? "" : (s.active == 0 ? "Scotland" : "England");
  switch (s.phase) {
    case Phase::Event:
      // 13.1.4: one public name per step, whatever sub-decision the owner faces.
      out += s.event.stage == EventStage::PillageLosses ? ": pillage losses" : ": event";
      return;
    case Phase::Move:
      out += ": move phase";
      return;
    case Phase::BattleChoice:
      out += ": choose a battle";
      return;
    case Phase::Combat:
      out += ": combat";
      return;
    case Phase::HitAllocation:
      out += ": allocate hits";
      return;
    case Phase::MandatoryRetreat:
      out += ": retreat";
      return;
    case Phase::Regroup:
      out += ": regroup";
      return;
    case Phase::Winter:
      // 13.1.4: others see only the owner's generic winter step, or a public homecoming.
      out += s.winter.step == WinterStep::NobleHome ? ": noble homecoming" : ": winter";
      return;
    default:
      return;
  }
}

std::string phase_text(const State& s) {
  std::string out;
  append_phase_text(out, s);
  return out;
}

json view(const State& s, Role role, std::size_t log_from) {
  const auto& data = game_data();
  json roles = json::array();
  for (Role r : active_roles(s)) roles.push_back(core::role_name(r));
  json actions = json::array();
  for (const auto& a : legal_actions(s, role)) actions.push_back(action_to_json(a));
  const auto result = outcome(s);
  json j = {
      {"game", "hots"},
      {"rules_version", rules_version_of(s)},
      {"role", core::role_name(role)},
      {"scenario", data.scenarios[s.scenario].id},
      {"options", {{"schiltroms", s.schiltroms}}},
      {"year", s.year},
      {"turn", s.turn},
      {"phase", phase_name(s.phase)},
      {"phase_text", phase_text(s)},
      {"awaiting", roles},
      {"player1", side_or_null(s.p1)},
      {"edward", s.edward_ii ? "Edward II" : "Edward I"},
      {"king_crowned", s.king_crowned},
      {"french_knights_added", s.french_knights_added},
      {"truce_against", side_or_null(s.truce_against)},
      {"cards", cards_view(s, role)},
      {"areas", areas_view(s, role)},
      {"pools", pools_view(s, role)},
      {"dead", public_off_map(s, kDead)},
      {"not_in_play", public_off_map(s, kNotInPlay)},
      {"nobles", nobles_view(s, role)},
      {"borders", border_view(s, role)},
      {"legal_actions", actions},
  };
  std::size_t log_size = 0;
  j["log"] = log_view(s, role, log_from, log_size);
  j["log_size"] = log_size;
  if (s.phase == Phase::Move) j["move"] = move_view(s, role);
  if (s.battle.area != kNone) j["battle"] = battle_view(s);
  if (result.finished) {
    j["outcome"] = {{"winner", result.winner ? json(core::role_name(*result.winner)) : json()},
                    {"reason", result.reason}};
    // RULES 13.1.6: once the game is over everything may be shown, the seed included.
    j["seed"] = core::to_hex(s.rng.stream().key());
    j["final_state"] = to_json(s);
    json full_log = json::array();
    for (const auto& entry : s.log) {
      full_log.push_back({{"audience", audience_name(entry.audience)}, {"text", log_text(entry)}});
    }
    j["full_log"] = full_log;
  }
  return j;
}

}  // namespace blockfog::hots
