#include "storage/database.h"

#include <sqlite3.h>

#include "storage/faults.h"

namespace blockfog::storage {
namespace {

// The SQLite code that stands for a kind in code(), for errors SQLite did not raise.
int representative_code(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Constraint:
      return SQLITE_CONSTRAINT;
    case ErrorKind::Unavailable:
      return SQLITE_CANTOPEN;
    case ErrorKind::LostWrite:
      return SQLITE_IOERR;
    case ErrorKind::Corrupt:
      return SQLITE_CORRUPT;
    case ErrorKind::Busy:
      return SQLITE_BUSY;
    case ErrorKind::Other:
      break;
  }
  return SQLITE_ERROR;
}

}  // namespace

std::string_view error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Constraint:
      return "constraint";
    case ErrorKind::Unavailable:
      return "unavailable";
    case ErrorKind::LostWrite:
      return "lost write";
    case ErrorKind::Corrupt:
      return "corrupt";
    case ErrorKind::Busy:
      return "busy";
    case ErrorKind::Other:
      break;
  }
  return "other";
}

bool is_unavailable(ErrorKind kind) {
  return kind == ErrorKind::Unavailable || kind == ErrorKind::Busy || kind == ErrorKind::LostWrite;
}

ErrorKind kind_of_sqlite_code(int sqlite_code) {
  switch (sqlite_code) {
    // The failures of a write or sync (storage/faults.h: a lost write); other I/O errors (a
    // failed read, no memory for I/O) leave the file as it was.
    case SQLITE_IOERR_WRITE:
    case SQLITE_IOERR_FSYNC:
    case SQLITE_IOERR_DIR_FSYNC:
    case SQLITE_IOERR_TRUNCATE:
      return ErrorKind::LostWrite;
    default:
      break;
  }
  switch (sqlite_code & 0xff) {
    case SQLITE_CONSTRAINT:
      return ErrorKind::Constraint;
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_NOLFS:
    case SQLITE_PERM:
      return ErrorKind::Unavailable;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return ErrorKind::Busy;
    case SQLITE_CORRUPT:
      return ErrorKind::Corrupt;
    default:
      return ErrorKind::Other;
  }
}

StorageError::StorageError(int code, const std::string& message)
    : StorageError(code, kind_of_sqlite_code(code), message) {}

StorageError::StorageError(int code, ErrorKind kind, const std::string& message)
    : std::runtime_error(message), code_(code), kind_(kind) {}

StorageError::StorageError(ErrorKind kind, const std::string& message)
    : StorageError(representative_code(kind), kind, message) {}

void Statement::run() {
  if (step()) {
    throw StorageError(ErrorKind::Other, "statement returned a row: " + impl_->describe());
  }
}

std::optional<std::int64_t> Statement::run_returning_id() {
  if (!step()) return std::nullopt;
  const std::int64_t id = column_int64(0);
  if (step()) throw StorageError(ErrorKind::Other, "more than one row: " + impl_->describe());
  return id;
}

std::optional<std::int64_t> Statement::column_optional_int64(int column) const {
  if (is_null(column)) return std::nullopt;
  return column_int64(column);
}

std::optional<std::string> Statement::column_optional_text(int column) const {
  if (is_null(column)) return std::nullopt;
  return column_text(column);
}

CachedStatement Database::cached(std::string_view sql) {
  auto& slot = cache_[std::string(sql)];
  if (!slot) slot = std::make_unique<Statement>(prepare(sql));
  return CachedStatement(*slot);
}

// The statements are prepared once per connection (Database::cached): a transaction per action
// would otherwise parse two of them each time.
Transaction::Transaction(Database& db) : db_(&db), nested_(db.is_in_transaction()) {
  db_->cached(nested_ ? std::string_view("SAVEPOINT blockfog_nested") : db_->begin_sql())->run();
}

Transaction::~Transaction() {
  // Some errors (disk full, I/O) end the transaction inside SQLite already; then there is
  // nothing left to roll back.
  if (done_ || !db_->is_in_transaction()) return;
  db_->rollback_quietly(nested_);
}

void Transaction::commit() {
  db_->cached(nested_ ? "RELEASE blockfog_nested" : "COMMIT")->run();
  done_ = true;
}

void lock_row(Database& db, LockedRow row, std::int64_t id) {
  if (db.backend() != Backend::Postgres) return;
  auto lock =
      db.cached(row == LockedRow::Tournament ? "SELECT 1 FROM tournaments WHERE id = ?1 FOR UPDATE"
                                             : "SELECT 1 FROM accounts WHERE id = ?1 FOR UPDATE");
  lock->bind(1, id);
  while (lock->step()) {
  }
}

}  // namespace blockfog::storage
