#include "rules/scotland_rising/engine.h"

#include <string>

#include "rules/scotland_rising/combat.h"
#include "rules/scotland_rising/log.h"

namespace blockfog::scotland_rising {
namespace {

// Choices that roll no die and keep the turn with the same side: undo may take them back
// (the player's own uninterrupted choices until a die is rolled).
bool is_undoable(ActionType type) {
  switch (type) {
    case ActionType::Place:
    case ActionType::SetupDone:
    case ActionType::Move:
    case ActionType::Schiltron:
    case ActionType::LeaveSchiltron:
    case ActionType::EventRally:
    case ActionType::Exit:
      return true;
    default:
      return false;
  }
}

void move_unit(State& s, int u, const Path& path) {
  if (path.empty()) return;
  set_hex(s, u, path.back());
  std::string line = unit_label(s, u) + " moves";
  for (int hex : path) {
    line += ' ';
    line += s.data->hex_id(hex);
  }
  add_log(s, std::move(line));
}

void act(State& s, const Action& a) {
  auto& unit = s.pos.units[a.unit];
  s.pos.ap -= ap_cost(a.type);
  unit.acted = true;
  switch (a.type) {
    case ActionType::Move:
      move_unit(s, a.unit, a.path);
      break;
    case ActionType::Attack:
      resolve_attack(s, a.unit, a.hex, AttackKind::Plain);
      break;
    case ActionType::MoveAttack:
      if (!s.pos.scots_charge_now) ++s.pos.event_uses;  // the pike advance event (R13)
      move_unit(s, a.unit, a.path);
      resolve_attack(s, a.unit, a.hex, AttackKind::MoveAttack);
      break;
    case ActionType::Charge:
      move_unit(s, a.unit, a.path);
      resolve_attack(s, a.unit, a.hex, AttackKind::Charge);
      break;
    case ActionType::Schiltron:
    case ActionType::LeaveSchiltron:
      unit.schiltron = a.type == ActionType::Schiltron;
      add_log(s, unit_label(s, a.unit) + (unit.schiltron ? " forms" : " leaves") + " schiltron");
      break;
    case ActionType::Rally: {  // rulebook 8, rally: 1-3 restores the unit
      s.pos.units[a.leader].acted = true;
      const int die = s.rng.roll_die();
      if (die <= 3) unit.reduced = false;
      add_log(s, unit_label(s, a.leader) + " rallies " + unit_label(s, a.unit) + ": rolled " +
                     std::to_string(die) + (die <= 3 ? ", full strength again" : ", no effect"));
      break;
    }
    case ActionType::EventRally:  // R13, result 2
      unit.reduced = false;
      ++s.pos.event_uses;
      add_log(s, unit_label(s, a.unit) + " rallies by the battle event");
      break;
    case ActionType::Exit:  // R11
      move_unit(s, a.unit, a.path);
      set_hex(s, a.unit, -1);
      unit.exited = true;
      ++s.pos.vp[side_index(Role::England)];
      add_log(s, unit_label(s, a.unit) + " exits toward Stirling: 1 VP");
      break;
    default:
      break;
  }
}

void apply_setup(State& s, const Action& a) {
  auto& unit = s.pos.units[a.unit >= 0 ? a.unit : 0];
  switch (a.type) {
    case ActionType::Place:
      set_hex(s, a.unit, a.hex);
      unit.start_hex = a.hex;
      add_log(s, unit_label(s, a.unit) + " sets up at " + s.data->hex_id(a.hex));
      break;
    case ActionType::Schiltron:
    case ActionType::LeaveSchiltron:
      unit.schiltron = a.type == ActionType::Schiltron;
      add_log(s, unit_label(s, a.unit) + (unit.schiltron ? " starts" : " does not start") +
                     " in schiltron");
      break;
    default:
      finish_setup(s);
      break;
  }
}

}  // namespace

std::vector<Role> active_roles(const State& s) {
  if (s.pos.phase == Phase::GameOver) return {};
  return {s.pos.side};
}

std::optional<core::RuleError> apply(State& s, Role role, const Action& a) {
  using core::RuleErrorCode;
  if (s.pos.phase == Phase::GameOver) return core::RuleError{RuleErrorCode::GameOver, "game over"};
  if (role != s.pos.side) return core::RuleError{RuleErrorCode::NotYourTurn, "not your turn"};
  if (const auto problem = check(s, role, a)) {
    return core::RuleError{RuleErrorCode::IllegalAction, *problem};
  }
  apply_legal(s, role, a);
  return std::nullopt;
}

void apply_legal(State& s, Role role, const Action& a) {
  if (a.type == ActionType::Undo) {
    s.pos = std::move(s.undo.back().position);
    s.log.resize(s.undo.back().log_size);
    s.undo.pop_back();
    rebuild_occupancy(s);
    return;
  }
  if (is_undoable(a.type)) s.undo.push_back({s.pos, s.log.size()});
  const auto stream = s.rng.stream();
  const auto scripted = s.rng.script_position();
  if (s.pos.phase == Phase::Setup) {
    apply_setup(s, a);
  } else if (a.type == ActionType::RollAp || a.type == ActionType::ScotsCharge) {
    if (a.type == ActionType::ScotsCharge) {  // R9: announced before the random AP die
      s.pos.scots_charge_used = s.pos.scots_charge_now = true;
      add_log(s, "Scotland announces the Scots Charge");
    }
    roll_ap(s);
  } else if (a.type == ActionType::EndTurn) {
    end_turn(s);
  } else {
    act(s, a);
  }
  const bool rolled = !(s.rng.stream() == stream) || s.rng.script_position() != scripted;
  if (rolled || s.pos.side != role || s.pos.phase == Phase::GameOver) s.undo.clear();
}

core::Outcome outcome(const State& s) {
  core::Outcome out;
  if (s.pos.phase != Phase::GameOver) return out;
  out.finished = true;
  const int scots = s.pos.vp[0], english = s.pos.vp[1];
  if (scots == english) {
    out.reason = "draw";
  } else {
    out.winner = scots > english ? Role::Scotland : Role::England;
    out.reason = "victory_points";
  }
  return out;
}

}  // namespace blockfog::scotland_rising
