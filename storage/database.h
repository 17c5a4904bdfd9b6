#pragma once

// The store's interface to a database, whichever backend holds it (docs/storage.md, "Two
// backends"): an abstract Database (one connection), the Statement it prepares, Transaction,
// and StorageError with a backend-neutral kind(). The repositories (Store and the free
// functions over Store&) use only this; storage/sqlite.h and storage/postgres.h implement it.
// Every failure throws StorageError (never from a destructor).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace blockfog::storage {

// What a failure means to the server, whichever backend raised it.
enum class ErrorKind {
  Constraint,   // a UNIQUE, CHECK, NOT NULL, FOREIGN KEY or trigger refused a write
  Unavailable,  // cannot store now (no space, no permission, connection lost, shutting down);
                // nothing was written and the same statement may succeed later
  LostWrite,    // the OS failed a write or sync: what is on disk is unknown
  Corrupt,      // the stored data is damaged
  Busy,         // another writer held a lock too long, or a serialization failure
  Other,        // anything else: a bug, a missing row, a bad statement
};

std::string_view error_kind_name(ErrorKind kind);
// Unavailable, Busy and LostWrite: the store could not take the write now (clients are told
// storage_unavailable), as opposed to a refusal of the write itself.
bool is_unavailable(ErrorKind kind);

// An infrastructure failure of the store. kind() is what the server decides on. code() is
// SQLite's extended result code (https://sqlite.org/rescode.html) when SQLite raised it, and a
// representative SQLite code of the kind otherwise (so that messages and logs stay alike).
class StorageError : public std::runtime_error {
 public:
  // An error in SQLite's terms: the kind follows from the code.
  StorageError(int code, const std::string& message);
  StorageError(int code, ErrorKind kind, const std::string& message);
  // An error of another backend, or of the store itself.
  StorageError(ErrorKind kind, const std::string& message);

  int code() const noexcept { return code_; }
  int primary_code() const noexcept { return code_ & 0xff; }
  ErrorKind kind() const noexcept { return kind_; }

 private:
  int code_;
  ErrorKind kind_;
};

// A UNIQUE, CHECK, NOT NULL, FOREIGN KEY or trigger constraint refused a write. On SQLite the
// extended code tells which, e.g. SQLITE_CONSTRAINT_UNIQUE or SQLITE_CONSTRAINT_TRIGGER.
class ConstraintError : public StorageError {
 public:
  using StorageError::StorageError;
};

// The kind of an SQLite (extended) result code.
ErrorKind kind_of_sqlite_code(int sqlite_code);

// When a COMMIT returns (docs/storage.md, Durability). Both survive kill -9 and any crash of
// the process.
enum class Sync {
  Full,    // and fsynced: the commit also survives power loss or an OS crash
  Normal,  // SQLite only: fsynced at checkpoints, power loss may take back the last commits
};

enum class Backend { Sqlite, Postgres };

// What a backend's prepared statement does; Statement forwards to it.
class StatementImpl {
 public:
  virtual ~StatementImpl() = default;
  virtual void bind_int64(int index, std::int64_t value) = 0;
  virtual void bind_real(int index, double value) = 0;
  virtual void bind_text(int index, std::string_view text) = 0;
  virtual void bind_blob(int index, std::span<const std::byte> blob) = 0;
  virtual void bind_null(int index) = 0;
  // The index of a named parameter (":name"); throws StorageError if there is none.
  virtual int parameter_index(std::string_view name) const = 0;
  virtual bool step() = 0;
  virtual void reset() noexcept = 0;
  virtual int column_count() const = 0;
  virtual bool is_null(int column) const = 0;
  virtual std::int64_t column_int64(int column) const = 0;
  virtual double column_real(int column) const = 0;
  virtual std::string column_text(int column) const = 0;
  virtual std::vector<std::byte> column_blob(int column) const = 0;
  // The statement's SQL, shortened, for messages (never its bound values: they may be secrets).
  virtual std::string describe() const = 0;
};

// A prepared statement: a value that owns its backend's statement. Parameter indices start
// at 1 (SQL's ?1), column indices at 0. Text and blobs are copied when bound, so the caller's
// buffers may die before step(). Shared SQL numbers its parameters (?1, ?2 ...): both
// backends accept that.
class Statement {
 public:
  explicit Statement(std::unique_ptr<StatementImpl> impl) : impl_(std::move(impl)) {}
  Statement(Statement&&) noexcept = default;
  Statement& operator=(Statement&&) noexcept = default;

