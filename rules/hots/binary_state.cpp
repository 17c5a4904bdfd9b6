#include "rules/hots/binary_state.h"

#include <cstdlib>
#include <cstring>

#include "rules/hots/serialize.h"

namespace blockfog::hots {
namespace {

// "hots-bin-2" is followed by the procedures byte (Position::procedures); "hots-bin-1", written
// before hots-3, has none: its states follow the procedures of hots-2.
constexpr std::string_view kMagic = "hots-bin-2";
constexpr std::string_view kMagic1 = "hots-bin-1";
static_assert(kMagic.size() == kMagic1.size());

void put(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

// put() and append() into room the caller made.
class ByteWriter {
 public:
  explicit ByteWriter(char* at) : at_(at) {}
  void put(std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) *at_++ = static_cast<char>((value >> (8 * i)) & 0xff);
  }
  template <typename It>
  void append(It begin, It end) {
    for (; begin != end; ++begin) *at_++ = static_cast<char>(*begin);
  }
  char* at() const { return at_; }

 private:
  char* at_;
};

// Reads what put() wrote, in the same order; a short input is a format error.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}

  std::uint64_t get(int bytes) {
    if (pos_ + static_cast<std::size_t>(bytes) > bytes_.size()) {
      throw StateFormatError("binary state: truncated");
    }
    std::uint64_t value = 0;
    for (int i = 0; i < bytes; ++i) {
      value |= std::uint64_t{static_cast<unsigned char>(bytes_[pos_++])} << (8 * i);
    }
    return value;
  }
  std::uint8_t byte() { return static_cast<std::uint8_t>(get(1)); }
  bool flag() {
    const auto v = byte();
    if (v > 1) throw StateFormatError("binary state: a flag is neither 0 nor 1");
    return v == 1;
  }
  std::string_view take(std::size_t n) {
    if (pos_ + n > bytes_.size()) throw StateFormatError("binary state: truncated");
    const auto part = bytes_.substr(pos_, n);
    pos_ += n;
    return part;
  }
  bool at_end() const { return pos_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

// The inverse of append_position, field for field.
Position read_position(Reader& in) {
  Position p;
  for (int b = 0; b < kBlockCount; ++b) {
    BlockState block;
    block.loc = in.byte();
    block.strength = in.byte();
    block.moved = in.flag();
    block.reserve = in.flag();
    block.entry = in.byte();
    block.acted = in.flag();
    block.arrival_hidden = in.flag();
    p.blocks.set(b, block);
  }
  for (int c = 0; c < kCardCount; ++c) {
    const auto place = in.byte();
    if (place > static_cast<int>(CardPlace::Played)) throw StateFormatError("binary: card place");
    p.cards.place[c] = static_cast<CardPlace>(place);
    p.cards.holder[c] = in.byte();
    p.cards.turn[c] = in.byte();
  }
  for (auto& m : p.battles) {
    m.attacker = in.byte();
    m.main_origin = in.byte();
    m.main_border = in.byte();
  }
  for (auto& side : p.crossings) {
    for (auto& n : side) n = in.byte();
  }
  for (auto& u : p.border_use) u = in.byte();
  p.scenario = in.byte();
  p.schiltroms = in.flag();
  p.turn = in.byte();
  p.phase = static_cast<Phase>(in.byte());
  p.p1 = in.byte();
  p.player_turn = in.byte();
  p.active = in.byte();
  p.edward_ii = in.flag();
  p.edward_wintered_last = in.flag();
  p.king_crowned = in.flag();
  p.french_knights_added = in.flag();
  p.truce_against = in.byte();
  p.double_event = in.flag();
  p.mp = in.byte();
  p.moving.block = in.byte();
  p.moving.origin = in.byte();
  p.moving.previous = in.byte();
  p.moving.steps = in.byte();
  p.moving.crossed_anglo_scottish = in.flag();
  p.battle.area = in.byte();
  p.battle.round = in.byte();
  p.battle.attacker = in.byte();
  p.battle.step = in.byte();
  p.battle.victor = in.byte();
  p.battle.hits = in.byte();
  p.battle.target = in.byte();
  p.winter.step = static_cast<WinterStep>(in.byte());
  p.winter.homing = in.byte();
  p.winter.edward_decided = in.flag();
  p.winter.edward_winters = in.flag();
  p.winter.moray_moved = in.flag();
  p.winter.king_moved = in.flag();
  p.winter.wallace_moved = in.flag();
  p.event.stage = static_cast<EventStage>(in.byte());
  p.event.area = in.byte();
  p.event.dest = in.byte();
  p.event.count = in.byte();
  p.event.hits = in.byte();
  p.event.inflicted = in.byte();
  p.in_defection = in.flag();
  p.end_reason = static_cast<EndReason>(in.byte());
  p.winner = in.byte();
  for (auto& rp : p.winter.rp) rp = in.byte();
  p.year = static_cast<std::uint16_t>(in.get(2));
  p.activated = static_cast<std::uint32_t>(in.get(4));
  p.winter.placed = static_cast<std::uint16_t>(in.get(2));
  p.defection_areas = static_cast<std::uint32_t>(in.get(4));
  return p;
}

}  // namespace

void append_position(std::string& out, const Position& p) {
  // The bytes are stored through a pointer into room made once (state_hash writes every undo
  // point on each call, and pushing them byte by byte was most of its cost).
  const std::size_t start = out.size();
  out.resize(start + kPositionBytesMax);
  ByteWriter w(out.data() + start);
  for (int index = 0; index < kBlockCount; ++index) {
    const BlockState b = p.blocks.get(index);
    for (int v : {int(b.loc), int(b.strength), int(b.moved), int(b.reserve), int(b.entry),
                  int(b.acted), int(b.arrival_hidden)}) {
      w.put(static_cast<std::uint64_t>(v), 1);
    }
  }
  for (const auto& c : p.cards.all()) {
    w.put(static_cast<int>(c.place), 1);
    w.put(c.holder, 1);
    w.put(c.turn, 1);
  }
  for (const auto& m : p.battles) {
    w.put(m.attacker, 1);
    w.put(m.main_origin, 1);
    w.put(m.main_border, 1);
  }
  for (const auto& side : p.crossings) w.append(side.begin(), side.end());
  w.append(p.border_use.begin(), p.border_use.end());
  for (int v : {int(p.scenario),
                int(p.schiltroms),
                int(p.turn),
                static_cast<int>(p.phase),
                int(p.p1),
                int(p.player_turn),
                int(p.active),
                int(p.edward_ii),
                int(p.edward_wintered_last),
                int(p.king_crowned),
                int(p.french_knights_added),
                int(p.truce_against),
                int(p.double_event),
                int(p.mp),
                int(p.moving.block),
                int(p.moving.origin),
                int(p.moving.previous),
                int(p.moving.steps),
                int(p.moving.crossed_anglo_scottish),
                int(p.battle.area),
                int(p.battle.round),
                int(p.battle.attacker),
                int(p.battle.step),
                int(p.battle.victor),
                int(p.battle.hits),
                int(p.battle.target),
                static_cast<int>(p.winter.step),
                int(p.winter.homing),
                int(p.winter.edward_decided),
                int(p.winter.edward_winters),
                int(p.winter.moray_moved),
                int(p.winter.king_moved),
                int(p.winter.wallace_moved),
                static_cast<int>(p.event.stage),
                int(p.event.area),
                int(p.event.dest),
                int(p.event.count),
                int(p.event.hits),
                int(p.event.inflicted),
                int(p.in_defection),
                static_cast<int>(p.end_reason),
                int(p.winner)}) {
    w.put(static_cast<std::uint64_t>(v), 1);
  }
  w.append(p.winter.rp.begin(), p.winter.rp.end());
  w.put(p.year, 2);
  w.put(p.activated, 4);
  w.put(p.winter.placed, 2);
  w.put(p.defection_areas, 4);
  const auto written = static_cast<std::size_t>(w.at() - (out.data() + start));
  if (written > kPositionBytesMax) std::abort();  // a field wider than its own size: a bug here
  out.resize(start + written);
}

void encode_state(const State& s, std::string& out) {
  out.clear();
  out.reserve(kMagic.size() + 513 + s.log.size() * 8 + s.undo.size() * 400);
  out.append(kMagic);
  put(out, s.procedures, 1);
  append_position(out, s);
  const auto& stream = s.rng.stream();
  out.append(stream.key().begin(), stream.key().end());
  put(out, stream.stream(), 8);
  put(out, stream.block_counter(), 8);
  put(out, stream.word_offset(), 4);
  put(out, s.rng.script_queue().size(), 4);
  for (const auto& o : s.rng.script_queue()) {
    put(out, static_cast<std::uint64_t>(o.kind), 1);
    put(out, static_cast<std::uint32_t>(o.value), 4);
  }
  put(out, s.rng.script_position(), 4);
  put(out, s.log.size(), 4);
  // The log is most of a late state: 8 bytes per entry, written in place.
  const std::size_t at = out.size();
  out.resize(at + s.log.size() * 8);
  char* dst = out.data() + at;
  for (const auto& e : s.log) {
    const auto n = static_cast<std::uint16_t>(e.n);
    const char entry[8] = {static_cast<char>(e.kind),   static_cast<char>(e.audience),
                           static_cast<char>(e.a),      static_cast<char>(e.b),
                           static_cast<char>(e.c),      static_cast<char>(e.d),
                           static_cast<char>(n & 0xff), static_cast<char>(n >> 8)};
    std::memcpy(dst, entry, sizeof entry);
    dst += sizeof entry;
  }
  put(out, s.undo.size(), 4);
  for (const auto& point : s.undo) {
    append_position(out, point.position);
    put(out, point.log_size, 4);
    put(out, point.side, 1);
  }
}

State decode_state(std::string_view bytes) {
  Reader in(bytes);
  const auto magic = in.take(kMagic.size());
  if (magic != kMagic && magic != kMagic1) throw StateFormatError("binary state: unknown format");
  const std::uint8_t procedures = magic == kMagic1 ? kProcedures2 : in.byte();
  if (procedures != kProcedures2 && procedures != kProcedures3 && procedures != kProcedures4) {
    throw StateFormatError("binary state: unknown procedures");
  }
  State s;
  static_cast<Position&>(s) = read_position(in);
  s.procedures = procedures;
  core::Seed key{};
  for (auto& k : key) k = in.byte();
  const auto stream = in.get(8);
  const auto counter = in.get(8);
  const auto offset = static_cast<std::uint32_t>(in.get(4));
  if (!core::ChaCha20Stream::is_valid_position(counter, offset)) {
    throw StateFormatError("binary state: bad generator position");
  }
  std::vector<core::ScriptedOutcome> script(in.get(4));
  for (auto& o : script) {
    o.kind = static_cast<core::ScriptedOutcome::Kind>(in.byte());
    o.value = static_cast<int>(static_cast<std::int32_t>(in.get(4)));
  }
  const auto position = in.get(4);
  s.rng = core::Rng::restore(core::ChaCha20Stream::restore(key, stream, counter, offset),
                             std::move(script), position);
  s.log.resize(in.get(4));
  for (auto& e : s.log) {
    const auto* raw = reinterpret_cast<const unsigned char*>(in.take(8).data());
    const auto kind = raw[0];
    const auto audience = raw[1];
    if (kind >= static_cast<int>(LogKind::Count) ||
        audience > static_cast<int>(Audience::NotEngland)) {
      throw StateFormatError("binary state: unknown log entry");
    }
    e.kind = static_cast<LogKind>(kind);
    e.audience = static_cast<Audience>(audience);
    e.a = raw[2];
    e.b = raw[3];
    e.c = raw[4];
    e.d = raw[5];
    e.n = static_cast<std::int16_t>(raw[6] | (raw[7] << 8));
  }
  s.undo.resize(in.get(4));
  for (auto& point : s.undo) {
    point.position = read_position(in);
    point.position.procedures = procedures;
    point.log_size = static_cast<std::uint32_t>(in.get(4));
    point.side = in.byte();
  }
  if (!in.at_end()) throw StateFormatError("binary state: trailing bytes");
  return s;
}

}  // namespace blockfog::hots
