#pragma once

// The whole game state as a value type (RULES 1.8). `Position` holds every game fact in
// fixed-size arrays (trivially copyable, so copies and undo points never allocate); `State`
// adds what grows or is secret: the random generator, the log and the undo history.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "rules/core/rng.h"
#include "rules/hots/data.h"
#include "rules/hots/log.h"

namespace blockfog::hots {

// Block places beyond the 23 map areas (RULES 1.5).
inline constexpr std::uint8_t kPool = kAreaCount;
inline constexpr std::uint8_t kNotInPlay = kAreaCount + 1;
inline constexpr std::uint8_t kDead = kAreaCount + 2;

// How a reserve entered its battle area (public, RULES 13.2): a border id, or one of these.
inline constexpr std::uint8_t kEntryBySea = 0xfe;
inline constexpr std::uint8_t kEntryCaptured = 0xfd;

// One block's state as a value: what setup, the state formats and tests read or write whole.
// `Position` keeps these fields in a `BlockTable`, a field at a time.
struct BlockState {
  std::uint8_t loc = kNotInPlay;  // area id, kPool, kNotInPlay or kDead
  std::uint8_t strength = 0;      // steps, 1..max while on the map
  bool moved = false;             // moved this game turn (RULES 4.2.2)
  bool reserve = false;           // battle reserve (RULES 4.6, 5.2)
  std::uint8_t entry = kNone;     // for a reserve: how it came (border, by sea, captured)
  bool acted = false;             // had its combat turn this round (RULES 5.4)
  bool arrival_hidden = false;    // retreated; its destination not yet published (13.5.3)

  bool operator==(const BlockState&) const = default;
};

// A set of blocks, a bit per block id: a block flag of every block in one word.
struct BlockBits {
  std::uint64_t bits = 0;

  bool operator[](int b) const { return (bits >> b) & 1U; }
  void set(int b, bool on) { bits = (bits & ~(std::uint64_t{1} << b)) | (std::uint64_t{on} << b); }
  bool operator==(const BlockBits&) const = default;
};

// A byte per block (a field of every block, or a constant per block).
using BlockBytes = std::array<std::uint8_t, kBlockCount>;

constexpr BlockBytes filled_per_block(std::uint8_t value) {
  BlockBytes a{};
  a.fill(value);
  return a;
}

// Tests of a byte per block, the blocks that pass as a bit per block. On x86 a test is four
// SSE2 compares (16, 16, 16 and 8 blocks) instead of a loop over the blocks; the orderings
// compare as signed bytes, so they hold for values below 128 (places, strengths, caps).
#if defined(__SSE2__)
template <typename RowTest>
std::uint64_t per_block(const BlockBytes& bytes, RowTest test) {
  static_assert(kBlockCount == 56);
  const auto* rows = reinterpret_cast<const __m128i*>(bytes.data());
  auto bits = [&](__m128i row, int i) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(test(row, i))));
  };
  return bits(_mm_loadu_si128(rows), 0) | bits(_mm_loadu_si128(rows + 1), 1) << 16 |
         bits(_mm_loadu_si128(rows + 2), 2) << 32 |
         (bits(_mm_loadl_epi64(rows + 3), 3) & 0xffU) << 48;
}
#endif

inline std::uint64_t bytes_equal(const BlockBytes& bytes, std::uint8_t value) {
#if defined(__SSE2__)
  const __m128i want = _mm_set1_epi8(static_cast<char>(value));
  return per_block(bytes, [&](__m128i row, int) { return _mm_cmpeq_epi8(row, want); });
#else
  std::uint64_t bits = 0;
  for (int b = 0; b < kBlockCount; ++b) bits |= std::uint64_t{bytes[b] == value} << b;
  return bits;
#endif
}

