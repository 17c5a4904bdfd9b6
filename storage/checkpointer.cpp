#include "storage/checkpointer.h"

#include <sqlite3.h>

#include <chrono>

#include "storage/faults.h"

namespace blockfog::storage {

BackgroundCheckpointer::BackgroundCheckpointer(SqliteDatabase& writer, Limits limits, Sync sync)
    : writer_(writer),
      limits_(limits),
      next_pass_at_(limits.start_pages),
      own_(writer.path(), OpenMode::ReadWrite, std::chrono::seconds(5), sync),
      thread_([this] { run(); }) {
  // Replaces the writer's automatic checkpoints (sqlite3_wal_autocheckpoint is itself a WAL
  // hook, so setting ours ends it).
  sqlite3_wal_hook(writer_.handle(), &BackgroundCheckpointer::on_commit, this);
}

BackgroundCheckpointer::~BackgroundCheckpointer() {
  sqlite3_wal_autocheckpoint(writer_.handle(), SqliteDatabase::kAutocheckpointPages);
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

std::uint64_t BackgroundCheckpointer::passes() const {
  std::lock_guard lock(mutex_);
  return passes_;
}

bool BackgroundCheckpointer::idle() const {
  std::lock_guard lock(mutex_);
  return !requested_ && !running_;
}

int BackgroundCheckpointer::on_commit(void* self, sqlite3* db, const char* schema, int wal_pages) {
  auto& checkpointer = *static_cast<BackgroundCheckpointer*>(self);
  // A WAL smaller than at the last commit started again from its beginning (at this commit's
  // transaction): its first pass is due at start_pages again.
  if (wal_pages < checkpointer.last_wal_pages_) {
    checkpointer.next_pass_at_ = checkpointer.limits_.start_pages;
  }
  checkpointer.last_wal_pages_ = wal_pages;
  if (wal_pages >= checkpointer.limits_.writer_pages) {
    // What SQLite's own hook does; PASSIVE, so it cannot wait for the other connection. The
    // thread's passes have copied most of the WAL by now: what is left is the rest. Between
    // transactions, so that the next one finds the WAL copied whole and starts it again.
    sqlite3_wal_checkpoint_v2(db, schema, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    return SQLITE_OK;
  }
  if (wal_pages >= checkpointer.next_pass_at_) {
    const auto& limits = checkpointer.limits_;
    auto next = std::int64_t{wal_pages} + limits.pass_pages;
    // The last pass before writer_pages is asked for a quarter of pass_pages before it, so
    // that the writer's own copy there (a stall for its commits) is of a few hundred frames.
    const auto last = std::int64_t{limits.writer_pages} - limits.pass_pages / 4;
    if (wal_pages < last && next > last) next = last;
    checkpointer.next_pass_at_ = next;
    {
      std::lock_guard lock(checkpointer.mutex_);
      checkpointer.requested_ = true;
    }
    checkpointer.wake_.notify_one();
  }
  return SQLITE_OK;
}

void BackgroundCheckpointer::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return requested_ || stopping_; });
    if (stopping_) return;
    requested_ = false;
    running_ = true;
    lock.unlock();
    // After a lost write nothing copies the WAL into the database: what the WAL holds on disk is
    // unknown, and the next start's recovery decides (storage/faults.h).
    // SQLITE_BUSY: another checkpoint (the writer's) is running; the next commit asks again.
    if (fault_counts().lost_writes == 0) {
      sqlite3_wal_checkpoint_v2(own_.handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr,
                                nullptr);
    }
    lock.lock();
    running_ = false;
    ++passes_;
  }
}

}  // namespace blockfog::storage
