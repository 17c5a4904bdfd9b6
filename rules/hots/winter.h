#pragma once

// Internal: the winter turn (RULES 10), split over winter.cpp (sequence, homecomings),
// winter_disband.cpp (Moray, King, Edward, Wallace, disbanding) and winter_build.cpp (builds,
// levy, end of the year).

#include "rules/hots/phases.h"

namespace blockfog::hots::detail {

// Moves a block on the map to `area`, keeping its strength.
void relocate(State& s, BlockId b, AreaId area);
// The noble block `b` changes sides in place at its strength (RULES 1.4.1); returns the twin.
BlockId change_sides(State& s, BlockId b);
void disband(State& s, BlockId b);  // to its pool, anonymously for others (13.3)
bool open_for(const Position& p, AreaId area, Side side);  // friendly or neutral (1.6)

// Opaque steps: entry (automatic parts), legal actions, handling.
void enter_scotland_homes(State& s);
void enter_england_disband(State& s);
void enter_scotland_wallace(State& s);  // hots-3: Wallace (10.8), then Scottish disbanding
void enter_scotland_disband(State& s);
void enter_scotland_build(State& s);
void enter_england_build(State& s);
void winter_step_legal(const State& s, Side side, ActionList& out);
void winter_step_apply(State& s, Side side, const Action& action);
void build_legal(const State& s, Side side, ActionList& out);
void build_apply(State& s, Side side, const Action& action);

// After the last step: French Knights, levy, end of the year (10.10, 10.13, 10.14).
void french_knights_check(State& s);
void finish_winter(State& s);
// Moves the winter on to its next step after the current one is done.
void next_winter_step(State& s);

}  // namespace blockfog::hots::detail