inline std::uint64_t bytes_below(const BlockBytes& bytes, std::uint8_t limit) {
#if defined(__SSE2__)
  const __m128i bound = _mm_set1_epi8(static_cast<char>(limit));
  return per_block(bytes, [&](__m128i row, int) { return _mm_cmplt_epi8(row, bound); });
#else
  std::uint64_t bits = 0;
  for (int b = 0; b < kBlockCount; ++b) bits |= std::uint64_t{bytes[b] < limit} << b;
  return bits;
#endif
}

inline std::uint64_t bytes_below(const BlockBytes& bytes, const BlockBytes& limits) {
#if defined(__SSE2__)
  const auto* bounds = reinterpret_cast<const __m128i*>(limits.data());
  return per_block(bytes, [&](__m128i row, int i) {
    const __m128i bound = i < 3 ? _mm_loadu_si128(bounds + i) : _mm_loadl_epi64(bounds + 3);
    return _mm_cmplt_epi8(row, bound);
  });
#else
  std::uint64_t bits = 0;
  for (int b = 0; b < kBlockCount; ++b) bits |= std::uint64_t{bytes[b] < limits[b]} << b;
  return bits;
#endif
}

// Every block's state, one array (or bit set) per field of `BlockState`: the engine's hot paths
// are scans over a side's 28 blocks, which then read contiguous bytes instead of 7-byte records.
struct BlockTable {
  BlockBytes loc = filled_per_block(kNotInPlay);
  BlockBytes strength{};
  BlockBytes entry = filled_per_block(kNone);
  BlockBits moved;           // RULES 4.2.2
  BlockBits reserve;         // RULES 4.6, 5.2
  BlockBits acted;           // RULES 5.4
  BlockBits arrival_hidden;  // RULES 13.5.3

  BlockState get(int b) const {
    return {loc[b], strength[b], moved[b], reserve[b], entry[b], acted[b], arrival_hidden[b]};
  }
  void set(int b, const BlockState& block) {
    loc[b] = block.loc;
    strength[b] = block.strength;
    moved.set(b, block.moved);
    reserve.set(b, block.reserve);
    entry[b] = block.entry;
    acted.set(b, block.acted);
    arrival_hidden.set(b, block.arrival_hidden);
  }
  // The blocks at `place` (an area or an off-map place), a bit per block: "a side's blocks in an
  // area" is then this and the side's mask.
  std::uint64_t at(std::uint8_t place) const { return bytes_equal(loc, place); }
  std::uint64_t on_map() const { return bytes_below(loc, kAreaCount); }
  bool operator==(const BlockTable&) const = default;
};

enum class CardPlace : std::uint8_t { Deck, Hand, Chosen, Played };

// One card's state as a value; `Position` keeps these fields in a `CardTable`.
struct CardState {
  CardPlace place = CardPlace::Deck;
  std::uint8_t holder = kNone;  // side index while in a hand, chosen or played
  std::uint8_t turn = 0;        // game turn in which it was played

  bool operator==(const CardState&) const = default;
};

// A byte per card (a field of every card).
template <typename T>
using CardBytes = std::array<T, kCardCount>;

// The cards whose byte equals `value`, a bit per card. On x86 two SSE2 compares (cards 0-15
// and 9-24) instead of a loop over the cards.
template <typename T>
std::uint32_t card_bytes_equal(const CardBytes<T>& bytes, T value) {
  static_assert(sizeof(T) == 1);
#if defined(__SSE2__)
  static_assert(kCardCount > 16 && kCardCount <= 32);
  const __m128i want = _mm_set1_epi8(static_cast<char>(value));
  const auto* data = reinterpret_cast<const char*>(bytes.data());
  auto bits = [&](const char* row) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row));
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, want)));
  };
  return bits(data) | bits(data + kCardCount - 16) << (kCardCount - 16);
#else
  std::uint32_t bits = 0;
  for (int c = 0; c < kCardCount; ++c) bits |= std::uint32_t{bytes[c] == value} << c;
  return bits;
#endif
}

