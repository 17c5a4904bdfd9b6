#include "storage/postgres.h"

#include <libpq-fe.h>
#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>
#include <vector>

#include "storage/faults.h"

namespace blockfog::storage {
namespace {

constexpr Oid kByteaOid = 17;

std::string shortened(std::string_view sql) {
  constexpr std::size_t kMax = 80;
  std::string text(sql.substr(0, kMax));
  if (sql.size() > kMax) text += "...";
  return text;
}

// docs/multi-node.md, section 1: the SQLSTATE classes the server decides on.
ErrorKind kind_of_sqlstate(std::string_view state) {
  if (state.size() != 5) return ErrorKind::Unavailable;  // no SQLSTATE: the connection broke
  const std::string_view cls = state.substr(0, 2);
  if (cls == "23") return ErrorKind::Constraint;
  if (state == "40001" || state == "40P01" || state == "55P03") return ErrorKind::Busy;
  if (state == "XX001" || state == "XX002") return ErrorKind::Corrupt;
  if (cls == "08" || cls == "53" || cls == "58" || state == "57P01" || state == "57P02" ||
      state == "57P03" || state == "25P03" || state == "25006") {
    return ErrorKind::Unavailable;
  }
  return ErrorKind::Other;
}

// The SQLite code of a refused write, so that code() says which constraint on both backends.
int sqlite_code_of_constraint(std::string_view state) {
  if (state == "23505") return SQLITE_CONSTRAINT_UNIQUE;
  if (state == "23502") return SQLITE_CONSTRAINT_NOTNULL;
  if (state == "23514") return SQLITE_CONSTRAINT_CHECK;
  if (state == "23503") return SQLITE_CONSTRAINT_FOREIGNKEY;
  if (state == "23000") return SQLITE_CONSTRAINT_TRIGGER;  // the triggers' refusals
  return SQLITE_CONSTRAINT;
}

void ignore_notice(void*, const char*) {}

}  // namespace

bool is_postgres_uri(std::string_view location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

std::string redacted_uri(std::string_view uri) {
  // scheme://user:password@host...: the password is between the first ':' after the scheme
  // and the '@'.
  const auto scheme_end = uri.find("://");
  if (scheme_end == std::string_view::npos) return std::string(uri);
  const auto at = uri.find('@', scheme_end + 3);
  if (at == std::string_view::npos) return std::string(uri);
  const auto colon = uri.find(':', scheme_end + 3);
  if (colon == std::string_view::npos || colon > at) return std::string(uri);
  return std::string(uri.substr(0, colon + 1)) + "***" + std::string(uri.substr(at));
}

std::string to_postgres_placeholders(std::string_view sql, int& parameters) {
  std::string out;
  out.reserve(sql.size() + 8);
  parameters = 0;
  std::size_t i = 0;
  const auto copy_until = [&](std::string_view end) {
    const auto found = sql.find(end, i);
    const std::size_t stop = found == std::string_view::npos ? sql.size() : found + end.size();
    out.append(sql.substr(i, stop - i));
    i = stop;
  };
  while (i < sql.size()) {
    const char c = sql[i];
    if (c == '\'') {
      // A string; '' inside it is a quote, which the scan sees as the end and a new string.
      out += c;
      ++i;
      copy_until("'");
    } else if (c == '"') {
      out += c;
      ++i;
      copy_until("\"");
    } else if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      copy_until("\n");
    } else if (c == '/' && i + 1 < sql.size() && sql[i + 1] == '*') {
      copy_until("*/");
    } else if (c == '?') {
      std::size_t end = i + 1;
      while (end < sql.size() && sql[end] >= '0' && sql[end] <= '9') ++end;
      if (end == i + 1) {
        throw StorageError(ErrorKind::Other,
                           "a parameter without its number (use ?N): " + shortened(sql));
      }
      const int n = std::atoi(std::string(sql.substr(i + 1, end - i - 1)).c_str());
      parameters = std::max(parameters, n);
      out += '$';
      out.append(sql.substr(i + 1, end - i - 1));
      i = end;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

// --- PgStatement ----------------------------------------------------------------------------

// One statement (StatementImpl). Run with PQexecParams the first time, prepared on the server
// the second time and run by name after (statements run once cost no extra round trip).
class PgStatement final : public StatementImpl {
 public:
  PgStatement(PgDatabase& db, std::string_view sql)
      : db_(&db),
        original_(shortened(sql)),
        sql_(to_postgres_placeholders(sql, parameters_)),
        values_(static_cast<std::size_t>(parameters_)),
        formats_(static_cast<std::size_t>(parameters_), 0),
        is_commit_(sql == "COMMIT") {}
  ~PgStatement() override {
    clear();
    // The server keeps a prepared statement until the session ends; one made for a statement
    // that dies before its connection is taken back (a failure only leaves it there).
    if (!name_.empty() && prepared_in_ == db_->generation() && !db_->closing()) {
      PQclear(PQexec(db_->raw(), ("DEALLOCATE " + name_).c_str()));
    }
  }
  PgStatement(const PgStatement&) = delete;
  PgStatement& operator=(const PgStatement&) = delete;

  void bind_int64(int index, std::int64_t value) override { set(index, std::to_string(value), 0); }
  void bind_real(int index, double value) override {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    set(index, text, 0);
  }
  void bind_text(int index, std::string_view text) override { set(index, std::string(text), 0); }
  void bind_blob(int index, std::span<const std::byte> blob) override {
    set(index, std::string(reinterpret_cast<const char*>(blob.data()), blob.size()), 1);
  }
  void bind_null(int index) override {
    check_index(index);
    values_[static_cast<std::size_t>(index - 1)].reset();
  }
  int parameter_index(std::string_view name) const override {
    throw StorageError(ErrorKind::Other, "named parameter " + std::string(name) +
                                             ": PostgreSQL statements number theirs (?N) [" +
                                             original_ + "]");
  }

  bool step() override {
    if (result_ == nullptr) execute();
    ++row_;
    return row_ < rows_;
  }
  void reset() noexcept override {
    clear();
    for (auto& value : values_) value.reset();
  }

  int column_count() const override { return result_ ? PQnfields(result_) : 0; }
  bool is_null(int column) const override {
    return !has_row() || PQgetisnull(result_, row_, column) != 0;
  }
  std::int64_t column_int64(int column) const override {
    if (is_null(column)) return 0;
    const char* text = PQgetvalue(result_, row_, column);
    if (text[0] == 't' && text[1] == '\0') return 1;  // a boolean
    if (text[0] == 'f' && text[1] == '\0') return 0;
    return std::strtoll(text, nullptr, 10);
  }
  double column_real(int column) const override {
    if (is_null(column)) return 0;
    return std::strtod(PQgetvalue(result_, row_, column), nullptr);
  }
  std::string column_text(int column) const override {
    if (is_null(column)) return {};
    return std::string(PQgetvalue(result_, row_, column),
                       static_cast<std::size_t>(PQgetlength(result_, row_, column)));
  }
  std::vector<std::byte> column_blob(int column) const override {
    if (is_null(column)) return {};
    const auto* text = reinterpret_cast<const unsigned char*>(PQgetvalue(result_, row_, column));
    if (PQftype(result_, column) != kByteaOid) {
      const auto size = static_cast<std::size_t>(PQgetlength(result_, row_, column));
      const auto* bytes = reinterpret_cast<const std::byte*>(text);
      return std::vector<std::byte>(bytes, bytes + size);
    }
    std::size_t size = 0;
    unsigned char* raw = PQunescapeBytea(text, &size);
    if (raw == nullptr) throw StorageError(ErrorKind::Other, "out of memory reading a bytea");
    const auto* bytes = reinterpret_cast<const std::byte*>(raw);
    std::vector<std::byte> out(bytes, bytes + size);
    PQfreemem(raw);
    return out;
  }
  std::string describe() const override { return original_; }

 private:
  bool has_row() const { return result_ != nullptr && row_ >= 0 && row_ < rows_; }
  void check_index(int index) const {
    if (index < 1 || index > parameters_) {
      throw StorageError(ErrorKind::Other, "bind parameter " + std::to_string(index) +
                                               ": out of range [" + original_ + "]");
    }
  }
  void set(int index, std::string value, int format) {
    check_index(index);
    values_[static_cast<std::size_t>(index - 1)] = std::move(value);
    formats_[static_cast<std::size_t>(index - 1)] = format;
  }
  void clear() noexcept {
    if (result_ != nullptr) PQclear(result_);
    result_ = nullptr;
    row_ = -1;
    rows_ = 0;
  }

  void execute() {
    PGconn* conn = db_->connection();
    std::vector<const char*> values(values_.size());
    std::vector<int> lengths(values_.size());
    for (std::size_t i = 0; i < values_.size(); ++i) {
      if (values_[i]) {
        values[i] = values_[i]->data();
        lengths[i] = static_cast<int>(values_[i]->size());
      }
    }
    PGresult* result = nullptr;
    if (runs_ > 0 && prepared_in_ != db_->generation()) {
      if (name_.empty()) name_ = db_->next_statement_name();
      PGresult* prepared = PQprepare(conn, name_.c_str(), sql_.c_str(), parameters_, nullptr);
      if (PQresultStatus(prepared) != PGRES_COMMAND_OK) db_->throw_error(prepared, original_);
      PQclear(prepared);
      prepared_in_ = db_->generation();
    }
    if (prepared_in_ == db_->generation()) {
      result = PQexecPrepared(conn, name_.c_str(), parameters_, values.data(), lengths.data(),
                              formats_.data(), 0);
    } else {
      result = PQexecParams(conn, sql_.c_str(), parameters_, nullptr, values.data(), lengths.data(),
                            formats_.data(), 0);
    }
    ++runs_;
    const auto status = PQresultStatus(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      db_->throw_error(result, original_);
    }
    // A COMMIT of a transaction that an error had ended is answered ROLLBACK, not an error.
    if (is_commit_ && std::string_view(PQcmdStatus(result)) == "ROLLBACK") {
      PQclear(result);
      throw StorageError(ErrorKind::Other,
                         "COMMIT rolled back: a statement of the transaction had failed");
    }
    const char* tuples = PQcmdTuples(result);
    db_->set_changes(tuples[0] != '\0' ? std::strtoll(tuples, nullptr, 10) : 0);
    result_ = result;
    rows_ = PQntuples(result);
    row_ = -1;
  }

  PgDatabase* db_;
  std::string original_;  // for messages
  int parameters_ = 0;
  std::string sql_;  // with $N
  std::vector<std::optional<std::string>> values_;
  std::vector<int> formats_;  // 0 text, 1 binary (blobs)
  bool is_commit_;
  std::string name_;               // the server-side prepared statement's, once there is one
  std::uint64_t prepared_in_ = 0;  // the connection generation it was prepared in (0: none)
  int runs_ = 0;
  PGresult* result_ = nullptr;
  int row_ = -1;
  int rows_ = 0;
};

// --- PgDatabase -----------------------------------------------------------------------------

PgDatabase::PgDatabase(std::string uri, Settings settings)
    : uri_(std::move(uri)), settings_(settings) {
  connect();
}

PgDatabase::~PgDatabase() { close(); }

void PgDatabase::close() noexcept {
  closing_ = true;
  clear_cache();
  if (conn_ != nullptr) PQfinish(conn_);
  conn_ = nullptr;
}

void PgDatabase::connect() {
  if (conn_ != nullptr) PQfinish(conn_);
  const std::string timeout = std::to_string(settings_.connect_timeout.count());
  const char* keywords[] = {"dbname", "connect_timeout", "application_name", nullptr};
  const char* values[] = {uri_.c_str(), timeout.c_str(), "blockfog", nullptr};
  conn_ = PQconnectdbParams(keywords, values, 1);
  ++generation_;
  if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) {
    std::string message = conn_ != nullptr ? PQerrorMessage(conn_) : "out of memory";
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
      message.pop_back();
    }
    if (conn_ != nullptr) PQfinish(conn_);
    conn_ = nullptr;
    note_error(ErrorKind::Unavailable);
    throw StorageError(ErrorKind::Unavailable,
                       "cannot connect to PostgreSQL at " + redacted_uri(uri_) + ": " + message);
  }
  PQsetNoticeProcessor(conn_, ignore_notice, nullptr);
  configure();
}

void PgDatabase::configure() {
  // synchronous_commit on: a COMMIT returns once its WAL is flushed, so an acknowledged action
  // survives a crash of the database server (docs/multi-node.md, "Durability"). The timeouts
  // keep a paused node's open transaction or a stuck lock from holding others for long.
  exec("SET synchronous_commit = on; SET idle_in_transaction_session_timeout = '" +
       std::to_string(settings_.idle_in_transaction_timeout.count()) + "ms'; SET lock_timeout = '" +
       std::to_string(settings_.lock_timeout.count()) +
       "ms'; SET TimeZone = 'UTC'; SET client_min_messages = warning");
}

PGconn* PgDatabase::connection() {
  if (conn_ == nullptr || PQstatus(conn_) == CONNECTION_BAD) connect();
  return conn_;
}

int PgDatabase::backend_pid() const { return conn_ != nullptr ? PQbackendPID(conn_) : 0; }

void PgDatabase::exec(std::string_view sql) {
  PGconn* conn = connection();
  PGresult* result = PQexec(conn, std::string(sql).c_str());
  const auto status = PQresultStatus(result);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && status != PGRES_EMPTY_QUERY) {
    throw_error(result, shortened(sql));
  }
  const char* tuples = PQcmdTuples(result);
  changes_ = tuples[0] != '\0' ? std::strtoll(tuples, nullptr, 10) : 0;
  PQclear(result);
}

Statement PgDatabase::prepare(std::string_view sql) {
  return Statement(std::make_unique<PgStatement>(*this, sql));
}

bool PgDatabase::is_in_transaction() const {
  if (conn_ == nullptr) return false;
  switch (PQtransactionStatus(conn_)) {
    case PQTRANS_INTRANS:
    case PQTRANS_INERROR:
    case PQTRANS_ACTIVE:
      return true;
    default:
      return false;
  }
}

void PgDatabase::rollback_quietly(bool nested) noexcept {
  if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) return;
  PQclear(
      PQexec(conn_, nested ? "ROLLBACK TO blockfog_nested; RELEASE blockfog_nested" : "ROLLBACK"));
}

void PgDatabase::throw_error(PGresult* result, std::string_view context) {
  const char* state = result != nullptr ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  const char* primary =
      result != nullptr ? PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
  std::string message = primary != nullptr ? primary : (conn_ ? PQerrorMessage(conn_) : "");
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
    message.pop_back();
  }
  const bool lost = conn_ == nullptr || PQstatus(conn_) == CONNECTION_BAD;
  const std::string sqlstate = state != nullptr ? state : "";
  ErrorKind kind = lost ? ErrorKind::Unavailable : kind_of_sqlstate(sqlstate);
  if (lost) message = "connection to PostgreSQL lost: " + message;
  if (result != nullptr) PQclear(result);
  note_error(kind);
  message += " [" + std::string(context) + "]";
  if (!sqlstate.empty()) message += " (SQLSTATE " + sqlstate + ")";
  if (kind == ErrorKind::Constraint) {
    throw ConstraintError(sqlite_code_of_constraint(sqlstate), ErrorKind::Constraint, message);
  }
  throw StorageError(kind, message);
}

}  // namespace blockfog::storage
