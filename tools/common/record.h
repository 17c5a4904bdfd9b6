#pragma once

// A game record (the format the server publishes when a game ends, and hots-replay reads):
//   {"game":"hots","rules_version":"hots-1","scenario":"braveheart","options":{...},
//    "seed":"<64 hex>","actions":[{"seq":1,"role":"scotland","action":{...}}, ...]}

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/chacha20.h"
#include "rules/core/role.h"
#include "rules/hots/engine.h"

namespace blockfog::tools {

struct RecordedAction {
  core::Role role = core::Role::Observer;
  nlohmann::json action;
};

struct GameRecord {
  // hots-3 for games played now; hots-2 and hots-1 records (games created before) replay under
  // their own version's procedures, hots-1 ones verified with hots-1 state hashes.
  std::string rules_version{hots::kRulesVersion};
  std::string scenario;
  nlohmann::json options = nlohmann::json::object();
  core::Seed seed{};
  std::vector<RecordedAction> actions;
};

// Parses a record; on failure returns nullopt and says why in `error`.
std::optional<GameRecord> parse_record(const nlohmann::json& json, std::string& error);
nlohmann::json record_to_json(const GameRecord& record);

}  // namespace blockfog::tools
