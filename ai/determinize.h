#pragma once

// Determinization (information-set search): one full state drawn from what a seat knows.
//
// Input is only what the engine's one fog-of-war writer, Game::view(role), gave the seat: the
// current view and the views it received before (public history). The hidden facts (RULES 13:
// the identity and strength of each enemy block standing face down, the enemy's hand and chosen
// card, the order of the draw deck, the future dice) are sampled uniformly among the
// assignments that agree with the view:
//   - each area holds exactly the number of enemy blocks the view shows, and the enemy pool the
//     count it shows (13.1.2);
//   - an enemy block the seat saw revealed in the current battle stands there with the
//     strength it showed (13.3); a block dead or out of play is where the view says;
//   - a noble the roster gives the enemy has its enemy block on the map, one it gives the seat
//     has its enemy block out of play (the noble roster is public, 13.1.4);
//   - cards the seat holds, chose or saw played this year are where they are; the rest are
//     dealt at random to the enemy hand (its public size), the enemy's chosen card and the deck;
//   - the dice come from a fresh generator keyed by the sampler's seed, never the game's.
// Nothing else is read, so two true states behind the same views give the same
// determinizations (tests/ai/player_test.cpp, AiHonesty). A sample is kept only when the
// engine's own view of it for the seat equals the view the seat was given (log aside):
// consistency is checked by the same writer that decides what the seat may know.

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/hots/state.h"

namespace blockfog::ai {

using Random = std::mt19937_64;

// Whether the phase of `view` is one this sampler rebuilds: the card choice, the move phase
// (the seat's own block in the middle of its move included), the choice of a battle, a combat
// turn of the seat's and its hit allocation (RULES 5.1-5.7; the battle's area, round, attacker
// and initiative step are public, 13.3), the retreat after the third round and the regroup
// (5.11-5.12), the border raid (9), winter (10) and events (7). The bookkeeping of a phase that
// the view does not spell out (the winter's step and answered questions, the event's stage,
// which enemy blocks fired, which left a battle hidden, 13.5.3) is settled from the seat's
// legal actions: the first candidate offering exactly those is kept.
bool can_determinize(const nlohmann::json& view);

// One determinization of `view` (the seat is view["role"]), or nothing when none consistent
// with the view was found in a few draws. `history`: earlier views of the same seat, oldest
// first (enemy blocks seen revealed in battles are preferred where they were seen).
std::optional<hots::State> determinize(const nlohmann::json& view,
                                       const std::vector<nlohmann::json>& history, Random& random);

// The state's JSON (rules/hots/serialize.h format) for one draw, without the consistency
// check: exposed for the tests.
nlohmann::json sample_state_json(const nlohmann::json& view,
                                 const std::vector<nlohmann::json>& history, Random& random);

}  // namespace blockfog::ai
