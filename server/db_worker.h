#pragma once

// The storage thread: owns the server's one writing connection (a Store is one connection and
// not for concurrent use), and runs tasks on it in the order they were posted. Game rooms post
// their commits here and continue on their own strand when the task calls back; HTTP handlers
// (on their own pool) wait for the result with call().

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include "storage/store.h"

namespace blockfog::server {

class DbWorker {
 public:
  using Task = std::function<void(storage::Store&)>;

  // Opens (creating and migrating) the database on the calling thread, so that a bad path or
  // a too-new schema fails at start; then hands the connection to the worker thread.
  DbWorker(const std::filesystem::path& path, storage::Sync sync);
  ~DbWorker();  // stop()s
  DbWorker(const DbWorker&) = delete;
  DbWorker& operator=(const DbWorker&) = delete;

  // Runs `task` on the storage thread. A task that throws is logged and dropped: tasks catch
  // what they want to answer.
  void post(Task task);

  // Runs `fn(store)` on the storage thread and waits for its result (or rethrows its
  // exception). Never call it from a task, or from a room's strand.
  template <typename F>
  auto call(F fn) -> std::invoke_result_t<F, storage::Store&> {
    using R = std::invoke_result_t<F, storage::Store&>;
    auto promise = std::make_shared<std::promise<R>>();
    auto future = promise->get_future();
    post([promise, fn = std::move(fn)](storage::Store& store) mutable {
      try {
        if constexpr (std::is_void_v<R>) {
          fn(store);
          promise->set_value();
        } else {
          promise->set_value(fn(store));
        }
      } catch (...) {
        promise->set_exception(std::current_exception());
      }
    });
    return future.get();
  }

  // Runs `task` on the storage thread every `interval` (the first time one interval from
  // now), between posted tasks; a due one goes before the queue, so a busy queue cannot starve
  // it. Ends with the thread: stop() does not wait for a periodic task that is not due.
  void every(std::chrono::milliseconds interval, Task task);

  // Finishes every task posted so far, then ends the thread. Later posts are dropped.
  void stop();

 private:
  using Clock = std::chrono::steady_clock;
  struct Periodic {
    std::chrono::milliseconds interval;
    Clock::time_point due;
    Task task;
  };

  void run();
  // The next task to run, waiting for one; none when the thread is to end. Holds `lock`.
  std::optional<Task> next_task(std::unique_lock<std::mutex>& lock);

  std::unique_ptr<storage::Store> store_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Task> tasks_;
  std::vector<Periodic> periodic_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace blockfog::server