// Every card's state, one array per field of `CardState` (see BlockTable).
struct CardTable {
  CardBytes<CardPlace> place{};
  CardBytes<std::uint8_t> holder = [] {
    CardBytes<std::uint8_t> none{};
    none.fill(kNone);
    return none;
  }();
  CardBytes<std::uint8_t> turn{};

  CardState get(int c) const { return {place[c], holder[c], turn[c]}; }
  void set(int c, const CardState& card) {
    place[c] = card.place;
    holder[c] = card.holder;
    turn[c] = card.turn;
  }
  std::array<CardState, kCardCount> all() const {  // as values, for checks and tests
    std::array<CardState, kCardCount> out{};
    for (int c = 0; c < kCardCount; ++c) out[c] = get(c);
    return out;
  }
  // The cards at `where`, a bit per card; those of one holder (a side index).
  std::uint32_t at(CardPlace where) const { return card_bytes_equal(place, where); }
  std::uint32_t held(CardPlace where, std::uint8_t side) const {
    return at(where) & card_bytes_equal(holder, side);
  }
  bool operator==(const CardTable&) const = default;
};

// The battle marker of an area (RULES 4.6.1): who attacks, and what makes a main attacker.
struct BattleMarker {
  std::uint8_t attacker = kNone;     // side index, kNone when there is no battle
  std::uint8_t main_origin = kNone;  // area the main attack came from (kNone: by sea, 4.10.4)
  std::uint8_t main_border = kNone;  // border it crossed (kNone: by sea)

  bool operator==(const BattleMarker&) const = default;
};

// Named states of the game (RULES 14). The event states (#2-9) are one Phase with an
// EventStage, the winter's (#18-26) one Phase with a WinterStep.
enum class Phase : std::uint8_t {
  CardChoice,        // #1, both sides
  Event,             // #3-9, the event player
  Move,              // #11, the moving player
  BattleChoice,      // #12, P1
  Combat,            // #13, owner of the current initiative step
  HitAllocation,     // #14, owner of the side taking hits
  MandatoryRetreat,  // #15, the attacker after round 3
  Regroup,           // #16, the victor
  BorderRaid,        // #17, England
  Winter,            // #18-26, the winter's steps (WinterStep)
  GameOver,          // #27
};

enum class EndReason : std::uint8_t {
  None,
  AllNoblesScotland,  // England controls no noble (RULES 12.2.3)
  AllNoblesEngland,   // Scotland controls no noble
  KingKilled,         // the Scottish King eliminated in battle (RULES 12.2.1)
  EdwardIIKilled,     // Edward II eliminated in battle (RULES 12.2.2)
  NoblesMajority,     // more nobles at the end of the scenario (RULES 12.1.2)
  WallaceTieBreak,    // 7-7, decided by Wallace (RULES 12.1.3, 12.3.4)
};

// Steps of the winter turn that wait for a decision (RULES 10, 14 #18-26). The opaque steps
// (13.1.4) are entered every winter and wait for their owner's `done`; Wallace's question (#23)
// is asked only when it applies, within Scotland's step that others see as one "Scotland:
// winter" (23-24). Values are stored: a new step goes at the end.
enum class WinterStep : std::uint8_t {
  None,
  NobleHome,        // #18: a Bruce or Comyn home to choose (public)
  ScotlandHomes,    // #19-20 "Scotland: winter": Moray home, King to a cathedral
  EnglandDisband,   // #21-22 "England: winter": Edward, English disbanding
  ScotlandDisband,  // #24 "Scotland: winter": Scottish disbanding (hots-2: Wallace too, #23)
  ScotlandBuild,    // #25 "Scotland: winter": builds
  EnglandBuild,     // #26 "England: winter": builds
  ScotlandWallace,  // #23 "Scotland: winter": Wallace to Selkirk or not (hots-3, before #24)
};

