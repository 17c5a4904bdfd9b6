#pragma once

// The computer opponent's decision: one legal action from a seat's view (docs/ai.md).
//
// Levels and think budgets per decision (one core):
//   easy   — greedy one-ply: each legal action applied to one determinization, the state scored
//            by evaluate(); ≤ 1 determinization, no playouts.
//   normal — information-set Monte Carlo: 4 determinizations × 8 playouts per action, capped
//            at 0.3 s.
//   hard   — the same with 8 determinizations × 16 playouts per action, capped at 2 s; its
//            playouts draw 3 actions in 4 among the kind the rule of thumb prefers (fire before
//            passing or retreating), and it searches every decision the sampler rebuilds: the
//            card and the moves, and also combat turns, hit allocation, the retreat after the
//            third round, regroups, the choice of a battle, border raids, winter and events.
// Playouts are games on the engine, cut after kPlayoutDepth (30) actions and scored by
// evaluate(). Easy and normal search only the card choice and the move phase; elsewhere, and
// where hard finds no sample consistent with the view, the level takes a rule-of-thumb choice
// from the view's own list; normal and hard also retreat from a battle they are outmatched in
// (docs/ai.md).
// The same view, history, level and seed give the same action (time caps aside: a cap only
// shortens the search when the machine is slower than the budget assumes).

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace blockfog::ai {

enum class Level { Easy, Normal, Hard };

std::optional<Level> level_from_name(std::string_view name);

struct Thinking {
  int determinizations = 0;
  int playouts = 0;
};

// The view given to choose_action is not a seat's view as the engine writes it (a field missing
// or of the wrong type, no seat's role, no legal action, or a seat the view does not await).
// Nothing was chosen; what() says what is wrong.
class MalformedView : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// One action from `view`'s legal_actions (never "undo"), in the JSON form Game::apply takes.
// Throws MalformedView for a view that is not a seat's awaited view.
// `history`: the seat's earlier views, oldest first. `view` must await the seat. Without
// `time_cap` only the counts bound the search (the result then depends on nothing else).
nlohmann::json choose_action(const nlohmann::json& view, const std::vector<nlohmann::json>& history,
                             Level level, std::uint64_t seed, Thinking* thinking = nullptr,
                             bool time_cap = true);

}  // namespace blockfog::ai
