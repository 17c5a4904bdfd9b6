#pragma once

// Rulebook 8 and 9: the dice of an attack, the hits it scores and where they go.

#include "rules/scotland_rising/state.h"

namespace blockfog::scotland_rising {

enum class AttackKind : std::uint8_t {
  Plain,       // 1 AP (rulebook 8)
  Charge,      // 2 AP (rulebook 8, charge)
  MoveAttack,  // the attack of a move-and-attack (R9, R13)
};

// The unit in `hex` that attacks aim at: its non-leader unit, else its leader (-1 if empty).
int defender_in(const State& s, int hex);
// Dice rolled by `attacker` on the stack in `hex` after every modifier (rulebook 2, 8, R5, R13,
// R14, optional rule 1).
int attack_dice(const State& s, int attacker, int hex, AttackKind kind);
// The lowest face that hits the stack in `hex`: its unit's value, one less when disordered
// (rulebook 8, disordered effects).
int hit_number(const State& s, int hex);
// Rolls the attack and applies its hits (R2, R6), with the victory points they score
// (rulebook 11) and a charge's disorder (rulebook 8).
void resolve_attack(State& s, int attacker, int hex, AttackKind kind);
// Removes a unit from play: eliminated, with its VP to the other side (rulebook 11) and, for
// R. Bruce or Edward II, a command AP less from now on (rulebook 9).
void eliminate(State& s, int u);

}  // namespace blockfog::scotland_rising