// Where the event card's resolution stands (RULES 7, 14 #2-9).
enum class EventStage : std::uint8_t {
  Start,          // the card's first decision, or a coronation instead (8)
  HeraldName,     // after a roll of 1-4: name the noble (7.2.2)
  PillageLosses,  // the pillaged side allocates tied hits (7.3.2), "pillage losses"
  PillageGains,   // the pillager places the pillaged steps (7.3.3)
  SeaMove,        // the second block may follow the first (7.4.1)
  Victuals,       // more steps in the same area (7.6)
};

struct EventState {
  EventStage stage = EventStage::Start;
  std::uint8_t area = kNone;   // pillage target, sea-move origin, victuals area
  std::uint8_t dest = kNone;   // sea-move destination, area receiving pillaged steps
  std::uint8_t count = 0;      // blocks sea-moved, steps added
  std::uint8_t hits = 0;       // pillage hits still to apply
  std::uint8_t inflicted = 0;  // pillage hits inflicted (k, 7.3.3)

  bool operator==(const EventState&) const = default;
};

struct WinterState {
  WinterStep step = WinterStep::None;
  std::uint8_t homing = kNone;  // the Bruce or Comyn block whose home is being chosen
  std::uint16_t placed = 0;     // bit per noble index placed by 10.1.2 / 10.2
  bool edward_decided = false;  // 10.6 answered (or nothing to ask)
  bool edward_winters = false;  // Edward I winters in Scotland this winter
  bool moray_moved = false;
  bool king_moved = false;
  bool wallace_moved = false;
  std::array<std::uint8_t, kAreaCount> rp{};  // replacement points left per area (10.11, 10.12)

  bool operator==(const WinterState&) const = default;
};

// The battle being fought (RULES 5), if any.
struct BattleState {
  std::uint8_t area = kNone;
  std::uint8_t round = 0;         // 1-3
  std::uint8_t attacker = kNone;  // side index; changes with battlefield control (5.9.2)
  std::uint8_t step = 0;          // 0-5: defending A, attacking A, ..., attacking C (5.4.2)
  std::uint8_t victor = kNone;    // once the rounds are over
  std::uint8_t hits = 0;          // hits of the last shot still to be applied (5.7)
  std::uint8_t target = kNone;    // side taking them

  bool operator==(const BattleState&) const = default;
};

// A block moving step by step through the move phase (RULES 4.3.7).
struct MovingBlock {
  std::uint8_t block = kNone;
  std::uint8_t origin = kNone;    // area it started from
  std::uint8_t previous = kNone;  // area before the current one (no doubling back, 4.3.2.5)
  std::uint8_t steps = 0;
  bool crossed_anglo_scottish = false;  // pays its own MP (RULES 4.1.3)

  bool operator==(const MovingBlock&) const = default;
};

// The table 14 a game follows. hots-3 (RULES 4.11, 5.12, 7.3.3, 10.8, 14 "Undo"): the move
// phase ends only with `end_move_phase`, a regroup that public facts rule out is skipped, the
// pillage gains end with the last step placed, Wallace has a step of his own before Scottish
// disbanding, and the Bruce/Comyn home choices clear the undo history. hots-4 (RULES 5.12, 13.2,
// table 14 #16) also skips the regroup when every block the victor has in the battle area was
// revealed in the battle (or named when captured) and none of them can regroup.
inline constexpr std::uint8_t kProcedures2 = 2;  // hots-1 and hots-2
inline constexpr std::uint8_t kProcedures3 = 3;  // hots-3
inline constexpr std::uint8_t kProcedures4 = 4;  // hots-4

struct Position {
  BlockTable blocks{};
  CardTable cards{};
  std::array<BattleMarker, kAreaCount> battles{};
  // Per side, per border: crossings in the current limit window (RULES 4.4).
  std::array<std::array<std::uint8_t, kBorderCount>, 2> crossings{};
  // Per border: side that last crossed it into a contested area, or kNone (RULES 4.8).
  std::array<std::uint8_t, kBorderCount> border_use{};

