#pragma once

// Checkpoints a database's WAL from a thread of its own, so that the writing connection never
// stops to copy pages into the database file (and, at each checkpoint, to fsync it) while
// games wait for their commit.
//
// SQLite's own rule runs a checkpoint inside the COMMIT that took the WAL past
// wal_autocheckpoint pages, on the writer's thread: under load (100 busy games) the server's
// storage thread then stood still for the copy and every game waiting on it stood too; the
// cores idled 9-14% of the time. Here the writer's commit only
// signals, and a second connection on the same file runs PASSIVE checkpoints, which never
// block the writer and are never blocked by it (https://sqlite.org/wal.html#ckpt).
//
// A pass copies each page once, in its latest version, however often the WAL holds it: the
// more frames a pass covers, the fewer pages per frame it copies (a busy game's part of the
// log's index is rewritten by nearly every group commit). So the first pass starts when the
// WAL reaches `start_pages`, and each later one only when another `pass_pages` frames have
// been appended since the last was asked for. (With a pass asked for by every commit past
// `start_pages`, the thread ran ~75 passes a second at 100 busy games, of a group commit or two
// each, and copied 0.55 pages per action stored; this way 0.2, for 2-5% less server CPU per
// action.)
//
// The WAL starts again from its beginning at the first transaction that begins after a
// checkpoint copied all of it. Under load the writer's next transaction has always begun
// before a pass ends, so the thread alone never gets there: when the WAL reaches
// `writer_pages` the writer copies the rest itself at its commit, as SQLite would, and the WAL
// starts again at its next transaction. The thread's last pass before that is asked for a
// quarter of `pass_pages` earlier, so the writer's copy is of about that many frames. The file
// stays bounded by the same rule should the thread fall behind or a reader hold an old
// snapshot. The writer does not copy sooner or more often: its copy ends with an fsync of both
// files, a stall for every game waiting on its commits (tried: the writer copying the rest
// after every pass raised p99 latency at 1,000 games by 10-30%).

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "storage/sqlite.h"

namespace blockfog::storage {

class BackgroundCheckpointer {
 public:
  struct Limits {
    int start_pages = SqliteDatabase::kAutocheckpointPages;  // a commit past this wakes the thread
    // After that, a commit wakes it again once this many more frames were appended.
    int pass_pages = SqliteDatabase::kAutocheckpointPages / 4;
    int writer_pages = 2 * SqliteDatabase::kAutocheckpointPages;  // past this the writer copies too
  };

  // Takes over the checkpoints of `writer` (a read-write connection in WAL mode), which must
  // outlive this object; opens a second connection on its file. The writer is still used by
  // its own thread only: this object touches it in the constructor and destructor, which
  // must not run while the writer commits.
  BackgroundCheckpointer(SqliteDatabase& writer, Limits limits, Sync sync);
  // Stops the thread and gives the writer back SQLite's own checkpoints.
  ~BackgroundCheckpointer();
  BackgroundCheckpointer(const BackgroundCheckpointer&) = delete;
  BackgroundCheckpointer& operator=(const BackgroundCheckpointer&) = delete;

  // Checkpoint passes run so far (a pass copies what the WAL held when it began).
  std::uint64_t passes() const;
  // No checkpoint asked for and none running: every commit before this call has been
  // checkpointed, unless the WAL was smaller than `start_pages` after it or had not yet grown
  // to where the next pass is due (`pass_pages` past the last commit that asked for one, or
  // less for the last pass before `writer_pages`).
  bool idle() const;

 private:
  // SQLite's WAL hook: runs on the writer's thread after each of its commits.
  static int on_commit(void* self, sqlite3* db, const char* schema, int wal_pages);
  void run();

  SqliteDatabase& writer_;
  const Limits limits_;
  // Read and written by the writer's thread only (on_commit): the WAL's size at the last
  // commit, and the size at which a commit asks for the next pass.
  int last_wal_pages_ = 0;
  std::int64_t next_pass_at_;
  SqliteDatabase own_;  // the checkpointing connection, used by thread_ only
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool requested_ = false;
  bool running_ = false;
  bool stopping_ = false;
  std::uint64_t passes_ = 0;
  std::thread thread_;
};

}  // namespace blockfog::storage
