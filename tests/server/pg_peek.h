#pragma once

// The server tests' view of a PostgreSQL store shared by several nodes (docs/multi-node.md):
// the throwaway cluster of the storage_pg CTest fixture (tests/storage/pg_fixture.sh), a new
// database on it per test, and reads of what the nodes stored (db_peek.h reads either
// backend; this adds what only the nodes' tests ask).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/server/db_peek.h"

namespace blockfog::server::testing {

// The cluster's URI, when the test runs under the fixture, is
// storage::testing::test_postgres_uri (tests/storage/test_store.h).
// A new, empty database `name` on the cluster (dropped first if it was there): its URI.
std::string fresh_pg_database(const std::string& cluster_uri, const std::string& name);
// The same, named `prefix`_ and the running GoogleTest test's name, so that each test of a
// fixture starts on a database of its own.
std::string fresh_pg_database_for_test(const std::string& cluster_uri, const std::string& prefix);

// The first column of the first row of `sql` (a count, a fence), which binds ?1 = `game_id`.
std::int64_t pg_number(const std::string& uri, const std::string& sql, std::int64_t game_id);

}  // namespace blockfog::server::testing