  std::uint8_t scenario = 0;
  bool schiltroms = false;  // option (RULES 15.1)
  // The procedures of the game's rules version (engine.h): kProcedures4, kProcedures3 for a
  // game created under hots-3, or kProcedures2 for one created under hots-1 or hots-2. The
  // formats name the version (to_json) or write it after their header (encode_state);
  // append_position and so the state hash leave it out.
  std::uint8_t procedures = kProcedures4;
  std::uint16_t year = 0;
  std::uint8_t turn = 0;  // game turn within the year, 1-5 (RULES 2.3)
  Phase phase = Phase::CardChoice;
  std::uint8_t p1 = kNone;             // side index of Player 1 this game turn
  std::uint8_t player_turn = 0;        // 0: P1's player turn, 1: P2's
  std::uint8_t active = kNone;         // side awaited in single-side phases
  bool edward_ii = false;              // RULES 6.1
  bool edward_wintered_last = false;   // RULES 10.6.1
  bool king_crowned = false;           // RULES 8.1
  bool french_knights_added = false;   // RULES 10.10
  std::uint8_t truce_against = kNone;  // side a Truce restricts this game turn (RULES 7.5)
  bool double_event = false;           // both played events: the year ends after this turn (3.3)

  // Move phase (RULES 4).
  std::uint8_t mp = 0;
  std::uint32_t activated = 0;  // bit per area activated this phase (RULES 4.1.2)
  MovingBlock moving{};

  BattleState battle{};
  WinterState winter{};
  EventState event{};
  std::uint32_t defection_areas = 0;  // bit per area with a pending defection battle (5.14)
  bool in_defection = false;          // fighting an event's defection battles

  EndReason end_reason = EndReason::None;
  std::uint8_t winner = kNone;

  bool operator==(const Position&) const = default;
};

inline bool follows_hots3(const Position& p) { return p.procedures >= kProcedures3; }
inline bool follows_hots4(const Position& p) { return p.procedures >= kProcedures4; }

struct UndoPoint {
  Position position;
  std::uint32_t log_size = 0;
  std::uint8_t side = kNone;  // whose decision this point takes back

  bool operator==(const UndoPoint&) const = default;
};

// A copy of `from` into `to` through libc's memcpy. GCC expands a copy of a known size this
// large as `rep movsq`, which costs about twice the wide moves memcpy picks at run time; an
// undo point is copied on most decisions of a playout (RULES 14, Undo).
inline void copy_position(Position& to, const Position& from) {
  static_assert(std::is_trivially_copyable_v<Position>);
  std::size_t size = sizeof(Position);
  asm("" : "+r"(size));  // the size unknown to the compiler: a call, not an inline copy
  std::memcpy(&to, &from, size);
}

// The undo history (RULES 14, Undo): a stack of points, oldest first, with the operations of a
// vector that the engine and the formats use. Points taken off stay as room for later ones, so
// that a new point is a copy into a point that already exists (copy_position), without first
// building a default Position. Only the points below size() are part of the state.
class UndoHistory {
 public:
  UndoHistory() = default;
  UndoHistory(const UndoHistory& other) : points_(other.begin(), other.end()), size_(other.size_) {}
  UndoHistory(UndoHistory&&) = default;
  UndoHistory& operator=(const UndoHistory& other) {
    if (this != &other) {
      points_.assign(other.begin(), other.end());
      size_ = other.size_;
    }
    return *this;
  }
  UndoHistory& operator=(UndoHistory&&) = default;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void reserve(std::size_t n) { points_.reserve(n); }
  UndoPoint* begin() { return points_.data(); }
  UndoPoint* end() { return points_.data() + size_; }
  const UndoPoint* begin() const { return points_.data(); }
  const UndoPoint* end() const { return points_.data() + size_; }
  UndoPoint& back() { return points_[size_ - 1]; }
  const UndoPoint& back() const { return points_[size_ - 1]; }

