#pragma once

// A game record (the format the server publishes when a game ends, and hots-replay reads) of
// any game the registry serves ("game": its kind, games/registry.h):
//   {"game":"hots","rules_version":"hots-1","scenario":"braveheart","options":{...},
//    "seed":"<64 hex>","actions":[{"seq":1,"role":"scotland","action":{...}}, ...]}
// and, from the server (docs/protocol.md, Seeds and records), what makes it verifiable:
// "game_id", "seed_sha256" (the commitment published at creation), each action's
// "state_hash", "final_state_hash" and "result" ({"winner","reason"}).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "games/registry.h"
#include "rules/core/chacha20.h"
#include "rules/core/role.h"
#include "rules/hots/engine.h"

namespace blockfog::tools {

struct RecordedAction {
  core::Role role = core::Role::Observer;
  nlohmann::json action;
  std::optional<std::string> state_hash;  // of the state after it, when the record has it
};

// One seat's dice in a record of a game set up from shared dice (docs/records.md, "Dice").
struct RecordedDice {
  std::string commitment;    // 64 hex
  std::string contribution;  // 64 hex
};

struct GameRecord {
  // The game's kind: its rules are the registry's module of that kind.
  std::string kind{games::kDefaultKind};
  // Of the kind's module. Hammer of the Scots: hots-4 for games played now; hots-3, hots-2 and
  // hots-1 records (games created before) replay under their own version's procedures, hots-1 ones
  // verified with hots-1 state hashes.
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
  // Both seats' dice, in a game set up from shared dice; absent in older records, whose seed is
  // `seed` alone.
  std::optional<std::pair<RecordedDice, RecordedDice>> dice;  // Scotland's, England's

  // The seed the game was set up from: core::shared_seed of `seed` and both contributions when
  // the record has dice, else `seed`.
  core::Seed play_seed() const;
};

// Parses a record of a game the registry serves; on failure returns nullopt and says why in
// `error`.
std::optional<GameRecord> parse_record(const nlohmann::json& json, std::string& error);
nlohmann::json record_to_json(const GameRecord& record);

// The game of the record set up from its play seed, scenario and options by its kind's module
// under its rules version; null and why in `error` when that cannot be.
std::unique_ptr<core::Game> set_up_recorded_game(const GameRecord& record, std::string& error);

}  // namespace blockfog::tools
