#pragma once

// The storage thread: owns the server's one writing connection (a Store is one connection and
// not for concurrent use), and runs tasks on it in the order they were posted. Game rooms post
// their commits here and continue on their own strand when told the commit is done; HTTP
// handlers (on their own pool) wait for the result with call().
//
// Group commit: the tasks waiting when the thread comes round (up to kMaxGroup) run inside one
// SQLite transaction, each in its own savepoint (storage::Transaction nests), and are told
// only after its COMMIT. With many games acting at once, one commit (and, with --sync full,
// one fsync) serves them all; a lone task costs what it did before. Nothing is reported done
// before it is durable: a task's `done` runs after the COMMIT that holds its writes.
// post_or_run() lends the idle connection to the caller's thread for one task (--sync normal
// only, and only while one game at a time is acting); `busy_` keeps the connection to one
// thread at a time. WAL checkpoints run on a thread of their own (BackgroundCheckpointer), so
// a commit waits for one only if the WAL grew past twice the checkpoint size.
//
// Faults (docs/storage.md, Faults): the database must be writable at start, or the
// constructor throws. While serving, a statement refused for want of space, permission or a
// lock makes the store *degraded* until a probe write succeeds again (tried every few seconds);
// a lost write (a failed sync or write: storage/faults.h) makes it *failed* for good: no task
// runs after it, each is told it was not committed, and the failure handler is called once so
// that the server stops and lets the next start's recovery decide from what is on disk.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <sqlite3.h>

#include "storage/checkpointer.h"
#include "storage/store.h"

namespace blockfog::server {

// What DbWorker::call carries from the storage thread to its caller instead of the exception
// itself: the family, the store's code and kind (storage/database.h) and the message.
struct CallFailure {
  enum class Kind { Constraint, Storage, Other };
  Kind kind;
  int code = 0;  // StorageError::code(), for Constraint and Storage
  storage::ErrorKind error_kind = storage::ErrorKind::Other;
  std::string message;

  // Describes the exception being handled; call it only inside a catch block.
  static CallFailure current();
  // Throws a fresh exception of the family: ConstraintError, StorageError, std::runtime_error.
  [[noreturn]] void raise() const;
};

enum class StorageHealth { Ok, Degraded, Failed, ReadOnly };

class DbWorker {
 public:
  using Task = std::function<void(storage::Store&)>;
  // Called on the storage thread once the task's transaction ended: `committed` is false when
  // what it wrote was rolled back with its group (an I/O error or a full disk at COMMIT).
  using Done = std::function<void(bool committed)>;
  static constexpr std::size_t kMaxGroup = 256;
  // On PostgreSQL each task of a group is a savepoint (a subtransaction); past 64 that wrote,
  // a backend's subtransaction cache overflows and every session's visibility checks slow
  // down (docs/multi-node.md, section 1).
  static constexpr std::size_t kMaxPostgresGroup = 48;
  static constexpr int kWriterCacheKiB = 16 * 1024;  // the writing connection's page cache

  // Opens (creating and migrating) the database on the calling thread, so that a bad path or
  // a too-new schema fails at start; then hands the connection to the worker thread.
  // `concurrent_window`: see post_or_run (tests widen it, so that a loaded machine's pauses
  // between two posts do not make them look apart).
  DbWorker(const std::filesystem::path& path, storage::Sync sync,
           std::chrono::microseconds concurrent_window = kConcurrentWindow);
  // The server's --read-only: serves from the database without writing anything to it
  // (storage::Store::ReadOnly). Tasks that only read work; one that writes fails with
  // SQLITE_READONLY (clients see storage_unavailable); no checkpoint or probe runs, and
  // health() is ReadOnly.
  struct ReadOnly {};
  DbWorker(const std::filesystem::path& path, ReadOnly);
  ~DbWorker();  // stop()s
  DbWorker(const DbWorker&) = delete;
  DbWorker& operator=(const DbWorker&) = delete;

  // Runs `task` on the storage thread, then `done` once its writes are committed. A task that
  // throws is logged (its own writes are rolled back, not its group's): tasks catch what they
  // want to answer.
  void post(Task task, Done done = nullptr);
  // The same, but when the storage thread is idle and nothing is queued, runs `task` and
  // `done` at once on the calling thread (the connection is still used by one thread at a
  // time): a lone action then costs no hand-off to the storage thread and back. Only with
  // --sync normal, whose COMMIT does not wait for the disk, and only while `source` (the
  // game) is the only one posting: when another source posted within the concurrency window
  // (kConcurrentWindow unless the constructor was given another), the task is queued, to
  // share a group commit with the others (at 100 busy games a COMMIT per action cost ~15% more
  // server CPU per action than groups).
  void post_or_run(std::int64_t source, Task task, Done done);
  static constexpr std::chrono::microseconds kConcurrentWindow{1000};

