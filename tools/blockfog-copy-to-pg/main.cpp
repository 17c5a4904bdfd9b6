// blockfog-copy-to-pg SQLITE_FILE POSTGRES_URI: copies a stopped server's SQLite database into
// an empty PostgreSQL database (migrated first if it has no schema yet). Before the copy is
// committed, every finished game in it is replayed from its record (an OK or FAIL line each);
// after, each table's row count is printed on both sides. Exit 0: every game verifies and every
// count agrees; 1: a game fails (nothing is kept), a count differs, or nothing was copied (the
// reason on stderr); 2: bad arguments. docs/storage.md, "Copying SQLite into PostgreSQL".

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
#include "tools/blockfog-copy-to-pg/verify_copy.h"

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
    // The copy is one transaction held open while every finished game replays, which takes
    // longer than the server's idle-in-transaction limit on a slow machine. Nothing else uses
    // the (empty, not yet served) database meanwhile, so the limit is off for this session.
    storage::PgDatabase::Settings settings;
    settings.idle_in_transaction_timeout = std::chrono::milliseconds(0);
    storage::Store to(std::make_unique<storage::PgDatabase>(argv[2], settings), now);
    const auto counts = copy_to_pg::copy_database(from, to, [](storage::Store& copy) {
      std::size_t failed = 0;
      const auto verdicts = copy_to_pg::verify_finished_games(copy);
      for (const auto& verdict : verdicts) {
        std::printf("%s\n", tools::verdict_line(verdict).c_str());
        if (!verdict.ok) ++failed;
      }
      if (failed > 0) {
        throw storage::StorageError(storage::ErrorKind::Other,
                                    std::to_string(failed) + " of " +
                                        std::to_string(verdicts.size()) +
                                        " finished games do not replay; nothing was copied");
      }
      std::printf("%zu finished games replay to their recorded hashes\n", verdicts.size());
    });
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
