// A reader beside a writer in another process (OpenMode::ReadBesideWriter, storage/sqlite.h):
// the integrity monitor and the tests read a database while the server writes it and restarts
// its WAL at checkpoints. Every read must succeed and see a count that never goes back.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "storage/sqlite.h"
#include "tests/storage/temp_dir.h"

namespace blockfog::storage {
namespace {

// Runs in a child process until its parent closes `stop_fd`'s other end: inserts a row per
// transaction and checkpoints every few rows, as the server's checkpointer does, so that the
// next commit restarts the WAL. Writes a byte to `ready_fd` once its first row is committed.
[[noreturn]] void write_until_told(const std::filesystem::path& path, int stop_fd, int ready_fd) {
  int code = 0;
  try {
    SqliteDatabase writer(path, OpenMode::ReadWrite, std::chrono::seconds(5), Sync::Normal);
    auto insert = writer.prepare("INSERT INTO rows (body) VALUES ('a row')");
    for (std::int64_t n = 1;; ++n) {
      insert.reset();
      insert.step();
      if (n == 1 && write(ready_fd, "r", 1) != 1) throw std::runtime_error("cannot say ready");
      if (n % 7 == 0) writer.exec("PRAGMA wal_checkpoint(PASSIVE)");
      char byte = 0;
      // The parent never writes: a read returns 0 once it has closed its end.
      if (n % 16 == 0) {
        fd_set wait_set;
        FD_ZERO(&wait_set);
        FD_SET(stop_fd, &wait_set);
        timeval none{0, 0};
        if (select(stop_fd + 1, &wait_set, nullptr, nullptr, &none) > 0 &&
            read(stop_fd, &byte, 1) == 0) {
          break;
        }
      }
    }
  } catch (const std::exception&) {
    code = 1;
  }
  _exit(code);
}

// One read transaction, ended before it returns.
std::int64_t newest_row(Statement& newest) {
  EXPECT_TRUE(newest.step());
  const auto id = newest.column_int64(0);
  newest.reset();
  return id;
}

TEST(ReaderBesideWriter, EveryReadSucceedsWhileAnotherProcessWritesAndRestartsTheWal) {
  testing::TempDir dir;
  const auto path = dir.file("live.db");
  {
    SqliteDatabase setup(path);
    setup.exec("CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  }
  int stop_fds[2];
  int ready_fds[2];
  ASSERT_EQ(pipe(stop_fds), 0);
  ASSERT_EQ(pipe(ready_fds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(stop_fds[1]);
    close(ready_fds[0]);
    write_until_told(path, stop_fds[0], ready_fds[1]);
  }
  close(stop_fds[0]);
  close(ready_fds[1]);
  char ready = 0;
  ASSERT_EQ(read(ready_fds[0], &ready, 1), 1) << "the writer never committed";
  close(ready_fds[0]);

  std::int64_t last = 0;
  int failures = 0;
  std::string first_failure;
  // Each read transaction reads the WAL index's header, which the writer rewrites at every
  // commit: thousands of them, on a fresh connection now and then as the monitor opens one per
  // check, meet the writer in the middle of that rewrite.
  for (int connection = 0; connection < 100; ++connection) {
    try {
      SqliteDatabase reader(path, OpenMode::ReadBesideWriter);
      auto newest = reader.prepare("SELECT coalesce(max(id), 0) FROM rows");
      for (int attempt = 0; attempt < 1000; ++attempt) {
        const auto seen = newest_row(newest);
        EXPECT_GE(seen, last) << "connection " << connection << " read " << attempt;
        last = seen;
      }
    } catch (const std::exception& e) {
      if (failures++ == 0) first_failure = e.what();
    }
  }
  close(stop_fds[1]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the writer failed";
  EXPECT_EQ(failures, 0) << "first: " << first_failure;
  EXPECT_GT(last, 0) << "the reads raced no writes";
}

}  // namespace
}  // namespace blockfog::storage