  void clear() { size_ = 0; }
  void pop_back() { --size_; }
  void push_back(const UndoPoint& point) {
    if (size_ == points_.size()) {
      points_.push_back(point);
    } else {
      points_[size_] = point;
    }
    ++size_;
  }
  // A point restoring `position`: the same as push_back(UndoPoint{position, log_size, side}).
  void push(const Position& position, std::uint32_t log_size, std::uint8_t side) {
    if (size_ == points_.size()) {
      points_.push_back(UndoPoint{position, log_size, side});
    } else {
      UndoPoint& point = points_[size_];
      copy_position(point.position, position);
      point.log_size = log_size;
      point.side = side;
    }
    ++size_;
  }
  // New points (beyond the old size) are default points, as std::vector::resize makes them.
  void resize(std::size_t n) {
    if (n > points_.size()) points_.resize(n);
    for (std::size_t i = size_; i < n; ++i) points_[i] = UndoPoint{};
    size_ = n;
  }

  bool operator==(const UndoHistory& other) const {
    return std::equal(begin(), end(), other.begin(), other.end());
  }

 private:
  std::vector<UndoPoint> points_;  // points_[size_...] are room, not state
  std::size_t size_ = 0;
};

struct State : Position {
  core::Rng rng;
  std::vector<LogEntry> log;
  UndoHistory undo;

  bool operator==(const State&) const = default;
};

// `from` into `to`, whose first `log_kept` log entries the caller knows to equal from's (the
// server copies each state into the copy of the state one action before, whose log is, but
// for the last action's lines, the same): only the rest of the log is copied. Every member of
// State is copied here; the static_assert notices a new one.
inline void copy_state(State& to, const State& from, std::size_t log_kept) {
  static_assert(sizeof(State) == sizeof(Position) + sizeof(core::Rng) +
                                     sizeof(std::vector<LogEntry>) + sizeof(UndoHistory),
                "copy_state copies every member of State: add the new one");
  copy_position(to, from);
  to.rng = from.rng;
  to.log.resize(log_kept);
  to.log.insert(to.log.end(), from.log.begin() + static_cast<std::ptrdiff_t>(log_kept),
                from.log.end());
  to.undo = from.undo;
}

// Small queries on a position, shared by every phase. They are on every hot path of the
// engine, so they scan only the 28 blocks of the side concerned (blocks are ordered by side,
// checked when the data is loaded).
inline Side side_of(int index) { return static_cast<Side>(index); }
inline std::uint8_t index_of(Side side) { return static_cast<std::uint8_t>(side); }

inline bool on_map(const Position& p, BlockId b) { return p.blocks.loc[b] < kAreaCount; }
inline Side owner_of(BlockId b) { return b < kBlocksPerSide ? Side::Scotland : Side::England; }
inline int first_block(Side side) { return side == Side::Scotland ? 0 : kBlocksPerSide; }

// The number of set bits. Without POPCNT (baseline x86-64) std::popcount is a call into
// libgcc, 2% of a playout's time; the bit-set queries count inline instead.
constexpr int count_bits(std::uint64_t x) {
#if defined(__POPCNT__)
  return std::popcount(x);
#else
  x -= (x >> 1) & 0x5555555555555555U;
  x = (x & 0x3333333333333333U) + ((x >> 2) & 0x3333333333333333U);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fU;
  return static_cast<int>((x * 0x0101010101010101U) >> 56);
#endif
}
static_assert(count_bits(0) == 0 && count_bits(~std::uint64_t{0}) == 64 &&
              count_bits(0x8000000000000001U) == 2 && count_bits(0x00f0f0f0f0f0f0f0U) == 28);

