#include "rules/hots/legal_cache.h"

#include "rules/hots/phases.h"

// Legal-action lists kept between decisions: the undo memo (RULES 14, Undo) here, the move
// phase's first steps in move_memo.cpp.

namespace blockfog::hots {
namespace {

bool is_side(core::Role role) {
  return role == core::Role::Scotland || role == core::Role::England;
}

}  // namespace

void LegalCache::reset() {
  state_ = nullptr;
  listed_ = 0;
  saved_.clear();
  used_ = 0;
  move_.valid = false;
}

// An undo point was just pushed (the last of s.undo): it restores the position lists_ were
// made for, if they were made for this state's position before the action.
void LegalCache::save_point(const State& s) {
  const auto index = s.undo.size() - 1;
  if (saved_.size() != index) saved_.resize(index);  // out of step: unknown lists, kept empty
  Saved point;
  point.begin = static_cast<std::uint32_t>(used_);
  point.listed = state_ == &s ? listed_ : 0;
  for (int side = 0; side < 2; ++side) {
    if (!((point.listed >> side) & 1U)) continue;
    const auto& list = lists_[side];
    point.size[side] = static_cast<std::uint16_t>(list.size());
    // The pool only grows (resize writes every new element); used_ marks its end.
    if (pool_.size() < used_ + list.size()) pool_.resize(2 * (used_ + list.size()));
    list.copy_to(pool_.data() + used_);
    used_ += list.size();
  }
  saved_.push_back(point);
}

// Undo took the state back to undo point `index` (now s.undo.size()).
void LegalCache::restore_point(const State& s, std::size_t index) {
  state_ = &s;
  listed_ = 0;
  if (index >= saved_.size()) {
    saved_.clear();
    used_ = 0;
    return;
  }
  const Saved point = saved_[index];
  std::uint32_t at = point.begin;
  for (int side = 0; side < 2; ++side) {
    if (!((point.listed >> side) & 1U)) continue;
    lists_[side].assign(pool_.data() + at, point.size[side]);
    at += point.size[side];
  }
  listed_ = point.listed;
  used_ = point.begin;
  saved_.resize(index);
}

const ActionList& legal_actions(const State& s, core::Role role, LegalCache& cache) {
  auto& out = cache.lists_[is_side(role) ? index_of(role) : 0];
  if (!is_side(role)) {
    out.clear();
    return out;
  }
  const auto side = index_of(role);
  if (cache.state_ != &s) {
    cache.state_ = &s;
    cache.listed_ = 0;
  }
  if ((cache.listed_ >> side) & 1U) return out;
  if (s.phase == Phase::Move && s.active == side && s.moving.block == kNone) {
    out.clear();
    detail::move_start_legal(s, role, out, cache.move_);
    if (detail::can_undo(s, role)) out.push_back(simple(ActionKind::Undo));
  } else {
    legal_actions(s, role, out);
  }
  cache.listed_ |= static_cast<std::uint8_t>(1U << side);
  return out;
}

void apply_legal(State& s, core::Role role, const Action& action, LegalCache& cache) {
  const auto depth = s.undo.size();
  apply_legal(s, role, action);
  if (action.kind == ActionKind::Undo) {
    cache.restore_point(s, depth - 1);
    return;
  }
  if (s.undo.size() == depth + 1) {
    cache.save_point(s);
  } else {
    cache.saved_.clear();
    cache.used_ = 0;
  }
  cache.listed_ = 0;
}

}  // namespace blockfog::hots
