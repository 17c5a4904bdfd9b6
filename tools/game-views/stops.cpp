#include "tools/game-views/stops.h"

#include <cctype>

namespace blockfog::tools {
namespace {

using nlohmann::json;

// Every part between separators, empty ones included ("a&" is "a" and "").
std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts(1);
  for (char ch : text) {
    if (ch == sep) {
      parts.emplace_back();
    } else {
      parts.back() += ch;
    }
  }
  return parts;
}

// A string field equals `want`, or contains it when `partial` (FIELD~TEXT); a number or a
// boolean is compared as its JSON text.
bool value_matches(const json& field, const std::string& want, bool partial) {
  if (field.is_string()) {
    const auto text = field.get<std::string>();
    return partial ? text.find(want) != std::string::npos : text == want;
  }
  if (field.is_number_integer() || field.is_boolean()) return field.dump() == want;
  return false;
}

bool has_at(const json& node, const std::vector<std::string>& keys, std::size_t k,
            const json& value) {
  if (k == keys.size()) return node == value;
  const auto& key = keys[k];
  if (key == "*") {
    if (!node.is_array() && !node.is_object()) return false;
    for (const auto& child : node) {
      if (has_at(child, keys, k + 1, value)) return true;
    }
    return false;
  }
  if (!node.is_object() || !node.contains(key)) return false;
  return has_at(node[key], keys, k + 1, value);
}

std::optional<StopCondition> parse_condition(const std::string& text, std::string& error) {
  StopCondition c;
  const auto colon = text.find(':');
  const std::string head = text.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (head == "start" && colon == std::string::npos) {
    c.kind = StopCondition::Kind::Start;
  } else if (head == "end" && colon == std::string::npos) {
    c.kind = StopCondition::Kind::End;
  } else if (head == "step" && !rest.empty()) {
    c.kind = StopCondition::Kind::Step;
    try {
      c.step = std::stoi(rest);
    } catch (const std::exception&) {
      error = "step:N needs a number, not '" + rest + "'";
      return std::nullopt;
    }
  } else if (head == "legal" && !rest.empty()) {
    c.kind = StopCondition::Kind::Legal;
    for (const auto& pair : split(rest, ',')) {
      const auto eq = pair.find_first_of("=~");
      if (eq == std::string::npos || eq == 0) {
        error = "legal: takes FIELD=TEXT or FIELD~TEXT pairs, not '" + pair + "'";
        return std::nullopt;
      }
      c.pairs.push_back({pair.substr(0, eq), pair.substr(eq + 1), pair[eq] == '~'});
    }
  } else if (head == "log" && !rest.empty()) {
    c.kind = StopCondition::Kind::Log;
    c.text = rest;
  } else if (head == "view" && !rest.empty()) {
    c.kind = StopCondition::Kind::View;
    const auto eq = rest.find('=');
    if (eq == std::string::npos || eq == 0) {
      error = "view: takes PATH=JSON, not '" + rest + "'";
      return std::nullopt;
    }
    c.path = rest.substr(0, eq);
    c.value = json::parse(rest.substr(eq + 1), nullptr, false);
    if (c.value.is_discarded()) {
      error = "view: the value '" + rest.substr(eq + 1) + "' is not JSON";
      return std::nullopt;
    }
  } else {
    error = "unknown condition '" + text +
            "' (start, end, step:N, legal:K=V,..., log:TEXT, view:PATH=JSON)";
    return std::nullopt;
  }
  return c;
}

}  // namespace

std::optional<Stop> parse_stop(const std::string& text, std::string& error) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    error = "a stop is NAME=CONDITION[&CONDITION...], not '" + text + "'";
    return std::nullopt;
  }
  Stop stop;
  stop.name = text.substr(0, eq);
  for (char ch : stop.name) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_') {
      error = "a stop's name is letters, digits, '-' and '_': '" + stop.name + "'";
      return std::nullopt;
    }
  }
  for (const auto& part : split(text.substr(eq + 1), '&')) {
    auto condition = parse_condition(part, error);
    if (!condition) return std::nullopt;
    stop.conditions.push_back(std::move(*condition));
  }
  if (stop.conditions.empty()) {
    error = "the stop '" + stop.name + "' has no condition";
    return std::nullopt;
  }
  return stop;
}

bool action_matches(const json& action, const std::vector<FieldMatch>& pairs) {
  for (const auto& m : pairs) {
    if (!action.is_object() || !action.contains(m.field) ||
        !value_matches(action[m.field], m.text, m.partial)) {
      return false;
    }
  }
  return true;
}

bool view_has(const json& view, const std::string& path, const json& value) {
  return has_at(view, split(path, '.'), 0, value);
}

bool stop_holds(const Stop& stop, const StepFacts& facts) {
  for (const auto& c : stop.conditions) {
    bool holds = false;
    switch (c.kind) {
      case StopCondition::Kind::Start:
        holds = facts.step == 0;
        break;
      case StopCondition::Kind::End:
        holds = facts.finished;
        break;
      case StopCondition::Kind::Step:
        holds = facts.step == c.step;
        break;
      case StopCondition::Kind::Legal:
        for (const auto& action : *facts.legal) holds = holds || action_matches(action, c.pairs);
        break;
      case StopCondition::Kind::Log:
        for (const auto& line : facts.new_lines) {
          holds = holds || line.find(c.text) != std::string::npos;
        }
        break;
      case StopCondition::Kind::View:
        holds = view_has(*facts.view, c.path, c.value);
        break;
    }
    if (!holds) return false;
  }
  return true;
}

}  // namespace blockfog::tools
