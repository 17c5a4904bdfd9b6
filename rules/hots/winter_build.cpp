#include <algorithm>
#include <array>
#include <bit>

#include "rules/hots/fixed_list.h"
#include "rules/hots/winter.h"

// Builds (10.11, 10.12), the French Knights (10.10), the feudal levy (10.13), the end of the
// winter and of the scenario (10.14, 12).

namespace blockfog::hots::detail {
namespace {

int area_limit(AreaId a, Side side) {
  return side == Side::Scotland ? game_data().areas[a].scottish_castle_limit
                                : game_data().areas[a].castle_limit;
}

void grant_replacement_points(State& s, Side side) {
  const Presence occ(s);  // one pass for the 23 areas' "friendly" questions (1.6)
  for (AreaId a = 0; a < kAreaCount; ++a) {
    const bool friendly = occ.has(a, side) && !occ.has_enemy(a, side);
    s.winter.rp[a] = friendly ? static_cast<std::uint8_t>(area_limit(a, side)) : 0;
  }
}

bool may_gain_step(Side side, BlockId b) {
  const auto& info = game_data().blocks[b];
  if (info.owner != side) return false;
  if (side == Side::Scotland) return true;
  return info.type == BlockType::Infantry || info.type == BlockType::Noble;  // 10.12.2
}

// 10.11.2: the pool blocks a draw into `area` may yield.
PoolList draw_candidates(const Position& p, AreaId area) {
  PoolList out;
  const bool coastal = game_data().areas[area].coastal;
  for (BlockId b = 0; b < kBlockCount; ++b) {
    if (p.blocks.loc[b] != kPool || owner_of(b) != Side::Scotland) continue;
    if (!coastal && (b == game_data().norse || b == game_data().french_knights)) continue;
    out.push_back(b);
  }
  return out;
}

void feudal_levy(State& s) {
  if (on_map(s, game_data().edward)) return;  // 10.13.1: Edward I winters in Scotland
  PoolList pool;
  for (BlockId b = 0; b < kBlockCount; ++b) {
    if (s.blocks.loc[b] == kPool && owner_of(b) == Side::England) pool.push_back(b);
  }
  const int count = static_cast<int>((pool.size() + 1) / 2);  // 10.13.2: half, rounded up
  for (int i = 0; i < count; ++i) {
    const int b = s.rng.pick(pool.items());
    pool.erase_value(b);
    s.blocks.set(b, BlockState{game_data().england,
                               static_cast<std::uint8_t>(game_data().blocks[b].max_strength)});
    add_log(s, LogKind::LevyBlock, Audience::EnglandOnly, b, game_data().england);
  }
  clear_undo(s);
  add_log(s, LogKind::LevyCount, Audience::NotEngland, 0, game_data().england, 0, count);
}

// 12.1, 12.3: true when the scenario ends with this winter.
bool scenario_ends(State& s) {
  const auto& scenario = game_data().scenarios[s.scenario];
  if (s.year < scenario.end_year) return false;
  const int england = nobles_controlled(s, Side::England);
  const int scotland = nobles_controlled(s, Side::Scotland);
  add_log(s, LogKind::ScenarioEnd, Audience::Public, 0, england, scotland, s.year);
  if (england != scotland) {
    end_game(s, england > scotland ? Side::England : Side::Scotland, EndReason::NoblesMajority);
    return true;
  }
  // A tie: Braveheart (and the Campaign's backstop) ask whether Wallace is on the map.
  if (!scenario.tie_break_by_wallace && s.year < scenario.backstop_end_year) return false;
  end_game(s, on_map(s, game_data().wallace) ? Side::Scotland : Side::England,
           EndReason::WallaceTieBreak);
  return true;
}

}  // namespace

void enter_scotland_build(State& s) {
  s.winter.step = WinterStep::ScotlandBuild;
  s.active = index_of(Side::Scotland);
  grant_replacement_points(s, Side::Scotland);
}

void enter_england_build(State& s) {
  s.winter.step = WinterStep::EnglandBuild;
  s.active = index_of(Side::England);
  grant_replacement_points(s, Side::England);
}

namespace {

// Per block, the strength up to which a build may raise it (10.11, 10.12.2), 0 if it may not
// gain steps: one table instead of three lookups in the block data per block per query.
const BlockBytes& step_caps() {
  static const auto caps = [] {
    BlockBytes out{};
    for (BlockId b = 0; b < kBlockCount; ++b) {
      if (may_gain_step(owner_of(b), b)) {
        out[b] = static_cast<std::uint8_t>(game_data().blocks[b].max_strength);
      }
    }
    return out;
  }();
  return caps;
}

// The coastal areas, a bit per area.
std::uint32_t coastal_areas() {
  static const std::uint32_t areas = [] {
    std::uint32_t out = 0;
    for (AreaId a = 0; a < kAreaCount; ++a) out |= game_data().areas[a].coastal ? 1U << a : 0U;
    return out;
  }();
  return areas;
}

// Of the areas `asked` (bit per area), those where Scotland may draw as far as its pool goes
// (10.11.2): a pool block that may come there (inland: not the Norse nor the French Knights;
// draw_candidates() lists them when a draw is made). Only Scotland draws. Room under the limit
// is the caller's check, with the blocks of the area it reads anyway.
std::uint32_t scottish_pool_draw_areas(const Position& p, std::uint32_t asked) {
  const std::uint64_t pool = blocks_in(p, kPool, Side::Scotland);
  const std::uint64_t coastal_only =
      std::uint64_t{1} << game_data().norse | std::uint64_t{1} << game_data().french_knights;
  const bool pool_coastal = pool != 0;
  const bool pool_inland = (pool & ~coastal_only) != 0;
  const std::uint32_t coastal = coastal_areas();
  return asked & ((pool_coastal ? coastal : 0U) | (pool_inland ? ~coastal : 0U));
}

}  // namespace

void build_legal(const State& s, Side side, ActionList& out) {
  // The areas with replacement points left (bit per area); only those offer anything.
  // (The loops below are written without branches: random play makes them unpredictable.)
  std::uint32_t with_points = 0;
  for (AreaId a = 0; a < kAreaCount; ++a) {
    with_points |= static_cast<std::uint32_t>(s.winter.rp[a] != 0) << a;
  }
  // The side's blocks on the map that may gain a step (only its own, may_gain_step), a bit
  // per block from compares of whole fields, then a mask per area with points.
  const std::uint64_t gainers =
      s.blocks.on_map() & blocks_of(side) & bytes_below(s.blocks.strength, step_caps());
  const std::uint32_t draws = side == Side::Scotland ? scottish_pool_draw_areas(s, with_points) : 0;
  for (auto areas = with_points; areas != 0; areas &= areas - 1) {  // in area order
    const auto a = static_cast<AreaId>(std::countr_zero(areas));
    const std::uint64_t here = s.blocks.at(a);  // both sides' blocks: the draw's limit counts all
    for (auto bits = here & gainers; bits != 0; bits &= bits - 1) {  // in block order
      out.push_back(with_block(ActionKind::AddStep, static_cast<BlockId>(std::countr_zero(bits))));
    }
    // 10.11.2: a draw needs room under the area's limit.
    if (((draws >> a) & 1U) && count_bits(here) < area_limit(a, Side::Scotland)) {
      out.push_back(with_area(ActionKind::Draw, a));
    }
  }
  // 10.11.3, 10.12.3: points must be spent while they have a use.
  if (out.empty()) out.push_back(simple(ActionKind::Done));
}

void build_legal_after_step(const State& s, const ActionList& before, BlockId b, ActionList& out) {
  // Only b's area changed: a point less there and a step more on b. The other areas' points,
  // gainers and blocks and the pool (which draws read) are as before, so are their actions.
  const AreaId area = s.blocks.loc[b];
  const bool area_spent = s.winter.rp[area] == 0;
  const bool block_full = s.blocks.strength[b] >= step_caps()[b];
  out.clear();
  for (const Action& action : before) {
    if (action.kind == ActionKind::AddStep) {
      const BlockId c = action.a;
      if (c == b ? area_spent || block_full : area_spent && s.blocks.loc[c] == area) continue;
    } else if (action.kind == ActionKind::Draw) {
      if (area_spent && action.a == area) continue;
    } else {
      continue;  // `done` (only in a list without builds) and the undo are listed below
    }
    out.push_back(action);
  }
  if (out.empty()) out.push_back(simple(ActionKind::Done));
}

void build_apply(State& s, Side side, const Action& action) {
  if (action.kind == ActionKind::AddStep) {
    const BlockId b = action.a;
    --s.winter.rp[s.blocks.loc[b]];
    ++s.blocks.strength[b];
    add_log(s, LogKind::StepAdded, only(side), b, 0, 0, s.blocks.strength[b]);  // 13.3
    return;
  }
  const AreaId area = action.a;
  --s.winter.rp[area];
  const int b = s.rng.pick(draw_candidates(s, area).items());
  s.blocks.set(b, BlockState{area, 1});
  clear_undo(s);
  add_private_log(s, Side::Scotland, LogKind::Drew, b, area, 0, LogKind::DrewAnon,
                  index_of(Side::Scotland), area, 0);
}

void french_knights_check(State& s) {
  const BlockId knights = game_data().french_knights;
  if (s.french_knights_added || nobles_controlled(s, Side::Scotland) < 8) return;  // 10.10
  if (s.blocks.loc[knights] == kNotInPlay) s.blocks.set(knights, BlockState{kPool, 0});
  s.french_knights_added = true;
  clear_undo(s);  // a public announcement (13.4.5): nothing before it can be taken back
  add_log(s, LogKind::FrenchKnightsAdded, Audience::Public);
}

void finish_winter(State& s) {
  feudal_levy(s);
  s.edward_wintered_last = s.winter.edward_winters;  // 10.6.3
  s.winter = WinterState{};
  s.active = kNone;
  // 10.14.1 and 12.2.3 (Interpretation): the "all nobles" test after every winter.
  if (sudden_death_all_nobles(s) || scenario_ends(s)) return;
  ++s.year;  // 10.14.3
  start_year(s);
}

}  // namespace blockfog::hots::detail
