#pragma once

// How the Scotland Rising computer judges a position and ranks actions before it searches
// (docs/ai.md, "Scotland Rising"). The game has no hidden information, so these read the state
// the seat's view shows.

#include <vector>

#include "rules/scotland_rising/action.h"
#include "rules/scotland_rising/state.h"

namespace blockfog::ai::scotland_rising {

namespace sr = blockfog::scotland_rising;

// For each hex, the MP an English unit needs from there to the red arrow (R11), hex by hex at
// the terrain's entry cost (rulebook 2, R1), the burn crossed at a bridge or by stopping in it
// (counted as a whole move of 2 MP); kFar where the arrow cannot be reached. Units are left
// out: a Scots unit standing in the way is to be fought, not a wall worth VP in itself.
inline constexpr int kFar = 999;
std::vector<int> exit_distances(const sr::State& s);

// `me`'s lead in victory points, with what the position promises: the VP already scored
// (rulebook 11), a reduced unit counted as 0.4 of its VP lost, half of what each unit stands to
// lose to the enemies that can attack it where it stands (their expected hits against the hits
// that eliminate it, rulebook 8, R2, R6), and each English unit that can still reach the red
// arrow in the turns left as a part of the VP its exit would score, more the nearer it stands
// (R11).
double advantage(const sr::State& s, sr::Role me, const std::vector<int>& exit_distance);
double advantage(const sr::State& s, sr::Role me);
// The same with the share of a unit's exposure counted as lost set by whose turn it is: the side
// to act strikes first, so the waiting side's units stand to lose more of theirs.
struct ExposureWeights {
  double acting;   // units of the side to act
  double waiting;  // units of the other side
};
double advantage(const sr::State& s, sr::Role me, const std::vector<int>& exit_distance,
                 const ExposureWeights& weights);
// 1 won, 0 lost, 0.5 drawn (R12) when the game is over; else 0.5 + 0.5 tanh(advantage / 6).
double evaluate(const sr::State& s, sr::Role me);

// What prior() reads of a position, computed once for all its actions: exit_distances(), and for
// each side by hex the distance to the nearest unit of the other side (99 where there is none).
struct Fields {
  std::vector<int> exit_distance;
  std::vector<int> enemy_distance[2];
};
Fields fields(const sr::State& s);

// A quick rank of one legal action of the side to act, higher first, without applying it: an
// attack's expected hits weighted by its target's VP (rulebook 8, 11), an exit above all (R11),
// English moves toward the arrow, Scots moves closing in on the nearest enemy or guarding the
// arrow, a schiltron when the enemy is near (R14), the Scots Charge when four units or more
// stand within 2 hexes of the enemy (R9), ending the turn low. It breaks ties between actions
// whose one-ply scores are equal (chooser.cpp).
double prior(const sr::State& s, const sr::Action& a, const Fields& f);

}  // namespace blockfog::ai::scotland_rising
