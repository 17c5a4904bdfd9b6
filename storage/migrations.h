#pragma once

// Schema migrations: numbered SQL scripts compiled into the program (storage/migrations/*.sql),
// applied in order, each in its own transaction, and recorded in schema_migrations.
// A landed migration is never edited; the schema changes by adding the next one.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "storage/sqlite.h"

namespace blockfog::storage {

struct Migration {
  int version;  // 1, 2, 3, ... without gaps
  std::string_view name;
  std::string_view sql;
  // A PostgreSQL baseline brings the schema of several versions at once (first_version ..
  // version), recorded under SQLite's names; 0 for a migration of one version.
  int first_version = 0;
};

// The migrations this program carries for SQLite, in order.
std::span<const Migration> builtin_migrations();
// Those for PostgreSQL (storage/migrations/postgres/): a baseline reaching SQLite's version 20
// at once, then one per later version, with the same number and meaning as SQLite's.
std::span<const Migration> postgres_migrations();
// The migrations of `db`'s backend.
std::span<const Migration> migrations_for(const Database& db);
// The newest schema version this program knows for `db`'s backend.
int latest_version(const Database& db);

// The highest version recorded in the database; 0 for a database without schema_migrations.
int schema_version(Database& db);

// The database was written by a newer program: opening it would risk misreading its data.
class SchemaTooNew : public StorageError {
 public:
  SchemaTooNew(int database_version, int program_version);

  int database_version() const noexcept { return database_version_; }
  int program_version() const noexcept { return program_version_; }

 private:
  int database_version_;
  int program_version_;
};

// Applies every migration newer than the database's version, in order, each in its own
// transaction (a failing one leaves the database at the previous version and throws).
// Returns the versions applied: none for an up-to-date database. `now` is recorded as
// applied_at. Throws SchemaTooNew, and applies nothing, if the database is ahead of `migrations`.
std::vector<int> apply_migrations(Database& db, std::span<const Migration> migrations,
                                  std::int64_t now);

}  // namespace blockfog::storage
