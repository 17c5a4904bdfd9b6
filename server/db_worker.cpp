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

void DbWorker::every(std::chrono::milliseconds interval, Task task) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    periodic_.push_back({interval, Clock::now() + interval, std::move(task)});
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

std::optional<DbWorker::Task> DbWorker::next_task(std::unique_lock<std::mutex>& lock) {
  while (true) {
    const auto now = Clock::now();
    auto soonest = periodic_.end();
    for (auto it = periodic_.begin(); it != periodic_.end(); ++it) {
      if (soonest == periodic_.end() || it->due < soonest->due) soonest = it;
    }
    if (!stopping_ && soonest != periodic_.end() && soonest->due <= now) {
      soonest->due = now + soonest->interval;
      return soonest->task;
    }
    if (!tasks_.empty()) {
      Task task = std::move(tasks_.front());
      tasks_.pop_front();
      return task;
    }
    if (stopping_) return std::nullopt;  // and everything posted before is done
    if (soonest == periodic_.end()) {
      wake_.wait(lock);
    } else {
      wake_.wait_until(lock, soonest->due);
    }
  }
}

void DbWorker::run() {
  while (true) {
    std::optional<Task> task;
    {
      std::unique_lock lock(mutex_);
      task = next_task(lock);
    }
    if (!task) return;
    try {
      (*task)(*store_);
    } catch (const std::exception& e) {
      log_error(std::string("storage task failed: ") + e.what());
    }
  }
}

}  // namespace blockfog::server
