#include "rules/scotland_rising/movement.h"

#include "rules/scotland_rising/board.h"

namespace blockfog::scotland_rising {
namespace {

// Rulebook 2, unit hex limits: no hex with an enemy, and at most one unit and one leader of a
// side in a hex, moving through included (rulebook 7). A leader stacks with any friendly unit.
bool can_enter(const State& s, int u, int hex, MoveKind kind) {
  const Terrain t = s.terrain(hex);
  if (kind == MoveKind::Charge && (t == Terrain::Potholes || t == Terrain::Burn)) return false;
  // R14: a pike in schiltron moves only into clear terrain.
  if (s.pos.units[u].schiltron && t != Terrain::Clear) return false;
  const Role side = s.unit(u).side;
  const int unit = unit_in(s, hex), leader = leader_in(s, hex);
  if ((unit >= 0 && s.unit(unit).side != side) || (leader >= 0 && s.unit(leader).side != side))
    return false;
  const int same = is_leader(s, u) ? leader : unit;
  return same < 0 || same == u;
}

}  // namespace

int entry_cost(Terrain terrain) {
  switch (terrain) {
    case Terrain::Woods:
    case Terrain::Potholes:
    case Terrain::Swamp:
    case Terrain::Village:  // R1
      return 2;
    case Terrain::Clear:
    case Terrain::Bridge:
    case Terrain::Burn:  // and the move stops there
      return 1;
  }
  return 1;
}

int allowance(const State& s, int u) {
  if (s.pos.units[u].schiltron) return 1;
  int mp = values(s, u).move;
  const UnitType type = s.unit(u).type;
  const bool foot = type == UnitType::Pike || type == UnitType::Ax || type == UnitType::Longbow ||
                    type == UnitType::Crossbow;
  if (s.pos.event == Event::FootMove && foot) ++mp;
  if (s.pos.event == Event::HorseMove && !foot) ++mp;
  return mp;
}

void reach(const State& s, int u, MoveKind kind, Reach& r) {
  const Data& d = *s.data;
  if (static_cast<int>(r.cost.size()) != d.hex_count()) {
    r.cost.assign(d.hex_count(), -1);
    r.parent.assign(d.hex_count(), -1);
  }
  for (int hex : r.reached) r.cost[hex] = r.parent[hex] = -1;
  r.reached.clear();
  r.start = s.pos.units[u].hex;
  const int mp = allowance(s, u) - (kind == MoveKind::Exit ? 1 : 0);
  if (r.start < 0 || mp <= 0) return;
  r.cost[r.start] = 0;
  r.reached.push_back(r.start);
  // Costs are 1 or 2: taking the hexes by increasing cost (a pass over the queue per cost)
  // finds cheapest paths, and the fixed neighbour order makes the path chosen deterministic.
  r.queue.assign(1, r.start);
  for (int c = 0; c <= mp; ++c) {
    for (std::size_t i = 0; i < r.queue.size(); ++i) {
      const int hex = r.queue[i];
      if (r.cost[hex] != c) continue;
      // The burn stops a unit on entry (rulebook 2): nothing goes on from it.
      if (hex != r.start && s.terrain(hex) == Terrain::Burn) continue;
      for (int next : neighbours(d, hex)) {
        const int nc = c + entry_cost(s.terrain(next));
        if (nc > mp || (r.cost[next] >= 0 && r.cost[next] <= nc)) continue;
        if (!can_enter(s, u, next, kind)) continue;
        if (r.cost[next] < 0) r.reached.push_back(next);
        r.cost[next] = nc;
        r.parent[next] = hex;
        r.queue.push_back(next);
      }
    }
  }
}

Reach reach(const State& s, int u, MoveKind kind) {
  Reach r;
  reach(s, u, kind, r);
  return r;
}

Path path_to(const Reach& r, int hex) {
  Path backwards, path;
  for (int h = hex; h != r.start && h >= 0; h = r.parent[h]) backwards.push_back(h);
  for (std::size_t i = backwards.size(); i > 0; --i) path.push_back(backwards[i - 1]);
  return path;
}

std::optional<int> path_cost(const State& s, int u, const Path& path, MoveKind kind) {
  const Data& d = *s.data;
  int at = s.pos.units[u].hex;
  if (at < 0) return std::nullopt;
  int cost = 0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const int next = path[i];
    if (!is_adjacent(d, at, next)) return std::nullopt;
    if (i > 0 && s.terrain(at) == Terrain::Burn) return std::nullopt;  // stopped in the burn
    if (next == s.pos.units[u].hex) return std::nullopt;  // no hex twice: it is a cheaper path
    for (std::size_t j = 0; j < i; ++j) {
      if (path[j] == next) return std::nullopt;
    }
    if (!can_enter(s, u, next, kind)) return std::nullopt;
    cost += entry_cost(s.terrain(next));
    at = next;
  }
  const int mp = allowance(s, u) - (kind == MoveKind::Exit ? 1 : 0);
  if (cost > mp) return std::nullopt;
  return cost;
}

}  // namespace blockfog::scotland_rising
