#include "rules/scotland_rising/combat.h"

#include <algorithm>
#include <string>

#include "rules/scotland_rising/log.h"

namespace blockfog::scotland_rising {
namespace {

// R2: each hit that reaches a leader or a reduced knight is rolled for; 4-6 eliminates it, 1-3
// ignores that hit. Returns the hits left after the unit is eliminated (0 if it survives).
int roll_for_hits(State& s, int u, int hits) {
  while (hits > 0) {
    --hits;
    const int die = s.rng.roll_die();
    if (die >= 4) {
      add_log(s, unit_label(s, u) + " rolls " + std::to_string(die) + " for a hit: eliminated");
      eliminate(s, u);
      return hits;
    }
    add_log(s, unit_label(s, u) + " rolls " + std::to_string(die) + " for a hit: ignored");
  }
  return 0;
}

// R6 on a non-leader unit: the hits left over once it is eliminated.
int hit_unit(State& s, int u, int hits) {
  auto& unit = s.pos.units[u];
  const auto& data = s.unit(u);
  if (!data.reduced) {  // crossbow (rulebook 3, R4): one hit eliminates it
    add_log(s, unit_label(s, u) + " is eliminated");
    eliminate(s, u);
    return hits - 1;
  }
  if (data.type == UnitType::Knight) {  // rulebook 3, R2, R6
    if (!unit.reduced) {
      unit.reduced = true;
      add_log(s, unit_label(s, u) + " is reduced");
      --hits;
    }
    return roll_for_hits(s, u, hits);
  }
  if (!unit.reduced && hits == 1) {
    unit.reduced = true;
    add_log(s, unit_label(s, u) + " is reduced");
    return 0;
  }
  add_log(s, unit_label(s, u) + " is eliminated");
  const int used = unit.reduced ? 1 : 2;  // R6: two hits take a full-strength unit out
  eliminate(s, u);
  return hits - used;
}

}  // namespace

int defender_in(const State& s, int hex) {
  const int unit = unit_in(s, hex);
  return unit >= 0 ? unit : leader_in(s, hex);
}

int attack_dice(const State& s, int attacker, int hex, AttackKind kind) {
  const UnitType type = s.unit(attacker).type;
  int dice = values(s, attacker).dice;
  const Terrain t = s.terrain(hex);
  if (t == Terrain::Woods || t == Terrain::Village) --dice;  // rulebook 2, R1
  const int defender = defender_in(s, hex);
  const bool longbow_ignores = type == UnitType::Longbow && s.options.longbows_vs_schiltron;
  if (defender >= 0 && s.pos.units[defender].schiltron && !longbow_ignores) --dice;  // R14
  if (s.pos.units[attacker].schiltron) --dice;                                       // R14
  // R13, the Battle Events Table.
  if (s.pos.event == Event::PikeDie && type == UnitType::Pike && !s.pos.units[attacker].schiltron)
    ++dice;
  if (s.pos.event == Event::ChargeDie && kind == AttackKind::Charge) ++dice;
  if (s.pos.event == Event::LongbowDie && type == UnitType::Longbow) ++dice;
  return std::max(dice, 1);  // R5
}

int hit_number(const State& s, int hex) {
  const int defender = defender_in(s, hex);
  const int hit = values(s, defender).hit;
  return s.pos.units[defender].disordered ? hit - 1 : hit;
}

void resolve_attack(State& s, int attacker, int hex, AttackKind kind) {
  const int dice = attack_dice(s, attacker, hex, kind);
  const int need = hit_number(s, hex);
  int hits = 0, ones = 0;
  std::string faces;
  for (int i = 0; i < dice; ++i) {
    const int die = s.rng.roll_die();
    if (die >= need) ++hits;
    if (die == 1) ++ones;
    if (i > 0) faces += ',';
    faces += std::to_string(die);
  }
  add_log(s, unit_label(s, attacker) + (kind == AttackKind::Charge ? " charges " : " attacks ") +
                 s.data->hex_id(hex) + ": " + std::to_string(dice) + " dice hitting on " +
                 std::to_string(need) + "+, rolled " + faces + ": " + std::to_string(hits) +
                 (hits == 1 ? " hit" : " hits"));
  // Rulebook 8: the stack's unit takes the hits; what is left after it is eliminated goes to
  // its leader (R6), and anything after that is lost.
  const int unit = unit_in(s, hex);
  const int leader = leader_in(s, hex);
  if (hits > 0 && unit >= 0) hits = hit_unit(s, unit, hits);
  if (hits > 0 && leader >= 0) roll_for_hits(s, leader, hits);
  // Rulebook 8, charge: two or more 1s among the charge's dice disorder the charging unit.
  if (kind == AttackKind::Charge && ones >= 2 && on_board(s, attacker)) {
    s.pos.units[attacker].disordered = true;
    add_log(s, unit_label(s, attacker) + " is disordered");
  }
}

void eliminate(State& s, int u) {
  auto& unit = s.pos.units[u];
  const auto& data = s.unit(u);
  set_hex(s, u, -1);
  unit.eliminated = true;
  unit.schiltron = false;
  unit.disordered = false;
  unit.reduced = false;
  s.pos.vp[side_index(other_side(data.side))] += data.vp;
  if (data.commander) ++s.pos.commanders_lost[side_index(data.side)];
}

}  // namespace blockfog::scotland_rising
