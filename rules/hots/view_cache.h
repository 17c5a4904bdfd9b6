#pragma once

// The view cache: the parts of a role's view kept in the caller's core::ViewMemo and reused
// while what they are written from is unchanged. view.cpp decides what each role may see
// (RULES 13); this decides only when a part's text may have changed.
//
// Contract:
// - Inputs. An area's text (the elements of the "areas" array) is written from AreaInputs: the
//   role, whether it is the move phase and who moves in it, every block's place, strength,
//   entry, moved, reserve and arrival_hidden, and the battle markers. Each other kept part
//   (borders, cards, nobles, pools) is written from the bytes its key holds, the role always
//   among them (memoized()).
// - Reuse. An area's text is copied from the memo when none of its inputs changed for a block
//   that stands or stood there and its battle marker is the same (dirty_areas()); every area
//   is written again when the role, the phase's being the move phase or (in it) the moving side
//   changed. A part is copied when its key's bytes equal those it was last written from.
// - Invariant: the view's text is byte for byte the same with or without a memo, whichever
//   states the memo saw before. Debug builds check every reuse against a fresh text;
//   tests/rules/view_cache_property_test.cpp and `hots-sim --check` compare whole views.
// A memo serves one role: one per seat, reused for each new state of a game, as the server
// keeps them (a memo given another role's view writes everything again).

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "rules/core/game.h"
#include "rules/core/json_writer.h"
#include "rules/core/role.h"
#include "rules/core/view_layout.h"
#include "rules/hots/state.h"

namespace blockfog::hots::detail {

// Everything an area's text is written from, for all areas at once, as it was when an areas
// array was written.
struct AreaInputs {
  core::Role role = core::Role::Observer;
  bool move_phase = false;      // moved counts show only in the move phase
  std::uint8_t active = kNone;  // whose blocks may be pinned (RULES 4.7)
  BlockBytes loc{};
  BlockBytes strength{};
  BlockBytes entry{};
  BlockBits moved;
  BlockBits reserve;
  BlockBits arrival_hidden;
  std::array<BattleMarker, kAreaCount> battles{};

  void keep(const Position& p, core::Role r);
};

static_assert(kAreaCount <= 32, "areas are a bit each in a 32-bit word");
inline constexpr std::uint32_t kAllAreas = (std::uint32_t{1} << kAreaCount) - 1;

// The areas whose text may differ from when `was` was kept, a bit per area: where a block that
// changed in any input is or was, and where the battle marker changed; all of them when the
// role, the move phase or the side moving in it did. An action changes one or two areas.
std::uint32_t dirty_areas(const AreaInputs& was, const Position& p, core::Role role);

// What was last written for one role. The areas array's text is kept as it was written
// (commas included), so that a run of unchanged areas is copied from one stretch of memory in
// one copy: a string of its own per area made every view read 23 places all over the heap.
struct ViewPartsMemo final : core::ViewMemo::Parts {
  bool filled = false;
  AreaInputs inputs;  // what `texts` was written from
  std::string texts;
  std::array<core::TextSpan, kAreaCount> text_at{};  // area a's text in `texts`

  std::string_view text(AreaId a) const { return core::text_of(texts, text_at[a]); }

  // Other parts kept whole, each with the bytes it was written from (memoized()).
  struct Part {
    bool filled = false;
    std::string key;
    std::string text;
  };
  enum PartId { kBorders, kCards, kNobles, kPools, kParts };
  std::array<Part, kParts> parts;
  std::string next_key;  // the key being made (capacity kept)
};

// The memo's parts, made on first use; null without a memo.
ViewPartsMemo* parts_of(core::ViewMemo* memo);

template <typename Bytes>
void append_bytes(std::string& key, const Bytes& bytes) {
  static_assert(sizeof(bytes[0]) == 1);
  key.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

inline void append_bits(std::string& key, std::uint64_t bits) {
  key.append(reinterpret_cast<const char*>(&bits), sizeof bits);
}

// Writes one part of the view with `write(JsonWriter&)`, which must write it from nothing but
// what `append_key(std::string&)` appends as bytes (the role included): from the memo when
// those bytes are as the last time. Without a memo, simply writes it.
template <typename AppendKey, typename Write>
void memoized(core::JsonWriter& w, ViewPartsMemo* memo, ViewPartsMemo::PartId id,
              AppendKey append_key, Write write) {
  if (!memo) return write(w);
  auto& part = memo->parts[id];
  auto& key = memo->next_key;
  key.clear();
  append_key(key);
  if (part.filled && key == part.key) {
#ifndef NDEBUG
    std::string fresh;
    core::JsonWriter check(fresh);
    write(check);
    assert(fresh == part.text);  // the key holds all the text is written from
#endif
  } else {
    part.text.clear();
    core::JsonWriter own(part.text);
    write(own);
    part.key.swap(key);
    part.filled = true;
  }
  w.raw(part.text);
}

// After the areas array written into `out` from `p` for `role` (area a's text at text_at[a]):
// keeps it as the memo's areas.
void keep_areas(ViewPartsMemo& memo, const std::string& out,
                std::array<core::TextSpan, kAreaCount> text_at, const Position& p, core::Role role);

// Writes the areas array into `out` through `w`, each area with `write_area(JsonWriter&,
// AreaId)` (which must write it from AreaInputs alone) unless dirty_areas() leaves it as the
// memo has it; then keeps the array in the memo.
template <typename WriteArea>
void memoized_areas(core::JsonWriter& w, std::string& out, const Position& p, core::Role role,
                    ViewPartsMemo& memo, WriteArea write_area) {
  w.begin_array();
  const std::uint32_t dirty = memo.filled ? dirty_areas(memo.inputs, p, role) : kAllAreas;
  std::array<core::TextSpan, kAreaCount> text_at{};  // where each area is written in `out`
  for (AreaId a = 0; a < kAreaCount;) {
    if ((dirty >> a) & 1U) {
      text_at[a].begin = out.size() + (a > 0 ? 1 : 0);  // after the comma that separates it
      write_area(w, a);
      text_at[a].end = out.size();
      ++a;
      continue;
    }
    // A run of areas none of whose inputs changed: their last texts, in one copy.
    AreaId last = a;
    while (last + 1 < kAreaCount && !((dirty >> (last + 1)) & 1U)) ++last;
    const auto from = memo.text_at[a].begin;
    std::array<core::TextSpan, kAreaCount> spans;
    for (AreaId k = a; k <= last; ++k) {
      spans[k - a] = {memo.text_at[k].begin - from, memo.text_at[k].end - from};
#ifndef NDEBUG
      // The inputs must hold all an area's text is written from: checked on every reuse.
      std::string fresh;
      core::JsonWriter area(fresh);
      write_area(area, k);
      assert(fresh == memo.text(k));
#endif
    }
    const auto base = out.size() + (a > 0 ? 1 : 0);
    w.raw_elements(std::string_view(memo.texts).substr(from, memo.text_at[last].end - from),
                   std::span<const core::TextSpan>(spans.data(), last - a + 1));
    for (AreaId k = a; k <= last; ++k) {
      text_at[k] = {base + spans[k - a].begin, base + spans[k - a].end};
    }
    a = last + 1;
  }
  w.end_array();
  keep_areas(memo, out, text_at, p, role);
}

}  // namespace blockfog::hots::detail
