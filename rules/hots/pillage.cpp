#include <algorithm>

#include "rules/hots/events.h"

// Pillage: RULES 7.3 (hits like battle hits, captured nobles, the pillaged steps, the battle
// that may follow), with its fog of war (7.3.5, 13.1.4).

namespace blockfog::hots::detail {
namespace {

Side pillager(const State& s) {
  return s.event.stage == EventStage::PillageLosses ? core::other_side(side_of(s.active))
                                                    : side_of(s.active);
}

AreaList pillage_targets(const Position& p, Side side) {
  AreaList out;
  const Presence presence(p);  // one pass for every "enemy there, friendly next door?"
  const auto is_friendly_area = [&](AreaId a) {
    return presence.has(a, side) && !presence.has_enemy(a, side);
  };
  for (AreaId a = 0; a < kAreaCount; ++a) {
    if (!presence.has_enemy(a, side)) continue;
    const auto& neighbors = game_data().areas[a].neighbors;
    if (std::any_of(neighbors.begin(), neighbors.end(),
                    [&](const Neighbor& n) { return is_friendly_area(n.area); })) {
      out.push_back(a);
    }
  }
  return out;
}

// The victim's strongest blocks in the target area (7.3.2 applies 5.7.2-5.7.4).
BlockList tied_strongest(const Position& p, AreaId area, Side victim) {
  int strongest = 0;
  BlockList tied;
  for (BlockId b = 0; b < kBlockCount; ++b) {
    if (p.blocks.loc[b] != area || owner_of(b) != victim) continue;
    if (p.blocks.strength[b] > strongest) {
      strongest = p.blocks.strength[b];
      tied.clear();
    }
    if (p.blocks.strength[b] == strongest) tied.push_back(b);
  }
  return tied;
}

void pillage_hit(State& s, BlockId b) {
  const auto& info = game_data().blocks[b];
  const AreaId area = s.blocks.loc[b];
  ++s.event.inflicted;
  if (s.blocks.strength[b] > 1) {
    --s.blocks.strength[b];
    add_log(s, LogKind::PillageHit, only(info.owner), b, 0, 0, s.blocks.strength[b]);  // 7.3.5
    return;
  }
  if (info.type == BlockType::Noble) {
    // 7.3.2: he changes sides at strength 1, as a reserve of the pillager.
    s.blocks.set(b, BlockState{kNotInPlay, 0});
    BlockState twin{area, 1};
    twin.reserve = true;
    twin.entry = kEntryCaptured;
    s.blocks.set(info.twin, twin);
    add_log(s, LogKind::NobleCaptured, Audience::Public, info.twin, area);
    return;
  }
  // Any other block, Moray, the King and Edward included, goes to its pool (5.8.3).
  s.blocks.set(b, BlockState{kPool, 0});
  add_private_log(s, info.owner, LogKind::EliminatedToPool, b, 0, 0, LogKind::EliminatedAnon,
                  index_of(info.owner), area, 0);
}

// Applies the hits that need no choice; stops when the victim must choose.
void apply_forced_hits(State& s, Side victim) {
  while (s.event.hits > 0) {
    const auto tied = tied_strongest(s, s.event.area, victim);
    if (tied.empty()) {
      s.event.hits = 0;  // the victim ran out of steps
      return;
    }
    if (s.event.hits < tied.size()) return;
    for (BlockId b : tied) pillage_hit(s, b);
    s.event.hits = static_cast<std::uint8_t>(s.event.hits - tied.size());
  }
}

bool has_friendly_neighbor(const Position& p, AreaId area, Side side) {
  for (const auto& n : game_data().areas[area].neighbors) {
    if (is_friendly(p, n.area, side)) return true;
  }
  return false;
}

BlockList gain_candidates(const State& s, Side side) {
  BlockList out;
  if (s.event.count >= s.event.inflicted) return out;
  const auto target = s.event.area;
  for (BlockId b = 0; b < kBlockCount; ++b) {
    const BlockState block = s.blocks.get(b);
    if (owner_of(b) != side || block.loc >= kAreaCount) continue;
    if (s.event.dest != kNone ? block.loc != s.event.dest
                              : (game_data().border_between[block.loc][target] == kNone ||
                                 !is_friendly(s, block.loc, side))) {
      continue;
    }
    if (block.strength < game_data().blocks[b].max_strength) out.push_back(b);
  }
  return out;
}

void finish_pillage(State& s, Side side) {
  const AreaId target = s.event.area;
  if (is_contested(s, target)) {
    fight_defection_battles(s, 1U << target, side);  // 7.3.4: the pillager attacks
    return;
  }
  stand_up(s, target);  // a captured noble alone there: no battle
  end_event(s);
}

void after_losses(State& s, Side side) {
  add_log(s, LogKind::PillageInflicted, Audience::Public, index_of(side), s.event.area, 0,
          s.event.inflicted);
  // 7.3.3: the pillager places up to k steps; the step is entered whenever public facts allow
  // a recipient, so that nobody learns the strengths involved. With no room for a step it
  // waits for his `done`; once he has placed one it ends by itself after the last (table 14
  // #6, under hots-3; the steps are his own, and k is public).
  if (s.event.inflicted > 0 && has_friendly_neighbor(s, s.event.area, side)) {
    s.event.stage = EventStage::PillageGains;
    s.active = index_of(side);
    return;
  }
  finish_pillage(s, side);
}

}  // namespace

void pillage_start(State& s, Side side, AreaId target) {
  const Side victim = core::other_side(side);
  s.event = EventState{EventStage::PillageLosses, target, kNone, 0, 2, 0};  // 7.3.2: 2 hits
  add_log(s, LogKind::PillageTarget, Audience::Public, index_of(side), target);
  apply_forced_hits(s, victim);
  // 13.1.4: "pillage losses" waits for the victim whether or not he has a choice.
  s.active = index_of(victim);
}

void pillage_legal(const State& s, Side side, ActionList& out) {
  switch (s.event.stage) {
    case EventStage::Start:
      for (AreaId a : pillage_targets(s, side)) out.push_back(with_area(ActionKind::Pillage, a));
      return;
    case EventStage::PillageLosses:
      if (s.event.hits > 0) {
        for (BlockId b : tied_strongest(s, s.event.area, side)) {
          out.push_back(with_block(ActionKind::TakeHit, b));
        }
      } else {
        out.push_back(simple(ActionKind::Done));
      }
      return;
    case EventStage::PillageGains: {
      const auto candidates = gain_candidates(s, side);
      for (BlockId b : candidates) out.push_back(with_block(ActionKind::Gain, b));
      if (candidates.empty()) out.push_back(simple(ActionKind::Done));  // 7.3.3: mandatory
      return;
    }
    default:
      return;
  }
}

void pillage_apply(State& s, Side side, const Action& action) {
  switch (action.kind) {
    case ActionKind::Pillage:
      pillage_start(s, side, action.a);
      return;
    case ActionKind::TakeHit:
      pillage_hit(s, action.a);
      --s.event.hits;
      apply_forced_hits(s, side);
      if (s.event.hits == 0) after_losses(s, pillager(s));
      return;
    case ActionKind::Done:
      if (s.event.stage == EventStage::PillageLosses) {
        after_losses(s, pillager(s));
      } else {
        finish_pillage(s, side);
      }
      return;
    case ActionKind::Gain: {
      const BlockId b = action.a;
      if (s.event.dest == kNone) {
        s.event.dest = s.blocks.loc[b];
        add_log(s, LogKind::PillageGainArea, Audience::Public, index_of(side), s.event.dest);
      }
      ++s.event.count;
      ++s.blocks.strength[b];
      add_log(s, LogKind::StepAdded, only(side), b, 0, 0, s.blocks.strength[b]);
      // Table 14 #6: k steps placed, or no recipient left.
      if (follows_hots3(s) && gain_candidates(s, side).empty()) finish_pillage(s, side);
      return;
    }
    default:
      return;
  }
}

}  // namespace blockfog::hots::detail
