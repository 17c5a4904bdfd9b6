#pragma once

// The game turn (rulebook 5, 6, 11, R9, R12, R13): setting up, the AP determination phase,
// the end of a side's turn and of the game.

#include "rules/core/chacha20.h"
#include "rules/scotland_rising/state.h"

namespace blockfog::scotland_rising {

// A new game: units on their printed setup hexes, or off the board for the free-form setup
// (rulebook 4); the Scots set up first.
State setup(const core::Seed& seed, std::shared_ptr<const Data> data, const Options& options);

// A side's setup is complete: the English set up next (free-form), or turn 1 begins.
void finish_setup(State& s);
// Rulebook 6: the command AP of the side now (less 1 per commander lost, rulebook 9), the
// random AP die, the event it may bring (R13); then the side's disorder markers go (rulebook
// 5) and its units may act.
void roll_ap(State& s);
// Rulebook 5, step 7 and R12: the side's turn ends; the other side's begins, or the game ends.
void end_turn(State& s);

}  // namespace blockfog::scotland_rising
