// Reading a database without writing anything to it or beside it (storage/read_only_open.h,
// docs/storage.md "Reading without writing"): each of the three ways sees every committed row
// and leaves the folder byte-identical, -shm included.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "storage/read_only_open.h"
#include "storage/sqlite.h"
#include "tests/storage/folder_state.h"
#include "tests/storage/temp_dir.h"

namespace blockfog::storage {
namespace {

std::map<std::string, std::string> directory(const std::filesystem::path& dir) {
  return testing::folder_state(dir);
}

std::int64_t rows(Database& db) {
  auto count = db.prepare("SELECT count(*) FROM notes");
  EXPECT_TRUE(count.step());
  return count.column_int64(0);
}

// A database of three notes, the last two committed to its WAL only: `live` stays open (a
// server that has not stopped); its files are copied beside `copy` as a kill would leave them.
struct Written {
  explicit Written(const std::filesystem::path& path) : live(path) {
    live.exec(
        "PRAGMA wal_autocheckpoint = 0; CREATE TABLE notes (body TEXT);"
        "INSERT INTO notes VALUES ('one')");
    live.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    live.exec("INSERT INTO notes VALUES ('two'); INSERT INTO notes VALUES ('three')");
  }
  void copy_to(const std::filesystem::path& copy) const {
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::filesystem::copy_file(live.path().string() + suffix, copy.string() + suffix);
    }
  }
  SqliteDatabase live;
};

TEST(ReadOnlyOpen, WithoutAWalTheFileAloneIsReadAndNothingIsMadeBesideIt) {
  testing::TempDir dir;
  const auto path = dir.file("closed.db");
  { Written written(path); }  // closed: the WAL copied into the file and removed
  ASSERT_EQ(read_only_way(path), ReadOnlyWay::Immutable);
  const auto before = directory(dir.path());
  {
    SqliteDatabase reader(path, OpenMode::ReadOnly);
    EXPECT_EQ(rows(reader), 3);
  }
  EXPECT_EQ(directory(dir.path()), before);
}

TEST(ReadOnlyOpen, AKilledWritersFilesAreReadThroughTheWalAndLeftByteIdentical) {
  testing::TempDir source;
  testing::TempDir dir;
  const auto path = dir.file("killed.db");
  Written written(source.file("live.db"));
  written.copy_to(path);
  ASSERT_EQ(read_only_way(path), ReadOnlyWay::SharedIndex);
  auto before = directory(dir.path());
  {
    SqliteDatabase reader(path, OpenMode::ReadOnly);
    EXPECT_EQ(rows(reader), 3);
  }
  EXPECT_EQ(directory(dir.path()), before);

  std::filesystem::remove(dir.file("killed.db-shm"));
  ASSERT_EQ(read_only_way(path), ReadOnlyWay::PrivateIndex);
  before = directory(dir.path());
  {
    SqliteDatabase reader(path, OpenMode::ReadOnly);
    EXPECT_EQ(rows(reader), 3);
  }
  EXPECT_EQ(directory(dir.path()), before);
}

// Beside a writer that goes on committing (a --check-db beside a live server), each read
// transaction sees the newest commit, through the writer's own index.
TEST(ReadOnlyOpen, BesideALiveWriterEachReadSeesTheNewestCommit) {
  testing::TempDir dir;
  const auto path = dir.file("live.db");
  Written written(path);
  ASSERT_EQ(read_only_way(path), ReadOnlyWay::SharedIndex);
  SqliteDatabase reader(path, OpenMode::ReadOnly);
  EXPECT_EQ(rows(reader), 3);
  written.live.exec("INSERT INTO notes VALUES ('four')");
  EXPECT_EQ(rows(reader), 4);
  written.live.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  written.live.exec("INSERT INTO notes VALUES ('five')");
  EXPECT_EQ(rows(reader), 5);
}

}  // namespace
}  // namespace blockfog::storage
