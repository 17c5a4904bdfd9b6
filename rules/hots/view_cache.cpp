// The view cache (view_cache.h): when a kept part of a role's view may be reused.

#include "rules/hots/view_cache.h"

#include <bit>
#include <memory>

namespace blockfog::hots::detail {

void AreaInputs::keep(const Position& p, core::Role r) {
  role = r;
  move_phase = p.phase == Phase::Move;
  active = p.active;
  loc = p.blocks.loc;
  strength = p.blocks.strength;
  entry = p.blocks.entry;
  moved = p.blocks.moved;
  reserve = p.blocks.reserve;
  arrival_hidden = p.blocks.arrival_hidden;
  battles = p.battles;
}

namespace {

// The blocks whose byte differs between two tables, a bit per block.
std::uint64_t bytes_differ(const BlockBytes& a, const BlockBytes& b) {
  if (a == b) return 0;  // the usual case for all but `loc`: one compare
  std::uint64_t bits = 0;
  for (int i = 0; i < kBlockCount; ++i) bits |= std::uint64_t{a[i] != b[i]} << i;
  return bits;
}

}  // namespace

// Which of these changes the role may see is the area writer's alone to decide (RULES 13.2):
// this only narrows down where to ask it again.
std::uint32_t dirty_areas(const AreaInputs& was, const Position& p, core::Role role) {
  const bool move_phase = p.phase == Phase::Move;
  if (was.role != role || was.move_phase != move_phase) return kAllAreas;
  if (move_phase && was.active != p.active) return kAllAreas;
  const auto& now = p.blocks;
  std::uint64_t changed =
      (was.moved.bits ^ now.moved.bits) | (was.reserve.bits ^ now.reserve.bits) |
      (was.arrival_hidden.bits ^ now.arrival_hidden.bits) | bytes_differ(was.loc, now.loc) |
      bytes_differ(was.strength, now.strength) | bytes_differ(was.entry, now.entry);
  std::uint32_t dirty = 0;
  for (; changed != 0; changed &= changed - 1) {
    const int b = std::countr_zero(changed);
    if (was.loc[b] < kAreaCount) dirty |= std::uint32_t{1} << was.loc[b];
    if (now.loc[b] < kAreaCount) dirty |= std::uint32_t{1} << now.loc[b];
  }
  for (AreaId a = 0; a < kAreaCount; ++a) {
    if (!(was.battles[a] == p.battles[a])) dirty |= std::uint32_t{1} << a;
  }
  return dirty;
}

ViewPartsMemo* parts_of(core::ViewMemo* memo) {
  if (!memo) return nullptr;
  auto* parts = dynamic_cast<ViewPartsMemo*>(memo->parts.get());
  if (!parts) {
    auto made = std::make_unique<ViewPartsMemo>();
    parts = made.get();
    memo->parts = std::move(made);
  }
  return parts;
}

void keep_areas(ViewPartsMemo& memo, const std::string& out,
                std::array<core::TextSpan, kAreaCount> text_at, const Position& p,
                core::Role role) {
  // What was just written, from the first area's text to the last's, is the next memo.
  const auto first = text_at[0].begin;
  memo.texts.assign(out, first, text_at[kAreaCount - 1].end - first);
  for (auto& span : text_at) span = {span.begin - first, span.end - first};
  memo.text_at = text_at;
  memo.inputs.keep(p, role);
  memo.filled = true;
}

}  // namespace blockfog::hots::detail
