#pragma once

// Reads a server's database read-only from a test (the server may be running: WAL lets a
// reader in), and replays games with the rules engine, as a verifier would.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/game.h"

namespace blockfog::server::testing {

struct LoggedAction {
  std::int64_t seq = 0;
  std::string role;
  nlohmann::json action;
  std::string state_hash;
};

struct Snapshot {
  std::int64_t seq = 0;
  std::string state;  // core::Game::write_snapshot's bytes
  std::string state_hash;
};

// Every row of every table of the database, as text: equal before and after a request exactly
// when the request changed nothing that is stored.
std::string db_fingerprint(const std::filesystem::path& db);

// Writes `count` system chat lines into a game, as a long game's chat would have: the one
// helper here that writes, for tests of the stored chat's bound.
void add_chat_lines(const std::filesystem::path& db, std::int64_t game_id, int count);

std::vector<LoggedAction> logged_actions(const std::filesystem::path& db, std::int64_t game_id);
// The record of a game as the store holds it (the same form GET .../record returns).
nlohmann::json stored_record(const std::filesystem::path& db, std::int64_t game_id);
std::string game_seed(const std::filesystem::path& db, std::int64_t game_id);
std::optional<Snapshot> latest_snapshot(const std::filesystem::path& db, std::int64_t game_id);

// Replays a record {"rules_version","game","scenario","options","seed","actions"} with the
// engine; null (and a test failure) if any action is refused.
std::unique_ptr<core::Game> replay_record(const nlohmann::json& record,
                                          std::optional<std::int64_t> up_to_seq = std::nullopt);

}  // namespace blockfog::server::testing
