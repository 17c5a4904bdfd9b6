#pragma once

// Internal: shared pieces of the battle code (RULES 5), split over battle.cpp (sequence),
// combat.cpp (fire and hits) and retreat.cpp (retreats, regroups).

#include <vector>

#include "rules/hots/fixed_list.h"
#include "rules/hots/phases.h"

namespace blockfog::hots::detail {

inline Side attacker(const Position& p) { return side_of(p.battle.attacker); }
inline Side defender(const Position& p) { return core::other_side(attacker(p)); }

// Non-reserve blocks of `side` in the battle area (RULES 5.2.3).
BlockList main_blocks(const Position& p, Side side);
bool battle_over(const Position& p);  // a side has no block at all left (5.9.5)

// RULES 5.8: eliminated in battle (hit, or unable to retreat). May end the game (12.2).
void eliminate_in_battle(State& s, BlockId b, bool battle_ending);

// Combat turns (5.5-5.7).
void fire(State& s, BlockId b);
void apply_hits(State& s);  // applies pending hits; may stop to ask for an allocation
void take_hit(State& s, BlockId b);
BlockList hit_candidates(const Position& p);  // the tied strongest targets

// Retreats and regroups (5.10-5.12). `occ` is Presence(p), made once by the caller for all
// the blocks it asks about.
AreaList retreat_destinations(const Position& p, const Presence& occ, BlockId b);
AreaList regroup_destinations(const Position& p, const Presence& occ, BlockId b);
void retreat(State& s, BlockId b, AreaId to);
void regroup(State& s, BlockId b, AreaId to);
// Table 14 #16, 13.1.4: whether public facts alone rule out any regroup by the victor.
// `blocks_known`: which blocks he has in the battle area is public (hots-4, battle.cpp).
bool regroup_ruled_out_publicly(const Position& p, bool blocks_known);
void publish_arrivals(State& s);  // 13.5.3

// Sequencing (battle.cpp): carry the battle on to its next decision.
void continue_battle(State& s);
void finish_mandatory_retreat(State& s);
void finish_battle(State& s);

}  // namespace blockfog::hots::detail
