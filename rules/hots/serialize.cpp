#include "rules/hots/serialize.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <span>
#include <type_traits>

#include "rules/core/hex.h"
#include "rules/core/sha256.h"
#include "rules/hots/binary_state.h"
#include "rules/hots/engine.h"
#include "rules/hots/state_names.h"

namespace blockfog::hots {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& what) { throw StateFormatError("state: " + what); }

template <std::size_t N>
int name_index(const std::array<const char*, N>& names, const std::string& name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (name == names[i]) return static_cast<int>(i);
  }
  fail("unknown name '" + name + "'");
}

json small(std::uint8_t value) { return value == kNone ? json() : json(value); }
std::uint8_t small_from(const json& j) {
  if (j.is_null()) return kNone;
  const int v = j.get<int>();
  if (v < 0 || v > 255) fail("value out of range");
  return static_cast<std::uint8_t>(v);
}

std::uint8_t loc_from(const std::string& name) {
  if (name == "pool") return kPool;
  if (name == "not_in_play") return kNotInPlay;
  if (name == "dead") return kDead;
  const auto area = game_data().area_by_id(name);
  if (!area) fail("unknown place '" + name + "'");
  return *area;
}

json position_to_json(const Position& p) {
  const auto& data = game_data();
  json blocks = json::object();
  for (BlockId b = 0; b < kBlockCount; ++b) {
    const BlockState block = p.blocks.get(b);
    blocks[data.blocks[b].id] = {std::string(place_name(block.loc)),
                                 block.strength,
                                 block.moved,
                                 block.reserve,
                                 small(block.entry),
                                 block.acted,
                                 block.arrival_hidden};
  }
  json cards = json::object();
  for (CardId c = 0; c < kCardCount; ++c) {
    const CardState card = p.cards.get(c);
    cards[data.cards[c].id] = {kCardPlaces[static_cast<int>(card.place)], small(card.holder),
                               card.turn};
  }
  json battles = json::object();
  for (AreaId a = 0; a < kAreaCount; ++a) {
    const auto& m = p.battles[a];
    if (m.attacker != kNone) {
      battles[data.areas[a].id] = {m.attacker, small(m.main_origin), small(m.main_border)};
    }
  }
  return {
      {"blocks", blocks},
      {"cards", cards},
      {"battles", battles},
      {"crossings", p.crossings},
      {"border_use", p.border_use},
      {"scenario", data.scenarios[p.scenario].id},
      {"schiltroms", p.schiltroms},
      {"year", p.year},
      {"turn", p.turn},
      {"phase", kPhaseNames[static_cast<int>(p.phase)]},
      {"p1", small(p.p1)},
      {"player_turn", p.player_turn},
      {"active", small(p.active)},
      {"edward_ii", p.edward_ii},
      {"edward_wintered_last", p.edward_wintered_last},
      {"king_crowned", p.king_crowned},
      {"french_knights_added", p.french_knights_added},
      {"truce_against", small(p.truce_against)},
      {"double_event", p.double_event},
      {"mp", p.mp},
      {"activated", p.activated},
      {"moving",
       {small(p.moving.block), small(p.moving.origin), small(p.moving.previous), p.moving.steps,
        p.moving.crossed_anglo_scottish}},
      {"battle",
       {small(p.battle.area), p.battle.round, small(p.battle.attacker), p.battle.step,
        small(p.battle.victor), p.battle.hits, small(p.battle.target)}},
      {"winter",
       {static_cast<int>(p.winter.step), small(p.winter.homing), p.winter.placed,
        p.winter.edward_decided, p.winter.edward_winters, p.winter.moray_moved, p.winter.king_moved,
        p.winter.wallace_moved, p.winter.rp}},
      {"event",
       {static_cast<int>(p.event.stage), small(p.event.area), small(p.event.dest), p.event.count,
        p.event.hits, p.event.inflicted}},
      {"defection_areas", p.defection_areas},
      {"in_defection", p.in_defection},
      {"end_reason", static_cast<int>(p.end_reason)},
      {"winner", small(p.winner)},
  };
}

