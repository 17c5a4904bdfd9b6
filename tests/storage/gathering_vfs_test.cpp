// The gathering VFS (storage/gathering_vfs.h): a commit's WAL frames reach the file in one
// write, and still before COMMIT returns, so that other connections and a process killed right
// after the commit see every committed row.

#include "storage/gathering_vfs.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "storage/sqlite.h"
#include "tests/storage/temp_dir.h"

namespace blockfog::storage {
namespace {

// The table every test writes: count_rows and insert_rows below read and fill it.
constexpr std::string_view kTable = "CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)";

GatheringStats stats_of(SqliteDatabase& db) {
  GatheringStats stats;
  EXPECT_EQ(sqlite3_file_control(db.handle(), "main", kGatheringStatsOpcode, &stats), SQLITE_OK);
  return stats;
}

std::int64_t count_rows(Database& db) {
  Statement statement = db.prepare("SELECT count(*) FROM t");
  statement.step();
  return statement.column_int64(0);
}

std::string integrity(Database& db) {
  Statement statement = db.prepare("PRAGMA integrity_check");
  statement.step();
  return statement.column_text(0);
}

// Rows of ~3 KiB: each dirties about a page of its own.
void insert_rows(Database& db, int from, int count) {
  Statement insert = db.prepare("INSERT INTO t (id, body) VALUES (?1, randomblob(3000))");
  for (int id = from; id < from + count; ++id) {
    insert.bind(1, static_cast<std::int64_t>(id));
    insert.run();
    insert.reset();
  }
}

SqliteDatabase open_normal(const std::filesystem::path& path) {
  return SqliteDatabase(path, OpenMode::ReadWriteCreate, std::chrono::seconds(5), Sync::Normal);
}

TEST(GatheringVfs, ACommitOfManyPagesIsOneWrite) {
  testing::TempDir dir;
  SqliteDatabase db = open_normal(dir.file("db.sqlite"));
  db.exec(kTable);
  const GatheringStats before = stats_of(db);
  db.exec("BEGIN");
  insert_rows(db, 1, 15);
  db.exec("COMMIT");
  const GatheringStats after = stats_of(db);
  // SQLite wrote each of the ~16 frames (~66 KiB) as a header and a page.
  EXPECT_GE(after.writes - before.writes, 30u);
  EXPECT_EQ(after.flushes - before.flushes, 1u);
  EXPECT_EQ(after.barrier_flushes, 0u) << "the commit frame was not recognised";
}

TEST(GatheringVfs, EachCommitIsInTheFileWhenItReturns) {
  testing::TempDir dir;
  SqliteDatabase writer = open_normal(dir.file("db.sqlite"));
  writer.exec(kTable);
  SqliteDatabase reader(dir.file("db.sqlite"), OpenMode::ReadBesideWriter);
  for (int round = 0; round < 50; ++round) {
    writer.exec("BEGIN");
    insert_rows(writer, round * 3, 3);
    writer.exec("COMMIT");
    // Another connection reads the WAL through the file, not through the writer's memory.
    ASSERT_EQ(count_rows(reader), (round + 1) * 3) << "after commit " << round;
  }
  EXPECT_EQ(stats_of(writer).barrier_flushes, 0u);
}

TEST(GatheringVfs, AutocommittedStatementsAreWrittenToo) {
  testing::TempDir dir;
  SqliteDatabase writer = open_normal(dir.file("db.sqlite"));
  writer.exec(kTable);
  SqliteDatabase reader(dir.file("db.sqlite"), OpenMode::ReadBesideWriter);
  for (int id = 0; id < 20; ++id) {
    insert_rows(writer, id, 1);
    ASSERT_EQ(count_rows(reader), id + 1);
  }
}

TEST(GatheringVfs, ATransactionLargerThanTheBufferAndTheCacheStillCommits) {
  testing::TempDir dir;
  {
    SqliteDatabase db = open_normal(dir.file("db.sqlite"));
    db.exec("PRAGMA cache_size = 50");  // 50 pages: the transaction spills frames early
    db.exec(kTable);
    const GatheringStats before = stats_of(db);
    db.exec("BEGIN");
    insert_rows(db, 0, 1000);  // ~3 MiB
    db.exec("COMMIT");
    EXPECT_GT(stats_of(db).flushes - before.flushes, 2u);
  }
  SqliteDatabase reopened(dir.file("db.sqlite"));
  EXPECT_EQ(count_rows(reopened), 1000);
  EXPECT_EQ(integrity(reopened), "ok");
}

TEST(GatheringVfs, ARolledBackTransactionLeavesNothing) {
  testing::TempDir dir;
  SqliteDatabase db = open_normal(dir.file("db.sqlite"));
  db.exec("PRAGMA cache_size = 20");
  db.exec(kTable);
  insert_rows(db, 0, 5);
  db.exec("BEGIN");
  insert_rows(db, 5, 200);  // spills frames to the WAL that the rollback abandons
  db.exec("ROLLBACK");
  insert_rows(db, 5, 2);
  EXPECT_EQ(count_rows(db), 7);
  SqliteDatabase reader(dir.file("db.sqlite"), OpenMode::ReadBesideWriter);
  EXPECT_EQ(count_rows(reader), 7);
  EXPECT_EQ(integrity(db), "ok");
}

TEST(GatheringVfs, SyncFullCommitsAreWrittenBeforeTheirSync) {
  testing::TempDir dir;
  SqliteDatabase writer(dir.file("db.sqlite"));  // synchronous = FULL
  writer.exec(kTable);
  SqliteDatabase reader(dir.file("db.sqlite"), OpenMode::ReadBesideWriter);
  writer.exec("BEGIN");
  insert_rows(writer, 0, 10);
  writer.exec("COMMIT");
  EXPECT_EQ(count_rows(reader), 10);
  EXPECT_EQ(stats_of(writer).barrier_flushes, 0u);
}

TEST(GatheringVfs, CheckpointsCopyGatheredFramesIntoTheDatabase) {
  testing::TempDir dir;
  {
    SqliteDatabase db = open_normal(dir.file("db.sqlite"));
    db.exec(kTable);
    for (int round = 0; round < 10; ++round) {
      db.exec("BEGIN");
      insert_rows(db, round * 10, 10);
      db.exec("COMMIT");
    }
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    insert_rows(db, 100, 5);  // the WAL starts again from its beginning
  }
  SqliteDatabase reopened(dir.file("db.sqlite"));
  EXPECT_EQ(count_rows(reopened), 105);
  EXPECT_EQ(integrity(reopened), "ok");
}

// kill -9 right after COMMIT returned: the OS has every frame. synchronous = NORMAL, so no
// sync flushed them; only the commit frame's write did.
TEST(GatheringVfs, ACommitSurvivesKill9RightAfterIt) {
  testing::TempDir dir;
  const auto path = dir.file("db.sqlite");
  open_normal(path).exec(kTable);
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(ready[0]);
    SqliteDatabase db = open_normal(path);
    db.exec("BEGIN");
    insert_rows(db, 0, 30);
    db.exec("COMMIT");
    const char committed = 'c';
    if (write(ready[1], &committed, 1) != 1) _exit(2);
    pause();  // killed here, connection open
    _exit(3);
  }
  close(ready[1]);
  char acknowledged = 0;
  ASSERT_EQ(read(ready[0], &acknowledged, 1), 1);
  close(ready[0]);
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  SqliteDatabase reopened(path);
  EXPECT_EQ(count_rows(reopened), 30);
  EXPECT_EQ(integrity(reopened), "ok");
}

TEST(GatheringVfs, InMemoryDatabasesStillOpen) {
  SqliteDatabase db(":memory:");
  db.exec(kTable);
  insert_rows(db, 0, 3);
  EXPECT_EQ(count_rows(db), 3);
}

}  // namespace
}  // namespace blockfog::storage
