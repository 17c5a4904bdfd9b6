#include "tests/server/pg_peek.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "storage/postgres.h"

namespace blockfog::server::testing {

std::optional<std::string> scratch_cluster_uri(const char* variable) {
  const char* file = std::getenv(variable);
  if (file == nullptr || *file == '\0') return std::nullopt;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PGSCRATCH_URI=", 0) == 0) return line.substr(14);
  }
  throw std::runtime_error(std::string("no PGSCRATCH_URI line in ") + file);
}

std::optional<std::string> test_cluster_uri() {
  return scratch_cluster_uri("BLOCKFOG_TEST_PG_URI_FILE");
}

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
