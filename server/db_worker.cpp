#include "server/db_worker.h"

#include "server/clock.h"
#include "server/log.h"

namespace blockfog::server {

DbWorker::DbWorker(const std::filesystem::path& path, storage::Sync sync)
    : store_(std::make_unique<storage::Store>(path, now_ms(), sync)), thread_([this] { run(); }) {}

DbWorker::~DbWorker() { stop(); }

void DbWorker::post(Task task) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    tasks_.push_back(std::move(task));
  }
  wake_.notify_one();
}

void DbWorker::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void DbWorker::run() {
  while (true) {
    Task task;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
      if (tasks_.empty()) return;  // stopping, and everything posted before is done
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    try {
      task(*store_);
    } catch (const std::exception& e) {
      log_error(std::string("storage task failed: ") + e.what());
    }
  }
}

}  // namespace blockfog::server
