#include "rules/scotland_rising/state.h"

namespace blockfog::scotland_rising {

bool is_leader(const State& s, int u) { return s.unit(u).type == UnitType::Leader; }

bool on_board(const State& s, int u) { return s.pos.units[u].hex >= 0; }

void set_hex(State& s, int u, int hex) {
  auto& at = is_leader(s, u) ? s.leader_at : s.unit_at;
  const int old = s.pos.units[u].hex;
  if (old >= 0 && at[old] == u) at[old] = -1;
  s.pos.units[u].hex = hex;
  if (hex >= 0) at[hex] = u;
}

void rebuild_occupancy(State& s) {
  s.unit_at.assign(s.data->hex_count(), -1);
  s.leader_at.assign(s.data->hex_count(), -1);
  for (std::size_t u = 0; u < s.pos.units.size(); ++u) {
    const int hex = s.pos.units[u].hex;
    if (hex >= 0)
      (is_leader(s, static_cast<int>(u)) ? s.leader_at : s.unit_at)[hex] = static_cast<int>(u);
  }
}

int unit_in(const State& s, int hex) { return s.unit_at[hex]; }

int leader_in(const State& s, int hex) { return s.leader_at[hex]; }

std::optional<Role> side_in(const State& s, int hex) {
  const int u = s.unit_at[hex] >= 0 ? s.unit_at[hex] : s.leader_at[hex];
  if (u < 0) return std::nullopt;
  return s.data->units[u].side;
}

const Values& values(const State& s, int u) {
  const auto& data = s.unit(u);
  return s.pos.units[u].reduced && data.reduced ? *data.reduced : data.full;
}

}  // namespace blockfog::scotland_rising
