#include "rules/scotland_rising/invariants.h"

#include <map>

#include "rules/scotland_rising/legal.h"

namespace blockfog::scotland_rising {

std::vector<std::string> check_invariants(const State& s) {
  std::vector<std::string> out;
  const Data& d = *s.data;
  const Position& p = s.pos;
  auto broken = [&](std::string what) { out.push_back(std::move(what)); };
  if (p.units.size() != d.units.size()) {
    broken("one unit state per unit of the scenario");
    return out;
  }
  std::array<int, 2> vp = d.start_vp;
  std::array<int, 2> commanders{};
  std::map<std::pair<int, bool>, int> stacks;  // (hex, leader) -> unit
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    const auto& unit = p.units[u];
    const auto& data = d.units[u];
    const std::string& id = data.id;
    if (unit.hex < -1 || unit.hex >= d.hex_count()) broken(id + ": hex out of range");
    if (unit.start_hex < -1 || unit.start_hex >= d.hex_count()) broken(id + ": start hex");
    if (unit.eliminated && unit.exited) broken(id + ": both eliminated and exited");
    if ((unit.eliminated || unit.exited) && unit.hex >= 0) broken(id + ": out of play on the map");
    if (unit.exited && data.side != Role::England) broken(id + ": only the English exit (R11)");
    if (unit.reduced && !data.reduced) broken(id + ": reduced without a reduced side");
    if (unit.schiltron &&
        (data.type != UnitType::Pike || unit.hex < 0 || d.terrain[unit.hex] != Terrain::Clear)) {
      broken(id + ": schiltron only for a pike on clear terrain (R14)");
    }
    if (unit.disordered && unit.hex < 0) broken(id + ": disordered off the map");
    if (unit.hex >= 0) {
      const auto key = std::make_pair(unit.hex, data.type == UnitType::Leader);
      const auto [it, fresh] = stacks.emplace(key, static_cast<int>(u));
      if (!fresh) broken(id + " and " + d.units[it->second].id + " share a hex");
    }
    if (unit.eliminated) {
      vp[side_index(other_side(data.side))] += data.vp;
      if (data.commander) ++commanders[side_index(data.side)];
    }
    if (unit.exited) ++vp[side_index(Role::England)];
  }
  for (const auto& [key, u] : stacks) {
    const auto other = stacks.find({key.first, !key.second});
    if (other != stacks.end() && d.units[other->second].side != d.units[u].side) {
      broken("enemies share hex " + d.hex_id(key.first));
    }
  }
  State rebuilt;
  rebuilt.data = s.data;
  rebuilt.pos = s.pos;
  rebuild_occupancy(rebuilt);
  if (rebuilt.unit_at != s.unit_at || rebuilt.leader_at != s.leader_at) {
    broken("the occupancy differs from the units' hexes");
  }
  if (vp != p.vp) broken("victory points differ from the units out of play (rulebook 11)");
  if (commanders != p.commanders_lost) broken("commanders lost differ from the eliminated ones");
  if (p.turn < 1 || p.turn > d.turns) broken("turn out of range");
  if (p.ap < 0) broken("negative AP");
  if (p.phase == Phase::ScotsAp && (p.side != Role::Scotland || p.scots_charge_used)) {
    broken("the Scots Charge is announced by the Scots, once (R9)");
  }
  if (p.scots_charge_now && (!p.scots_charge_used || p.side != Role::Scotland)) {
    broken("a Scots Charge turn is a Scots turn after the announcement (R9)");
  }
  if (p.event != Event::None && (!s.options.battle_events || p.phase != Phase::Actions)) {
    broken("a battle event without the option, or outside a turn (R13)");
  }
  if (p.event_uses < 0 || p.event_uses > 3) broken("event uses out of range");
  if (p.phase != Phase::Setup) {
    for (Role side : {Role::Scotland, Role::England}) {
      if (next_to_place(s, side) >= 0) broken("a unit never set up");
    }
  }
  for (const auto& point : s.undo) {
    if (point.log_size > s.log.size()) broken("an undo point beyond the log");
  }
  if (p.phase == Phase::GameOver && !s.undo.empty()) broken("undo after the game's end");
  return out;
}

}  // namespace blockfog::scotland_rising
