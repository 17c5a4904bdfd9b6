// The complete state as JSON text, written straight into a buffer: exactly to_json(s).dump()
// (serialize.cpp), with every object's keys in the sorted order nlohmann keeps them. The server
// stores one as a snapshot whenever the turn passes, and building the DOM of a position per undo
// point cost more than everything else the action did. tests/rules/state_text_test.cpp compares
// the two over random games of every scenario.

#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

#include "rules/core/hex.h"
#include "rules/core/json_writer.h"
#include "rules/hots/engine.h"
#include "rules/hots/serialize.h"
#include "rules/hots/state_names.h"

namespace blockfog::hots {
namespace {

using core::JsonWriter;

void small(JsonWriter& w, std::uint8_t value) {
  if (value == kNone) {
    w.null();
  } else {
    w.number(value);
  }
}

// JsonWriter's numbers are signed; the generator's counters are 64-bit unsigned.
void unsigned_field(JsonWriter& w, std::string_view name, std::uint64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  w.key(name);
  w.raw(std::string_view(digits, static_cast<std::size_t>(end - digits)));
}

template <typename Items>
std::vector<std::uint8_t> sorted_ids(const Items& items) {
  std::vector<std::uint8_t> order(items.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint8_t>(i);
  std::sort(order.begin(), order.end(),
            [&](std::uint8_t a, std::uint8_t b) { return items[a].id < items[b].id; });
  return order;
}

template <typename Bytes>
void byte_array(JsonWriter& w, const Bytes& bytes) {
  w.begin_array();
  for (const auto v : bytes) w.number(v);
  w.end_array();
}

void write_position(JsonWriter& w, const Position& p) {
  const auto& data = game_data();
  static const auto blocks_sorted = sorted_ids(data.blocks);
  static const auto cards_sorted = sorted_ids(data.cards);
  static const auto areas_sorted = sorted_ids(data.areas);
  w.begin_object();
  unsigned_field(w, "activated", p.activated);
  w.key("active");
  small(w, p.active);
  w.key("battle");
  w.begin_array();
  small(w, p.battle.area);
  w.number(p.battle.round);
  small(w, p.battle.attacker);
  w.number(p.battle.step);
  small(w, p.battle.victor);
  w.number(p.battle.hits);
  small(w, p.battle.target);
  w.end_array();
  w.key("battles");
  w.begin_object();
  for (const auto a : areas_sorted) {
    const auto& m = p.battles[a];
    if (m.attacker == kNone) continue;
    w.key(data.areas[a].id);
    w.begin_array();
    w.number(m.attacker);
    small(w, m.main_origin);
    small(w, m.main_border);
    w.end_array();
  }
  w.end_object();
  w.key("blocks");
  w.begin_object();
  for (const auto b : blocks_sorted) {
    const BlockState block = p.blocks.get(b);
    w.key(data.blocks[b].id);
    w.begin_array();
    w.string(place_name(block.loc));
    w.number(block.strength);
    w.boolean(block.moved);
    w.boolean(block.reserve);
    small(w, block.entry);
    w.boolean(block.acted);
    w.boolean(block.arrival_hidden);
    w.end_array();
  }
  w.end_object();
  w.key("border_use");
  byte_array(w, p.border_use);
  w.key("cards");
  w.begin_object();
  for (const auto c : cards_sorted) {
    const CardState card = p.cards.get(c);
    w.key(data.cards[c].id);
    w.begin_array();
    w.string(kCardPlaces[static_cast<int>(card.place)]);
    small(w, card.holder);
    w.number(card.turn);
    w.end_array();
  }
  w.end_object();
  w.key("crossings");
  w.begin_array();
  for (const auto& side : p.crossings) byte_array(w, side);
  w.end_array();
  unsigned_field(w, "defection_areas", p.defection_areas);
  w.field("double_event", p.double_event);
  w.field("edward_ii", p.edward_ii);
  w.field("edward_wintered_last", p.edward_wintered_last);
  w.field("end_reason", static_cast<int>(p.end_reason));
  w.key("event");
  w.begin_array();
  w.number(static_cast<int>(p.event.stage));
  small(w, p.event.area);
  small(w, p.event.dest);
  w.number(p.event.count);
  w.number(p.event.hits);
  w.number(p.event.inflicted);
  w.end_array();
  w.field("french_knights_added", p.french_knights_added);
  w.field("in_defection", p.in_defection);
  w.field("king_crowned", p.king_crowned);
  w.key("moving");
  w.begin_array();
  small(w, p.moving.block);
  small(w, p.moving.origin);
  small(w, p.moving.previous);
  w.number(p.moving.steps);
  w.boolean(p.moving.crossed_anglo_scottish);
  w.end_array();
  w.field("mp", int{p.mp});
  w.key("p1");
  small(w, p.p1);
  w.field("phase", kPhaseNames[static_cast<int>(p.phase)]);
  w.field("player_turn", int{p.player_turn});
  w.field("scenario", data.scenarios[p.scenario].id);
  w.field("schiltroms", p.schiltroms);
  w.key("truce_against");
  small(w, p.truce_against);
  w.field("turn", int{p.turn});
  w.key("winner");
  small(w, p.winner);
  w.key("winter");
  w.begin_array();
  w.number(static_cast<int>(p.winter.step));
  small(w, p.winter.homing);
  w.number(p.winter.placed);
  w.boolean(p.winter.edward_decided);
  w.boolean(p.winter.edward_winters);
  w.boolean(p.winter.moray_moved);
  w.boolean(p.winter.king_moved);
  w.boolean(p.winter.wallace_moved);
  byte_array(w, p.winter.rp);
  w.end_array();
  w.field("year", int{p.year});
  w.end_object();
}

void write_rng(JsonWriter& w, const core::Rng& rng) {
  const auto& stream = rng.stream();
  w.begin_object();
  unsigned_field(w, "block_counter", stream.block_counter());
  w.field("key", core::to_hex(stream.key()));
  w.key("script");
  w.begin_array();
  for (const auto& o : rng.script_queue()) {
    w.begin_array();
    w.string(o.kind == core::ScriptedOutcome::Kind::Die ? "die" : "pick");
    w.number(o.value);
    w.end_array();
  }
  w.end_array();
  unsigned_field(w, "script_position", rng.script_position());
  unsigned_field(w, "stream", stream.stream());
  unsigned_field(w, "word_offset", stream.word_offset());
  w.end_object();
}

}  // namespace

void write_state_json(const State& s, std::string& out) {
  out.clear();
  JsonWriter w(out);
  w.begin_object();
  w.field("format", kStateFormat);
  w.key("log");
  // One hex string of 8-byte entries, as to_json writes it.
  w.string_from([&](std::string& text) {
    static constexpr char kHex[] = "0123456789abcdef";
    for (const auto& e : s.log) {
      const auto n = static_cast<std::uint16_t>(e.n);
      for (const auto byte :
           {static_cast<std::uint8_t>(e.kind), static_cast<std::uint8_t>(e.audience), e.a, e.b, e.c,
            e.d, static_cast<std::uint8_t>(n & 0xff), static_cast<std::uint8_t>(n >> 8)}) {
        text += kHex[byte >> 4];
        text += kHex[byte & 0xf];
      }
    }
  });
  w.key("position");
  write_position(w, s);
  w.key("rng");
  write_rng(w, s.rng);
  w.field("rules_version", kRulesVersion);
  w.key("undo");
  w.begin_array();
  for (const auto& point : s.undo) {
    w.begin_object();
    unsigned_field(w, "log_size", point.log_size);
    w.key("position");
    write_position(w, point.position);
    w.key("side");
    small(w, point.side);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace blockfog::hots
