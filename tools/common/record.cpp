#include "tools/common/record.h"

#include "rules/core/hex.h"
#include "rules/hots/engine.h"

namespace blockfog::tools {

std::optional<GameRecord> parse_record(const nlohmann::json& json, std::string& error) {
  try {
    if (json.at("game").get<std::string>() != "hots") {
      error = "not a Hammer of the Scots record";
      return std::nullopt;
    }
    GameRecord record;
    record.rules_version = json.at("rules_version").get<std::string>();
    if (!hots::plays_rules_version(record.rules_version)) {
      error = "rules version " + record.rules_version + " is not this engine's " +
              std::string(hots::kRulesVersion) + " (or " + std::string(hots::kRulesVersion2) +
              ", " + std::string(hots::kRulesVersion1) + ")";
      return std::nullopt;
    }
    record.scenario = json.at("scenario").get<std::string>();
    record.options = json.value("options", nlohmann::json::object());
    const auto seed = core::seed_from_hex(json.at("seed").get<std::string>());
    if (!seed) {
      error = "seed must be 64 hex digits";
      return std::nullopt;
    }
    record.seed = *seed;
    for (const auto& entry : json.at("actions")) {
      const auto role = core::role_from_name(entry.at("role").get<std::string>());
      if (!role || *role == core::Role::Observer) {
        error = "action " + std::to_string(record.actions.size() + 1) + " has no playing role";
        return std::nullopt;
      }
      record.actions.push_back({*role, entry.at("action")});
    }
    return record;
  } catch (const nlohmann::json::exception& e) {
    error = std::string("malformed record: ") + e.what();
    return std::nullopt;
  }
}

nlohmann::json record_to_json(const GameRecord& record) {
  nlohmann::json actions = nlohmann::json::array();
  int seq = 0;
  for (const auto& a : record.actions) {
    actions.push_back({{"seq", ++seq}, {"role", core::role_name(a.role)}, {"action", a.action}});
  }
  return {{"game", "hots"},
          {"rules_version", record.rules_version},
          {"scenario", record.scenario},
          {"options", record.options},
          {"seed", core::to_hex(record.seed)},
          {"actions", actions}};
}

}  // namespace blockfog::tools
