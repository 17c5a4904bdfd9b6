#include "tests/server/db_peek.h"

#include <limits>

#include <gtest/gtest.h>

#include "games/registry.h"
#include "rules/core/hex.h"
#include "rules/core/shared_seed.h"
#include "storage/postgres.h"
#include "storage/sqlite.h"

namespace blockfog::server::testing {

using nlohmann::json;

std::unique_ptr<storage::Database> open_store_at(const std::filesystem::path& db,
                                                 storage::OpenMode mode) {
  if (storage::is_postgres_uri(db.string())) {
    return std::make_unique<storage::PgDatabase>(db.string());
  }
  return std::make_unique<storage::SqliteDatabase>(db, mode);
}

std::string db_fingerprint(const std::filesystem::path& db) {
  const auto opened = open_store_at(db, storage::OpenMode::ReadBesideWriter);
  auto& database = *opened;
  std::vector<std::string> tables;
  // Not what a request stores but what the server writes by itself: the storage thread's probe
  // row, the node's heartbeat (every second), which node holds which game and its summaries.
  auto list = database.prepare(
      database.backend() == storage::Backend::Postgres
          ? "SELECT table_name FROM information_schema.tables WHERE table_schema = "
            "current_schema() AND table_type = 'BASE TABLE' AND table_name NOT IN "
            "('store_probe', 'nodes', 'game_leases', 'game_summaries') ORDER BY table_name"
          : "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name");
  while (list.step()) tables.push_back(list.column_text(0));
  std::string text;
  for (const auto& table : tables) {
    text += "[" + table + "]\n";
    auto rows = database.prepare("SELECT * FROM \"" + table + "\" ORDER BY 1");
    while (rows.step()) {
      for (int i = 0; i < rows.column_count(); ++i) text += rows.column_text(i) + "|";
      text += "\n";
    }
  }
  return text;
}

void add_chat_lines(const std::filesystem::path& db, std::int64_t game_id, int count) {
  const auto opened = open_store_at(db, storage::OpenMode::ReadWrite);
  auto& database = *opened;
  database.exec("BEGIN");
  auto insert = database.prepare(
      "INSERT INTO chat (game_id, account_id, role, text, created_at) VALUES (?1, NULL, 'system', "
      "?2, 0)");
  for (int i = 0; i < count; ++i) {
    insert.reset();
    insert.bind(1, game_id).bind(2, "line " + std::to_string(i)).run();
  }
  database.exec("COMMIT");
}

std::vector<LoggedAction> logged_actions(const std::filesystem::path& db, std::int64_t game_id) {
  const auto opened = open_store_at(db, storage::OpenMode::ReadBesideWriter);
  auto& database = *opened;
  auto statement = database.prepare(
      "SELECT seq, role, action, state_hash FROM actions WHERE game_id = ?1 ORDER BY seq");
  statement.bind(1, game_id);
  std::vector<LoggedAction> list;
  while (statement.step()) {
    list.push_back({statement.column_int64(0), statement.column_text(1),
                    json::parse(statement.column_text(2)), statement.column_text(3)});
  }
  return list;
}

json stored_record(const std::filesystem::path& db, std::int64_t game_id) {
  const auto opened = open_store_at(db, storage::OpenMode::ReadBesideWriter);
  auto& database = *opened;
  auto statement = database.prepare(
      "SELECT rules_version, kind, scenario, options, seed, play_seed FROM games WHERE id = ?1");
  statement.bind(1, game_id);
  if (!statement.step()) return nullptr;
  json actions = json::array();
  for (const auto& a : logged_actions(db, game_id)) {
    actions.push_back({{"seq", a.seq}, {"role", a.role}, {"action", a.action}});
  }
  return {{"rules_version", statement.column_text(0)},
          {"game", statement.column_text(1)},
          {"scenario", statement.column_text(2)},
          {"options", json::parse(statement.column_text(3))},
          {"seed", statement.column_text(4)},
          {"play_seed", statement.column_optional_text(5).value_or(statement.column_text(4))},
          {"actions", actions}};
}

std::string game_seed(const std::filesystem::path& db, std::int64_t game_id) {
  const auto opened = open_store_at(db, storage::OpenMode::ReadBesideWriter);
  auto& database = *opened;
  auto statement = database.prepare("SELECT seed FROM games WHERE id = ?1");
  statement.bind(1, game_id);
  return statement.step() ? statement.column_text(0) : "";
}

std::optional<Snapshot> latest_snapshot(const std::filesystem::path& db, std::int64_t game_id) {
  const auto opened = open_store_at(db, storage::OpenMode::ReadBesideWriter);
  auto& database = *opened;
  auto statement = database.prepare(
      "SELECT seq, state, state_hash FROM snapshots WHERE game_id = ?1 ORDER BY seq DESC LIMIT 1");
  statement.bind(1, game_id);
  if (!statement.step()) return std::nullopt;
  const auto state = statement.column_blob(1);
  return Snapshot{statement.column_int64(0),
                  std::string(reinterpret_cast<const char*>(state.data()), state.size()),
                  statement.column_text(2)};
}

RecordReplay::RecordReplay(const json& record) : actions_(record.at("actions")) {
  // The seed the game was set up from: stored_record's, or a served record's shared dice's
  // (docs/records.md, "Dice"), or the secret alone in a game started before them.
  std::string play_seed = record.at("seed").get<std::string>();
  if (record.contains("play_seed")) {
    play_seed = record.at("play_seed").get<std::string>();
  } else if (record.contains("dice")) {
    const auto& dice = record.at("dice");
    play_seed =
        core::shared_seed(play_seed, dice.at("scotland").at("contribution").get<std::string>(),
                          dice.at("england").at("contribution").get<std::string>())
            .value_or("");
  }
  const auto seed = core::seed_from_hex(play_seed);
  if (!seed) {
    ADD_FAILURE() << "bad seed in record";
    return;
  }
  // The module of the record's game (every record the server writes names it).
  const auto* kind = games::find_game_kind(record.value("game", std::string(games::kDefaultKind)));
  if (!kind) {
    ADD_FAILURE() << "a record of a game not served: " << record.value("game", "");
    return;
  }
  auto setup =
      kind->module->setup_as(record.at("rules_version").get<std::string>(), *seed,
                             record.at("scenario").get<std::string>(), record.at("options"));
  if (!setup.game) ADD_FAILURE() << setup.error;
  game_ = std::move(setup.game);
}

const core::Game* RecordReplay::at(std::int64_t seq) {
  if (!game_) return nullptr;
  if (seq < seq_) {
    ADD_FAILURE() << "a record replay cannot step back from " << seq_ << " to " << seq;
    return nullptr;
  }
  seq_ = seq;
  for (; next_ < actions_.size(); ++next_) {
    const auto& a = actions_[next_];
    if (a.at("seq").get<std::int64_t>() > seq) break;
    const auto role = core::role_from_name(a.at("role").get<std::string>());
    if (auto error = game_->apply(*role, a.at("action"))) {
      ADD_FAILURE() << "replay refused action " << a.at("seq") << ": " << error->message;
      game_.reset();
      return nullptr;
    }
  }
  return game_.get();
}

std::unique_ptr<core::Game> replay_record(const json& record, std::optional<std::int64_t> up_to) {
  RecordReplay replay(record);
  if (!replay.at(up_to.value_or(std::numeric_limits<std::int64_t>::max()))) return nullptr;
  return replay.take();
}

}  // namespace blockfog::server::testing
