#include "storage/sqlite.h"

#include <sqlite3.h>

#include <string>
#include <utility>

#include "storage/faults.h"
#include "storage/gathering_vfs.h"
#include "storage/read_only_open.h"

namespace blockfog::storage {
namespace {

[[noreturn]] void throw_for(int rc, std::string message) {
  note_error(rc);
  if ((rc & 0xff) == SQLITE_CONSTRAINT) throw ConstraintError(rc, message);
  throw StorageError(rc, message);
}

// Error messages name the statement but never its bound values (they may be secrets).
std::string abbreviate(std::string_view sql) {
  constexpr std::size_t kMax = 80;
  std::string text(sql.substr(0, kMax));
  if (sql.size() > kMax) text += "...";
  return text;
}

int open_flags(OpenMode mode) {
  // Extended result codes from the start, so that even a failed open says exactly why. A
  // Database is used by one thread at a time (sqlite.h), so its connection takes no mutex on
  // every call (SQLite's "multi-thread" mode rather than "serialized").
  const int common = SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX;
  switch (mode) {
    case OpenMode::ReadWriteCreate:
      return common | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    case OpenMode::ReadWrite:
      return common | SQLITE_OPEN_READWRITE;
    case OpenMode::ReadOnly:
    case OpenMode::ReadBesideWriter:
      return common | SQLITE_OPEN_READONLY;
  }
  return common | SQLITE_OPEN_READONLY;
}

// SQLite keeps memory statistics under a global mutex taken on every allocation it makes (a
// few dozen per stored action); nothing here reads them. Only possible before SQLite starts:
// if something started it first, the statistics stay on, which is only slower.
void configure_library_once() {
  [[maybe_unused]] static const int rc = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

}  // namespace

// One prepared SQLite statement (StatementImpl).
class SqliteStatement final : public StatementImpl {
 public:
  SqliteStatement(SqliteDatabase& db, std::string_view sql);
  ~SqliteStatement() override;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  void bind_int64(int index, std::int64_t value) override;
  void bind_real(int index, double value) override;
  void bind_text(int index, std::string_view text) override;
  void bind_blob(int index, std::span<const std::byte> blob) override;
  void bind_null(int index) override;
  int parameter_index(std::string_view name) const override;
  bool step() override;
  void reset() noexcept override;
  int column_count() const override;
  bool is_null(int column) const override;
  std::int64_t column_int64(int column) const override;
  double column_real(int column) const override;
  std::string column_text(int column) const override;
  std::vector<std::byte> column_blob(int column) const override;
  std::string describe() const override { return abbreviate(sqlite3_sql(stmt_)); }