  Statement& bind(int index, std::int64_t value) {
    impl_->bind_int64(index, value);
    return *this;
  }
  Statement& bind(int index, std::string_view text) {
    impl_->bind_text(index, text);
    return *this;
  }
  Statement& bind(int index, std::span<const std::byte> blob) {
    impl_->bind_blob(index, blob);
    return *this;
  }
  Statement& bind(int index, std::nullptr_t) {
    impl_->bind_null(index);
    return *this;
  }
  // Named parameters (":name", "@name", "$name"): SQLite only; an unknown name throws.
  Statement& bind(std::string_view name, std::int64_t value) {
    return bind(impl_->parameter_index(name), value);
  }
  Statement& bind(std::string_view name, std::string_view text) {
    return bind(impl_->parameter_index(name), text);
  }
  Statement& bind(std::string_view name, std::span<const std::byte> blob) {
    return bind(impl_->parameter_index(name), blob);
  }
  Statement& bind(std::string_view name, std::nullptr_t) {
    return bind(impl_->parameter_index(name), nullptr);
  }
  // A REAL (named apart from bind, so that an int argument is never ambiguous).
  Statement& bind_real(int index, double value) {
    impl_->bind_real(index, value);
    return *this;
  }

  // True when a row is ready to read, false when the statement has finished.
  bool step() { return impl_->step(); }
  // Steps a statement that must finish without returning a row (INSERT, UPDATE, DELETE).
  void run();
  // Runs an INSERT ... RETURNING id: the new row's id, or none when nothing was inserted
  // (ON CONFLICT DO NOTHING). Both backends return the id this way.
  std::optional<std::int64_t> run_returning_id();
  // Makes the statement ready to run again and clears its bindings.
  void reset() { impl_->reset(); }

  int column_count() const { return impl_->column_count(); }
  bool is_null(int column) const { return impl_->is_null(column); }
  std::int64_t column_int64(int column) const { return impl_->column_int64(column); }
  double column_real(int column) const { return impl_->column_real(column); }
  std::string column_text(int column) const { return impl_->column_text(column); }  // NULL: ""
  std::vector<std::byte> column_blob(int column) const { return impl_->column_blob(column); }
  std::optional<std::int64_t> column_optional_int64(int column) const;
  std::optional<std::string> column_optional_text(int column) const;

  StatementImpl& impl() { return *impl_; }

 private:
  std::unique_ptr<StatementImpl> impl_;
};

// A statement borrowed from its connection's cache. It is reset (bindings cleared, any read
// ended) when the lease ends, so an unfinished SELECT never holds a read open between uses.
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

// One connection to the store's database. Not for concurrent use from several threads: open
// one per thread.
class Database {
 public:
  Database() = default;
  virtual ~Database() = default;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  virtual Backend backend() const = 0;
  // Runs one or more SQL statements that bind no parameters and return no rows of interest.
  virtual void exec(std::string_view sql) = 0;
  virtual Statement prepare(std::string_view sql) = 0;
  // The statement for `sql`, prepared on first use and kept by this connection: for the
  // statements of the hot path (one action appended per commit) and those run for every new
  // game and connection, whose parsing would cost more than running them. A lease of one
  // statement must end before the same SQL is leased again.
  CachedStatement cached(std::string_view sql);
  // Rows changed by the last INSERT, UPDATE or DELETE.
  virtual std::int64_t changes() const = 0;
  virtual bool is_in_transaction() const = 0;

  // For Transaction and the storage thread's group commit: the statement that opens a
  // transaction (SQLite: BEGIN IMMEDIATE, taking the write lock up front; PostgreSQL: BEGIN).
  virtual std::string_view begin_sql() const = 0;
  // Rolls back the open transaction, or (nested) the innermost savepoint named
  // blockfog_nested, ignoring any failure: called from destructors and after a failed COMMIT.
  virtual void rollback_quietly(bool nested) noexcept = 0;

 protected:
  Database(Database&&) noexcept = default;
  Database& operator=(Database&&) noexcept = default;
  // Finalizes the cached statements: a backend calls it before it closes its connection.
  void clear_cache() noexcept { cache_.clear(); }

 private:
  // unique_ptr: a statement in use keeps its address while others are added.
  std::unordered_map<std::string, std::unique_ptr<Statement>> cache_;
};

// Opens a transaction (Database::begin_sql) and rolls it back in the destructor unless
// commit() succeeded. Inside a transaction already open (the server's storage thread commits
// several tasks as one group: server/db_worker.h) it is a SAVEPOINT instead: commit() releases
// it into the outer transaction, and the destructor rolls back only what was done since it
// began.
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

// The rows that writes which are not a game's decide about (docs/multi-node.md, section 4,
// "Serialising writes that are not a game's"): a tournament (its players, status and rounds),
// an account (its login sessions, its ratings).
enum class LockedRow { Tournament, Account };

// Locks the row until the transaction around ends, so that what the transaction read under it
// still holds at its COMMIT while other nodes write: two registrations for a tournament's last
// seat, at two nodes, cannot both see it free. SELECT ... FOR UPDATE on PostgreSQL; nothing on
// SQLite, whose one write lock (BEGIN IMMEDIATE) serialises every writer already. Call it in a
// Transaction before reading what it guards. Rows are locked in one order everywhere, so that
// two transactions never wait for each other: a tournament, then its games (written), then
// accounts by ascending id.
void lock_row(Database& db, LockedRow row, std::int64_t id);

}  // namespace blockfog::storage
