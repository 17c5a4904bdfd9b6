#include "rules/scotland_rising/action.h"

#include <array>

namespace blockfog::scotland_rising {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 15> kNames = {
    "place",  "setup_done",  "roll_ap",     "scots_charge", "move",
    "attack", "charge",      "move_attack", "schiltron",    "leave_schiltron",
    "rally",  "event_rally", "exit",        "end_turn",     "undo"};

bool has_unit(ActionType t) {
  return t == ActionType::Place || t == ActionType::Move || t == ActionType::Attack ||
         t == ActionType::Charge || t == ActionType::MoveAttack || t == ActionType::Schiltron ||
         t == ActionType::LeaveSchiltron || t == ActionType::Rally || t == ActionType::EventRally ||
         t == ActionType::Exit;
}
bool has_path(ActionType t) {
  return t == ActionType::Move || t == ActionType::Charge || t == ActionType::MoveAttack ||
         t == ActionType::Exit;
}
bool has_target(ActionType t) {
  return t == ActionType::Attack || t == ActionType::Charge || t == ActionType::MoveAttack;
}

}  // namespace

std::string_view action_type_name(ActionType type) { return kNames[static_cast<int>(type)]; }

json action_to_json(const Data& d, const Action& a) {
  json out = {{"type", action_type_name(a.type)}};
  if (has_unit(a.type)) out["unit"] = d.units[a.unit].id;
  if (a.type == ActionType::Rally) out["leader"] = d.units[a.leader].id;
  if (a.type == ActionType::Place) out["hex"] = d.hex_id(a.hex);
  if (has_target(a.type)) out["target"] = d.hex_id(a.hex);
  if (has_path(a.type)) {
    json path = json::array();
    for (int hex : a.path) path.push_back(d.hex_id(hex));
    out["path"] = std::move(path);
  }
  return out;
}

std::optional<Action> action_from_json(const Data& d, const json& in, std::string& error) {
  if (!in.is_object() || !in.contains("type") || !in["type"].is_string()) {
    error = "an action is an object with a \"type\"";
    return std::nullopt;
  }
  Action a;
  const auto name = in["type"].get<std::string>();
  std::size_t i = 0;
  while (i < kNames.size() && kNames[i] != name) ++i;
  if (i == kNames.size()) {
    error = "unknown action type '" + name + "'";
    return std::nullopt;
  }
  a.type = static_cast<ActionType>(i);
  auto unit = [&](const char* key) -> std::optional<int> {
    if (!in.contains(key) || !in[key].is_string()) return std::nullopt;
    return d.unit_index(in[key].get<std::string>());
  };
  auto hex = [&](const json& value) -> std::optional<int> {
    if (!value.is_string()) return std::nullopt;
    return d.hex_index(value.get<std::string>());
  };
  for (const auto& [key, value] : in.items()) {
    const bool known = key == "type" || (key == "unit" && has_unit(a.type)) ||
                       (key == "leader" && a.type == ActionType::Rally) ||
                       (key == "hex" && a.type == ActionType::Place) ||
                       (key == "target" && has_target(a.type)) ||
                       (key == "path" && has_path(a.type));
    if (!known) {
      error = "unexpected field '" + key + "' in a " + name + " action";
      return std::nullopt;
    }
  }
  if (has_unit(a.type)) {
    const auto u = unit("unit");
    if (!u) {
      error = name + ": \"unit\" names no unit";
      return std::nullopt;
    }
    a.unit = *u;
  }
  if (a.type == ActionType::Rally) {
    const auto l = unit("leader");
    if (!l) {
      error = "rally: \"leader\" names no unit";
      return std::nullopt;
    }
    a.leader = *l;
  }
  const char* hex_key = a.type == ActionType::Place ? "hex" : has_target(a.type) ? "target" : "";
  if (*hex_key) {
    const auto h = in.contains(hex_key) ? hex(in[hex_key]) : std::nullopt;
    if (!h) {
      error = name + ": \"" + hex_key + "\" names no hex";
      return std::nullopt;
    }
    a.hex = *h;
  }
  if (has_path(a.type)) {
    if (!in.contains("path") || !in["path"].is_array() || in["path"].size() > Path::kMax) {
      error = name + ": \"path\" is an array of at most 16 hexes";
      return std::nullopt;
    }
    for (const auto& step : in["path"]) {
      const auto h = hex(step);
      if (!h) {
        error = name + ": a path step names no hex";
        return std::nullopt;
      }
      a.path.push_back(*h);
    }
  }
  return a;
}

}  // namespace blockfog::scotland_rising