  // Runs `fn(store)` on the storage thread and waits for its result. An exception `fn` throws
  // is thrown again here as a fresh object of the same family (ConstraintError, StorageError
  // with its code, else std::runtime_error with its what()): an exception object is never
  // shared between the two threads, whose reference count the race detector cannot see.
  // Never call it from a task, or from a room's strand.
  template <typename F>
  auto call(F fn) -> std::invoke_result_t<F, storage::Store&> {
    using R = std::invoke_result_t<F, storage::Store&>;
    using Value = std::conditional_t<std::is_void_v<R>, bool, R>;
    struct Outcome {
      std::promise<void> promise;
      std::optional<Value> value;
      std::optional<CallFailure> failure;
    };
    auto outcome = std::make_shared<Outcome>();
    auto future = outcome->promise.get_future();
    post(
        [outcome, fn = std::move(fn)](storage::Store& store) mutable {
          try {
            if constexpr (std::is_void_v<R>) {
              fn(store);
              outcome->value.emplace(true);
            } else {
              outcome->value.emplace(fn(store));
            }
          } catch (...) {
            outcome->failure = CallFailure::current();
          }
        },
        [outcome](bool committed) {
          if (!outcome->failure && !committed) {
            outcome->failure = CallFailure{CallFailure::Kind::Storage, SQLITE_IOERR,
                                           storage::ErrorKind::Unavailable,
                                           "the transaction could not be committed"};
          }
          outcome->promise.set_value();
        });
    future.get();
    if (outcome->failure) outcome->failure->raise();
    if constexpr (!std::is_void_v<R>) return std::move(*outcome->value);
  }

  // Runs `task` on the storage thread every `interval` (the first time one interval from
  // now): when due it opens the next group, ahead of the queue, so a busy queue cannot starve
  // it. Ends with the thread: stop() does not wait for a periodic task that is not due.
  void every(std::chrono::milliseconds interval, Task task);

  // Finishes every task posted so far, then ends the thread. Later posts are dropped.
  void stop();

  StorageHealth health() const;
  // Called once, on the storage thread, when the store fails (a lost write); set it before
  // anything is posted.
  void on_failure(std::function<void(const std::string& why)> handler) {
    on_failure_ = std::move(handler);
  }
  static constexpr std::chrono::seconds kProbeEvery{5};
  // How often a degraded store is probed: kProbeEvery, or a second on PostgreSQL. A client
  // refused storage_unavailable is told to come back after as long (Retry-After).
  std::chrono::milliseconds probe_every() const { return probe_every_; }

 private:
  using Clock = std::chrono::steady_clock;
  struct Entry {
    Task task;
    Done done;
  };
  struct Periodic {
    std::chrono::milliseconds interval;
    Clock::time_point due;
    Task task;
  };

  DbWorker(std::unique_ptr<storage::Store> store, storage::Sync sync,
           std::chrono::microseconds concurrent_window, bool read_only);
  // The server's writing connection, with a page cache for many busy games.
  static std::unique_ptr<storage::Store> open_store(const std::filesystem::path& path,
                                                    storage::Sync sync);
  void run();
  // Fills `group` with the periodic tasks due and the queued ones (up to kMaxGroup), waiting
  // for one; false when the thread is to end. Holds `lock`.
  bool next_group(std::unique_lock<std::mutex>& lock, std::vector<Entry>& group);
  void run_group(std::vector<Entry>& group);
  // Writes one row back unchanged and commits: throws if the store cannot write now.
  static void probe_write(storage::Store& store);
  // After a group: notices a lost write (then fails the store) or, while degraded, probes.
  void check_faults();

  std::unique_ptr<storage::Store> store_;
  // The WAL's checkpoints, off the storage thread; stopped before the connection closes.
  std::unique_ptr<storage::BackgroundCheckpointer> checkpointer_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Entry> tasks_;
  std::vector<Periodic> periodic_;
  const bool read_only_;
  const std::size_t max_group_;  // kMaxGroup, or kMaxPostgresGroup
  const bool run_inline_;        // --sync normal
  const std::chrono::microseconds concurrent_window_;
  const std::chrono::milliseconds probe_every_;
  bool busy_ = false;  // a group, or a task run by post_or_run, is using the connection
  bool waiting_for_connection_ = false;  // the storage thread waits for post_or_run to finish
  bool stopping_ = false;
  // The last post_or_run's source and when it came, and when the one before from another
  // source came: within concurrent_window_ of that, games are acting concurrently.
  std::int64_t last_source_ = 0;
  Clock::time_point last_source_at_{};
  Clock::time_point other_source_at_{};
  std::function<void(const std::string&)> on_failure_;
  std::atomic<bool> failed_{false};
  // The count of unavailable-store errors (storage/faults.h) when the store last proved
  // writable: more than that means degraded.
  std::atomic<std::uint64_t> unavailable_at_ok_{0};
  Clock::time_point last_probe_{};
  std::thread thread_;
};

}  // namespace blockfog::server
