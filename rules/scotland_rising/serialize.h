#pragma once

// The whole state as JSON, exactly reversible, and its hash.

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "rules/scotland_rising/state.h"

namespace blockfog::scotland_rising {

inline constexpr std::string_view kRulesVersion = "scotland-rising-1";

class StateFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

nlohmann::json options_to_json(const Options& o);
// Reads scenario options; StateFormatError names an unknown or ill-typed one.
Options options_from_json(const nlohmann::json& j);

nlohmann::json position_to_json(const Data& d, const Position& p);
nlohmann::json to_json(const State& s);
// A state of the scenario `data` (its "scenario" must match); StateFormatError on bad input.
State state_from_json(std::shared_ptr<const Data> data, const nlohmann::json& j);
// The state a seat's view shows (view.h): the game has no hidden information, so the position,
// the options and the board are all in every role's view. The view carries no generator (it
// would tell future dice) and no undo points: the state gets a generator keyed by `seed` and
// none. For the computer opponent, which decides from a view only (docs/ai.md). StateFormatError
// when the view is not one of the scenario `data`, or shows a position whose invariants fail.
State state_from_view(std::shared_ptr<const Data> data, const nlohmann::json& view,
                      const core::Seed& seed);
// SHA-256 (hex) of to_json's text: nlohmann writes object keys sorted, so the text is canonical.
std::string state_hash(const State& s);

}  // namespace blockfog::scotland_rising
