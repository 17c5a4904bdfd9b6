#include <array>

#include "rules/hots/battle.h"

// Retreats and regroups: RULES 5.10, 5.11.3, 5.12, 13.5.

namespace blockfog::hots::detail {
namespace {

// Friendly or vacant (RULES 1.6): no enemy block there.
bool open_for(const Presence& occ, AreaId area, Side side) { return !occ.has_enemy(area, side); }

// 5.10.6, 5.12.4: the Norse withdraw by sea to a friendly coastal area (not England, not here).
AreaList norse_destinations(const Presence& occ, AreaId from) {
  AreaList out;
  const auto& data = game_data();
  for (AreaId a = 0; a < kAreaCount; ++a) {
    if (a != from && a != data.england && data.areas[a].coastal && occ.has(a, Side::Scotland) &&
        !occ.has_enemy(a, Side::Scotland)) {
      out.push_back(a);
    }
  }
  return out;
}

AreaList land_destinations(const Position& p, const Presence& occ, BlockId b, bool border_control) {
  const auto& data = game_data();
  const Side side = owner_of(b);
  const AreaId from = p.blocks[b].loc;
  AreaList out;
  for (const auto& n : data.areas[from].neighbors) {
    if (!open_for(occ, n.area, side)) continue;                                           // 5.10.1
    if (p.crossings[index_of(side)][n.border] >= data.borders[n.border].limit) continue;  // 4.4
    if (border_control && p.border_use[n.border] == index_of(core::other_side(side))) {
      continue;  // 5.10.3
    }
    if (side == Side::England && from == data.england) continue;     // 5.10.4, 5.12.3
    if (side == Side::Scotland && n.area == data.england) continue;  // 5.10.4, 5.12.3
    out.push_back(n.area);
  }
  return out;
}

void move_out(State& s, BlockId b, AreaId to, LogKind owner_line) {
  const auto& data = game_data();
  const Side side = owner_of(b);
  const AreaId from = s.blocks[b].loc;
  s.blocks[b].loc = to;
  s.blocks[b].reserve = false;
  s.blocks[b].entry = kNone;
  if (b == data.norse) {
    add_log(s, LogKind::NorseRetreat, Audience::Public, 0, from, to);  // 13.4.3
    return;
  }
  ++s.crossings[index_of(side)][data.border_between[from][to]];
  s.blocks[b].arrival_hidden = true;  // 13.5.3: the destination is published later
  add_log(s, owner_line, only(side), b, from, to);
}

}  // namespace

AreaList retreat_destinations(const Position& p, const Presence& occ, BlockId b) {
  if (p.blocks[b].reserve) return {};  // 5.10.5
  if (b == game_data().norse) return norse_destinations(occ, p.blocks[b].loc);
  return land_destinations(p, occ, b, true);
}

AreaList regroup_destinations(const Position& p, const Presence& occ, BlockId b) {
  if (b == game_data().norse) return norse_destinations(occ, p.blocks[b].loc);
  return land_destinations(p, occ, b, false);  // 5.12.2: border control does not apply
}

void retreat(State& s, BlockId b, AreaId to) {
  const AreaId from = s.blocks[b].loc;
  s.blocks[b].acted = true;
  if (s.phase == Phase::Combat) {
    // The block was revealed: everybody sees it leave the battle, not where it went (13.5).
    add_log(s, LogKind::Retreated, all_but(owner_of(b)), b, from);
  }
  move_out(s, b, to, LogKind::RetreatedTo);
}

void regroup(State& s, BlockId b, AreaId to) { move_out(s, b, to, LogKind::Regrouped); }

void publish_arrivals(State& s) {
  // Blocks per (side, place), published in that order (side first, then place). Called at every
  // initiative step, so a table in place rather than a map. Places beyond the map are kept, as
  // the map kept them, though a hidden arrival is always on the map.
  constexpr int kPlaces = kDead + 1;
  std::array<std::array<std::uint8_t, kPlaces>, 2> arrivals{};
  bool any = false;
  for (BlockId b = 0; b < kBlockCount; ++b) {
    auto& block = s.blocks[b];
    if (!block.arrival_hidden) continue;
    block.arrival_hidden = false;
    ++arrivals[index_of(owner_of(b))][block.loc];
    any = true;
  }
  if (!any) return;
  for (int side = 0; side < 2; ++side) {
    for (int a = 0; a < kPlaces; ++a) {
      if (arrivals[side][a] == 0) continue;
      add_log(s, LogKind::ArrivalsShown, all_but(side_of(side)), side, a, 0, arrivals[side][a]);
    }
  }
}

}  // namespace blockfog::hots::detail
