#pragma once

// When game-views writes a view: a named stop and the conditions that must all hold for a step
// of the game to be it. Pure functions of JSON, so that any module's views and actions can be
// matched without knowing the game.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace blockfog::tools {

// A field of an action and the text it must equal (FIELD=TEXT) or hold (FIELD~TEXT).
struct FieldMatch {
  std::string field;
  std::string text;
  bool partial = false;
};

struct StopCondition {
  enum class Kind { Start, Step, Legal, Log, View, End };
  Kind kind = Kind::Start;
  int step = 0;                   // Step: after this many actions
  std::vector<FieldMatch> pairs;  // Legal: all must match one action
  std::string text;               // Log: a new line holding it
  std::string path;               // View: "units.*.disordered"
  nlohmann::json value;           // View: the value found there
};

struct Stop {
  std::string name;
  std::vector<StopCondition> conditions;  // all must hold
};

// "NAME=COND&COND..." with COND one of: start, end, step:N, legal:K=V[,K~V...] (a legal action
// whose field K is V, or holds V), log:TEXT (a line the last action added holds TEXT),
// view:PATH=JSON. nullopt with `error` set when it is not one.
std::optional<Stop> parse_stop(const std::string& text, std::string& error);

// Whether one legal action matches every field (a number or boolean field is compared as its
// JSON text).
bool action_matches(const nlohmann::json& action, const std::vector<FieldMatch>& pairs);

// Whether the view holds `value` at `path` (dot-separated keys; "*" is any element of an array
// or any member of an object).
bool view_has(const nlohmann::json& view, const std::string& path, const nlohmann::json& value);

struct StepFacts {
  int step = 0;                           // actions applied so far
  bool finished = false;                  // the game is over
  const nlohmann::json* view = nullptr;   // the view of the role written
  const nlohmann::json* legal = nullptr;  // that role's legal actions
  std::vector<std::string> new_lines;     // log lines the last action added
};

bool stop_holds(const Stop& stop, const StepFacts& facts);

}  // namespace blockfog::tools
