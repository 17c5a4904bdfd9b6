#include <algorithm>
#include <array>
#include <bit>

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
  const AreaId from = p.blocks.loc[b];
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
  const AreaId from = s.blocks.loc[b];
  s.blocks.loc[b] = to;
  s.blocks.reserve.set(b, false);
  s.blocks.entry[b] = kNone;
  if (b == data.norse) {
    add_log(s, LogKind::NorseRetreat, Audience::Public, 0, from, to);  // 13.4.3
    return;
  }
  ++s.crossings[index_of(side)][data.border_between[from][to]];
  s.blocks.arrival_hidden.set(b, true);  // 13.5.3: the destination is published later
  add_log(s, owner_line, only(side), b, from, to);
}

}  // namespace

AreaList retreat_destinations(const Position& p, const Presence& occ, BlockId b) {
  if (p.blocks.reserve[b]) return {};  // 5.10.5
  if (b == game_data().norse) return norse_destinations(occ, p.blocks.loc[b]);
  return land_destinations(p, occ, b, true);
}

AreaList regroup_destinations(const Position& p, const Presence& occ, BlockId b) {
  if (b == game_data().norse) return norse_destinations(occ, p.blocks.loc[b]);
  return land_destinations(p, occ, b, false);  // 5.12.2: border control does not apply
}

void retreat(State& s, BlockId b, AreaId to) {
  const AreaId from = s.blocks.loc[b];
  s.blocks.acted.set(b, true);
  if (s.phase == Phase::Combat) {
    // The block was revealed: everybody sees it leave the battle, not where it went (13.5).
    add_log(s, LogKind::Retreated, all_but(owner_of(b)), b, from);
  }
  move_out(s, b, to, LogKind::RetreatedTo);
}

void regroup(State& s, BlockId b, AreaId to) { move_out(s, b, to, LogKind::Regrouped); }

// Asked when the regroup would begin, from facts everybody sees. When `blocks_known`,
// everybody knows which blocks the victor has in the battle area (each was revealed in the
// battle or named when captured, 13.2, 13.4.1), and their own destinations decide, as the
// regroup would offer them (5.12.1-5.12.4, border limits of the fresh window included).
// Otherwise the facts asked are the victor, the battle area, which areas hold blocks of either
// side, and whether the Norse are dead or out of play; which blocks he has is not: only the
// Norse regroup otherwise than the others (5.12.4), and their presence among his blocks (a
// reserve never revealed) is not public, so a Norse destination keeps the step for any
// Scottish victor. Border limits need no asking there: the regroup's window is fresh
// (end_rounds; the mandatory retreat before it moves only the other side's blocks), and no
// limit is below 1.
bool regroup_ruled_out_publicly(const Position& p, bool blocks_known) {
  if (blocks_known) {
    const Presence occ(p);
    for (BlockId b : block_list(blocks_in(p, p.battle.area, side_of(p.battle.victor)))) {
      if (!regroup_destinations(p, occ, b).empty()) return false;
    }
    return true;
  }
  const auto& data = game_data();
  const Side victor = side_of(p.battle.victor);
  const AreaId area = p.battle.area;
  if (!any_in_area(p, area, victor)) return true;
  const Presence occ(p);
  // 5.12.1, 5.12.3: into a neighbour friendly or vacant for him; an English block in England
  // into no Scottish area, a Scottish block never into England.
  if (!(victor == Side::England && area == data.england)) {
    for (const auto& n : data.areas[area].neighbors) {
      if (occ.has_enemy(n.area, victor)) continue;
      if (victor == Side::Scotland && n.area == data.england) continue;
      return false;
    }
  }
  if (victor == Side::England) return true;
  const std::uint8_t norse_at = p.blocks.loc[data.norse];
  if (norse_at == kDead || norse_at == kNotInPlay) return true;  // public (13.2)
  for (AreaId a = 0; a < kAreaCount; ++a) {  // 5.12.4: a friendly coastal area for the Norse
    if (a != area && a != data.england && data.areas[a].coastal && occ.has(a, Side::Scotland) &&
        !occ.has_enemy(a, Side::Scotland)) {
      return false;
    }
  }
  return true;
}

void publish_arrivals(State& s) {
  // Called at every initiative step, and mostly nothing is hidden.
  std::uint64_t hidden = s.blocks.arrival_hidden.bits;  // bit per block
  if (hidden == 0) return;
  s.blocks.arrival_hidden = {};
  // One line per (side, area), in that order (side first, then area): the hidden arrivals'
  // keys sorted, then counted in runs. No heap, and no table to clear.
  std::array<int, kBlockCount> keys{};
  int count = 0;
  for (; hidden != 0; hidden &= hidden - 1) {
    const auto b = static_cast<BlockId>(std::countr_zero(hidden));
    keys[count++] = index_of(owner_of(b)) * 256 + s.blocks.loc[b];
  }
  std::sort(keys.begin(), keys.begin() + count);
  for (int i = 0; i < count;) {
    int j = i;
    while (j < count && keys[j] == keys[i]) ++j;
    const int side = keys[i] / 256;
    add_log(s, LogKind::ArrivalsShown, all_but(side_of(side)), side, keys[i] % 256, 0, j - i);
    i = j;
  }
}

}  // namespace blockfog::hots::detail