Position position_from_json(const json& j) {
  const auto& data = game_data();
  Position p;
  const auto& blocks = j.at("blocks");
  if (blocks.size() != kBlockCount) fail("expected 56 blocks");
  for (BlockId b = 0; b < kBlockCount; ++b) {
    const auto& row = blocks.at(data.blocks[b].id);
    p.blocks.set(b, BlockState{loc_from(row.at(0).get<std::string>()), small_from(row.at(1)),
                               row.at(2).get<bool>(), row.at(3).get<bool>(), small_from(row.at(4)),
                               row.at(5).get<bool>(), row.at(6).get<bool>()});
  }
  const auto& cards = j.at("cards");
  if (cards.size() != kCardCount) fail("expected 25 cards");
  for (CardId c = 0; c < kCardCount; ++c) {
    const auto& row = cards.at(data.cards[c].id);
    p.cards.set(c, CardState{static_cast<CardPlace>(name_index(kCardPlaces, row.at(0))),
                             small_from(row.at(1)), small_from(row.at(2))});
  }
  for (const auto& [area, row] : j.at("battles").items()) {
    const auto id = data.area_by_id(area);
    if (!id) fail("unknown battle area '" + area + "'");
    p.battles[*id] =
        BattleMarker{small_from(row.at(0)), small_from(row.at(1)), small_from(row.at(2))};
  }
  p.crossings = j.at("crossings").get<decltype(p.crossings)>();
  p.border_use = j.at("border_use").get<decltype(p.border_use)>();
  const auto scenario = data.scenario_by_id(j.at("scenario").get<std::string>());
  if (!scenario) fail("unknown scenario");
  p.scenario = static_cast<std::uint8_t>(*scenario);
  p.schiltroms = j.at("schiltroms").get<bool>();
  p.year = j.at("year").get<std::uint16_t>();
  p.turn = j.at("turn").get<std::uint8_t>();
  p.phase = static_cast<Phase>(name_index(kPhaseNames, j.at("phase")));
  p.p1 = small_from(j.at("p1"));
  p.player_turn = j.at("player_turn").get<std::uint8_t>();
  p.active = small_from(j.at("active"));
  p.edward_ii = j.at("edward_ii").get<bool>();
  p.edward_wintered_last = j.at("edward_wintered_last").get<bool>();
  p.king_crowned = j.at("king_crowned").get<bool>();
  p.french_knights_added = j.at("french_knights_added").get<bool>();
  p.truce_against = small_from(j.at("truce_against"));
  p.double_event = j.at("double_event").get<bool>();
  p.mp = j.at("mp").get<std::uint8_t>();
  p.activated = j.at("activated").get<std::uint32_t>();
  const auto& m = j.at("moving");
  p.moving = MovingBlock{small_from(m.at(0)), small_from(m.at(1)), small_from(m.at(2)),
                         m.at(3).get<std::uint8_t>(), m.at(4).get<bool>()};
  const auto& battle = j.at("battle");
  p.battle = BattleState{small_from(battle.at(0)), battle.at(1).get<std::uint8_t>(),
                         small_from(battle.at(2)), battle.at(3).get<std::uint8_t>(),
                         small_from(battle.at(4)), battle.at(5).get<std::uint8_t>(),
                         small_from(battle.at(6))};
  const auto& w = j.at("winter");
  p.winter = WinterState{static_cast<WinterStep>(w.at(0).get<int>()),
                         small_from(w.at(1)),
                         w.at(2).get<std::uint16_t>(),
                         w.at(3).get<bool>(),
                         w.at(4).get<bool>(),
                         w.at(5).get<bool>(),
                         w.at(6).get<bool>(),
                         w.at(7).get<bool>(),
                         w.at(8).get<decltype(p.winter.rp)>()};
  const auto& ev = j.at("event");
  p.event = EventState{static_cast<EventStage>(ev.at(0).get<int>()),
                       small_from(ev.at(1)),
                       small_from(ev.at(2)),
                       ev.at(3).get<std::uint8_t>(),
                       ev.at(4).get<std::uint8_t>(),
                       ev.at(5).get<std::uint8_t>()};
  p.defection_areas = j.at("defection_areas").get<std::uint32_t>();
  p.in_defection = j.at("in_defection").get<bool>();
  p.end_reason = static_cast<EndReason>(j.at("end_reason").get<int>());
  p.winner = small_from(j.at("winner"));
  return p;
}

json rng_to_json(const core::Rng& rng) {
  const auto& stream = rng.stream();
  json script = json::array();
  for (const auto& o : rng.script_queue()) {
    script.push_back({o.kind == core::ScriptedOutcome::Kind::Die ? "die" : "pick", o.value});
  }
  return {{"key", core::to_hex(stream.key())},
          {"stream", stream.stream()},
          {"block_counter", stream.block_counter()},
          {"word_offset", stream.word_offset()},
          {"script", script},
          {"script_position", rng.script_position()}};
}