// A side's blocks, a bit per block (Scotland's are blocks 0-27).
inline constexpr std::uint64_t kScottishBlocks = (std::uint64_t{1} << kBlocksPerSide) - 1;
inline std::uint64_t blocks_of(Side side) {
  return side == Side::Scotland ? kScottishBlocks : kScottishBlocks << kBlocksPerSide;
}
// The blocks of `side` in `area` (or an off-map place), a bit per block.
inline std::uint64_t blocks_in(const Position& p, AreaId area, Side side) {
  return p.blocks.at(area) & blocks_of(side);
}

// The blocks of `side` standing in one of `areas` (a bit per map area), a bit per block: one
// pass over the side's places without a branch (a place off the map reads a bit above 22,
// never set).
inline std::uint64_t blocks_in_areas(const Position& p, std::uint32_t areas, Side side) {
  const int first = first_block(side);
  std::uint64_t bits = 0;
  for (int i = 0; i < kBlocksPerSide; ++i) {
    bits |= std::uint64_t{(areas >> p.blocks.loc[first + i]) & 1U} << i;
  }
  return bits << first;
}

inline int count_in_area(const Position& p, AreaId area, Side side) {
  return count_bits(blocks_in(p, area, side));
}
inline int count_in_area(const Position& p, AreaId area) {  // both sides
  return count_bits(p.blocks.at(area));
}
inline bool any_in_area(const Position& p, AreaId area, Side side) {
  return blocks_in(p, area, side) != 0;
}

// RULES 1.6, from `side`'s point of view.
inline bool has_enemy(const Position& p, AreaId area, Side side) {
  return any_in_area(p, area, core::other_side(side));
}
inline bool is_friendly(const Position& p, AreaId area, Side side) {
  return any_in_area(p, area, side) && !has_enemy(p, area, side);
}
inline bool is_vacant(const Position& p, AreaId area) { return p.blocks.at(area) == 0; }
inline bool is_contested(const Position& p, AreaId area) {
  const std::uint64_t here = p.blocks.at(area);
  return (here & blocks_of(Side::Scotland)) != 0 && (here & blocks_of(Side::England)) != 0;
}

// Which map areas hold blocks of each side, a bit per area, from one pass over the blocks: for
// queries that only ask whether a side is somewhere (friendly, enemy, contested; RULES 1.6).
// Much cheaper than counting (an OR in a register per block, no table in memory).
struct Presence {
  std::array<std::uint32_t, 2> held{};  // per side

  explicit Presence(const Position& p)
      : held{areas_of(p, Side::Scotland), areas_of(p, Side::England)} {}

  // The areas holding blocks of one side only (a pass over its 28 places, a table lookup each).
  static std::uint32_t areas_of(const Position& p, Side side) {
    static constexpr auto kAreaBit = [] {  // per place: its bit, none for places off the map
      std::array<std::uint32_t, 256> bits{};
      for (int a = 0; a < kAreaCount; ++a) bits[a] = 1U << a;
      return bits;
    }();
    std::uint32_t bits = 0;
    const int first = first_block(side);
    for (int b = first; b < first + kBlocksPerSide; ++b) bits |= kAreaBit[p.blocks.loc[b]];
    return bits;
  }
  bool has(AreaId area, Side side) const { return (held[index_of(side)] >> area) & 1U; }
  bool has_enemy(AreaId area, Side side) const { return has(area, core::other_side(side)); }
  std::uint32_t contested() const { return held[0] & held[1]; }
};

// The blocks in `area` stand up, revealed as no reserve any more (RULES 5.11.2, 5.13).
inline void stand_up(Position& p, AreaId area) {
  const std::uint64_t here = p.blocks.at(area);
  p.blocks.reserve.bits &= ~here;
  for (std::uint64_t bits = here; bits != 0; bits &= bits - 1) {
    p.blocks.entry[std::countr_zero(bits)] = kNone;
  }
}

int nobles_controlled(const Position& p, Side side);  // RULES 1.4.4, Moray included
int two_block_nobles_controlled(const Position& p, Side side);

}  // namespace blockfog::hots
