#pragma once

// One decision of a player, and its JSON form (docs/scotland-rising.md, "Actions").

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/scotland_rising/data.h"
#include "rules/scotland_rising/path.h"

namespace blockfog::scotland_rising {

enum class ActionType : std::uint8_t {
  Place,           // free-form setup: {"unit","hex"}
  SetupDone,       // the side's setup is complete
  RollAp,          // the Scots roll the AP die without a Scots Charge
  ScotsCharge,     // R9: announce the Scots Charge turn, then roll
  Move,            // {"unit","path"}
  Attack,          // {"unit","target"}: the target is a hex
  Charge,          // {"unit","path","target"}
  MoveAttack,      // {"unit","path","target"}: R9, or the pike advance event (R13)
  Schiltron,       // {"unit"}
  LeaveSchiltron,  // {"unit"}
  Rally,           // {"leader","unit"}
  EventRally,      // {"unit"}: the rally-two event (R13)
  Exit,            // {"unit","path"}: R11, the path may be empty
  EndTurn,
  Undo,
};

struct Action {
  ActionType type = ActionType::EndTurn;
  int unit = -1;
  int leader = -1;
  int hex = -1;  // the hex placed on, or the target hex
  Path path;
  bool operator==(const Action&) const = default;
};

std::string_view action_type_name(ActionType type);
nlohmann::json action_to_json(const Data& d, const Action& a);
// nullopt with `error` set when `json` is not a well-formed action of this game.
std::optional<Action> action_from_json(const Data& d, const nlohmann::json& json,
                                       std::string& error);

}  // namespace blockfog::scotland_rising
