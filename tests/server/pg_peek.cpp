#include "tests/server/pg_peek.h"

#include <gtest/gtest.h>

#include <cctype>

#include "storage/postgres.h"

namespace blockfog::server::testing {

std::string fresh_pg_database(const std::string& cluster_uri, const std::string& name) {
  storage::PgDatabase db(cluster_uri);
  db.exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
  db.exec("CREATE DATABASE " + name);
  return cluster_uri.substr(0, cluster_uri.rfind('/') + 1) + name;
}

std::string fresh_pg_database_for_test(const std::string& cluster_uri, const std::string& prefix) {
  // PostgreSQL folds unquoted names to lower case, and cuts them at 63 bytes.
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  name = prefix + "_" + name.substr(0, 40);
  for (auto& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return fresh_pg_database(cluster_uri, name);
}

std::int64_t pg_number(const std::string& uri, const std::string& sql, std::int64_t game_id) {
  storage::PgDatabase db(uri);
  auto statement = db.prepare(sql);
  statement.bind(1, game_id);
  if (!statement.step() || statement.is_null(0)) return 0;
  return statement.column_int64(0);
}

}  // namespace blockfog::server::testing
