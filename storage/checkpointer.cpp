#include "storage/checkpointer.h"

#include <sqlite3.h>

#include <chrono>

namespace blockfog::storage {

BackgroundCheckpointer::BackgroundCheckpointer(Database& writer, Limits limits, Sync sync)
    : writer_(writer),
      limits_(limits),
      own_(writer.path(), OpenMode::ReadWrite, std::chrono::seconds(5), sync),
      thread_([this] { run(); }) {
  // Replaces the writer's automatic checkpoints (sqlite3_wal_autocheckpoint is itself a WAL
  // hook, so setting ours ends it).
  sqlite3_wal_hook(writer_.handle(), &BackgroundCheckpointer::on_commit, this);
}

BackgroundCheckpointer::~BackgroundCheckpointer() {
  sqlite3_wal_autocheckpoint(writer_.handle(), Database::kAutocheckpointPages);
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
  if (wal_pages >= checkpointer.limits_.writer_pages ||
      checkpointer.bulk_copied_.exchange(false, std::memory_order_acq_rel)) {
    // The rest after the thread's pass (what this connection appended meanwhile: a few
    // frames), or everything past writer_pages as SQLite's own hook would. Between
    // transactions, so that the next one finds the WAL copied whole and starts it again.
    sqlite3_wal_checkpoint_v2(db, schema, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    return SQLITE_OK;
  }
  if (wal_pages >= checkpointer.limits_.start_pages) {
    {
      std::lock_guard lock(checkpointer.mutex_);
      if (checkpointer.running_) return SQLITE_OK;  // its pass will be followed by the rest
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
    // SQLITE_BUSY: another checkpoint (the writer's) is running; the next commit asks again.
    const int rc = sqlite3_wal_checkpoint_v2(own_.handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE,
                                             nullptr, nullptr);
    if (rc == SQLITE_OK) bulk_copied_.store(true, std::memory_order_release);
    lock.lock();
    running_ = false;
    requested_ = false;  // asked while the pass ran: the writer copies the rest
    ++passes_;
  }
}

}  // namespace blockfog::storage
