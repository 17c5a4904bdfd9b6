#pragma once

// Reads a server's database read-only from a test (the server may be running: WAL lets a
// reader in; or its PostgreSQL database), and replays games with the rules engine, as a
// verifier would.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/game.h"
#include "storage/sqlite.h"

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

// The server's store at `db` (ServerProcess::db_path): its SQLite file opened in `mode`, or its
// PostgreSQL database in a run of the server suites on PostgreSQL.
std::unique_ptr<storage::Database> open_store_at(const std::filesystem::path& db,
                                                 storage::OpenMode mode);

// Every row of every table of the database, as text: equal before and after a request exactly
// when the request changed nothing that is stored.
std::string db_fingerprint(const std::filesystem::path& db);

// Writes `count` system chat lines into a game, as a long game's chat would have: the one
// helper here that writes, for tests of the stored chat's bound.
void add_chat_lines(const std::filesystem::path& db, std::int64_t game_id, int count);

std::vector<LoggedAction> logged_actions(const std::filesystem::path& db, std::int64_t game_id);
// The record of a game as the store holds it (the form GET .../record returns, with the
// "play_seed" the game was set up from: docs/records.md, "Dice").
nlohmann::json stored_record(const std::filesystem::path& db, std::int64_t game_id);
std::string game_seed(const std::filesystem::path& db, std::int64_t game_id);
std::optional<Snapshot> latest_snapshot(const std::filesystem::path& db, std::int64_t game_id);

// A record {"rules_version","game","scenario","options","seed","actions"} replayed with the
// engine, forward only: a test that looks at many steps of one game pays for each action once.
class RecordReplay {
 public:
  explicit RecordReplay(const nlohmann::json& record);
  // The game after every action whose seq is at most `seq` (before any action when `seq` is
  // below the first); `seq` never goes back. Null (and a test failure) if the set-up or an
  // action is refused, or on a step back.
  const core::Game* at(std::int64_t seq);
  std::unique_ptr<core::Game> take() { return std::move(game_); }

 private:
  const nlohmann::json& actions_;
  std::unique_ptr<core::Game> game_;
  std::size_t next_ = 0;  // index in actions_ of the first action not applied
  std::int64_t seq_ = -1;
};

// Replays a record with the engine up to `up_to_seq` (every action by default); null (and a
// test failure) if any action is refused.
std::unique_ptr<core::Game> replay_record(const nlohmann::json& record,
                                          std::optional<std::int64_t> up_to_seq = std::nullopt);

}  // namespace blockfog::server::testing
