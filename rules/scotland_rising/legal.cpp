#include "rules/scotland_rising/legal.h"

#include "rules/scotland_rising/board.h"
#include "rules/scotland_rising/combat.h"
#include "rules/scotland_rising/movement.h"

namespace blockfog::scotland_rising {
namespace {

int unit_count(const State& s) { return static_cast<int>(s.pos.units.size()); }

bool is_foe(const State& s, int u, int v) { return s.unit(u).side != s.unit(v).side; }

// Whether `hex` holds a unit of the side other than `side`.
bool enemy_at(const State& s, Role side, int hex) {
  const auto there = side_in(s, hex);
  return there && *there != side;
}

// A unit of the side whose turn it is, on the board, that has not had its action yet
// (rulebook 6: one action a unit a turn).
bool can_act(const State& s, int u) {
  const auto& unit = s.pos.units[u];
  return s.unit(u).side == s.pos.side && unit.hex >= 0 && !unit.acted;
}

bool is_charger(UnitType t) {  // rulebook 3, 8: ax, knights and leaders charge
  return t == UnitType::Ax || t == UnitType::Knight || t == UnitType::Leader;
}

// Rulebook 8, charge: the charging unit may not start the turn next to an enemy.
bool started_next_to_enemy(const State& s, int u) {
  const int start = s.pos.units[u].start_hex;
  for (int v = 0; v < unit_count(s); ++v) {
    const int other = s.pos.units[v].start_hex;
    if (is_foe(s, u, v) && other >= 0 && start >= 0 && is_adjacent(*s.data, start, other)) {
      return true;
    }
  }
  return false;
}

// The range of `u`'s plain attack: longbows 2 (one more with the event of R13), crossbows 1
// (R3), every other unit 1 (rulebook 8).
int attack_range(const State& s, int u) {
  if (s.unit(u).type != UnitType::Longbow) return 1;
  return s.pos.event == Event::LongbowRange ? 3 : 2;
}

// A plain attack (rulebook 8, R7, R8): the stack in `hex` is the enemy's; an adjacent target
// stood next to the attacker when the turn began; a longbow's target further away is in
// range and in sight now. Nobody attacks from the burn (rulebook 2).
std::optional<std::string> attack_problem(const State& s, int u, int hex) {
  const Data& d = *s.data;
  const int from = s.pos.units[u].hex;
  const int target = defender_in(s, hex);
  if (target < 0 || !is_foe(s, u, target)) return "no enemy in the target hex";
  if (s.terrain(from) == Terrain::Burn) return "no attack from the burn";
  const int range = distance(d, from, hex);
  if (range == 1) {
    if (s.pos.units[u].start_hex != from || s.pos.units[target].start_hex != hex) {
      return "the units were not adjacent when the turn began (R7)";
    }
    return std::nullopt;
  }
  if (range > attack_range(s, u)) return "the target is out of range";
  if (!line_of_sight(d, from, hex)) return "no line of sight (R8)";
  return std::nullopt;
}

// The target of a charge (rulebook 8): an enemy stack in clear terrain not in schiltron (R14)
// next to where the charge ends.
std::optional<std::string> charge_target_problem(const State& s, int u, int end, int hex) {
  const int target = defender_in(s, hex);
  if (target < 0 || !is_foe(s, u, target)) return "no enemy in the target hex";
  if (!is_adjacent(*s.data, end, hex)) return "the charge does not end next to its target";
  if (s.terrain(hex) != Terrain::Clear) return "only units in clear terrain may be charged";
  if (s.pos.units[target].schiltron) return "a schiltron may not be charged (R14)";
  return std::nullopt;
}

// Which move-and-attack `u` may make this turn, if any: any unit in the Scots Charge turn
// (R9), or a pike with the pike advance event, 1 hex (R13).
bool may_move_attack(const State& s, int u) {
  if (s.pos.scots_charge_now) return true;
  return s.pos.event == Event::PikeAdvance && s.pos.event_uses < 3 &&
         s.unit(u).type == UnitType::Pike;
}
std::size_t move_attack_length(const State& s, int u) {
  return s.pos.scots_charge_now ? 99 : (s.unit(u).type == UnitType::Pike ? 1 : 0);
}

// The hexes next to `hex` holding an enemy of `u`.
std::vector<int> enemies_next_to(const State& s, int u, int hex) {
  std::vector<int> out;
  for (int n : neighbours(*s.data, hex)) {
    if (enemy_at(s, s.unit(u).side, n)) out.push_back(n);
  }
  return out;
}

// Free-form setup (rulebook 4): the Scots on or north of the blue row, the English on or south
// of the red row; a unit set up in schiltron later needs clear terrain (R14).
bool in_setup_zone(const State& s, Role side, int hex) {
  const int row = hex / s.data->columns;
  return side == Role::Scotland ? row <= s.data->blue_row : row >= s.data->red_row;
}

bool can_place(const State& s, int u, int hex) {
  if (!in_setup_zone(s, s.unit(u).side, hex)) return false;
  if (s.terrain(hex) == Terrain::Burn) return false;
  for (int v = 0; v < unit_count(s); ++v) {
    if (s.pos.units[v].hex == hex && (is_foe(s, u, v) || is_leader(s, v) == is_leader(s, u))) {
      return false;
    }
  }
  return true;
}

bool can_rally_unit(const State& s, int u) {
  const auto& unit = s.pos.units[u];
  return can_act(s, u) && !is_leader(s, u) && unit.reduced && !next_to_enemy(s, u);
}

void add_setup_actions(const State& s, std::vector<Action>& out) {
  const int next = next_to_place(s, s.pos.side);
  if (next >= 0) {
    for (int hex = 0; hex < s.data->hex_count(); ++hex) {
      if (can_place(s, next, hex)) out.push_back({ActionType::Place, next, -1, hex, {}});
    }
    return;
  }
  if (s.pos.side == Role::Scotland) {  // rulebook 4: pike may start in schiltron
    for (int u = 0; u < unit_count(s); ++u) {
      const auto& unit = s.pos.units[u];
      if (s.unit(u).type != UnitType::Pike || unit.hex < 0 || s.unit(u).side != Role::Scotland)
        continue;
      if (unit.schiltron) {
        out.push_back({ActionType::LeaveSchiltron, u, -1, -1, {}});
      } else if (s.terrain(unit.hex) == Terrain::Clear) {
        out.push_back({ActionType::Schiltron, u, -1, -1, {}});
      }
    }
  }
  out.push_back({ActionType::SetupDone, -1, -1, -1, {}});
}

void add_unit_actions(const State& s, int u, Reach& r, std::vector<Action>& out) {
  const Data& d = *s.data;
  const auto& unit = s.pos.units[u];
  const UnitType type = s.unit(u).type;
  const int ap = s.pos.ap;
  if (ap >= 1) {
    reach(s, u, MoveKind::Move, r);
    for (std::size_t i = 1; i < r.reached.size(); ++i) {
      out.push_back({ActionType::Move, u, -1, -1, path_to(r, r.reached[i])});
    }
    // Each enemy stack once, by the unit that attacks aim at (its non-leader, else its leader).
    for (int v = 0; v < unit_count(s); ++v) {
      const int there = s.pos.units[v].hex;
      if (there < 0 || !is_foe(s, u, v) || defender_in(s, there) != v) continue;
      if (distance(d, unit.hex, there) <= attack_range(s, u) && !attack_problem(s, u, there))
        out.push_back({ActionType::Attack, u, -1, there, {}});
    }
    if (may_move_attack(s, u)) {
      const std::size_t longest = move_attack_length(s, u);
      for (std::size_t i = 1; i < r.reached.size(); ++i) {
        const int end = r.reached[i];
        if (s.terrain(end) == Terrain::Burn) continue;
        const auto targets = enemies_next_to(s, u, end);
        if (targets.empty()) continue;
        auto path = path_to(r, end);
        if (path.size() > longest) continue;
        for (int target : targets) out.push_back({ActionType::MoveAttack, u, -1, target, path});
      }
    }
    if (s.unit(u).side == Role::England) {  // R11
      if (unit.hex == d.exit_hex) {
        out.push_back({ActionType::Exit, u, -1, -1, {}});
      } else if (r.cost[d.exit_hex] >= 0 && r.cost[d.exit_hex] < allowance(s, u)) {
        // The cheapest move onto the arrow leaves 1 MP to exit with, or none does.
        out.push_back({ActionType::Exit, u, -1, -1, path_to(r, d.exit_hex)});
      }
    }
    if (is_leader(s, u)) {  // rulebook 8, rally
      for (int v = 0; v < unit_count(s); ++v) {
        if (v != u && !check(s, s.pos.side, {ActionType::Rally, v, u, -1, {}}))
          out.push_back({ActionType::Rally, v, u, -1, {}});
      }
    }
  }
  if (ap >= 2 && is_charger(type) && !started_next_to_enemy(s, u)) {
    reach(s, u, MoveKind::Charge, r);
    for (std::size_t i = 1; i < r.reached.size(); ++i) {
      const int end = r.reached[i];
      for (int target : enemies_next_to(s, u, end)) {
        if (!charge_target_problem(s, u, end, target))
          out.push_back({ActionType::Charge, u, -1, target, path_to(r, end)});
      }
    }
  }
  if (type == UnitType::Pike) {  // R14, 0 AP
    if (unit.schiltron) {
      out.push_back({ActionType::LeaveSchiltron, u, -1, -1, {}});
    } else if (s.terrain(unit.hex) == Terrain::Clear) {
      out.push_back({ActionType::Schiltron, u, -1, -1, {}});
    }
  }
  if (s.pos.event == Event::RallyTwo && s.pos.event_uses < 2 && can_rally_unit(s, u)) {
    out.push_back({ActionType::EventRally, u, -1, -1, {}});
  }
}

std::optional<std::string> check_setup(const State& s, const Action& a) {
  const int next = next_to_place(s, s.pos.side);
  switch (a.type) {
    case ActionType::Place:
      if (a.unit != next) return "that unit is not the next to set up";
      if (!can_place(s, a.unit, a.hex)) return "a unit may not set up there (rulebook 4)";
      return std::nullopt;
    case ActionType::SetupDone:
      if (next >= 0) return "units remain to set up";
      return std::nullopt;
    case ActionType::Schiltron:
    case ActionType::LeaveSchiltron: {
      if (next >= 0 || s.pos.side != Role::Scotland) return "no schiltron choice now";
      const auto& unit = s.pos.units[a.unit];
      if (s.unit(a.unit).side != Role::Scotland || s.unit(a.unit).type != UnitType::Pike ||
          unit.hex < 0)
        return "only a Scots pike may form schiltron";
      if (a.type == ActionType::LeaveSchiltron) {
        return unit.schiltron ? std::nullopt : std::optional<std::string>("not in schiltron");
      }
      if (unit.schiltron) return "already in schiltron";
      if (s.terrain(unit.hex) != Terrain::Clear) return "schiltron only in clear terrain";
      return std::nullopt;
    }
    default:
      return "not during setup";
  }
}

std::optional<std::string> check_unit_action(const State& s, const Action& a) {
  const Data& d = *s.data;
  const int u = a.unit;
  if (!can_act(s, u)) return "that unit cannot act now";
  if (s.pos.ap < ap_cost(a.type)) return "not enough AP";
  const auto& unit = s.pos.units[u];
  const UnitType type = s.unit(u).type;
  switch (a.type) {
    case ActionType::Move:
      if (a.path.empty() || !path_cost(s, u, a.path, MoveKind::Move)) return "not a legal move";
      return std::nullopt;
    case ActionType::Attack:
      if (a.hex == unit.hex) return "no enemy in the target hex";
      return attack_problem(s, u, a.hex);
    case ActionType::MoveAttack: {
      if (!may_move_attack(s, u)) return "no move and attack this turn (R9, R13)";
      if (a.path.empty() || a.path.size() > move_attack_length(s, u) ||
          !path_cost(s, u, a.path, MoveKind::Move))
        return "not a legal move";
      const int end = a.path.back();
      if (s.terrain(end) == Terrain::Burn) return "no attack from the burn";
      const int target = defender_in(s, a.hex);
      if (target < 0 || !is_foe(s, u, target) || !is_adjacent(d, end, a.hex))
        return "no enemy next to the end of the move";
      return std::nullopt;
    }
    case ActionType::Charge:
      if (!is_charger(type)) return "only ax, knights and leaders charge";
      if (started_next_to_enemy(s, u)) return "it began the turn next to an enemy";
      if (a.path.empty() || !path_cost(s, u, a.path, MoveKind::Charge)) {
        return "not a legal charge move";
      }
      return charge_target_problem(s, u, a.path.back(), a.hex);
    case ActionType::Schiltron:
      if (type != UnitType::Pike) return "only pike form schiltron";
      if (unit.schiltron) return "already in schiltron";
      if (s.terrain(unit.hex) != Terrain::Clear) return "schiltron only in clear terrain";
      return std::nullopt;
    case ActionType::LeaveSchiltron:
      if (!unit.schiltron) return "not in schiltron";
      return std::nullopt;
    case ActionType::Rally: {
      const int l = a.leader;
      if (!is_leader(s, l) || !can_act(s, l)) return "the leader cannot rally now";
      if (!can_rally_unit(s, u)) return "that unit cannot be rallied";
      const auto& leader = s.pos.units[l];
      if (leader.hex != unit.hex || leader.start_hex != unit.hex || unit.start_hex != unit.hex)
        return "the unit did not begin the turn with the leader";
      return std::nullopt;
    }
    case ActionType::EventRally:
      if (s.pos.event != Event::RallyTwo || s.pos.event_uses >= 2) return "no free rally left";
      if (!can_rally_unit(s, u)) return "that unit cannot be rallied";
      return std::nullopt;
    case ActionType::Exit:
      if (s.unit(u).side != Role::England) return "only the English exit (R11)";
      if (a.path.empty() ? unit.hex != d.exit_hex
                         : a.path.back() != d.exit_hex || !path_cost(s, u, a.path, MoveKind::Exit))
        return "units exit from the red-arrow hex with 1 MP left (R11)";
      return std::nullopt;
    default:
      return "not a unit's action";
  }
}

}  // namespace

int ap_cost(ActionType type) {
  switch (type) {
    case ActionType::Move:
    case ActionType::Attack:
    case ActionType::MoveAttack:
    case ActionType::Rally:
    case ActionType::Exit:
      return 1;
    case ActionType::Charge:
      return 2;
    default:
      return 0;
  }
}

bool next_to_enemy(const State& s, int u) {
  const int hex = s.pos.units[u].hex;
  if (hex < 0) return false;
  for (int n : neighbours(*s.data, hex)) {
    if (enemy_at(s, s.unit(u).side, n)) return true;
  }
  return false;
}

int next_to_place(const State& s, Role side) {
  for (int u = 0; u < unit_count(s); ++u) {
    const auto& unit = s.pos.units[u];
    if (s.unit(u).side == side && unit.hex < 0 && !unit.eliminated && !unit.exited) return u;
  }
  return -1;
}

std::vector<Action> legal_actions(const State& s, Role role) {
  std::vector<Action> out;
  if (s.pos.phase == Phase::GameOver || role != s.pos.side) return out;
  switch (s.pos.phase) {
    case Phase::Setup:
      add_setup_actions(s, out);
      break;
    case Phase::ScotsAp:
      out.push_back({ActionType::RollAp, -1, -1, -1, {}});
      if (!s.pos.scots_charge_used) out.push_back({ActionType::ScotsCharge, -1, -1, -1, {}});
      break;
    case Phase::Actions: {
      Reach r;
      for (int u = 0; u < unit_count(s); ++u) {
        if (can_act(s, u)) add_unit_actions(s, u, r, out);
      }
      out.push_back({ActionType::EndTurn, -1, -1, -1, {}});
      break;
    }
    case Phase::GameOver:
      break;
  }
  if (!s.undo.empty()) out.push_back({ActionType::Undo, -1, -1, -1, {}});
  return out;
}

std::optional<std::string> check(const State& s, Role role, const Action& a) {
  // Indices come from action_from_json or legal_actions; anything else is refused, not read.
  const int units = unit_count(s), hexes = s.data->hex_count();
  bool in_range = a.unit >= -1 && a.unit < units && a.leader >= -1 && a.leader < units &&
                  a.hex >= -1 && a.hex < hexes;
  for (int step : a.path) in_range = in_range && step >= 0 && step < hexes;
  if (!in_range) return "no such unit or hex";
  switch (a.type) {
    case ActionType::Place:
    case ActionType::Attack:
    case ActionType::Charge:
    case ActionType::MoveAttack:
      if (a.hex < 0 || a.unit < 0) return "the action names no unit or no hex";
      break;
    case ActionType::Rally:
      if (a.leader < 0 || a.unit < 0) return "a rally names a leader and a unit";
      break;
    case ActionType::Move:
    case ActionType::Schiltron:
    case ActionType::LeaveSchiltron:
    case ActionType::EventRally:
    case ActionType::Exit:
      if (a.unit < 0) return "the action names no unit";
      break;
    default:
      break;
  }
  if (a.type == ActionType::Undo) {
    if (s.undo.empty()) return "nothing to undo";
    return std::nullopt;
  }
  switch (s.pos.phase) {
    case Phase::Setup:
      return check_setup(s, a);
    case Phase::ScotsAp:
      if (a.type == ActionType::RollAp) return std::nullopt;
      if (a.type == ActionType::ScotsCharge && !s.pos.scots_charge_used) return std::nullopt;
      return "the Scots roll for AP, or announce a Scots Charge first (R9)";
    case Phase::Actions:
      if (a.type == ActionType::EndTurn) return std::nullopt;
      if (a.unit < 0) return "not an action of this phase";
      return check_unit_action(s, a);
    case Phase::GameOver:
      break;
  }
  (void)role;
  return "the game is over";
}

}  // namespace blockfog::scotland_rising
