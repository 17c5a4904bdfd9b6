#include "storage/migrations.h"

#include <sqlite3.h>

#include <cstdint>

#include <array>
#include <cassert>
#include <string>

// Generated from storage/migrations/*.sql by blockfog_embed (storage/CMakeLists.txt).
namespace blockfog::storage::sql {
std::string_view migration_0001_initial();
std::string_view migration_0002_view_versions();
std::string_view migration_0003_observer_chat();
std::string_view migration_0004_sequence_from_log();
std::string_view migration_0005_binary_snapshots();
std::string_view migration_0006_actions_in_arrival_order();
std::string_view migration_0007_latest_snapshot_only();
std::string_view migration_0008_turn_notices();
std::string_view migration_0009_clocks();
std::string_view migration_0010_tournaments();
std::string_view migration_0011_computer_seats();
std::string_view migration_0012_ratings();
std::string_view migration_0013_clock_checks();
std::string_view migration_0014_server_secrets();
std::string_view migration_0015_tournament_settings();
std::string_view migration_0016_resumable_waits();
std::string_view migration_0017_signing_keys();
std::string_view migration_0018_shared_dice();
std::string_view migration_0019_game_notes();
std::string_view migration_0020_notice_ids_never_reused();
std::string_view migration_0021_ratings_per_game();
std::string_view migration_0022_game_leases();
std::string_view migration_0023_game_summaries();
std::string_view migration_0024_node_presence();
std::string_view postgres_0020_baseline();
std::string_view postgres_0021_ratings_per_game();
std::string_view postgres_0022_game_leases();
std::string_view postgres_0023_game_summaries();
std::string_view postgres_0024_node_presence();
}  // namespace blockfog::storage::sql

namespace blockfog::storage {
namespace {

// Nodes starting together on one PostgreSQL database migrate it once: each migration's
// transaction first takes this advisory lock (released at its end).
constexpr std::int64_t kMigrationLockKey = 0x426c4667'00000001;  // "BlFg", 1

void create_bookkeeping(Database& db) {
  if (db.backend() == Backend::Postgres) {
    db.exec(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version bigint PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)");
    return;
  }
  db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations ("
      " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT");
}

int first_version_of(const Migration& migration) {
  return migration.first_version != 0 ? migration.first_version : migration.version;
}

[[maybe_unused]] bool is_well_numbered(std::span<const Migration> migrations) {
  for (std::size_t i = 1; i < migrations.size(); ++i) {
    if (first_version_of(migrations[i]) != migrations[i - 1].version + 1) return false;
  }
  return migrations.empty() || first_version_of(migrations[0]) == 1;
}

// The name a version is recorded under: SQLite's, whose list names every version.
std::string_view name_of_version(int version, const Migration& migration) {
  const auto sqlite = builtin_migrations();
  if (migration.first_version == 0 || version > static_cast<int>(sqlite.size())) {
    return migration.name;
  }
  return sqlite[static_cast<std::size_t>(version - 1)].name;
}

// False when another process applied the migration first.
bool apply_one(Database& db, const Migration& migration, std::int64_t now) {
  Transaction transaction(db);
  if (db.backend() == Backend::Postgres) {
    db.prepare("SELECT pg_advisory_xact_lock(?1)").bind(1, kMigrationLockKey).step();
  }
  // Re-read inside the write lock: another process may have migrated meanwhile.
  if (schema_version(db) >= migration.version) return false;
  try {
    db.exec(migration.sql);
  } catch (const StorageError& error) {
    throw StorageError(error.code(), error.kind(),
                       "migration " + std::to_string(migration.version) + " (" +
                           std::string(migration.name) + ") failed: " + error.what());
  }
  for (int version = first_version_of(migration); version <= migration.version; ++version) {
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)")
        .bind(1, std::int64_t{version})
        .bind(2, name_of_version(version, migration))
        .bind(3, now)
        .run();
  }
  transaction.commit();
  return true;
}

}  // namespace

