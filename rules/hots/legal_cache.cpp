#include "rules/hots/legal_cache.h"

#include "rules/hots/phases.h"

// Legal-action lists kept across undo (RULES 14, Undo): see legal_cache.h.

namespace blockfog::hots {

LegalCache::LegalCache() { enter(0); }

void LegalCache::reset() {
  for (const auto& level : levels_) level->listed = 0;
  enter(0);
}

void LegalCache::grow(std::size_t depth) {
  while (levels_.size() <= depth) levels_.push_back(std::make_unique<Level>());
}

const ActionList& LegalCache::list(const State& s, core::Role role) {
  if (role != core::Role::Scotland && role != core::Role::England) {
    static const ActionList none;  // observers decide nothing
    return none;
  }
  const auto side = index_of(role);
  ActionList& out = level_->lists[side];
  if (s.phase != Phase::CardChoice && s.phase != Phase::GameOver && s.active != side) {
    // Outside the card phase only the awaited side (s.active) has phase decisions: the other
    // side's list (asked at every decision of a playout) is at most its undo (RULES 14).
    out.clear();
    if (detail::can_undo(s, role)) out.push_back(simple(ActionKind::Undo));
  } else if (level_->step_side == side && depth_ > 0 &&
             ((levels_[depth_ - 1]->listed >> side) & 1U) && s.phase == Phase::Winter &&
             s.active == side &&
             (s.winter.step == WinterStep::ScotlandBuild ||
              s.winter.step == WinterStep::EnglandBuild)) {
    // A build's step: the builds left are the list before it, amended for the block's area.
    detail::build_legal_after_step(s, levels_[depth_ - 1]->lists[side], level_->step_block, out);
    if (detail::can_undo(s, role)) out.push_back(simple(ActionKind::Undo));
  } else {
    legal_actions(s, role, out);
  }
  level_->listed |= static_cast<std::uint8_t>(1U << side);
  return out;
}

void apply_legal(State& s, core::Role role, const Action& action, LegalCache& cache) {
  const auto depth = s.undo.size();
  apply_legal(s, role, action);
  const auto now = s.undo.size();
  if (cache.depth_ != depth) {
    // Out of step (not expected in use): nothing kept is known to be of this history.
    for (const auto& level : cache.levels_) level->listed = 0;
  }
  cache.enter(now);
  // Back to the position of the last point: its lists are the level's. Otherwise the
  // position is new at its depth (a point pushed, or the history cleared); the levels below
  // keep the lists of the points under it.
  if (action.kind != ActionKind::Undo) {
    LegalCache::Level& level = *cache.level_;
    level.listed = 0;
    const bool step_added = action.kind == ActionKind::AddStep && now == depth + 1;
    level.step_block = step_added ? action.a : kNone;
    level.step_side = step_added ? index_of(role) : kNone;
  }
}

}  // namespace blockfog::hots
