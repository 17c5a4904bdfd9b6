#include "rules/hots/engine.h"

#include <algorithm>
#include <string>

#include "rules/hots/phases.h"

// Dispatch of decisions to the phase handlers, and undo (RULES 14).

namespace blockfog::hots {
namespace {

using core::Role;
using core::RuleError;
using core::RuleErrorCode;

bool is_side(Role role) { return role == Role::Scotland || role == Role::England; }

// What the rules let `side` decide now, without undo.
void phase_actions(const State& s, Side side, ActionList& out) {
  switch (s.phase) {
    case Phase::CardChoice:
      detail::card_legal(s, side, out);
      break;
    case Phase::Event:
      if (s.active == index_of(side)) detail::event_legal(s, side, out);
      break;
    case Phase::Move:
      if (s.active == index_of(side)) detail::move_legal(s, side, out);
      break;
    case Phase::BattleChoice:
    case Phase::Combat:
    case Phase::HitAllocation:
    case Phase::MandatoryRetreat:
    case Phase::Regroup:
      detail::battle_legal(s, side, out);
      break;
    case Phase::BorderRaid:
      detail::raid_legal(s, side, out);
      break;
    case Phase::Winter:
      detail::winter_legal(s, side, out);
      break;
    case Phase::GameOver:
      break;
  }
}

}  // namespace

// Bit per side awaited now (RULES 14): both while cards are chosen, a side that has chosen
// waits for the other (3.1.1).
std::uint8_t awaited_sides(const State& s) {
  switch (s.phase) {
    case Phase::CardChoice: {
      const bool scotland_chose = s.cards.held(CardPlace::Chosen, 0) != 0;
      const bool england_chose = s.cards.held(CardPlace::Chosen, 1) != 0;
      return static_cast<std::uint8_t>((scotland_chose ? 0U : 1U) | (england_chose ? 0U : 2U));
    }
    case Phase::GameOver:
      return 0;
    default:
      return s.active == kNone ? 0 : static_cast<std::uint8_t>(1U << s.active);
  }
}

std::vector<Role> active_roles(const State& s) {
  std::vector<Role> roles;
  const auto awaited = awaited_sides(s);
  for (Side side : {Side::Scotland, Side::England}) {
    if ((awaited >> index_of(side)) & 1U) roles.push_back(side);
  }
  return roles;
}

void legal_actions(const State& s, Role role, ActionList& out) {
  out.clear();
  if (!is_side(role) || s.phase == Phase::GameOver) return;
  phase_actions(s, role, out);
  if (detail::can_undo(s, role)) out.push_back(simple(ActionKind::Undo));
}

std::vector<Action> legal_actions(const State& s, Role role) {
  ActionList list;
  legal_actions(s, role, list);
  std::vector<Action> out;
  out.reserve(list.size());
  for (const auto& a : list) out.push_back(a);
  return out;
}

std::optional<RuleError> apply(State& s, Role role, const Action& action) {
  if (s.phase == Phase::GameOver) return RuleError{RuleErrorCode::GameOver, "the game is over"};
  if (!is_side(role)) return RuleError{RuleErrorCode::NotYourTurn, "observers cannot act"};
  ActionList legal;
  legal_actions(s, role, legal);
  if (legal.empty()) {
    return RuleError{RuleErrorCode::NotYourTurn,
                     std::string(core::role_name(role)) + " has nothing to decide now"};
  }
  if (!legal.contains(action)) {
    return RuleError{RuleErrorCode::IllegalAction,
                     "not a legal action now: " + action_to_json(action).dump()};
  }
  apply_legal(s, role, action);
  return std::nullopt;
}

void apply_legal(State& s, Role role, const Action& action) {
  if (action.kind == ActionKind::Undo) {
    const UndoPoint& point = s.undo.back();
    copy_position(s, point.position);
    s.log.resize(point.log_size);
    s.undo.pop_back();
    return;
  }
  const auto before = awaited_sides(s);
  if (detail::keeps_undo_point(s)) {
    // Copied once into room the history keeps: playouts pay this on most decisions, and
    // random players do undo.
    s.undo.push(s, static_cast<std::uint32_t>(s.log.size()), index_of(role));
  } else {
    detail::clear_undo(s);
  }
  switch (s.phase) {
    case Phase::CardChoice:
      detail::card_apply(s, role, action);
      break;
    case Phase::Event:
      detail::event_apply(s, role, action);
      break;
    case Phase::Move:
      detail::move_apply(s, role, action);
      break;
    case Phase::BorderRaid:
      detail::raid_apply(s, action);
      break;
    case Phase::Winter:
      detail::winter_apply(s, role, action);
      break;
    case Phase::GameOver:
      break;
    default:
      detail::battle_apply(s, role, action);
      break;
  }
  if (awaited_sides(s) != before) detail::clear_undo(s);
}

core::Outcome outcome(const State& s) {
  core::Outcome result;
  if (s.phase != Phase::GameOver) return result;
  result.finished = true;
  if (s.winner != kNone) result.winner = side_of(s.winner);
  switch (s.end_reason) {
    case EndReason::AllNoblesScotland:
      result.reason = "england_has_no_nobles";
      break;
    case EndReason::AllNoblesEngland:
      result.reason = "scotland_has_no_nobles";
      break;
    case EndReason::KingKilled:
      result.reason = "king_killed";
      break;
    case EndReason::EdwardIIKilled:
      result.reason = "edward_ii_killed";
      break;
    case EndReason::NoblesMajority:
      result.reason = "nobles_majority";
      break;
    case EndReason::WallaceTieBreak:
      result.reason = "wallace_tie_break";
      break;
    case EndReason::None:
      result.reason = "ended";
      break;
  }
  return result;
}

std::string_view phase_name(Phase phase) {
  switch (phase) {
    case Phase::CardChoice:
      return "card_choice";
    case Phase::Event:
      return "event";
    case Phase::Move:
      return "move";
    case Phase::BattleChoice:
      return "battle_choice";
    case Phase::Combat:
      return "combat";
    case Phase::HitAllocation:
      return "hit_allocation";
    case Phase::MandatoryRetreat:
      return "mandatory_retreat";
    case Phase::Regroup:
      return "regroup";
    case Phase::BorderRaid:
      return "border_raid";
    case Phase::Winter:
      return "winter";
    case Phase::GameOver:
      return "game_over";
  }
  return "game_over";
}

}  // namespace blockfog::hots