std::span<const Migration> builtin_migrations() {
  // Append new migrations at the end; never edit, renumber or remove one that has landed.
  static const std::array migrations{
      Migration{1, "initial", sql::migration_0001_initial()},
      Migration{2, "view_versions", sql::migration_0002_view_versions()},
      Migration{3, "observer_chat", sql::migration_0003_observer_chat()},
      Migration{4, "sequence_from_log", sql::migration_0004_sequence_from_log()},
      Migration{5, "binary_snapshots", sql::migration_0005_binary_snapshots()},
      Migration{6, "actions_in_arrival_order", sql::migration_0006_actions_in_arrival_order()},
      Migration{7, "latest_snapshot_only", sql::migration_0007_latest_snapshot_only()},
      Migration{8, "turn_notices", sql::migration_0008_turn_notices()},
      Migration{9, "clocks", sql::migration_0009_clocks()},
      Migration{10, "tournaments", sql::migration_0010_tournaments()},
      Migration{11, "computer_seats", sql::migration_0011_computer_seats()},
      Migration{12, "ratings", sql::migration_0012_ratings()},
      Migration{13, "clock_checks", sql::migration_0013_clock_checks()},
      Migration{14, "server_secrets", sql::migration_0014_server_secrets()},
      Migration{15, "tournament_settings", sql::migration_0015_tournament_settings()},
      Migration{16, "resumable_waits", sql::migration_0016_resumable_waits()},
      Migration{17, "signing_keys", sql::migration_0017_signing_keys()},
      Migration{18, "shared_dice", sql::migration_0018_shared_dice()},
      Migration{19, "game_notes", sql::migration_0019_game_notes()},
      Migration{20, "notice_ids_never_reused", sql::migration_0020_notice_ids_never_reused()},
      Migration{21, "ratings_per_game", sql::migration_0021_ratings_per_game()},
      Migration{22, "game_leases", sql::migration_0022_game_leases()},
      Migration{23, "game_summaries", sql::migration_0023_game_summaries()},
      Migration{24, "node_presence", sql::migration_0024_node_presence()},
  };
  return migrations;
}

std::span<const Migration> postgres_migrations() {
  // Append new migrations at the end, with the number of their SQLite twin.
  static const std::array migrations{
      Migration{20, "baseline", sql::postgres_0020_baseline(), 1},
      Migration{21, "ratings_per_game", sql::postgres_0021_ratings_per_game()},
      Migration{22, "game_leases", sql::postgres_0022_game_leases()},
      Migration{23, "game_summaries", sql::postgres_0023_game_summaries()},
      Migration{24, "node_presence", sql::postgres_0024_node_presence()},
  };
  return migrations;
}

std::span<const Migration> migrations_for(const Database& db) {
  return db.backend() == Backend::Postgres ? postgres_migrations() : builtin_migrations();
}

int latest_version(const Database& db) {
  const auto migrations = migrations_for(db);
  return migrations.empty() ? 0 : migrations.back().version;
}

int schema_version(Database& db) {
  Statement exists = db.prepare(
      db.backend() == Backend::Postgres
          ? "SELECT 1 FROM pg_catalog.pg_tables"
            " WHERE schemaname = current_schema() AND tablename = 'schema_migrations'"
          : "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'");
  if (!exists.step()) return 0;
  Statement max = db.prepare("SELECT coalesce(max(version), 0) FROM schema_migrations");
  max.step();
  return static_cast<int>(max.column_int64(0));
}

SchemaTooNew::SchemaTooNew(int database_version, int program_version)
    : StorageError(SQLITE_ERROR,
                   "the database has schema version " + std::to_string(database_version) +
                       ", newer than this program's " + std::to_string(program_version) +
                       "; run a newer program or restore a matching backup"),
      database_version_(database_version),
      program_version_(program_version) {}

std::vector<int> apply_migrations(Database& db, std::span<const Migration> migrations,
                                  std::int64_t now) {
  assert(is_well_numbered(migrations));
  const int latest = migrations.empty() ? 0 : migrations.back().version;
  const int current = schema_version(db);
  if (current > latest) throw SchemaTooNew(current, latest);
  std::vector<int> applied;
  if (current == latest) return applied;
  create_bookkeeping(db);
  for (const Migration& migration : migrations) {
    if (migration.version <= current) continue;
    if (apply_one(db, migration, now)) applied.push_back(migration.version);
  }
  return applied;
}

}  // namespace blockfog::storage
