#pragma once

// Internal: the phase handlers and turn sequencing shared by the engine's source files.

#include <vector>

#include "rules/hots/action.h"
#include "rules/hots/state.h"

namespace blockfog::hots::detail {

void add_log(State& s, LogKind kind, Audience audience, int a = 0, int b = 0, int c = 0, int n = 0);
// A private fact: the full line for `owner`, the redacted `anon` line for everyone else.
void add_private_log(State& s, Side owner, LogKind kind, int a, int b, int c, LogKind anon,
                     int anon_a, int anon_b, int anon_c, int n = 0);

// Undo history is dropped whenever something random or hidden comes out (RULES 14, Undo).
inline void clear_undo(State& s) { s.undo.clear(); }

// Undo is offered within a side's own run of hidden, non-random decisions: moves, the
// mandatory retreat, regroups, and the steps of events and winters. Anything that reveals or
// randomises clears the history (the handler that reveals clears it), and so does a change of
// the awaited side (RULES 14, Undo).
inline bool keeps_undo_point(const Position& p) {
  return p.phase == Phase::Move || p.phase == Phase::MandatoryRetreat ||
         p.phase == Phase::Regroup || p.phase == Phase::Winter || p.phase == Phase::Event;
}
inline bool can_undo(const State& s, Side side) {
  return !s.undo.empty() && s.undo.back().side == index_of(side);
}

// Sequencing (RULES 2.2, 2.3).
void start_year(State& s);
void start_turn(State& s);
void start_player_turn(State& s);
void end_player_turn(State& s);
void end_game(State& s, Side winner, EndReason reason);
bool sudden_death_all_nobles(State& s);  // ends the game and returns true if a side has none

// Card phase (RULES 3).
void card_legal(const State& s, Side side, ActionList& out);
void card_apply(State& s, Side side, const Action& action);

// Events (RULES 7): Herald, Pillage, Sea Move, Truce, Victuals, and the coronations offered with
// Scotland's event (8).
void event_legal(const State& s, Side side, ActionList& out);
void event_apply(State& s, Side side, const Action& action);

// Move phase (RULES 4).
void enter_move_phase(State& s, Side side, int move_points);
void move_legal(const State& s, Side side, ActionList& out);
void move_apply(State& s, Side side, const Action& action);
// RULES 4.7: a side's blocks in an area against the enemy's there, as pinning counts them.
struct PinCount {
  int own = 0;    // the side's non-reserve blocks (4.7.2, 4.7.3)
  int enemy = 0;  // all enemy blocks, reserves included
  // While the enemy is there, a block may leave only while the side outnumbers it.
  bool pins() const { return enemy > 0 && own <= enemy; }
};
PinCount pin_count(const Position& p, AreaId area, Side side);

// Battles (RULES 5), border raids (9).
void enter_battle_phase(State& s);
void battle_legal(const State& s, Side side, ActionList& out);
void battle_apply(State& s, Side side, const Action& action);
void end_battle_phase(State& s);
void raid_legal(const State& s, Side side, ActionList& out);
void raid_apply(State& s, const Action& action);
void end_turn(State& s);

// The winter turn (RULES 10).
void enter_winter(State& s);
void winter_legal(const State& s, Side side, ActionList& out);
void winter_apply(State& s, Side side, const Action& action);
// A build step's listing (10.11, 10.12) after a step was added to block `b`, from `before`, the
// listing of the position the step was added in: the same list as winter_legal gives, without
// the undo. For playouts, which list after every step (LegalCache).
void build_legal_after_step(const State& s, const ActionList& before, BlockId b, ActionList& out);

// The card `side` played this game turn, or kNone.
CardId played_card(const Position& p, Side side);

}  // namespace blockfog::hots::detail
