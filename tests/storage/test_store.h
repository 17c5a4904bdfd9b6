#pragma once

// The backend the store's tests run on (docs/storage.md, "Two backends"): an SQLite file in
// the test's TempDir, or PostgreSQL when BLOCKFOG_TEST_PG_URI_FILE names a file holding a
// line PGSCRATCH_URI=postgresql://... (ctest's storage.postgres run writes it from
// scripts/pg-scratch.sh: tests/storage/CMakeLists.txt). One test binary, one backend per run.

#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "storage/postgres.h"
#include "storage/store.h"
#include "tests/storage/temp_dir.h"

namespace blockfog::storage::testing {

// The URI in the scripts/pg-scratch.sh state file that the environment variable `variable`
// names, or none when it is unset (the server tests read it too).
inline std::optional<std::string> scratch_cluster_uri(const char* variable) {
  const char* file = std::getenv(variable);
  if (file == nullptr || *file == '\0') return std::nullopt;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PGSCRATCH_URI=", 0) == 0) return line.substr(14);
  }
  throw std::runtime_error(std::string("no PGSCRATCH_URI line in ") + file);
}

// The cluster's URI when this run is PostgreSQL's.
inline std::optional<std::string> test_postgres_uri() {
  return scratch_cluster_uri("BLOCKFOG_TEST_PG_URI_FILE");
}

inline bool testing_postgres() { return test_postgres_uri().has_value(); }

// An empty PostgreSQL database: the schema of the previous test is dropped with its data.
inline void empty_postgres(const std::string& uri) {
  PgDatabase db(uri);
  db.exec("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public");
}

// The store a test works on, migrated; `fresh`: empty first (false: reopen what is there, as
// a restarted server would).
inline std::unique_ptr<Store> open_test_store(const TempDir& dir, std::int64_t now,
                                              bool fresh = true) {
  if (const auto uri = test_postgres_uri()) {
    if (fresh) empty_postgres(*uri);
    return std::make_unique<Store>(std::make_unique<PgDatabase>(*uri), now);
  }
  return std::make_unique<Store>(dir.file("blockfog.sqlite"), now);
}

}  // namespace blockfog::storage::testing