core::Rng rng_from_json(const json& j) {
  const auto key = core::seed_from_hex(j.at("key").get<std::string>());
  if (!key) fail("rng key must be 64 hex digits");
  const auto counter = j.at("block_counter").get<std::uint64_t>();
  const auto offset = j.at("word_offset").get<std::uint32_t>();
  if (!core::ChaCha20Stream::is_valid_position(counter, offset)) fail("bad rng position");
  std::vector<core::ScriptedOutcome> script;
  for (const auto& o : j.at("script")) {
    const auto kind = o.at(0).get<std::string>();
    script.push_back(
        {kind == "die" ? core::ScriptedOutcome::Kind::Die : core::ScriptedOutcome::Kind::Pick,
         o.at(1).get<int>()});
  }
  return core::Rng::restore(
      core::ChaCha20Stream::restore(*key, j.at("stream").get<std::uint64_t>(), counter, offset),
      std::move(script), j.at("script_position").get<std::size_t>());
}

}  // namespace

json to_json(const State& s) {
  // The log is one hex string of 8-byte entries: snapshots stay small and quick to parse.
  std::vector<std::uint8_t> bytes;
  bytes.reserve(s.log.size() * 8);
  for (const auto& e : s.log) {
    const auto n = static_cast<std::uint16_t>(e.n);
    bytes.insert(
        bytes.end(),
        {static_cast<std::uint8_t>(e.kind), static_cast<std::uint8_t>(e.audience), e.a, e.b, e.c,
         e.d, static_cast<std::uint8_t>(n & 0xff), static_cast<std::uint8_t>(n >> 8)});
  }
  const json log = core::to_hex(bytes);
  json undo = json::array();
  for (const auto& point : s.undo) {
    undo.push_back({{"position", position_to_json(point.position)},
                    {"log_size", point.log_size},
                    {"side", small(point.side)}});
  }
  return {{"format", kStateFormat},
          {"rules_version", rules_version_of(s)},
          {"position", position_to_json(s)},
          {"rng", rng_to_json(s.rng)},
          {"log", log},
          {"undo", undo}};
}

State state_from_json(const json& j) {
  try {
    if (j.at("format").get<int>() != kStateFormat) fail("unsupported format");
    const auto version = j.at("rules_version").get<std::string>();
    if (!plays_rules_version(version)) fail("other rules version");
    State s;
    static_cast<Position&>(s) = position_from_json(j.at("position"));
    s.procedures = procedures_of(version);
    s.rng = rng_from_json(j.at("rng"));
    const auto bytes = core::from_hex(j.at("log").get<std::string>());
    if (!bytes || bytes->size() % 8 != 0) fail("log must be hex of 8-byte entries");
    for (std::size_t i = 0; i < bytes->size(); i += 8) {
      const auto* e = bytes->data() + i;
      if (e[0] >= static_cast<int>(LogKind::Count) ||
          e[1] > static_cast<int>(Audience::NotEngland)) {
        fail("unknown log entry");
      }
      s.log.push_back(LogEntry{static_cast<LogKind>(e[0]), static_cast<Audience>(e[1]), e[2], e[3],
                               e[4], e[5], static_cast<std::int16_t>(e[6] | (e[7] << 8))});
    }
    for (const auto& u : j.at("undo")) {
      s.undo.push_back(UndoPoint{position_from_json(u.at("position")),
                                 u.at("log_size").get<std::uint32_t>(), small_from(u.at("side"))});
      s.undo.back().position.procedures = s.procedures;
    }
    return s;
  } catch (const json::exception& e) {
    fail(std::string("malformed: ") + e.what());
  }
}

