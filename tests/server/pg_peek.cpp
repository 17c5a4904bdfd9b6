#include "tests/server/pg_peek.h"

#include "storage/postgres.h"

namespace blockfog::server::testing {

std::string fresh_pg_database(const std::string& cluster_uri, const std::string& name) {
  storage::PgDatabase db(cluster_uri);
  db.exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
  db.exec("CREATE DATABASE " + name);
  return cluster_uri.substr(0, cluster_uri.rfind('/') + 1) + name;
}

std::int64_t pg_number(const std::string& uri, const std::string& sql, std::int64_t game_id) {
  storage::PgDatabase db(uri);
  auto statement = db.prepare(sql);
  statement.bind(1, game_id);
  if (!statement.step() || statement.is_null(0)) return 0;
  return statement.column_int64(0);
}

}  // namespace blockfog::server::testing
