#pragma once

// Checkpoints a database's WAL from a thread of its own, so that the writing connection never
// stops to copy pages into the database file (and, at each checkpoint, to fsync it) while
// games wait for their commit.
//
// SQLite's own rule runs a checkpoint inside the COMMIT that took the WAL past
// wal_autocheckpoint pages, on the writer's thread: under load (100 busy games) the server's
// storage thread then stood still for the copy and every game waiting on it stood too; the
// cores idled 9-14% of the time (bench/RESULTS.md, session 7). Here the writer's commit only
// signals, and a second connection on the same file runs PASSIVE checkpoints, which never
// block the writer and are never blocked by it (https://sqlite.org/wal.html#ckpt).
//
// The WAL starts again from its beginning at the first transaction that begins after a
// checkpoint copied all of it. A pass that ended while the writer was in a transaction leaves
// what that transaction appended, and the next commit asks for another pass, which copies just
// that (the WAL grew to 9,000-15,000 pages between starts at 100-1,000 busy games). Should the
// WAL reach `writer_pages` (a writer that never pauses, a thread that cannot keep up, a reader
// holding an old snapshot), the writer copies the rest itself at its next commit, as SQLite
// would, so the file stays bounded. The writer does not do so sooner: its copy ends with an
// fsync of both files, a stall for every game waiting on its commits (tried: the writer copying
// the rest after every pass raised p99 latency at 1,000 games by 10-30%, bench/RESULTS.md).

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "storage/sqlite.h"

namespace blockfog::storage {

class BackgroundCheckpointer {
 public:
  struct Limits {
    int start_pages = Database::kAutocheckpointPages;       // a commit past this wakes the thread
    int writer_pages = 2 * Database::kAutocheckpointPages;  // past this the writer copies too
  };

  // Takes over the checkpoints of `writer` (a read-write connection in WAL mode), which must
  // outlive this object; opens a second connection on its file. The writer is still used by
  // its own thread only: this object touches it in the constructor and destructor, which
  // must not run while the writer commits.
  BackgroundCheckpointer(Database& writer, Limits limits, Sync sync);
  // Stops the thread and gives the writer back SQLite's own checkpoints.
  ~BackgroundCheckpointer();
  BackgroundCheckpointer(const BackgroundCheckpointer&) = delete;
  BackgroundCheckpointer& operator=(const BackgroundCheckpointer&) = delete;

  // Checkpoint passes run so far (a pass copies what the WAL held when it began).
  std::uint64_t passes() const;
  // No checkpoint asked for and none running: every commit before this call has been
  // checkpointed, unless the WAL was smaller than `start_pages` after it.
  bool idle() const;

 private:
  // SQLite's WAL hook: runs on the writer's thread after each of its commits.
  static int on_commit(void* self, sqlite3* db, const char* schema, int wal_pages);
  void run();

  Database& writer_;
  const Limits limits_;
  Database own_;  // the checkpointing connection, used by thread_ only
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool requested_ = false;
  bool running_ = false;
  bool stopping_ = false;
  std::uint64_t passes_ = 0;
  std::thread thread_;
};

}  // namespace blockfog::storage
