#pragma once

// Internal: event cards (RULES 7), coronations (8) and the defection battles they cause (5.14).

#include "rules/hots/fixed_list.h"
#include "rules/hots/phases.h"

namespace blockfog::hots::detail {

// Coronations Scotland may announce instead of its event now (8.1, 8.2).
void coronation_legal(const State& s, Side side, ActionList& out);
void crown(State& s, const Action& action);

void pillage_start(State& s, Side side, AreaId target);
void pillage_legal(const State& s, Side side, ActionList& out);
void pillage_apply(State& s, Side side, const Action& action);

// Fights the defection battles in `areas` (bit per area) at once, then ends the player turn.
void fight_defection_battles(State& s, std::uint32_t areas, Side attacker);
void end_event(State& s);

}  // namespace blockfog::hots::detail
