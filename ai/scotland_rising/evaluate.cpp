#include "ai/scotland_rising/evaluate.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>

#include "rules/scotland_rising/board.h"
#include "rules/scotland_rising/combat.h"
#include "rules/scotland_rising/engine.h"
#include "rules/scotland_rising/movement.h"

namespace blockfog::ai::scotland_rising {
namespace {

using sr::ActionType;
using sr::Role;

// The MP of entering `hex` on the way to the arrow: the terrain's cost (rulebook 2, R1); a burn
// hex ends the move (rulebook 2), so it costs about a move of its own.
int step_cost(const sr::State& s, int hex) {
  const auto t = s.terrain(hex);
  return t == sr::Terrain::Burn ? 2 : sr::entry_cost(t);
}

// How much of what a unit stands to lose where it stands counts as lost (exposure()).
constexpr double kExposureWeight = 0.5;

// The English side-turns left, this one included when the English have not played it yet.
int english_turns_left(const sr::State& s) { return s.data->turns - s.pos.turn + 1; }

// By hex, the distance to the nearest unit of `side` on the board (99 where there is none).
std::vector<int> distance_to(const sr::State& s, Role side) {
  const auto& d = *s.data;
  std::vector<int> dist(d.hex_count(), 99);
  std::vector<int> queue;
  for (std::size_t u = 0; u < s.pos.units.size(); ++u) {
    const int hex = s.pos.units[u].hex;
    if (hex >= 0 && d.units[u].side == side && dist[hex] != 0) {
      dist[hex] = 0;
      queue.push_back(hex);
    }
  }
  for (std::size_t i = 0; i < queue.size(); ++i) {
    for (int n : sr::neighbours(d, queue[i])) {
      if (dist[n] > dist[queue[i]] + 1) {
        dist[n] = dist[queue[i]] + 1;
        queue.push_back(n);
      }
    }
  }
  return dist;
}

// Rulebook 8: the hits an attack scores on average, weighted by what the target's loss scores
// (rulebook 11; 1 + its VP, so that a hit on a 1-VP unit still counts).
double attack_value(const sr::State& s, const sr::Action& a, sr::AttackKind kind) {
  const int defender = sr::defender_in(s, a.hex);
  if (defender < 0) return 0;
  const int dice = sr::attack_dice(s, a.unit, a.hex, kind);
  const double p = (7.0 - sr::hit_number(s, a.hex)) / 6.0;
  const auto& target = s.pos.units[defender];
  // A reduced target falls to one hit (R6): its remaining VP are nearer.
  const double weight = 1.0 + s.unit(defender).vp * (target.reduced ? 1.5 : 1.0);
  return dice * p * weight;
}

// Rulebook 8, R2, R6: about what `u` stands to lose to the enemies that can attack it where it
// stands (next to it, a longbow 2 hexes away, or an ax, knight or leader within a charge's reach
// of a target in clear terrain not in schiltron): the strongest attack's expected hits and half
// the second's, against the hits it takes to eliminate it (2 at full strength with a reduced
// side, else 1; a leader or a reduced knight survives a hit half the time), times its VP.
double exposure(const sr::State& s, int u) {
  const int hex = s.pos.units[u].hex;
  if (sr::defender_in(s, hex) != u) return 0;  // a leader under a unit is not aimed at
  const auto& d = *s.data;
  const double p = (7.0 - sr::hit_number(s, hex)) / 6.0;
  const bool chargeable = s.terrain(hex) == sr::Terrain::Clear && !s.pos.units[u].schiltron;
  double first = 0, second = 0;
  for (std::size_t v = 0; v < s.pos.units.size(); ++v) {
    const int from = s.pos.units[v].hex;
    if (from < 0 || d.units[v].side == s.unit(u).side) continue;
    const int range = sr::distance(d, from, hex);
    const auto type = d.units[v].type;
    auto kind = sr::AttackKind::Plain;
    if (range > (type == sr::UnitType::Longbow ? 2 : 1)) {
      const bool charger =
          type == sr::UnitType::Ax || type == sr::UnitType::Knight || type == sr::UnitType::Leader;
      if (!chargeable || !charger || range > d.units[v].full.move + 1) continue;
      kind = sr::AttackKind::Charge;
    }
    const double hits = sr::attack_dice(s, static_cast<int>(v), hex, kind) * p;
    if (hits > first) {
      second = first;
      first = hits;
    } else if (hits > second) {
      second = hits;
    }
  }
  const double hits = first + 0.5 * second;
  if (hits == 0) return 0;
  const auto& data = s.unit(u);
  const bool one_hit = !data.reduced || s.pos.units[u].reduced;
  double lost = std::min(1.0, one_hit ? hits : hits / 2);
  if (data.type == sr::UnitType::Leader ||
      (data.type == sr::UnitType::Knight && s.pos.units[u].reduced)) {
    lost *= 0.5;
  }
  return lost * data.vp;
}

}  // namespace

std::vector<int> exit_distances(const sr::State& s) {
  const auto& d = *s.data;
  std::vector<int> dist(d.hex_count(), kFar);
  using Item = std::pair<int, int>;  // (MP, hex)
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  dist[d.exit_hex] = 0;
  queue.push({0, d.exit_hex});
  while (!queue.empty()) {
    const auto [cost, hex] = queue.top();
    queue.pop();
    if (cost != dist[hex]) continue;
    // A unit in a neighbour reaches `hex` by entering it.
    const int enter = cost + step_cost(s, hex);
    for (int n : sr::neighbours(d, hex)) {
      if (enter >= dist[n]) continue;
      dist[n] = enter;
      queue.push({enter, n});
    }
  }
  return dist;
}

double advantage(const sr::State& s, Role me, const std::vector<int>& exit_distance) {
  return advantage(s, me, exit_distance, {kExposureWeight, kExposureWeight});
}

double advantage(const sr::State& s, Role me, const std::vector<int>& exit_distance,
                 const ExposureWeights& weights) {
  const int mine = core::side_index(me);
  double lead[2] = {static_cast<double>(s.pos.vp[0]), static_cast<double>(s.pos.vp[1])};
  const int turns_left = english_turns_left(s);
  for (std::size_t u = 0; u < s.pos.units.size(); ++u) {
    const auto& unit = s.pos.units[u];
    if (unit.hex < 0) continue;
    const auto& data = s.data->units[u];
    const int side = core::side_index(data.side);
    if (unit.reduced) lead[1 - side] += 0.4 * data.vp;
    const double weight = data.side == s.pos.side ? weights.acting : weights.waiting;
    if (weight != 0) lead[1 - side] += weight * exposure(s, static_cast<int>(u));
    if (data.side == Role::England) {
      const double reach = static_cast<double>(data.full.move) * turns_left;
      const int far = exit_distance[unit.hex];
      if (far < reach) lead[side] += 0.8 * (1.0 - far / (reach + 1.0));
    }
  }
  return lead[mine] - lead[1 - mine];
}

Fields fields(const sr::State& s) {
  Fields f;
  f.exit_distance = exit_distances(s);
  f.enemy_distance[0] = distance_to(s, Role::England);
  f.enemy_distance[1] = distance_to(s, Role::Scotland);
  return f;
}

double advantage(const sr::State& s, Role me) { return advantage(s, me, exit_distances(s)); }

double evaluate(const sr::State& s, Role me) {
  const auto result = sr::outcome(s);
  if (result.finished) {
    if (!result.winner) return 0.5;
    return *result.winner == me ? 1.0 : 0.0;
  }
  return 0.5 + 0.5 * std::tanh(advantage(s, me) / 6.0);
}

double prior(const sr::State& s, const sr::Action& a, const Fields& f) {
  const auto& exit_distance = f.exit_distance;
  const auto& near_english = f.enemy_distance[core::side_index(Role::Scotland)];
  const auto& d = *s.data;
  switch (a.type) {
    case ActionType::Attack:
      return attack_value(s, a, sr::AttackKind::Plain);
    case ActionType::Charge:  // 2 AP for what an attack costs 1 (rulebook 8)
      return attack_value(s, a, sr::AttackKind::Charge) - 1.0;
    case ActionType::MoveAttack:
      return attack_value(s, a, sr::AttackKind::MoveAttack);
    case ActionType::Exit:
      return 20.0;
    case ActionType::Rally:
    case ActionType::EventRally:
      return 1.5;
    case ActionType::Move: {
      const int from = s.pos.units[a.unit].hex, to = a.path.back();
      if (s.unit(a.unit).side == Role::England) {
        const int before = std::min(exit_distance[from], 60);
        const int after = std::min(exit_distance[to], 60);
        return 0.3 * (before - after);
      }
      // The Scots hold their ground (the English must come to them, R12: they start ahead,
      // rulebook 11): a move scores below ending the turn unless it draws back toward the
      // arrow out of the enemy's reach (more than 4 hexes: a knight's charge, rulebook 8).
      const int before = near_english[from], after = near_english[to];
      const bool back = sr::distance(d, to, d.exit_hex) < sr::distance(d, from, d.exit_hex);
      return before <= 4 && after > 4 && back ? 0.1 : -0.1 * (before - after > 0 ? 2 : 1);
    }
    case ActionType::ScotsCharge: {
      int close = 0;
      for (std::size_t u = 0; u < s.pos.units.size(); ++u) {
        if (s.data->units[u].side == Role::Scotland && s.pos.units[u].hex >= 0 &&
            near_english[s.pos.units[u].hex] <= 2)
          ++close;
      }
      return close >= 4 ? 1.0 : -1.0;
    }
    case ActionType::Schiltron: {  // against charges when the enemy is near (R14)
      const int hex = s.pos.units[a.unit].hex;
      return f.enemy_distance[core::side_index(s.unit(a.unit).side)][hex] <= 4 ? 0.4 : -1.0;
    }
    case ActionType::Place: {  // free-form setup: forward, toward the enemy
      const int row = a.hex / d.columns;
      return s.unit(a.unit).side == Role::Scotland ? 0.01 * row : -0.01 * row;
    }
    case ActionType::EndTurn:
    case ActionType::SetupDone:
    case ActionType::RollAp:
      return 0.05;
    default:
      return -1.0;
  }
}

}  // namespace blockfog::ai::scotland_rising
