#pragma once

// RAII wrappers over the SQLite C API. Every failure throws StorageError (never from a
// destructor); every handle is released by its owner's destructor.

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

struct sqlite3;
struct sqlite3_stmt;

namespace blockfog::storage {

// An infrastructure failure of the store. code() is SQLite's extended result code
// (https://sqlite.org/rescode.html); errors the store raises itself use SQLITE_ERROR (1) unless
// a subclass says otherwise.
class StorageError : public std::runtime_error {
 public:
  StorageError(int code, const std::string& message);

  int code() const noexcept { return code_; }
  int primary_code() const noexcept { return code_ & 0xff; }

 private:
  int code_;
};

// A UNIQUE, CHECK, NOT NULL, FOREIGN KEY or trigger (RAISE) constraint refused a write. The
// extended code tells which, e.g. SQLITE_CONSTRAINT_UNIQUE or SQLITE_CONSTRAINT_TRIGGER.
class ConstraintError : public StorageError {
 public:
  using StorageError::StorageError;
};

enum class OpenMode {
  ReadWriteCreate,   // the server: creates the file if missing
  ReadWrite,         // the file must exist
  ReadOnly,          // checks, tools, --read-only: writes nothing to the file or beside it
                     // (storage/read_only_open.h)
  ReadBesideWriter,  // a reader while a server writes the file (the integrity monitor, tests):
                     // shares the writer's -shm and takes read marks in it like any reader
};

class Statement;
class CachedStatement;

// When a COMMIT returns (docs/storage.md, Durability). Both survive kill -9 and any crash of
// the process: the WAL is written before COMMIT returns.
enum class Sync {
  Full,    // and fsynced: the commit also survives power loss or an OS crash
  Normal,  // fsynced at checkpoints only: power loss may take back the last commits
};

// One connection. Opened read-write it is in WAL mode with synchronous=FULL (a committed
// transaction survives kill -9 and power loss) unless told Sync::Normal, foreign_keys=ON and a
// busy timeout.
// Not for concurrent use from several threads: open one Database per thread.
class Database {
 public:
  explicit Database(const std::filesystem::path& path, OpenMode mode = OpenMode::ReadWriteCreate,
                    std::chrono::milliseconds busy_timeout = std::chrono::seconds(5),
                    Sync sync = Sync::Full);
  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // The WAL size, in pages, at which a commit checkpoints (SQLite's default is 1,000): each
  // busy game's part of the log is rewritten by nearly every group commit, and a checkpoint
  // copies each page once however often it changed since the last one. At 100 busy games that
  // took the server's CPU per action from ~97 to ~90 us. The
  // server checkpoints from a thread of its own (BackgroundCheckpointer) at the same size.
  static constexpr int kAutocheckpointPages = 8000;

  // Runs one or more SQL statements that bind no parameters and return no rows of interest.
  void exec(std::string_view sql);
  Statement prepare(std::string_view sql);
  // The statement for `sql`, prepared on first use and kept by this connection: for the
  // statements of the hot path (one action appended per commit) and those run for every new
  // game and connection (sessions, seats, game rows; under load games end and start all the
  // time), whose parsing would cost more than running them. A lease of one statement must end
  // before the same SQL is leased again.
  CachedStatement cached(std::string_view sql);

  std::int64_t last_insert_rowid() const;
  std::int64_t changes() const;  // rows changed by the last INSERT, UPDATE or DELETE
  bool is_in_transaction() const;
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
  // unique_ptr: a statement in use keeps its address while others are added.
  std::unordered_map<std::string, std::unique_ptr<Statement>> cache_;
};

// A prepared statement. Parameter indices start at 1, column indices at 0 (SQLite's rule).
// Text and blobs are copied when bound, so the caller's buffers may die before step().
class Statement {
 public:
  Statement(Database& db, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, std::span<const std::byte> blob);
  Statement& bind(int index, std::nullptr_t);
  // Named parameters (":name", "@name", "$name"); an unknown name throws StorageError.
  Statement& bind(std::string_view name, std::int64_t value);
  Statement& bind(std::string_view name, std::string_view text);
  Statement& bind(std::string_view name, std::span<const std::byte> blob);
  Statement& bind(std::string_view name, std::nullptr_t);
  // A REAL (named apart from bind, so that an int argument is never ambiguous).
  Statement& bind_real(int index, double value);

  // True when a row is ready to read, false when the statement has finished.
  bool step();
  // Steps a statement that must finish without returning a row (INSERT, UPDATE, DELETE).
  void run();
  // Makes the statement ready to run again and clears its bindings.
  void reset();

  int column_count() const;
  bool is_null(int column) const;
  std::int64_t column_int64(int column) const;
  double column_real(int column) const;
  std::string column_text(int column) const;  // NULL reads as ""
  std::vector<std::byte> column_blob(int column) const;
  std::optional<std::int64_t> column_optional_int64(int column) const;
  std::optional<std::string> column_optional_text(int column) const;

 private:
  int parameter_index(std::string_view name) const;
  void check_bind(int rc, int index) const;
  void finalize() noexcept;

  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

// A statement borrowed from its connection's cache. It is reset (bindings cleared, any read
// ended) when the lease ends, so an unfinished SELECT never holds a read transaction open
// between uses.
class CachedStatement {
 public:
  explicit CachedStatement(Statement& statement) : statement_(&statement) {}
  ~CachedStatement() { statement_->reset(); }
  CachedStatement(const CachedStatement&) = delete;
  CachedStatement& operator=(const CachedStatement&) = delete;

  Statement& operator*() const { return *statement_; }
  Statement* operator->() const { return statement_; }

 private:
  Statement* statement_;
};

// BEGIN IMMEDIATE: takes the write lock at once, so a transaction never fails half-way for
// want of it. Rolled back by the destructor unless commit() succeeded.
// Inside a transaction already open (the server's storage thread commits several tasks as one
// group: server/db_worker.h) it is a SAVEPOINT instead: commit() releases it into the outer
// transaction, and the destructor rolls back only what was done since it began.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  void commit();

 private:
  Database* db_;
  bool nested_ = false;
  bool done_ = false;
};

}  // namespace blockfog::storage
