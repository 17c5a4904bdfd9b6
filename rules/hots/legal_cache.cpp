#include "rules/hots/legal_cache.h"

// Legal-action lists kept across undo (RULES 14, Undo): see legal_cache.h.

namespace blockfog::hots {

LegalCache::LegalCache() { lists_ = {take_buffer(), take_buffer()}; }

void LegalCache::reset() {
  listed_ = 0;
  drop_saved();
}

ActionList* LegalCache::take_buffer() {
  if (free_.empty()) {
    buffers_.push_back(std::make_unique<ActionList>());
    return buffers_.back().get();
  }
  ActionList* buffer = free_.back();
  free_.pop_back();
  return buffer;
}

void LegalCache::drop_saved() {
  for (const auto& point : saved_) {
    free_.push_back(point.lists[0]);
    free_.push_back(point.lists[1]);
  }
  saved_.clear();
}

const ActionList& LegalCache::list(const State& s, core::Role role) {
  if (role != core::Role::Scotland && role != core::Role::England) {
    static const ActionList none;  // observers decide nothing
    return none;
  }
  const auto side = index_of(role);
  legal_actions(s, role, *lists_[side]);
  listed_ |= static_cast<std::uint8_t>(1U << side);
  return *lists_[side];
}

void apply_legal(State& s, core::Role role, const Action& action, LegalCache& cache) {
  const auto depth = s.undo.size();
  apply_legal(s, role, action);
  if (action.kind == ActionKind::Undo) {
    // Back to the position of the last point: its lists come back, the current ones are free.
    cache.free_.push_back(cache.lists_[0]);
    cache.free_.push_back(cache.lists_[1]);
    if (cache.saved_.size() == depth) {
      cache.lists_ = cache.saved_.back().lists;
      cache.listed_ = cache.saved_.back().listed;
      cache.saved_.pop_back();
    } else {  // out of step (not expected in use): list anew
      cache.drop_saved();
      cache.lists_ = {cache.take_buffer(), cache.take_buffer()};
      cache.listed_ = 0;
    }
    return;
  }
  if (s.undo.size() == depth + 1) {
    // A point was pushed: it keeps the lists of the position it restores.
    if (cache.saved_.size() != depth) cache.drop_saved();
    if (cache.saved_.size() == depth) {
      cache.saved_.push_back({cache.lists_, cache.listed_});
      cache.lists_ = {cache.take_buffer(), cache.take_buffer()};
    }
  } else if (!cache.saved_.empty()) {
    cache.drop_saved();  // the history was cleared
  }
  cache.listed_ = 0;
}

}  // namespace blockfog::hots
