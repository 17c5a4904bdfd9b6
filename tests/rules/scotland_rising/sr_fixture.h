#pragma once

// Helpers of the Scotland Rising tests: small boards written as data files of the module's
// schema (which the loader must accept as it accepts the variant board), states with scripted
// dice, and actions by their JSON form.

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rules/scotland_rising/engine.h"
#include "rules/scotland_rising/invariants.h"
#include "rules/scotland_rising/serialize.h"

namespace blockfog::scotland_rising::testing {

using nlohmann::json;

// A unit on a test board: side "scotland"/"england", a type of rulebook 3, and its hex ("CCRR").
struct Piece {
  std::string id;
  std::string side;
  std::string type;
  std::string hex;
  std::string name = {};  // leaders: the name on the counter (defaults to the id)
  bool commander = false;
};

// A board of `terrain_rows` (one character a hex, the variant's key: . W o ~ = s V) with the
// pieces on their hexes, the counter values of rulebook 3, and the variant's tables. The exit
// hex is "0101" unless given.
json board(const std::vector<std::string>& terrain_rows, const std::vector<Piece>& pieces,
           const std::string& exit_hex = "0101");

core::Seed test_seed(int n = 0);

// A game on `data` with the setup done (no pike in schiltron) and the given dice scripted; it
// waits for the Scots' AP choice of turn 1.
State start(const json& data, const std::vector<int>& dice = {}, Options options = {});
void script(State& s, const std::vector<int>& dice);

// Applies an action given as JSON; the test fails when it is refused.
void act(State& s, Role role, const json& action);
// Applies an action given as JSON and returns the refusal (nullopt when it was applied).
std::optional<core::RuleError> try_act(State& s, Role role, const json& action);
// The legal actions of `role` as JSON.
std::vector<json> legal(const State& s, Role role);
bool is_legal(const State& s, Role role, const json& action);

const UnitState& unit(const State& s, const std::string& id);
UnitState& unit(State& s, const std::string& id);
int hex(const State& s, const std::string& id);

// Turn 1 with `scots_die` for the Scots' AP (rulebook 6: 6 command AP + the die's random AP).
void scots_turn(State& s, int scots_die);
// Ends the Scots' turn and gives England the AP of `english_die`.
void english_turn(State& s, int english_die);

}  // namespace blockfog::scotland_rising::testing
