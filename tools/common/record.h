#pragma once

// A game record (the format the server publishes when a game ends, and hots-replay reads):
//   {"game":"hots","rules_version":"hots-1","scenario":"braveheart","options":{...},
//    "seed":"<64 hex>","actions":[{"seq":1,"role":"scotland","action":{...}}, ...]}
// and, from the server (docs/protocol.md, Seeds and records), what makes it verifiable:
// "game_id", "seed_sha256" (the commitment published at creation), each action's
// "state_hash", "final_state_hash" and "result" ({"winner","reason"}).

#include <cstdint>
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
  std::optional<std::string> state_hash;  // of the state after it, when the record has it
};

struct GameRecord {
  // hots-4 for games played now; hots-3, hots-2 and hots-1 records (games created before)
  // replay under their own version's procedures, hots-1 ones verified with hots-1 state hashes.
  std::string rules_version{hots::kRulesVersion};
  std::string scenario;
  nlohmann::json options = nlohmann::json::object();
  core::Seed seed{};
  std::vector<RecordedAction> actions;
  // Present in the server's records (absent from older ones and hots-sim's without them).
  std::optional<std::int64_t> game_id;
  std::optional<std::string> seed_sha256;
  std::optional<std::string> final_state_hash;
  std::optional<nlohmann::json> result;
};

// Parses a record; on failure returns nullopt and says why in `error`.
std::optional<GameRecord> parse_record(const nlohmann::json& json, std::string& error);
nlohmann::json record_to_json(const GameRecord& record);

}  // namespace blockfog::tools
