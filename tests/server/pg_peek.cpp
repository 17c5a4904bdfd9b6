#include "tests/server/pg_peek.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "storage/postgres.h"

namespace blockfog::server::testing {

using nlohmann::json;

std::optional<std::string> test_cluster_uri() {
  const char* file = std::getenv("BLOCKFOG_TEST_PG_URI_FILE");
  if (file == nullptr || *file == '\0') return std::nullopt;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PGSCRATCH_URI=", 0) == 0) return line.substr(14);
  }
  throw std::runtime_error(std::string("no PGSCRATCH_URI line in ") + file);
}

std::string fresh_pg_database(const std::string& cluster_uri, const std::string& name) {
  storage::PgDatabase db(cluster_uri);
  db.exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
  db.exec("CREATE DATABASE " + name);
  return cluster_uri.substr(0, cluster_uri.rfind('/') + 1) + name;
}

std::vector<LoggedAction> pg_logged_actions(const std::string& uri, std::int64_t game_id) {
  storage::PgDatabase db(uri);
  auto statement = db.prepare(
      "SELECT seq, role, action, state_hash FROM actions WHERE game_id = ?1 ORDER BY seq");
  statement.bind(1, game_id);
  std::vector<LoggedAction> list;
  while (statement.step()) {
    list.push_back({statement.column_int64(0), statement.column_text(1),
                    json::parse(statement.column_text(2)), statement.column_text(3)});
  }
  return list;
}

json pg_stored_record(const std::string& uri, std::int64_t game_id) {
  storage::PgDatabase db(uri);
  auto statement = db.prepare(
      "SELECT rules_version, kind, scenario, options, seed, play_seed FROM games WHERE id = ?1");
  statement.bind(1, game_id);
  if (!statement.step()) return nullptr;
  json actions = json::array();
  for (const auto& a : pg_logged_actions(uri, game_id)) {
    actions.push_back({{"seq", a.seq}, {"role", a.role}, {"action", a.action}});
  }
  return {{"rules_version", statement.column_text(0)},
          {"game", statement.column_text(1)},
          {"scenario", statement.column_text(2)},
          {"options", json::parse(statement.column_text(3))},
          {"seed", statement.column_text(4)},
          {"play_seed", statement.column_optional_text(5).value_or(statement.column_text(4))},
          {"actions", actions}};
}

std::int64_t pg_number(const std::string& uri, const std::string& sql, std::int64_t game_id) {
  storage::PgDatabase db(uri);
  auto statement = db.prepare(sql);
  statement.bind(1, game_id);
  if (!statement.step() || statement.is_null(0)) return 0;
  return statement.column_int64(0);
}

}  // namespace blockfog::server::testing
