#include "rules/hots/battle.h"

#include <algorithm>
#include <array>
#include <bit>

#include "rules/hots/events.h"

// The battle phase and the course of one battle: RULES 5.1-5.4, 5.9, 5.11, 5.13.

namespace blockfog::hots::detail {
namespace {

constexpr int kRounds = 3;  // RULES 5.4.1

// The battles to fight now: the pending defection battles of an event (5.14), otherwise every
// contested area (5.1).
AreaList contested_areas(const Position& p) {
  std::uint32_t contested = Presence(p).contested();
  if (p.in_defection) contested &= p.defection_areas;
  AreaList areas;
  for (; contested != 0; contested &= contested - 1) {  // in area order
    areas.push_back(static_cast<AreaId>(std::countr_zero(contested)));
  }
  return areas;
}

// The side acting in initiative step `step` (5.4.2): defender first within each letter.
Side step_side(const Position& p, int step) { return step % 2 == 0 ? defender(p) : attacker(p); }
char step_letter(int step) { return static_cast<char>('A' + step / 2); }

bool has_turn_left(const Position& p, BlockId b, int step) {
  return !p.blocks.acted[b] && game_data().blocks[b].initiative == step_letter(step);
}

// The initiative steps (bit per step, 5.4.2) in which a main block still has its turn: one
// pass over the blocks instead of a main_blocks() list per step.
std::uint32_t steps_with_blocks(const Position& p) {
  static const auto letters = [] {
    std::array<std::uint8_t, kBlockCount> out{};
    for (BlockId b = 0; b < kBlockCount; ++b) {
      out[b] = static_cast<std::uint8_t>(game_data().blocks[b].initiative - 'A');
    }
    return out;
  }();
  const int attacking = p.battle.attacker;
  std::uint32_t steps = 0;
  std::uint64_t waiting =
      p.blocks.at(p.battle.area) & ~p.blocks.reserve.bits & ~p.blocks.acted.bits;
  for (; waiting != 0; waiting &= waiting - 1) {
    const int b = std::countr_zero(waiting);
    const int side = b < kBlocksPerSide ? 0 : 1;
    // Within a letter the defender's step comes first (step_side).
    steps |= 1U << (2 * letters[b] + (side == attacking ? 1 : 0));
  }
  return steps;
}

void reveal_main_blocks(State& s) {
  for (Side side : {defender(s), attacker(s)}) {
    for (BlockId b : main_blocks(s, side)) {
      add_log(s, LogKind::BlockRevealed, Audience::Public, b, 0, 0, s.blocks.strength[b]);
    }
  }
}

// Blocks of both sides (the revealed of a battle, the reserves joining it), without the heap.
using BothSidesBlocks = FixedList<BlockId, kBlockCount>;

// RULES 5.3.2: each Celtic block rolls as it is revealed; 5-6 sends it to the English pool.
void celtic_unity(State& s, const BothSidesBlocks& revealed) {
  for (BlockId b : revealed) {
    if (!game_data().blocks[b].celtic) continue;
    const int die = s.rng.roll_die();
    const bool leaves = die >= 5;
    add_log(s, LogKind::CelticRoll, Audience::Public, b, 0, leaves, die);
    if (leaves) s.blocks.set(b, BlockState{kPool, 0});
  }
  clear_undo(s);
}

void start_battle(State& s, AreaId area) {
  s.battle = BattleState{};
  s.battle.area = area;
  s.battle.attacker = s.battles[area].attacker;
  s.battle.round = 1;
  for (auto& counters : s.crossings) counters.fill(0);
  s.blocks.acted = {};
  add_log(s, LogKind::BattleBegins, Audience::Public, s.battle.attacker, area);
  add_log(s, LogKind::RoundBegins, Audience::Public, 0, area, 0, 1);
  reveal_main_blocks(s);  // 5.3.1
  const auto attacking = main_blocks(s, attacker(s));
  const auto defending = main_blocks(s, defender(s));
  BothSidesBlocks revealed;
  for (BlockId b : attacking) revealed.push_back(b);
  for (BlockId b : defending) revealed.push_back(b);
  celtic_unity(s, revealed);
  continue_battle(s);
}

// RULES 5.9.2-5.9.4: the start of rounds 2 and 3.
void start_next_round(State& s) {
  publish_arrivals(s);
  ++s.battle.round;
  s.battle.step = 0;
  for (auto& counters : s.crossings) counters.fill(0);  // each round is a limit window (4.4.2)
  s.blocks.acted = {};
  const AreaId area = s.battle.area;
  add_log(s, LogKind::RoundBegins, Audience::Public, 0, area, 0, s.battle.round);
  if (s.battle.round == 2 && main_blocks(s, defender(s)).empty()) {
    s.battle.attacker = index_of(defender(s));  // battlefield control changes
    add_log(s, LogKind::ControlChange, Audience::Public, s.battle.attacker, area);
  }
  BothSidesBlocks joining;
  for (auto bits = s.blocks.at(area) & s.blocks.reserve.bits; bits != 0; bits &= bits - 1) {
    joining.push_back(static_cast<BlockId>(std::countr_zero(bits)));
  }
  if (s.battle.round == 2) {
    celtic_unity(s, joining);  // reserves roll just before they join (5.3.3)
  }
  for (BlockId b : joining) {
    if (s.blocks.loc[b] != area) continue;  // left through Celtic unity
    s.blocks.reserve.set(b, false);
    s.blocks.entry[b] = kNone;
    add_log(s, LogKind::BlockRevealed, Audience::Public, b, 0, 0, s.blocks.strength[b]);
  }
}

// Whether `side` has a block in `area` still flagged as a reserve that came by a border or by
// sea: one that never joined the battle, so nobody else knows which block it is (13.2). A noble
// captured in the battle (or by the Pillage that caused it) is flagged too, but named (13.4.1).
// Asked before the reserve flags are cleared (5.11.2).
bool has_anonymous_reserve(const Position& p, AreaId area, Side side) {
  for (auto bits = blocks_in(p, area, side) & p.blocks.reserve.bits; bits != 0; bits &= bits - 1) {
    if (p.blocks.entry[std::countr_zero(bits)] != kEntryCaptured) return true;
  }
  return false;
}

// RULES 5.12, table 14 #16: the victor's regroup. Under hots-3 it is skipped when public facts
// alone rule out any regroup; otherwise it waits for the victor's `end_regroup` even when he
// has nothing to regroup, so that nobody learns which blocks he has (13.1.4). `victor_known`:
// everybody knows which blocks the victor has in the area, each revealed in the battle or named
// when captured; hots-4 then asks those blocks' own destinations.
void enter_regroup(State& s, bool victor_known) {
  if (follows_hots3(s) && regroup_ruled_out_publicly(s, follows_hots4(s) && victor_known)) {
    finish_battle(s);
    return;
  }
  s.phase = Phase::Regroup;
  s.active = s.battle.victor;
}

// RULES 5.11: the rounds are over, or a side is gone.
void end_rounds(State& s) {
  publish_arrivals(s);
  const AreaId area = s.battle.area;
  const bool both_remain = !battle_over(s);
  const Side victor = both_remain                                  ? defender(s)
                      : count_in_area(s, area, Side::Scotland) > 0 ? Side::Scotland
                                                                   : Side::England;
  s.battle.victor = index_of(victor);
  s.battle.hits = 0;
  const bool victor_known = !has_anonymous_reserve(s, area, victor);
  stand_up(s, area);  // 5.11.2: every block stands up again, hidden
  add_log(s, LogKind::BattleWon, Audience::Public, index_of(victor), area);
  for (auto& counters : s.crossings) counters.fill(0);  // a fresh window (4.4.2)
  if (both_remain) {
    s.phase = Phase::MandatoryRetreat;  // 5.11.3
    s.active = index_of(attacker(s));
    add_log(s, LogKind::MandatoryRetreat, Audience::Public, s.active, area);
    return;
  }
  enter_regroup(s, victor_known);
}

void choose_next_battle(State& s) {
  const auto areas = contested_areas(s);
  if (areas.empty()) {
    s.battle = BattleState{};
    if (s.in_defection) {
      s.in_defection = false;
      s.defection_areas = 0;
      end_event(s);  // 5.14.1: the event's player turn goes on
      return;
    }
    end_battle_phase(s);
    return;
  }
  if (areas.size() == 1) {  // 5.1.1: the engine selects a lone battle itself
    start_battle(s, areas[0]);
    return;
  }
  s.phase = Phase::BattleChoice;
  s.active = s.p1;
}

BlockList blocks_of_in(const Position& p, Side side, AreaId area) {
  return block_list(blocks_in(p, area, side));
}

void combat_legal(const State& s, Side side, ActionList& out) {
  const bool can_fire = !main_blocks(s, core::other_side(side)).empty();  // 5.9.1
  const Presence occ(s);
  for (BlockId b : main_blocks(s, side)) {
    if (!has_turn_left(s, b, s.battle.step)) continue;
    if (can_fire) out.push_back(with_block(ActionKind::Fire, b));
    out.push_back(with_block(ActionKind::Pass, b));
    for (AreaId to : retreat_destinations(s, occ, b)) {
      out.push_back(to_area(ActionKind::Retreat, b, to));
    }
  }
}

}  // namespace

BlockList main_blocks(const Position& p, Side side) {
  return block_list(blocks_in(p, p.battle.area, side) & ~p.blocks.reserve.bits);
}

bool battle_over(const Position& p) { return !is_contested(p, p.battle.area); }

void fight_defection_battles(State& s, std::uint32_t areas, Side attacker) {
  for (AreaId a = 0; a < kAreaCount; ++a) {
    if ((areas >> a) & 1U) s.battles[a] = BattleMarker{index_of(attacker), kNone, kNone};
  }
  s.defection_areas = areas;
  s.in_defection = true;
  s.event = EventState{};
  choose_next_battle(s);
}

void enter_battle_phase(State& s) {
  const auto areas = contested_areas(s);
  if (!areas.empty()) {
    add_log(s, LogKind::BattlePhase, Audience::Public, 0, 0, 0, static_cast<int>(areas.size()));
  }
  choose_next_battle(s);
}

void continue_battle(State& s) {
  while (s.phase != Phase::GameOver) {
    if (battle_over(s)) {
      end_rounds(s);
      return;
    }
    const int from = s.battle.step;
    const std::uint32_t steps = steps_with_blocks(s);
    for (int step = from; step < 6; ++step) {
      if (!((steps >> step) & 1U)) continue;
      if (step != from) publish_arrivals(s);  // the earlier step is over (13.5.3)
      s.battle.step = static_cast<std::uint8_t>(step);
      s.phase = Phase::Combat;
      s.active = index_of(step_side(s, step));
      return;
    }
    if (s.battle.round == kRounds) {
      end_rounds(s);
      return;
    }
    start_next_round(s);
  }
}

void finish_mandatory_retreat(State& s) {
  const AreaId area = s.battle.area;
  const Side side = attacker(s);
  const auto stranded = blocks_of_in(s, side, area);
  publish_arrivals(s);
  if (!stranded.empty()) {
    add_log(s, LogKind::CouldNotRetreat, Audience::Public, index_of(side), area, 0,
            static_cast<int>(stranded.size()));
  }
  for (BlockId b : stranded) {  // 5.11.3: eliminated in battle
    eliminate_in_battle(s, b, true);
    if (s.phase == Phase::GameOver) return;
  }
  // The battle went three rounds: every reserve joined and was revealed in round 2 (5.9.3), and
  // each noble captured since was named (13.4.1), so the victor's blocks are all known.
  enter_regroup(s, true);
}

void finish_battle(State& s) {
  publish_arrivals(s);
  const AreaId area = s.battle.area;
  s.battles[area] = BattleMarker{};  // 5.13
  if (s.in_defection) {
    s.defection_areas &= ~(1U << area);
    s.border_use.fill(kNone);  // 5.14.5: defection battles close no borders
  }
  s.blocks.acted = {};
  stand_up(s, area);
  for (auto& counters : s.crossings) counters.fill(0);
  s.battle = BattleState{};
  choose_next_battle(s);
}

void battle_legal(const State& s, Side side, ActionList& out) {
  if (s.active != index_of(side)) return;
  switch (s.phase) {
    case Phase::BattleChoice:
      for (AreaId a : contested_areas(s)) out.push_back(with_area(ActionKind::ChooseBattle, a));
      break;
    case Phase::Combat:
      combat_legal(s, side, out);
      break;
    case Phase::HitAllocation:
      for (BlockId b : hit_candidates(s)) out.push_back(with_block(ActionKind::TakeHit, b));
      break;
    case Phase::MandatoryRetreat: {
      const Presence occ(s);
      for (BlockId b : blocks_of_in(s, side, s.battle.area)) {
        for (AreaId to : retreat_destinations(s, occ, b)) {
          out.push_back(to_area(ActionKind::Retreat, b, to));
        }
      }
      // 5.11.3: he may stop only when no remaining block has a legal destination.
      if (out.empty()) out.push_back(simple(ActionKind::FinishRetreat));
      break;
    }
    case Phase::Regroup: {
      const Presence occ(s);
      for (BlockId b : blocks_of_in(s, side, s.battle.area)) {
        for (AreaId to : regroup_destinations(s, occ, b)) {
          out.push_back(to_area(ActionKind::Regroup, b, to));
        }
      }
      out.push_back(simple(ActionKind::EndRegroup));
      break;
    }
    default:
      break;
  }
}

void battle_apply(State& s, Side side, const Action& action) {
  switch (action.kind) {
    case ActionKind::ChooseBattle:
      start_battle(s, action.a);
      return;
    case ActionKind::Fire:
      s.blocks.acted.set(action.a, true);
      fire(s, action.a);
      return;
    case ActionKind::Pass:
      s.blocks.acted.set(action.a, true);
      add_log(s, LogKind::Passed, Audience::Public, action.a);
      continue_battle(s);
      return;
    case ActionKind::Retreat:
      retreat(s, action.a, action.b);
      if (s.phase == Phase::Combat) {
        continue_battle(s);
      } else if (blocks_of_in(s, side, s.battle.area).empty()) {
        finish_mandatory_retreat(s);
      }
      return;
    case ActionKind::TakeHit:
      take_hit(s, action.a);
      return;
    case ActionKind::FinishRetreat:
      finish_mandatory_retreat(s);
      return;
    case ActionKind::Regroup:
      regroup(s, action.a, action.b);
      return;
    case ActionKind::EndRegroup:
      finish_battle(s);
      return;
    default:
      return;
  }
}

}  // namespace blockfog::hots::detail
