#include <algorithm>

#include "rules/hots/battle.h"

// Firing, hits and elimination: RULES 5.6-5.8, 12.2.1-12.2.2.

namespace blockfog::hots::detail {
namespace {

bool is_home(const BlockInfo& info, AreaId area) {
  return std::find(info.homes.begin(), info.homes.end(), area) != info.homes.end();
}

bool english_archers_in_battle(const Position& p) {
  for (BlockId b : main_blocks(p, Side::England)) {
    if (game_data().blocks[b].type == BlockType::Archers) return true;
  }
  return false;
}

// RULES 5.6.2: printed fire value, +1 for a noble defending at home, +1 for Schiltroms.
int effective_fire(const Position& p, BlockId b) {
  const auto& info = game_data().blocks[b];
  int fire = info.fire;
  const bool noble = info.type == BlockType::Noble || info.type == BlockType::Moray;
  if (noble && info.owner == defender(p) && is_home(info, p.battle.area)) ++fire;
  if (p.schiltroms && info.owner == Side::Scotland && info.type == BlockType::Infantry &&
      !english_archers_in_battle(p)) {
    ++fire;
  }
  return fire;
}

void to_pool(State& s, BlockId b) { s.blocks.set(b, BlockState{kPool, 0}); }
void to_dead(State& s, BlockId b) { s.blocks.set(b, BlockState{kDead, 0}); }

void capture_noble(State& s, BlockId b, bool battle_ending) {
  const auto& info = game_data().blocks[b];
  const AreaId area = s.blocks.loc[b];
  s.blocks.set(b, BlockState{kNotInPlay, 0});
  // 5.8.2: it changes sides at strength 1 as a reserve of its captor (during the battle).
  BlockState twin{area, 1};
  twin.reserve = !battle_ending;
  twin.entry = battle_ending ? kNone : kEntryCaptured;
  s.blocks.set(info.twin, twin);
  add_log(s, LogKind::NobleCaptured, Audience::Public, info.twin, area);
}

void hit_block(State& s, BlockId b) {
  if (s.blocks.strength[b] > 1) {
    --s.blocks.strength[b];
    add_log(s, LogKind::HitTaken, Audience::Public, b, 0, 0, s.blocks.strength[b]);
    return;
  }
  eliminate_in_battle(s, b, false);
}

}  // namespace

void eliminate_in_battle(State& s, BlockId b, bool battle_ending) {
  const auto& data = game_data();
  const auto& info = data.blocks[b];
  const AreaId area = s.blocks.loc[b];
  switch (info.type) {
    case BlockType::Noble:
      capture_noble(s, b, battle_ending);
      return;
    case BlockType::King:  // 12.2.1
      to_dead(s, b);
      add_log(s, LogKind::EliminatedDead, Audience::Public, b);
      end_game(s, Side::England, EndReason::KingKilled);
      return;
    case BlockType::Edward:
      if (!s.edward_ii) {  // 5.8.2, 6.1.2: Edward I falls; Edward II goes to the pool
        s.edward_ii = true;
        to_pool(s, b);
        add_log(s, LogKind::EdwardBecomesII, Audience::Public);
        return;
      }
      to_dead(s, b);  // 12.2.2
      add_log(s, LogKind::EliminatedDead, Audience::Public, b);
      end_game(s, Side::Scotland, EndReason::EdwardIIKilled);
      return;
    default:
      break;
  }
  if (info.black_cross) {  // Moray, Wallace, Norse, French Knights, Hobelars
    to_dead(s, b);
    add_log(s, LogKind::EliminatedDead, Audience::Public, b);
    return;
  }
  to_pool(s, b);
  if (battle_ending) {
    // 13.5.5: blocks lost in the mandatory retreat go to the pool anonymously.
    add_private_log(s, info.owner, LogKind::EliminatedToPool, b, 0, 0, LogKind::EliminatedAnon,
                    index_of(info.owner), area, 0);
  } else {
    add_log(s, LogKind::EliminatedToPool, Audience::Public, b);
  }
}

void fire(State& s, BlockId b) {
  const int dice = s.blocks.strength[b];
  const int value = effective_fire(s, b);
  int hits = 0;
  int packed = 0;
  for (int i = 0; i < dice; ++i) {
    const int die = s.rng.roll_die();
    hits += die <= value;
    packed |= die << (3 * i);
  }
  clear_undo(s);
  s.log.push_back(LogEntry{LogKind::Fired, Audience::Public, b, 0, static_cast<std::uint8_t>(hits),
                           static_cast<std::uint8_t>(dice), static_cast<std::int16_t>(packed)});
  s.battle.hits = static_cast<std::uint8_t>(hits);
  s.battle.target = index_of(core::other_side(owner_of(b)));
  apply_hits(s);
}

BlockList hit_candidates(const Position& p) {
  const auto targets = main_blocks(p, side_of(p.battle.target));
  int strongest = 0;
  for (BlockId b : targets) strongest = std::max<int>(strongest, p.blocks.strength[b]);
  BlockList tied;
  for (BlockId b : targets) {
    if (p.blocks.strength[b] == strongest) tied.push_back(b);
  }
  return tied;
}

void apply_hits(State& s) {
  // 5.7.2-5.7.4: each hit to the strongest; the owner chooses only among more ties than hits.
  while (s.battle.hits > 0 && s.phase != Phase::GameOver) {
    const auto tied = hit_candidates(s);
    if (tied.empty()) {
      s.battle.hits = 0;  // 5.7.3: excess hits are lost
      break;
    }
    if (s.battle.hits < tied.size()) {
      s.phase = Phase::HitAllocation;
      s.active = s.battle.target;
      return;
    }
    for (BlockId t : tied) {
      hit_block(s, t);
      if (s.phase == Phase::GameOver) return;
    }
    s.battle.hits = static_cast<std::uint8_t>(s.battle.hits - tied.size());
  }
  if (s.phase == Phase::GameOver) return;
  s.battle.hits = 0;
  continue_battle(s);
}

void take_hit(State& s, BlockId b) {
  hit_block(s, b);
  --s.battle.hits;
  if (s.phase == Phase::GameOver) return;
  s.phase = Phase::Combat;
  apply_hits(s);
}

}  // namespace blockfog::hots::detail
