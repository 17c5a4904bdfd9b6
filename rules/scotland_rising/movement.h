#pragma once

// Rulebook 7 and the terrain chart of 2: which hexes a unit may enter, and what paths cost.

#include <optional>
#include <vector>

#include "rules/scotland_rising/path.h"
#include "rules/scotland_rising/state.h"

namespace blockfog::scotland_rising {

enum class MoveKind : std::uint8_t {
  Move,    // a plain move, or the move of a move-and-attack (R9, R13)
  Charge,  // rulebook 8, charge: no potholes, and it may not end in the burn
  Exit,    // R11: the move must leave 1 MP to exit
};

// Rulebook 2, R1: the MP it costs to enter a hex of this terrain.
int entry_cost(Terrain terrain);
// The movement allowance this turn: the unit's value (R4) with any battle event (R13); a pike
// in schiltron moves at most 1 hex (R14).
int allowance(const State& s, int u);

// The cheapest legal paths of `u` from where it stands (rulebook 7): cost[hex] (-1 where it
// cannot go) and the previous hex of one cheapest path. `reached` lists the hexes with a cost,
// the start first; a Reach may be reused for another unit (its buffers are kept).
struct Reach {
  std::vector<int> cost;
  std::vector<int> parent;
  std::vector<int> reached;
  std::vector<int> queue;  // scratch
  int start = -1;
};
void reach(const State& s, int u, MoveKind kind, Reach& r);
Reach reach(const State& s, int u, MoveKind kind);
Path path_to(const Reach& r, int hex);

// The MP a path of `u` costs (each hex adjacent to the one before, the first to its hex), or
// nullopt when it is not a legal move of that kind. An empty path costs 0.
std::optional<int> path_cost(const State& s, int u, const Path& path, MoveKind kind);

}  // namespace blockfog::scotland_rising
