// blockfog-copy-to-pg SQLITE_FILE POSTGRES_URI: copies a stopped server's SQLite database into
// an empty PostgreSQL database (migrated first if it has no schema yet), then prints each
// table's row count on both sides. Exit 0: every count agrees; 1: a count differs, or nothing
// was copied (the reason on stderr); 2: bad arguments. docs/storage.md, "Copying SQLite into
// PostgreSQL".

#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <string>

#include "storage/identity.h"
#include "storage/postgres.h"
#include "storage/sqlite.h"
#include "storage/store.h"
#include "tools/blockfog-copy-to-pg/copy.h"

int main(int argc, char** argv) {
  using namespace blockfog;
  if (argc != 3 || !storage::is_postgres_uri(argv[2])) {
    std::cerr << "usage: blockfog-copy-to-pg SQLITE_FILE postgresql://USER@HOST:PORT/DB\n";
    return 2;
  }
  try {
    const std::filesystem::path from_path(argv[1]);
    if (storage::identify_database(from_path) == storage::FileIdentity::Absent) {
      std::cerr << from_path.string() << ": no database there\n";
      return 1;
    }
    storage::SqliteDatabase from(from_path, storage::OpenMode::ReadOnly);
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    storage::Store to(std::make_unique<storage::PgDatabase>(argv[2]), now);
    const auto counts = copy_to_pg::copy_database(from, to);
    bool agree = true;
    std::printf("%-20s %10s %10s\n", "table", "sqlite", "postgres");
    for (const auto& count : counts) {
      const bool same = count.sqlite == count.postgres;
      agree = agree && same;
      std::printf("%-20s %10lld %10lld%s\n", count.table.c_str(),
                  static_cast<long long>(count.sqlite), static_cast<long long>(count.postgres),
                  same ? "" : "  DIFFERS");
    }
    std::printf(agree ? "every count agrees\n" : "counts differ\n");
    return agree ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "blockfog-copy-to-pg: " << e.what() << "\n";
    return 1;
  }
}
