#pragma once

// The computer opponent of Scotland Rising: one legal action from a seat's view (docs/ai.md,
// "Scotland Rising"), with the shape of ai::choose_action (ai/player.h), so that the server
// calls either through one function pointer.
//
// The game has no hidden information: the state is rebuilt from the view alone
// (scotland_rising::state_from_view), with no determinization; the dice of its look-ahead come
// from a generator keyed by `seed`, never the game's.
//
// Levels and think budgets per decision (one core):
//   easy   — greedy one ply: each legal action applied to the view's state and the result scored
//            by advantage() (evaluate.h); an action that rolls dice is applied kEasyDiceSamples
//            (8) times with different dice and its scores averaged; no playouts; capped at 0.05 s.
//   normal — easy's one-ply score ranks the actions; the 5 it ranks first (and ending the turn)
//            are each followed by 8 greedy playouts: the seat plays on by easy's rule (each
//            action judged on one draw of dice) to the end of the seat's turn, where the
//            position is scored by advantage() with the seat's exposure to the enemy's coming
//            attacks weighed more than the enemy's. Easy's choice stands unless another action's
//            playouts beat its playouts (paired, the same dice) by more than two standard
//            errors of the difference; then the largest such gain wins; capped at 0.3 s.
//   hard   — the same over the 6 actions ranked first, with 24 playouts each; capped at 2 s.
// Playouts never undo, and in the setup pike form schiltron but do not leave it, so that the
// setup ends. The k-th playout of every searched action starts from the same dice.
// The same view, level and seed give the same action (time caps aside: a cap only shortens the
// search when the machine is slower than the budget assumes).

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "ai/player.h"

namespace blockfog::ai::scotland_rising {

// One action of `view`'s legal_actions (never "undo"), in the JSON form Game::apply takes.
// Throws ai::MalformedView for a view that is not a Scotland Rising seat's awaited view as the
// engine writes it (a field missing or of the wrong type, another game, a board that does not
// load, a position whose invariants fail, an offered action the position does not allow, or a
// seat the view does not await); nothing is chosen. `history` is not read beyond checking that
// its entries are objects: the view holds the whole game. Without `time_cap` only the counts
// bound the search (the result then depends on nothing else).
nlohmann::json choose_action(const nlohmann::json& view, const std::vector<nlohmann::json>& history,
                             Level level, std::uint64_t seed, Thinking* thinking = nullptr,
                             bool time_cap = true);

}  // namespace blockfog::ai::scotland_rising