namespace {

// The fields before the log (v1) or its digest (v2): position, generator, counts, script.
void append_head(std::string& bytes, const State& s) {
  append_position(bytes, s);
  const auto& stream = s.rng.stream();
  bytes.append(stream.key().begin(), stream.key().end());
  for (std::uint64_t v :
       {stream.stream(), stream.block_counter(), static_cast<std::uint64_t>(stream.word_offset()),
        static_cast<std::uint64_t>(s.rng.script_position()),
        static_cast<std::uint64_t>(s.rng.script_queue().size()),
        static_cast<std::uint64_t>(s.log.size()), static_cast<std::uint64_t>(s.undo.size())}) {
    bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  for (const auto& o : s.rng.script_queue()) {
    bytes.push_back(static_cast<char>(o.kind));
    bytes.push_back(static_cast<char>(o.value));
  }
}

void append_log(std::string& bytes, std::span<const LogEntry> entries) {
  for (const auto& e : entries) {
    const char entry[8] = {static_cast<char>(e.kind),     static_cast<char>(e.audience),
                           static_cast<char>(e.a),        static_cast<char>(e.b),
                           static_cast<char>(e.c),        static_cast<char>(e.d),
                           static_cast<char>(e.n & 0xff), static_cast<char>((e.n >> 8) & 0xff)};
    bytes.append(entry, sizeof entry);
  }
}

void append_undo(std::string& bytes, const State& s) {
  for (const auto& point : s.undo) {
    append_position(bytes, point.position);
    bytes.append(reinterpret_cast<const char*>(&point.log_size), sizeof point.log_size);
    bytes.push_back(static_cast<char>(point.side));
  }
}

}  // namespace

std::string state_hash_v1(const State& s) {
  std::string bytes;
  bytes.reserve(2048 + s.log.size() * 8 + s.undo.size() * (kPositionBytesMax + 5));
  bytes.append("hots-state-1");
  append_head(bytes, s);
  append_log(bytes, s.log);
  append_undo(bytes, s);
  return core::to_hex(core::sha256(bytes));
}

std::string state_hash(const State& s) { return StateHasher().hash(s); }

std::string StateHasher::hash(const State& s) {
  static_assert(sizeof(LogEntry) == 8 && std::has_unique_object_representations_v<LogEntry>,
                "log entries are compared as bytes");
  const bool extends =
      fed_.size() <= s.log.size() &&
      (fed_.empty() || std::memcmp(fed_.data(), s.log.data(), fed_.size() * sizeof(LogEntry)) == 0);
  if (!extends) {
    fed_.clear();
    restart();
  }
  // finish() feeds what follows the first fed_count_ entries (still the old count).
  fed_.insert(fed_.end(), s.log.begin() + static_cast<std::ptrdiff_t>(fed_.size()), s.log.end());
  return finish(s);
}

std::string StateHasher::hash_grown(const State& s, bool grown) {
  if (!grown || fed_count_ > s.log.size()) restart();
  return finish(s);
}

std::string StateHasher::hash_cut(const State& s, std::size_t kept) {
  const std::size_t usable = std::min({kept, fed_count_, s.log.size()}) / kCheckpointEntries;
  checkpoints_.resize(std::min(checkpoints_.size(), usable));
  fed_count_ = checkpoints_.size() * kCheckpointEntries;
  log_ = checkpoints_.empty() ? core::Sha256() : checkpoints_.back();
  return finish(s);
}

void StateHasher::restart() {
  fed_count_ = 0;
  log_ = core::Sha256();
  checkpoints_.clear();
}

// Feeds the log's entries after the first fed_count_ to its digest, then hashes the state.
std::string StateHasher::finish(const State& s) {
  // A buffer of the hasher's own, its capacity kept: a late turn's undo history is tens of KiB.
  auto& bytes = bytes_;
  bytes.clear();
  bytes.reserve(2048 + kCheckpointEntries * 8 + s.undo.size() * (kPositionBytesMax + 5));
  // Up to each checkpoint in turn, where the digest so far is kept.
  while (fed_count_ < s.log.size()) {
    const std::size_t next =
        std::min(s.log.size(), (fed_count_ / kCheckpointEntries + 1) * kCheckpointEntries);
    bytes.clear();
    append_log(bytes, std::span<const LogEntry>(s.log).subspan(fed_count_, next - fed_count_));
    log_.update(bytes);
    fed_count_ = next;
    if (fed_count_ % kCheckpointEntries == 0) checkpoints_.push_back(log_);
  }
  core::Sha256 log = log_;  // finish() resets: the copy is finished, log_ goes on
  const core::Digest log_digest = log.finish();

  bytes.clear();
  bytes.append("hots-state-2");
  append_head(bytes, s);
  bytes.append(log_digest.begin(), log_digest.end());
  append_undo(bytes, s);
  return core::to_hex(core::sha256(bytes));
}

}  // namespace blockfog::hots
