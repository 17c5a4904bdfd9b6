#include "storage/identity.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "storage/file_access.h"
#include "storage/read_only_open.h"

namespace blockfog::storage {
namespace {

constexpr std::array kLegacyTables{"schema_migrations", "accounts", "games", "actions"};

// One read-only connection, closed on every path out.
class Reader {
 public:
  explicit Reader(const std::filesystem::path& path) : path_(path) {
    const int rc = open_read_only(path, SQLITE_OPEN_EXRESCODE, &db_);
    if (rc != SQLITE_OK) {
      // A failed open may still have made a handle, closed once its message was read.
      const std::string reason = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
      sqlite3_close_v2(std::exchange(db_, nullptr));
      throw StorageError(rc, "cannot open database " + path_.string() + ": " + reason);
    }
  }
  ~Reader() { sqlite3_close_v2(db_); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // The first column of every row of `sql`, as text.
  std::vector<std::string> column(const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr);
    std::vector<std::string> values;
    while (rc == SQLITE_OK || rc == SQLITE_ROW) {
      rc = sqlite3_step(stmt);
      if (rc == SQLITE_ROW) {
        const auto* text = sqlite3_column_text(stmt, 0);
        values.emplace_back(text != nullptr ? reinterpret_cast<const char*>(text) : "");
      }
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) fail(rc, "cannot read");
    return values;
  }

 private:
  [[noreturn]] void fail(int rc, const char* what) const {
    const std::string reason = sqlite3_errmsg(db_);
    if ((rc & 0xff) == SQLITE_NOTADB) {
      throw ForeignDatabase(path_.string() +
                            " is not an SQLite database; Blockfog left it untouched. Give --db "
                            "the path of Blockfog's database, or of a file that does not exist.");
    }
    throw StorageError(rc, std::string(what) + " database " + path_.string() + ": " + reason);
  }

  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
};

std::string joined(const std::vector<std::string>& names) {
  if (names.empty()) return "no tables";
  std::string text = "tables: ";
  for (std::size_t i = 0; i < names.size(); ++i) text += (i > 0 ? ", " : "") + names[i];
  return text;
}

std::string hex(std::int64_t id) {
  std::array<char, 16> text{};
  std::snprintf(text.data(), text.size(), "0x%08llx",
                static_cast<unsigned long long>(static_cast<std::uint32_t>(id)));
  return text.data();
}

FileIdentity identify_with(Reader& reader, const std::filesystem::path& path) {
  const auto id = std::stoll(reader.column("PRAGMA application_id").at(0));
  if (id == kApplicationId) return FileIdentity::Blockfog;
  const auto tables = reader.column(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
      "ORDER BY name");
  const std::set<std::string> present(tables.begin(), tables.end());
  const bool has_tables = std::all_of(kLegacyTables.begin(), kLegacyTables.end(),
                                      [&](const char* name) { return present.contains(name); });
  if (id == 0 && has_tables) {
    const auto first =
        reader.column("SELECT name FROM schema_migrations WHERE version = 1 AND name = 'initial'");
    if (!first.empty()) return FileIdentity::LegacyBlockfog;
  }
  throw ForeignDatabase(path.string() + " is an SQLite database that Blockfog did not make " +
                        "(application id " + hex(id) + ", " + joined(tables) +
                        "); Blockfog left it untouched. Give --db the path of Blockfog's " +
                        "database, or of a file that does not exist.");
}

}  // namespace

ForeignDatabase::ForeignDatabase(const std::string& message)
    : StorageError(SQLITE_NOTADB, message) {}

FileIdentity identify_database(const std::filesystem::path& path) {
  if (path.empty() || path == ":memory:") return FileIdentity::Absent;
  if (!database_exists(path)) return FileIdentity::Absent;
  std::error_code error;
  if (std::filesystem::is_regular_file(path, error) &&
      std::filesystem::file_size(path, error) == 0 && !error) {
    return FileIdentity::Absent;
  }
  // Read as --check-db reads: through a WAL beside it (the newest header and schema may be
  // there) without writing a byte to the file, its -wal or its -shm, nor making either.
  Reader reader(path);
  return identify_with(reader, path);
}

void create_database(const std::filesystem::path& path) {
  auto fresh = path;
  fresh += ".new";
  std::error_code error;
  std::filesystem::remove(fresh, error);  // an unfinished one of a start that crashed
  if (error) {
    throw StorageError(SQLITE_CANTOPEN, "cannot remove " + fresh.string() +
                                            ", left unfinished by an earlier start, as " +
                                            process_user() + ": " + error.message());
  }
  sqlite3* db = nullptr;
  int rc =
      sqlite3_open_v2(fresh.c_str(), &db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXRESCODE, nullptr);
  // Setting the id writes the header page, in the rollback journal's mode: the file is
  // complete when the pragma returns.
  const auto pragma = "PRAGMA application_id = " + std::to_string(kApplicationId);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, pragma.c_str(), nullptr, nullptr, nullptr);
  const std::string reason = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  sqlite3_close_v2(db);
  if (rc != SQLITE_OK) {
    std::error_code ignored;
    std::filesystem::remove(fresh, ignored);
    throw StorageError(rc, "cannot create database " + path.string() + ": " + reason);
  }
  std::filesystem::rename(fresh, path, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(fresh, ignored);
    throw StorageError(SQLITE_CANTOPEN, "cannot rename the new database " + fresh.string() +
                                            " to " + path.string() + " as " + process_user() +
                                            ": " + error.message());
  }
}

void stamp_application_id(Database& db) {
  db.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
}

}  // namespace blockfog::storage
