#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "rules/hots/state.h"

namespace blockfog::hots {

class StateFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The complete state, secrets included (tools and tests; clients get `view`). Round-trips
// exactly: from_json(to_json(s)) == s.
nlohmann::json to_json(const State& s);
// Throws StateFormatError when the JSON is not a state this engine wrote.
State state_from_json(const nlohmann::json& json);

// SHA-256 (hex) of the canonical serialisation: identifies a position (undo history included).
std::string state_hash(const State& s);

}  // namespace blockfog::hots
