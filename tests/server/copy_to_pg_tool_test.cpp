// blockfog-copy-to-pg run as an operator runs it (docs/storage.md, "Copying SQLite into
// PostgreSQL"): a database of whole games played by the engine is copied, every finished game
// replays from its record in the copy, and the counts agree; a database with one action's state
// hash changed is refused with that game named, and the target keeps nothing. Runs in ctest's
// tools.copy_to_pg run, which starts a throwaway PostgreSQL; skipped elsewhere.

#include <gtest/gtest.h>

#include <string>

#include "storage/postgres.h"
#include "storage/sqlite.h"
#include "tests/server/command.h"
#include "tests/server/server_process.h"
#include "tests/server/stored_games.h"
#include "tests/storage/test_store.h"

namespace blockfog::server::testing {
namespace {

CommandResult copy_to_pg(const std::filesystem::path& from, const std::string& uri) {
  return run_program(BLOCKFOG_COPY_TO_PG_BIN, {from.string(), uri});
}

std::int64_t postgres_games(const std::string& uri) {
  storage::PgDatabase db(uri);
  auto count = db.prepare("SELECT count(*) FROM games");
  count.step();
  return count.column_int64(0);
}

TEST(CopyToPgTool, EveryFinishedGameReplaysInTheCopyAndTheCountsAgree) {
  const auto uri = storage::testing::test_postgres_uri();
  if (!uri) GTEST_SKIP() << "not the PostgreSQL run (BLOCKFOG_TEST_PG_URI_FILE unset)";
  TempDir dir;
  const auto db = dir.path() / "from.sqlite";
  const auto first = store_finished_game(db, 51);
  const auto second = store_finished_game(db, 52);
  const auto under_way = store_finished_game(db, 53, storage::GameStatus::Active);
  storage::testing::empty_postgres(*uri);

  const auto run = copy_to_pg(db, *uri);
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("OK " + std::to_string(first) + " actions="), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("OK " + std::to_string(second) + " actions="), std::string::npos)
      << run.output;
  // A game under way has no record yet: it is copied, not replayed.
  EXPECT_EQ(run.output.find(" " + std::to_string(under_way) + " actions="), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("2 finished games replay to their recorded hashes"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("every count agrees"), std::string::npos) << run.output;
  EXPECT_EQ(postgres_games(*uri), 3);
}

TEST(CopyToPgTool, AGameThatDoesNotReplayIsNamedAndNothingIsKept) {
  const auto uri = storage::testing::test_postgres_uri();
  if (!uri) GTEST_SKIP() << "not the PostgreSQL run (BLOCKFOG_TEST_PG_URI_FILE unset)";
  TempDir dir;
  const auto db = dir.path() / "from.sqlite";
  const auto honest = store_finished_game(db, 54);
  const auto forged = store_finished_game(db, 55);
  {
    // The log is append-only by its triggers; a forger with the file does without them.
    storage::SqliteDatabase raw(db);
    raw.exec("DROP TRIGGER actions_no_update");
    raw.exec("UPDATE actions SET state_hash = '" + std::string(64, '0') +
             "' WHERE game_id = " + std::to_string(forged) + " AND seq = 2");
  }
  storage::testing::empty_postgres(*uri);

  const auto run = copy_to_pg(db, *uri);
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("OK " + std::to_string(honest) + " "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("FAIL " + std::to_string(forged) + ": "), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("1 of 2 finished games do not replay; nothing was copied"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(postgres_games(*uri), 0);
}

}  // namespace
}  // namespace blockfog::server::testing
