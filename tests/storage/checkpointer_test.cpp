#include "storage/checkpointer.h"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "tests/storage/temp_dir.h"

namespace blockfog::storage {
namespace {

constexpr int kPageBytes = 4096;
constexpr int kFrameBytes = kPageBytes + 24;  // a WAL frame: its header and one page
constexpr int kNever = 1 << 30;

SqliteDatabase open_writer(const std::filesystem::path& path) {
  SqliteDatabase db(path, OpenMode::ReadWriteCreate, std::chrono::seconds(5), Sync::Normal);
  db.exec("CREATE TABLE rows (id INTEGER PRIMARY KEY, data BLOB NOT NULL)");
  return db;
}

// `bursts` of `per_burst` commits, each a row of about a page, with a short pause after each
// burst (a server's writer has them between group commits): >= bursts * per_burst frames.
void commit_rows(Database& db, int bursts, int per_burst) {
  for (int burst = 0; burst < bursts; ++burst) {
    for (int i = 0; i < per_burst; ++i) {
      db.cached("INSERT INTO rows (data) VALUES (zeroblob(3000))")->run();  // and reset
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

std::int64_t wal_frames(const std::filesystem::path& db_path) {
  return static_cast<std::int64_t>(std::filesystem::file_size(db_path.string() + "-wal")) /
         kFrameBytes;
}

// How often the WAL was started again from its beginning: its header's checkpoint sequence
// number (https://sqlite.org/fileformat.html#wal_file_format), big-endian at byte 12.
std::uint32_t wal_restarts(const std::filesystem::path& db_path) {
  std::ifstream wal(db_path.string() + "-wal", std::ios::binary);
  std::array<unsigned char, 16> header{};
  wal.read(reinterpret_cast<char*>(header.data()), header.size());
  return std::uint32_t{header[12]} << 24 | std::uint32_t{header[13]} << 16 |
         std::uint32_t{header[14]} << 8 | std::uint32_t{header[15]};
}

std::int64_t count_rows(const std::filesystem::path& path) {
  SqliteDatabase reader(path, OpenMode::ReadBesideWriter);
  Statement count = reader.prepare("SELECT count(*) FROM rows");
  count.step();
  return count.column_int64(0);
}

// A fresh database with its writing connection; each test puts a checkpointer on it.
struct Checkpointing : ::testing::Test {
  testing::TempDir dir;
  const std::filesystem::path path = dir.file("db.sqlite");
  SqliteDatabase writer = open_writer(path);
};

// Waits (at most 10 s) until `checkpointer` is idle.
bool wait_until_idle(const BackgroundCheckpointer& checkpointer) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!checkpointer.idle()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

TEST_F(Checkpointing, CheckpointsSoThatTheWriterReusesTheWal) {
  {
    // The writer never checkpoints itself here: only the thread can. Every commit past
    // start_pages asks for a pass (pass_pages 1), so each burst ends copied whole.
    BackgroundCheckpointer checkpointer(
        writer, {.start_pages = 64, .pass_pages = 1, .writer_pages = kNever}, Sync::Normal);
    constexpr int kBursts = 20;
    for (int burst = 0; burst < kBursts; ++burst) {
      commit_rows(writer, 1, 200);  // 200+ frames: past start_pages, so the thread is woken
      ASSERT_TRUE(wait_until_idle(checkpointer));
    }
    EXPECT_GE(checkpointer.passes(), static_cast<std::uint64_t>(kBursts));
    // After each burst either the WAL was checkpointed whole (the writer is idle) and the
    // next burst starts it again, or it had started again within the burst. How far it grew
    // meanwhile is not asserted: that depends on how soon the thread was scheduled.
    EXPECT_GE(wal_restarts(path), static_cast<std::uint32_t>(kBursts - 1));
  }
  EXPECT_EQ(count_rows(path), 4000);
}

TEST_F(Checkpointing, PassesWaitForPassPagesMoreFrames) {
  // A pass copies each page once however often the WAL holds it, so after the first one the
  // thread waits for pass_pages more frames: not a pass per commit, as before this rule.
  constexpr int kPassPages = 1000;
  BackgroundCheckpointer checkpointer(
      writer, {.start_pages = 64, .pass_pages = kPassPages, .writer_pages = kNever}, Sync::Normal);
  commit_rows(writer, 1, 2000);  // a writer that never pauses: 2,000+ frames
  ASSERT_TRUE(wait_until_idle(checkpointer));
  const auto frames = wal_frames(path);
  ASSERT_GE(frames, 2000);
  // Asked for at 64 frames, then every 1,000: a handful of passes. (A pass that ended between two
  // commits with the WAL copied whole starts it again, and the first pass of the new WAL is
  // due at 64 frames again: rare, since the writer's next commit follows at once.)
  EXPECT_GE(checkpointer.passes(), 1u);
  EXPECT_LE(checkpointer.passes(),
            static_cast<std::uint64_t>(frames / kPassPages + 2) + 2 * wal_restarts(path));
}

TEST_F(Checkpointing, AWalStartedAgainGetsItsFirstPassAtStartPages) {
  // After the first pass no other is due within writer_pages, where the writer copies the rest
  // and the WAL starts again: each new WAL is copied by the thread from start_pages on, as the
  // first one was.
  BackgroundCheckpointer checkpointer(
      writer, {.start_pages = 64, .pass_pages = kNever, .writer_pages = 256}, Sync::Normal);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (wal_restarts(path) < 6 && std::chrono::steady_clock::now() < until) {
    commit_rows(writer, 1, 50);
  }
  ASSERT_TRUE(wait_until_idle(checkpointer));
  ASSERT_GE(wal_restarts(path), 6u);
  // One pass per WAL at least: a pass the thread was asked for while it ran one is merged
  // into the next, so fewer than one per restart may run, but not one only.
  EXPECT_GE(checkpointer.passes(), 3u);
}

TEST_F(Checkpointing, AWriterThatNeverPausesStartsTheWalAgainPastItsLimit) {
  // Its next transaction has always begun before a pass ends, so the thread's passes alone
  // never leave the WAL copied whole between two transactions: past writer_pages the writer
  // copies the rest (what the passes left) itself, and the WAL starts again.
  BackgroundCheckpointer checkpointer(writer, {.start_pages = 64, .writer_pages = 256},
                                      Sync::Normal);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (wal_restarts(path) < 5 && std::chrono::steady_clock::now() < until) {
    for (int i = 0; i < 50; ++i) {
      writer.cached("INSERT INTO rows (data) VALUES (zeroblob(3000))")->run();
    }
  }
  // (How far the WAL grew meanwhile depends on how soon the thread is scheduled: while its
  // pass runs, the writer's own returns at once, SQLITE_BUSY.)
  EXPECT_GE(wal_restarts(path), 5u);
}

TEST_F(Checkpointing, TheWriterCheckpointsPastItsLimitWhenTheThreadIsNotAsked) {
  {
    BackgroundCheckpointer checkpointer(writer, {.start_pages = kNever, .writer_pages = 100},
                                        Sync::Normal);
    commit_rows(writer, 30, 100);
    EXPECT_EQ(checkpointer.passes(), 0u);
    EXPECT_LT(wal_frames(path), 1000);
  }
  EXPECT_EQ(count_rows(path), 3000);
}

TEST_F(Checkpointing, WithoutEitherTheWalGrows) {
  // The control for the two tests above: with both limits out of reach, nothing checkpoints.
  BackgroundCheckpointer checkpointer(writer, {.start_pages = kNever, .writer_pages = kNever},
                                      Sync::Normal);
  commit_rows(writer, 30, 100);
  EXPECT_GE(wal_frames(path), 3000);
  EXPECT_EQ(wal_restarts(path), 0u);
}

TEST_F(Checkpointing, GivesTheWriterItsOwnCheckpointsBack) {
  {
    BackgroundCheckpointer checkpointer(writer, {.start_pages = kNever, .writer_pages = kNever},
                                        Sync::Normal);
  }
  // SQLite's own rule again: a checkpoint at kAutocheckpointPages, and the WAL reused after it.
  commit_rows(writer, 3, SqliteDatabase::kAutocheckpointPages);
  EXPECT_LT(wal_frames(path), 2 * SqliteDatabase::kAutocheckpointPages);
}

}  // namespace
}  // namespace blockfog::storage
