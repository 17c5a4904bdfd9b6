#include "rules/scotland_rising/board.h"

#include <cmath>
#include <cstdlib>

namespace blockfog::scotland_rising {
namespace {

int column_of(const Data& d, int hex) { return hex % d.columns; }
int row_of(const Data& d, int hex) { return hex / d.columns; }

std::optional<int> from_cube(const Data& d, Cube c) {
  const int row = c.z;
  const int column = c.x + (row - (row & 1)) / 2;
  if (row < 0 || row >= d.rows || column < 0 || column >= d.columns) return std::nullopt;
  return row * d.columns + column;
}

// The hex containing a fractional cube point (the usual cube rounding).
Cube round_cube(double x, double y, double z) {
  double rx = std::round(x), ry = std::round(y), rz = std::round(z);
  const double dx = std::abs(rx - x), dy = std::abs(ry - y), dz = std::abs(rz - z);
  if (dx > dy && dx > dz) {
    rx = -ry - rz;
  } else if (dy > dz) {
    ry = -rx - rz;
  } else {
    rz = -rx - ry;
  }
  return {static_cast<int>(rx), static_cast<int>(ry), static_cast<int>(rz)};
}

bool blocks_at(const Data& d, Cube c) {
  const auto hex = from_cube(d, c);
  return hex && blocks_sight(d.terrain[*hex]);
}

}  // namespace

Cube to_cube(const Data& d, int hex) {
  const int row = row_of(d, hex);
  const int x = column_of(d, hex) - (row - (row & 1)) / 2;
  return {x, -x - row, row};
}

int distance(const Data& d, int a, int b) {
  const Cube p = to_cube(d, a), q = to_cube(d, b);
  return (std::abs(p.x - q.x) + std::abs(p.y - q.y) + std::abs(p.z - q.z)) / 2;
}

std::vector<int> compute_neighbours(const Data& d, int hex) {
  static constexpr std::array<Cube, 6> kDirections = {Cube{1, -1, 0}, Cube{0, -1, 1},
                                                      Cube{-1, 0, 1}, Cube{-1, 1, 0},
                                                      Cube{0, 1, -1}, Cube{1, 0, -1}};
  std::vector<int> out;
  const Cube c = to_cube(d, hex);
  for (const auto& step : kDirections) {
    if (const auto n = from_cube(d, {c.x + step.x, c.y + step.y, c.z + step.z})) out.push_back(*n);
  }
  return out;
}

bool is_adjacent(const Data& d, int a, int b) { return distance(d, a, b) == 1; }

bool blocks_sight(Terrain terrain) {
  return terrain == Terrain::Woods || terrain == Terrain::Village;
}

bool line_of_sight(const Data& d, int a, int b) {
  const int n = distance(d, a, b);
  if (n <= 1) return true;
  const Cube p = to_cube(d, a), q = to_cube(d, b);
  // Points along the line at i/n, from integer numerators (the same for a→b as for b→a), each
  // nudged both ways: where the two nudges fall in different hexes the line runs along the
  // hexside between them (R8). The nudge (1, 2, -3) is parallel to no hexside.
  constexpr double kNudge = 1e-6;
  for (int i = 1; i < n; ++i) {
    const double x = static_cast<double>(p.x * (n - i) + q.x * i) / n;
    const double y = static_cast<double>(p.y * (n - i) + q.y * i) / n;
    const double z = static_cast<double>(p.z * (n - i) + q.z * i) / n;
    const Cube one = round_cube(x + kNudge, y + 2 * kNudge, z - 3 * kNudge);
    const Cube two = round_cube(x - kNudge, y - 2 * kNudge, z + 3 * kNudge);
    const bool same = one.x == two.x && one.y == two.y && one.z == two.z;
    if (same ? blocks_at(d, one) : blocks_at(d, one) && blocks_at(d, two)) return false;
  }
  return true;
}

}  // namespace blockfog::scotland_rising
