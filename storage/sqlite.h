#pragma once

// The SQLite backend of the store's interface (storage/database.h): RAII wrappers over the
// SQLite C API. Every failure throws StorageError (never from a destructor); every handle is
// released by its owner's destructor.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "storage/database.h"

struct sqlite3;
struct sqlite3_stmt;

namespace blockfog::storage {

enum class OpenMode {
  ReadWriteCreate,   // the server: creates the file if missing
  ReadWrite,         // the file must exist
  ReadOnly,          // checks, tools, --read-only: writes nothing to the file or beside it
                     // (storage/read_only_open.h)
  ReadBesideWriter,  // a reader while a server writes the file (the integrity monitor, tests):
                     // shares the writer's -shm and takes read marks in it like any reader
};

// One connection. Opened read-write it is in WAL mode with synchronous=FULL (a committed
// transaction survives kill -9 and power loss) unless told Sync::Normal, foreign_keys=ON and a
// busy timeout.
// Not for concurrent use from several threads: open one Database per thread.
class SqliteDatabase final : public Database {
 public:
  explicit SqliteDatabase(const std::filesystem::path& path,
                          OpenMode mode = OpenMode::ReadWriteCreate,
                          std::chrono::milliseconds busy_timeout = std::chrono::seconds(5),
                          Sync sync = Sync::Full);
  ~SqliteDatabase() override;
  SqliteDatabase(SqliteDatabase&& other) noexcept;
  SqliteDatabase& operator=(SqliteDatabase&& other) noexcept;

  // The WAL size, in pages, at which a commit checkpoints (SQLite's default is 1,000): each
  // busy game's part of the log is rewritten by nearly every group commit, and a checkpoint
  // copies each page once however often it changed since the last one. At 100 busy games that
  // took the server's CPU per action from ~97 to ~90 us. The
  // server checkpoints from a thread of its own (BackgroundCheckpointer) at the same size.
  static constexpr int kAutocheckpointPages = 8000;

  Backend backend() const override { return Backend::Sqlite; }
  void exec(std::string_view sql) override;
  Statement prepare(std::string_view sql) override;
  std::int64_t changes() const override;
  bool is_in_transaction() const override;
  std::string_view begin_sql() const override { return "BEGIN IMMEDIATE"; }
  void rollback_quietly(bool nested) noexcept override;

  const std::filesystem::path& path() const { return path_; }
  sqlite3* handle() const { return db_; }

  // Throws the StorageError (or ConstraintError) for result code `rc` of the last call.
  [[noreturn]] void throw_last_error(int rc, std::string_view context) const;

 private:
  void close() noexcept;
  void configure(OpenMode mode, std::chrono::milliseconds busy_timeout, Sync sync);
  std::string pragma_text(std::string_view pragma);

  sqlite3* db_ = nullptr;
  std::filesystem::path path_;
};

// The SQLite connection under `db`, or nullptr if `db` is of another backend: for what only
// SQLite has (its VFS, checkpoints, quick_check, the file's header).
SqliteDatabase* as_sqlite(Database& db);

}  // namespace blockfog::storage