 private:
  void check_bind(int rc, int index) const;

  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

SqliteDatabase* as_sqlite(Database& db) {
  return db.backend() == Backend::Sqlite ? static_cast<SqliteDatabase*>(&db) : nullptr;
}

// --- SqliteDatabase ---------------------------------------------------------------------

SqliteDatabase::SqliteDatabase(const std::filesystem::path& path, OpenMode mode,
                               std::chrono::milliseconds busy_timeout, Sync sync)
    : path_(path) {
  configure_library_once();
  // A writing connection opens its files through the gathering VFS, so that a commit's WAL
  // frames reach the file in one write (storage/gathering_vfs.h); a ReadOnly one writes nothing,
  // not even beside the file (storage/read_only_open.h). A reader beside a live writer must be
  // able to set a read mark in the shared -shm: one that cannot reads only while a mark some
  // other connection left happens to fit the WAL, and otherwise fails with SQLITE_READONLY_CANTINIT
  // ("attempt to write a readonly database").
  int rc = SQLITE_OK;
  switch (mode) {
    case OpenMode::ReadOnly:
      rc = open_read_only(path, open_flags(mode), &db_);
      break;
    case OpenMode::ReadBesideWriter:
      rc = sqlite3_open_v2(path.c_str(), &db_, open_flags(mode), nullptr);
      break;
    case OpenMode::ReadWriteCreate:
    case OpenMode::ReadWrite:
      rc = sqlite3_open_v2(path.c_str(), &db_, open_flags(mode), gathering_vfs_name());
      break;
  }
  if (rc != SQLITE_OK) {
    // Even a failed open may allocate a handle, which must be closed after reading its message.
    std::string message = "cannot open database " + path.string() + ": " +
                          (db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc));
    close();
    throw_for(rc, std::move(message));
  }
  try {
    configure(mode, busy_timeout, sync);
  } catch (...) {
    close();
    throw;
  }
}

void SqliteDatabase::configure(OpenMode mode, std::chrono::milliseconds busy_timeout, Sync sync) {
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, static_cast<int>(busy_timeout.count()));
  exec("PRAGMA foreign_keys = ON");
  if (mode == OpenMode::ReadOnly || mode == OpenMode::ReadBesideWriter) return;
  // WAL: readers never block the writer. The mode is stored in the file, so it is set here.
  const std::string journal = pragma_text("PRAGMA journal_mode = WAL");
  if (journal != "wal" && path_ != ":memory:") {
    throw StorageError(SQLITE_ERROR, "cannot switch " + path_.string() +
                                         " to WAL mode (journal_mode is " + journal + ")");
  }
  // FULL: each COMMIT fsyncs the WAL, so an acknowledged action survives power loss. NORMAL
  // keeps the file consistent and survives a crash of the process, but power loss could take
  // back the last commits; the operator chooses (docs/storage.md).
  exec(sync == Sync::Full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
  sqlite3_wal_autocheckpoint(db_, kAutocheckpointPages);
}

std::string SqliteDatabase::pragma_text(std::string_view pragma) {
  Statement statement = prepare(pragma);
  return statement.step() ? statement.column_text(0) : std::string();
}

SqliteDatabase::~SqliteDatabase() { close(); }

// The cached statements move with the connection: they hold its sqlite3 handle, not this object.
SqliteDatabase::SqliteDatabase(SqliteDatabase&& other) noexcept
    : Database(std::move(other)),
      db_(std::exchange(other.db_, nullptr)),
      path_(std::move(other.path_)) {}

SqliteDatabase& SqliteDatabase::operator=(SqliteDatabase&& other) noexcept {
  if (this != &other) {
    close();
    Database::operator=(std::move(other));
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

void SqliteDatabase::close() noexcept {
  clear_cache();  // finalized before the connection they belong to
  // The last connection to close checkpoints the WAL into the database; after a lost write
  // the WAL's bytes on disk are unknown, so it stays as it is for the next start's recovery.
  if (db_ != nullptr && fault_counts().lost_writes > 0) {
    sqlite3_db_config(db_, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
  }
  // sqlite3_close_v2 defers the close until any statement still alive is finalized.
  if (db_ != nullptr) sqlite3_close_v2(db_);
  db_ = nullptr;
}

void SqliteDatabase::exec(std::string_view sql) {
  const std::string text(sql);
  const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) throw_last_error(rc, abbreviate(sql));
}

Statement SqliteDatabase::prepare(std::string_view sql) {
  return Statement(std::make_unique<SqliteStatement>(*this, sql));
}

std::int64_t SqliteDatabase::changes() const { return sqlite3_changes64(db_); }

bool SqliteDatabase::is_in_transaction() const { return sqlite3_get_autocommit(db_) == 0; }

void SqliteDatabase::rollback_quietly(bool nested) noexcept {
  // A failed ROLLBACK is ignored: this runs in destructors and after a failed COMMIT.
  // Savepoints of the same name nest: this undoes and ends the innermost.
  sqlite3_exec(db_, nested ? "ROLLBACK TO blockfog_nested; RELEASE blockfog_nested" : "ROLLBACK",
               nullptr, nullptr, nullptr);
}

void SqliteDatabase::throw_last_error(int rc, std::string_view context) const {
  throw_for(rc, std::string(sqlite3_errmsg(db_)) + " [" + std::string(context) + "]");
}

// --- SqliteStatement -------------------------------------------------------------------

SqliteStatement::SqliteStatement(SqliteDatabase& db, std::string_view sql) : db_(db.handle()) {
  const int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr);
  if (rc != SQLITE_OK) db.throw_last_error(rc, "prepare: " + abbreviate(sql));
  if (stmt_ == nullptr) throw StorageError(SQLITE_MISUSE, "empty statement: " + abbreviate(sql));
}

SqliteStatement::~SqliteStatement() {
  if (stmt_ != nullptr) sqlite3_finalize(stmt_);
}

void SqliteStatement::check_bind(int rc, int index) const {
  if (rc != SQLITE_OK) {
    throw_for(rc, "bind parameter " + std::to_string(index) + ": " + sqlite3_errmsg(db_) + " [" +
                      abbreviate(sqlite3_sql(stmt_)) + "]");
  }
}

void SqliteStatement::bind_int64(int index, std::int64_t value) {
  check_bind(sqlite3_bind_int64(stmt_, index, value), index);
}

void SqliteStatement::bind_real(int index, double value) {
  check_bind(sqlite3_bind_double(stmt_, index, value), index);
}

void SqliteStatement::bind_text(int index, std::string_view text) {
  check_bind(
      sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
      index);
}

void SqliteStatement::bind_blob(int index, std::span<const std::byte> blob) {
  // A zero-length blob must still bind as a blob, not as NULL.
  static constexpr std::byte kEmpty{};
  const void* data = blob.empty() ? &kEmpty : blob.data();
  check_bind(sqlite3_bind_blob64(stmt_, index, data, blob.size(), SQLITE_TRANSIENT), index);
}

void SqliteStatement::bind_null(int index) { check_bind(sqlite3_bind_null(stmt_, index), index); }

int SqliteStatement::parameter_index(std::string_view name) const {
  const int index = sqlite3_bind_parameter_index(stmt_, std::string(name).c_str());
  if (index == 0) {
    throw StorageError(SQLITE_RANGE, "no parameter named " + std::string(name) + " [" +
                                         abbreviate(sqlite3_sql(stmt_)) + "]");
  }
  return index;
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  // The message first: reset() is another call on the connection.
  std::string message =
      std::string(sqlite3_errmsg(db_)) + " [" + abbreviate(sqlite3_sql(stmt_)) + "]";
  sqlite3_reset(stmt_);
  throw_for(rc, std::move(message));
}

void SqliteStatement::reset() noexcept {
  // The code sqlite3_reset returns repeats the last step()'s error, already thrown there.
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int SqliteStatement::column_count() const { return sqlite3_column_count(stmt_); }

bool SqliteStatement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t SqliteStatement::column_int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

double SqliteStatement::column_real(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string SqliteStatement::column_text(int column) const {
  const auto* text = sqlite3_column_text(stmt_, column);
  const int size = sqlite3_column_bytes(stmt_, column);  // after the text: its size in UTF-8
  if (text == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(size));
}

std::vector<std::byte> SqliteStatement::column_blob(int column) const {
  const auto* data = static_cast<const std::byte*>(sqlite3_column_blob(stmt_, column));
  const int size = sqlite3_column_bytes(stmt_, column);
  if (data == nullptr) return {};
  return std::vector<std::byte>(data, data + size);
}

}  // namespace blockfog::storage
