#pragma once

// The PostgreSQL backend of the store's interface (storage/database.h), over libpq
// (docs/storage.md, "Two backends"; docs/multi-node.md, section 1). One PGconn per PgDatabase.
//
// - Shared SQL numbers its parameters ?1, ?2 ...; each statement's SQL is rewritten once to
//   PostgreSQL's $1, $2 ... (outside quoted strings and comments). Named parameters are
//   refused.
// - Parameters go as text, blobs as binary bytea; results come back as text (bytea in hex).
// - A statement runs at its first step() and its whole result is read then; a statement run a
//   second time (a cached one) is prepared on the server (PQprepare) and run by name after.
// - Errors carry a kind() from the SQLSTATE: class 23 is Constraint; a lost connection, 08xxx,
//   57P01-57P03, 53xxx (disk full, out of memory), 58xxx are Unavailable; 40001, 40P01, 55P03
//   Busy; XX001, XX002 Corrupt. A lost connection is made again at the next statement (its
//   transaction is gone: the statement that notices throws Unavailable).
// - Session settings at connect: synchronous_commit = on (an acknowledged commit is on disk),
//   idle_in_transaction_session_timeout, lock_timeout, TimeZone = UTC.
// Not for concurrent use from several threads.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "storage/database.h"

struct pg_conn;
struct pg_result;

namespace blockfog::storage {

// Whether `location` names a PostgreSQL database (a postgresql:// or postgres:// URI) rather
// than an SQLite file.
bool is_postgres_uri(std::string_view location);

// `uri` with any password replaced by "***", for messages and logs.
std::string redacted_uri(std::string_view uri);

// ?N to $N, outside quoted strings, quoted identifiers and comments; sets `parameters` to the
// highest N. Throws StorageError for a bare '?' or a named parameter (":name"), which
// PostgreSQL has no form of.
std::string to_postgres_placeholders(std::string_view sql, int& parameters);

class PgDatabase final : public Database {
 public:
  struct Settings {
    std::chrono::milliseconds idle_in_transaction_timeout{std::chrono::seconds(2)};
    std::chrono::milliseconds lock_timeout{std::chrono::seconds(2)};
    std::chrono::seconds connect_timeout{std::chrono::seconds(5)};
  };
  explicit PgDatabase(std::string uri) : PgDatabase(std::move(uri), Settings{}) {}
  PgDatabase(std::string uri, Settings settings);
  ~PgDatabase() override;

  Backend backend() const override { return Backend::Postgres; }
  void exec(std::string_view sql) override;
  Statement prepare(std::string_view sql) override;
  std::int64_t changes() const override { return changes_; }
  bool is_in_transaction() const override;
  std::string_view begin_sql() const override { return "BEGIN"; }
  void rollback_quietly(bool nested) noexcept override;

  const std::string& uri() const { return uri_; }
  // The server process's id of this connection (pg_backend_pid), for tests that end it.
  int backend_pid() const;

  // For PgStatement.
  pg_conn* connection();  // makes the connection again first if it was lost
  std::uint64_t generation() const { return generation_; }
  std::string next_statement_name() { return "blockfog_" + std::to_string(++statements_); }
  void set_changes(std::int64_t changes) { changes_ = changes; }
  pg_conn* raw() const { return conn_; }  // as it is, possibly lost
  bool closing() const { return closing_; }
  // Throws the StorageError (or ConstraintError) `result` describes, or the connection's
  // error when there is no result; clears `result`.
  [[noreturn]] void throw_error(pg_result* result, std::string_view context);

 private:
  void connect();
  void configure();
  void close() noexcept;

  std::string uri_;
  Settings settings_;
  pg_conn* conn_ = nullptr;
  std::uint64_t generation_ = 0;  // moves when the connection is made again
  std::uint64_t statements_ = 0;
  std::int64_t changes_ = 0;
  bool closing_ = false;
};

}  // namespace blockfog::storage
