// The one view writer (view.h): what each role sees (RULES 13), as JSON text. When a part may
// be copied from the caller's memo instead of written again is view_cache.h's to decide.

#include <algorithm>
#include <array>
#include <charconv>
#include <span>
#include <string>
#include <vector>

#include "rules/core/hex.h"
#include "rules/core/json_writer.h"
#include "rules/hots/engine.h"
#include "rules/hots/phases.h"
#include "rules/hots/serialize.h"
#include "rules/hots/view.h"
#include "rules/hots/view_cache.h"

namespace blockfog::hots {
namespace {

using core::JsonWriter;
using core::Role;

std::string_view side_id(int side) { return core::role_name(side_of(side)); }

void side_or_null(JsonWriter& w, std::uint8_t side) {
  if (side == kNone) {
    w.null();
  } else {
    w.string(side_id(side));
  }
}

std::string_view entry_name(std::uint8_t entry) {
  if (entry == kEntryBySea) return "sea";
  if (entry == kEntryCaptured) return "captured";
  return game_data().borders[entry].id;
}

// Ids of `items` (areas, borders, nobles...) in sorted order, for objects keyed by them.
template <typename Items, typename Key>
std::vector<std::uint8_t> sorted_by(const Items& items, Key key) {
  std::vector<std::uint8_t> order(items.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint8_t>(i);
  std::sort(order.begin(), order.end(),
            [&](std::uint8_t a, std::uint8_t b) { return key(items[a]) < key(items[b]); });
  return order;
}

const std::vector<std::uint8_t>& borders_sorted() {
  static const auto order =
      sorted_by(game_data().borders, [](const auto& b) -> const std::string& { return b.id; });
  return order;
}

const std::vector<std::uint8_t>& nobles_sorted() {
  static const auto order =
      sorted_by(game_data().nobles, [](const auto& n) -> const std::string& { return n.key; });
  return order;
}

// Each side's blocks per area, in block order: one pass over the blocks for all 23 areas.
struct AreaBlocks {
  // Only the first `sizes` of each list are ever written or read: not cleared (two views per
  // action, 1.3 KB each).
  std::array<std::array<std::uint8_t, kBlocksPerSide>, kAreaCount * 2> blocks;
  std::array<std::uint8_t, kAreaCount * 2> sizes{};

  explicit AreaBlocks(const Position& p) {
    for (BlockId b = 0; b < kBlockCount; ++b) {
      const auto loc = p.blocks.loc[b];
      if (loc >= kAreaCount) continue;
      const int list = loc * 2 + index_of(owner_of(b));
      blocks[list][sizes[list]++] = b;
    }
  }
  std::span<const std::uint8_t> of(AreaId area, Side side) const {
    const int list = area * 2 + index_of(side);
    return {blocks[list].data(), sizes[list]};
  }
};

// Why the moving side's blocks in an area may not leave it (RULES 4.7), in words, from the
// counts pinning uses: both are what the side sees there (its own blocks, the enemy's count).
// Appended in place: a view is written without allocating.
void append_pinned_reason(std::string& out, const detail::PinCount& pin) {
  const bool one = pin.enemy == 1;
  char digits[12];
  out += "pinned: ";
  out.append(digits, std::to_chars(digits, digits + sizeof digits, pin.enemy).ptr);
  out += one ? " enemy block in this area holds your " : " enemy blocks in this area hold your ";
  out.append(digits, std::to_chars(digits, digits + sizeof digits, pin.own).ptr);
  out += "; a block may leave only while yours outnumber them (RULES 4.7)";
}

// RULES 13.2: per area, counts for everybody; identities only for the owner. In the owner's
// move phase, each of his blocks that pinning keeps where it is (4.7) says so and why: the
// blocks that may not start a move for that reason alone (unmoved, not reserves).
void area_side(JsonWriter& w, const Position& p, Role role, Side side, AreaId area,
               std::span<const std::uint8_t> here) {
  const auto& data = game_data();
  const bool own = role == side;
  if (here.empty()) {  // most areas hold none of a side's blocks: the text is a constant
    w.raw(own ? R"({"blocks":[],"count":0,"moved":0,"reserves":[]})"
              : R"({"count":0,"moved":0,"reserves":[]})");
    return;
  }
  int count = 0;
  int moved = 0;
  for (const auto b : here) {
    const BlockState block = p.blocks.get(b);
    if (block.arrival_hidden && !own) continue;  // 13.5.3
    ++count;
    moved += block.moved && p.phase == Phase::Move;  // 4.2, 13.5.2
  }
  w.begin_object();
  if (own) {
    detail::PinCount pin;
    if (p.phase == Phase::Move && p.active == index_of(side)) {
      pin = detail::pin_count(p, area, side);
    }
    w.key("blocks");
    w.begin_array();
    for (const auto b : here) {
      const BlockState block = p.blocks.get(b);
      w.begin_object();
      w.plain_field("block", data.blocks[b].id);
      w.field("moved", block.moved);
      if (pin.pins() && !block.moved && !block.reserve) {
        w.key("pinned");
        w.string_from([&](std::string& out) { append_pinned_reason(out, pin); });
      }
      w.field("reserve", block.reserve);
      w.field("strength", block.strength);
      w.end_object();
    }
    w.end_array();
  }
  w.field("count", count);
  w.field("moved", moved);
  w.key("reserves");
  w.begin_array();
  for (const auto b : here) {
    const BlockState block = p.blocks.get(b);
    if ((block.arrival_hidden && !own) || !block.reserve) continue;
    w.plain_string(entry_name(block.entry));
  }
  w.end_array();
  w.end_object();
}

void area_object(JsonWriter& w, const Position& p, Role role, AreaId a, const AreaBlocks& here) {
  const auto& data = game_data();
  w.begin_object();
  const auto& marker = p.battles[a];
  if (marker.attacker != kNone) {
    w.key("battle");
    w.begin_object();
    w.field("attacker", side_id(marker.attacker));
    w.key("main_border");
    if (marker.main_border == kNone) {
      w.null();
    } else {
      w.string(data.borders[marker.main_border].id);
    }
    w.key("main_origin");
    if (marker.main_origin == kNone) {
      w.null();
    } else {
      w.string(data.areas[marker.main_origin].id);
    }
    w.end_object();
  }
  w.key("england");
  area_side(w, p, role, Side::England, a, here.of(a, Side::England));
  w.plain_field("id", data.areas[a].id);
  w.key("scotland");
  area_side(w, p, role, Side::Scotland, a, here.of(a, Side::Scotland));
  w.end_object();
}

// The areas array: each area's object, from the memo where its inputs are unchanged
// (view_cache.h).
void areas_view(JsonWriter& w, std::string& out, const Position& p, Role role,
                detail::ViewPartsMemo* memo) {
  const AreaBlocks here(p);
  if (!memo) {
    w.begin_array();
    for (AreaId a = 0; a < kAreaCount; ++a) area_object(w, p, role, a, here);
    w.end_array();
    return;
  }
  detail::memoized_areas(w, out, p, role, *memo,
                         [&](JsonWriter& area, AreaId a) { area_object(area, p, role, a, here); });
}

void pools_view(JsonWriter& w, const Position& p, Role role) {
  w.begin_object();
  for (Side side : {Side::England, Side::Scotland}) {
    const int first = first_block(side);
    w.key(side_id(index_of(side)));
    w.begin_object();
    int count = 0;
    if (role == side) {  // RULES 13.3: only the owner knows his pool
      w.key("blocks");
      w.begin_array();
      for (int b = first; b < first + kBlocksPerSide; ++b) {
        if (p.blocks.loc[b] == kPool) w.plain_string(game_data().blocks[b].id);
      }
      w.end_array();
    }
    for (int b = first; b < first + kBlocksPerSide; ++b) count += p.blocks.loc[b] == kPool;
    w.field("count", count);
    w.end_object();
  }
  w.end_object();
}

// RULES 13.2: dead blocks and non-noble blocks not yet in play are public.
void public_off_map(JsonWriter& w, const Position& p, std::uint8_t place) {
  const auto& data = game_data();
  w.begin_array();
  for (BlockId b = 0; b < kBlockCount; ++b) {
    if (p.blocks.loc[b] != place) continue;
    if (place == kNotInPlay && data.blocks[b].noble >= 0) continue;  // implied by the roster
    w.plain_string(data.blocks[b].id);
  }
  w.end_array();
}

// RULES 13.2: the roster is public; Moray's status only to Scotland, or to all once dead.
void nobles_view(JsonWriter& w, const Position& p, Role role) {
  const auto& data = game_data();
  w.begin_object();
  w.key("england");
  w.begin_object();
  w.field("total", nobles_controlled(p, Side::England));
  w.end_object();
  w.key("roster");
  w.begin_object();
  for (auto n : nobles_sorted()) {
    const auto& noble = data.nobles[n];
    w.field(noble.key, on_map(p, noble.blocks[index_of(Side::England)]) ? "england" : "scotland");
  }
  w.end_object();
  w.key("scotland");
  w.begin_object();
  const BlockState moray = p.blocks.get(data.moray);
  const int two_block = two_block_nobles_controlled(p, Side::Scotland);
  if (moray.loc == kDead) {
    w.field("moray", "dead");
    w.field("total", two_block);
  } else if (role == Role::Scotland) {
    w.field("moray", moray.loc == kPool ? "pool" : "on_map");
    w.field("total", nobles_controlled(p, Side::Scotland));
  } else {
    w.field("moray", "unknown");
  }
  w.field("two_block", two_block);
  w.end_object();
  w.end_object();
}

void cards_view(JsonWriter& w, const Position& p, Role role) {
  const auto& data = game_data();
  bool chosen[2] = {false, false};
  int hand_sizes[2] = {0, 0};
  CardId my_choice = kNone;
  for (CardId c = 0; c < kCardCount; ++c) {
    const CardState card = p.cards.get(c);
    if (card.holder > 1) continue;
    hand_sizes[card.holder] += card.place == CardPlace::Hand || card.place == CardPlace::Chosen;
    if (card.place == CardPlace::Chosen) {
      chosen[card.holder] = true;  // RULES 3.1.3: that, not which
      if (role == side_of(card.holder)) my_choice = c;
    }
  }
  w.begin_object();
  w.key("chosen");
  w.begin_object();
  w.field("england", chosen[1]);
  w.field("scotland", chosen[0]);
  w.end_object();
  if (role != Role::Observer) {
    w.key("hand");
    w.begin_array();
    for (CardId c = 0; c < kCardCount; ++c) {
      const CardState card = p.cards.get(c);
      if (card.holder > 1 || role != side_of(card.holder)) continue;
      if (card.place == CardPlace::Hand || card.place == CardPlace::Chosen) {
        w.plain_string(data.cards[c].id);
      }
    }
    w.end_array();
  }
  w.key("hand_sizes");
  w.begin_object();
  w.field("england", hand_sizes[1]);
  w.field("scotland", hand_sizes[0]);
  w.end_object();
  if (role != Role::Observer) {
    w.key("my_choice");
    if (my_choice == kNone) {
      w.null();
    } else {
      w.string(data.cards[my_choice].id);
    }
  }
  w.key("played_this_year");
  w.begin_array();
  for (CardId c = 0; c < kCardCount; ++c) {
    const CardState card = p.cards.get(c);
    if (card.holder > 1 || card.place != CardPlace::Played) continue;
    w.begin_object();
    w.plain_field("card", data.cards[c].id);
    w.field("side", side_id(card.holder));
    w.field("turn", card.turn);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void move_view(JsonWriter& w, const Position& p, Role role) {
  const auto& data = game_data();
  w.begin_object();
  w.key("activated");
  w.begin_array();
  for (AreaId a = 0; a < kAreaCount; ++a) {
    if ((p.activated >> a) & 1U) w.plain_string(data.areas[a].id);
  }
  w.end_array();
  if (p.moving.block != kNone) {
    // The moving block's path is public; which block it is, only its owner knows.
    w.key("moving");
    w.begin_object();
    w.field("at", data.areas[p.blocks.loc[p.moving.block]].id);
    if (role == owner_of(p.moving.block)) w.field("block", data.blocks[p.moving.block].id);
    w.field("origin", data.areas[p.moving.origin].id);
    w.field("steps", p.moving.steps);
    w.end_object();
  }
  w.field("mp", p.mp);
  w.field("side", side_id(p.active));
  w.end_object();
}

void border_view(JsonWriter& w, const Position& p, Role role) {
  const auto& data = game_data();
  w.begin_object();
  if (role != Role::Observer) {
    // RULES 13.2: each player sees only his own crossing counters.
    w.key("my_crossings");
    w.begin_object();
    for (auto b : borders_sorted()) {
      const auto n = p.crossings[index_of(role)][b];
      if (n > 0) w.field(data.borders[b].id, n);
    }
    w.end_object();
  }
  w.key("use");
  w.begin_object();
  for (auto b : borders_sorted()) {
    if (p.border_use[b] != kNone) {
      w.plain_key(data.borders[b].id);
      w.plain_string(side_id(p.border_use[b]));
    }
  }
  w.end_object();
  w.end_object();
}

// RULES 13.2: during a battle its non-reserve blocks are revealed to everybody.
void battle_view(JsonWriter& w, const Position& p) {
  const auto& data = game_data();
  const auto& battle = p.battle;
  const Side attacking = side_of(battle.attacker);
  const bool fighting = battle.victor == kNone;
  int retreating[2] = {0, 0};
  for (BlockId b = 0; b < kBlockCount; ++b) {
    retreating[index_of(owner_of(b))] += p.blocks.arrival_hidden[b];
  }
  static constexpr const char* kSteps[] = {"defending A", "attacking A", "defending B",
                                           "attacking B", "defending C", "attacking C"};
  w.begin_object();
  w.plain_field("area", data.areas[battle.area].id);
  w.field("attacker", side_id(index_of(attacking)));
  w.field("defender", side_id(index_of(core::other_side(attacking))));
  w.field("hits_to_allocate", battle.hits);
  w.key("leaving");
  w.begin_object();
  w.field("england", retreating[1]);
  w.field("scotland", retreating[0]);
  w.end_object();
  w.key("revealed");
  w.begin_object();
  for (Side side : {Side::England, Side::Scotland}) {
    w.key(side_id(index_of(side)));
    w.begin_array();
    const int first = first_block(side);
    for (int b = first; fighting && b < first + kBlocksPerSide; ++b) {
      const BlockState block = p.blocks.get(b);
      if (block.loc != battle.area || block.reserve) continue;
      w.begin_object();
      w.plain_field("block", data.blocks[b].id);
      w.field("strength", block.strength);
      w.end_object();
    }
    w.end_array();
  }
  w.end_object();
  w.field("round", battle.round);
  w.field("step", kSteps[battle.step % 6]);
  if (battle.victor != kNone) w.field("victor", side_id(battle.victor));
  w.end_object();
}

// The role's lines from its line `from` on, each with its number within the role's own log
// (RULES 13: a role reads the public lines and its own). Returns the role's line count.
std::size_t log_view(JsonWriter& w, const State& s, Role role, std::size_t from,
                     const ReadableCounts* readable) {
  std::size_t first = 0;  // the log entry counting starts at
  std::size_t size = 0;   // the role's lines before it
  if (readable) {
    // Back from the log's end to the role's line `from`: a view is mostly asked for the few
    // lines of the last action.
    size = (*readable)[static_cast<std::size_t>(role)];
    first = s.log.size();
    while (size > from && first > 0) {
      --first;
      if (can_read(s.log[first].audience, role)) --size;
    }
  }
  w.begin_array();
  for (std::size_t i = first; i < s.log.size(); ++i) {
    const auto& entry = s.log[i];
    if (!can_read(entry.audience, role)) continue;
    if (size >= from) {
      w.begin_object();
      w.field("i", size);
      w.key("text");
      w.string_from([&entry](std::string& text) { append_log_text(text, entry); });
      w.end_object();
    }
    ++size;
  }
  w.end_array();
  return size;
}

}  // namespace

ReadableCounts count_readable(const State& s, std::size_t from) {
  ReadableCounts counts{};
  for (std::size_t i = from; i < s.log.size(); ++i) {
    for (Role role : {Role::Scotland, Role::England, Role::Observer}) {
      counts[static_cast<std::size_t>(role)] += can_read(s.log[i].audience, role);
    }
  }
  return counts;
}

nlohmann::json view(const State& s, Role role, std::size_t log_from) {
  std::string text;
  write_view(s, role, log_from, text);
  return nlohmann::json::parse(text);
}

std::size_t write_view(const State& s, Role role, std::size_t log_from, std::string& out,
                       core::ViewLayout* layout, core::ViewMemo* memo,
                       const ReadableCounts* readable) {
  const auto& data = game_data();
  out.clear();
  JsonWriter w(out);
  w.record_layout(layout);
  const auto result = outcome(s);
  w.begin_object();
  w.key("areas");
  auto* parts = detail::parts_of(memo);
  areas_view(w, out, s, role, parts);
  w.key("awaiting");
  w.begin_array();
  const auto awaited = awaited_sides(s);
  for (Side side : {Side::Scotland, Side::England}) {
    if ((awaited >> index_of(side)) & 1U) w.string(core::role_name(side));
  }
  w.end_array();
  if (s.battle.area != kNone) {
    w.key("battle");
    battle_view(w, s);
  }
  w.key("borders");
  detail::memoized(
      w, parts, detail::ViewPartsMemo::kBorders,
      [&](std::string& key) {
        key += static_cast<char>(role);
        for (const auto& crossings : s.crossings) detail::append_bytes(key, crossings);
        detail::append_bytes(key, s.border_use);
      },
      [&](JsonWriter& part) { border_view(part, s, role); });
  w.key("cards");
  detail::memoized(
      w, parts, detail::ViewPartsMemo::kCards,
      [&](std::string& key) {
        key += static_cast<char>(role);
        detail::append_bytes(key, s.cards.place);
        detail::append_bytes(key, s.cards.holder);
        detail::append_bytes(key, s.cards.turn);
      },
      [&](JsonWriter& part) { cards_view(part, s, role); });
  w.key("dead");
  public_off_map(w, s, kDead);
  w.field("edward", s.edward_ii ? "Edward II" : "Edward I");
  if (result.finished) {
    w.key("final_state");
    w.raw(to_json(s).dump());
  }
  w.field("french_knights_added", s.french_knights_added);
  if (result.finished) {
    w.key("full_log");
    w.begin_array();
    for (const auto& entry : s.log) {
      w.begin_object();
      w.field("audience", audience_name(entry.audience));
      w.key("text");
      w.string_from([&entry](std::string& text) { append_log_text(text, entry); });
      w.end_object();
    }
    w.end_array();
  }
  w.field("game", "hots");
  w.field("king_crowned", s.king_crowned);
  w.key("legal_actions");
  w.begin_array();
  ActionList legal;
  legal_actions(s, role, legal);
  for (const auto& a : legal) write_action(w, a);
  w.end_array();
  w.key("log");
  const auto log_size = log_view(w, s, role, log_from, readable);
  w.field("log_size", log_size);
  if (s.phase == Phase::Move) {
    w.key("move");
    move_view(w, s, role);
  }
  w.key("nobles");
  // The nobles are written from which blocks are on the map and where Moray is.
  detail::memoized(
      w, parts, detail::ViewPartsMemo::kNobles,
      [&](std::string& key) {
        key += static_cast<char>(role);
        detail::append_bits(key, s.blocks.on_map());
        key += static_cast<char>(s.blocks.loc[game_data().moray]);
      },
      [&](JsonWriter& part) { nobles_view(part, s, role); });
  w.key("not_in_play");
  public_off_map(w, s, kNotInPlay);
  w.key("options");
  w.begin_object();
  w.field("schiltroms", s.schiltroms);
  w.end_object();
  if (result.finished) {
    w.key("outcome");
    w.begin_object();
    w.field("reason", result.reason);
    w.key("winner");
    if (result.winner) {
      w.string(core::role_name(*result.winner));
    } else {
      w.null();
    }
    w.end_object();
  }
  w.field("phase", phase_name(s.phase));
  w.key("phase_text");
  w.string_from([&s](std::string& text) { append_phase_text(text, s); });
  w.key("player1");
  side_or_null(w, s.p1);
  w.key("pools");
  detail::memoized(
      w, parts, detail::ViewPartsMemo::kPools,
      [&](std::string& key) {
        key += static_cast<char>(role);
        detail::append_bits(key, s.blocks.at(kPool));
      },
      [&](JsonWriter& part) { pools_view(part, s, role); });
  w.field("role", core::role_name(role));
  w.field("rules_version", rules_version_of(s));
  w.field("scenario", data.scenarios[s.scenario].id);
  // RULES 13.1.6: once the game is over everything may be shown, the seed included.
  if (result.finished) w.field("seed", core::to_hex(s.rng.stream().key()));
  w.key("truce_against");
  side_or_null(w, s.truce_against);
  w.field("turn", s.turn);
  w.field("year", s.year);
  w.end_object();
  return log_size;
}

}  // namespace blockfog::hots
