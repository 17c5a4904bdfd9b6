#pragma once

// The hex grid of a data file: rows of pointy-topped hexes, odd rows shifted half a hex east
// ("odd-r"), row 0 the north edge. Neighbours, distances and the longbows' line of sight.

#include <array>
#include <vector>

#include "rules/scotland_rising/data.h"

namespace blockfog::scotland_rising {

struct Cube {
  int x = 0, y = 0, z = 0;
};

Cube to_cube(const Data& d, int hex);
int distance(const Data& d, int a, int b);
// The hexes next to `hex` on the board (at most 6), east first, then clockwise: computed once,
// when the data is read (Data::adjacent).
std::vector<int> compute_neighbours(const Data& d, int hex);
inline const std::vector<int>& neighbours(const Data& d, int hex) { return d.adjacent[hex]; }
bool is_adjacent(const Data& d, int a, int b);

// R1, rulebook 2: woods and the village block a longbow's line of sight.
bool blocks_sight(Terrain terrain);
// R8: the straight line between the centres of `a` and `b` is clear unless a hex strictly
// between them blocks sight, or it runs along a hexside whose two hexes both block. Units never
// block; adjacent hexes always see each other. Symmetric in a and b.
bool line_of_sight(const Data& d, int a, int b);

}  // namespace blockfog::scotland_rising
