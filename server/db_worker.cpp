#include "server/db_worker.h"

#include <sqlite3.h>

#include <stdexcept>
#include <string>

#include "server/clock.h"
#include "server/log.h"
#include "storage/faults.h"
#include "storage/postgres.h"

namespace blockfog::server {

namespace {

// How often a degraded store is probed. A PostgreSQL server that went away (a restart, a
// failover) is back within seconds, and its probe is one short UPDATE, so the node says it is
// healthy again within a second of the database's return (docs/multi-node.md, section 5);
// SQLite's faults (a full disk, a permission) are mended by hand, and DbWorker::kProbeEvery is
// soon enough.
std::chrono::milliseconds probe_interval(storage::Store& store) {
  if (store.database().backend() == storage::Backend::Postgres) return std::chrono::seconds(1);
  return DbWorker::kProbeEvery;
}

}  // namespace

CallFailure CallFailure::current() {
  try {
    throw;
  } catch (const storage::ConstraintError& e) {
    return {Kind::Constraint, e.code(), e.kind(), e.what()};
  } catch (const storage::StorageError& e) {
    return {Kind::Storage, e.code(), e.kind(), e.what()};
  } catch (const std::exception& e) {
    return {Kind::Other, 0, storage::ErrorKind::Other, e.what()};
  } catch (...) {
    return {Kind::Other, 0, storage::ErrorKind::Other, "an exception of unknown type"};
  }
}

void CallFailure::raise() const {
  switch (kind) {
    case Kind::Constraint:
      throw storage::ConstraintError(code, error_kind, message);
    case Kind::Storage:
      throw storage::StorageError(code, error_kind, message);
    case Kind::Other:
      break;
  }
  throw std::runtime_error(message);
}

std::unique_ptr<storage::Store> DbWorker::open_store(const std::filesystem::path& path,
                                                     storage::Sync sync) {
  // A database the server cannot write (a read-only file, a full disk) is refused at start,
  // not discovered by the first player (docs/server.md).
  try {
    auto store = storage::open_store(path.string(), now_ms(), sync);
    // Every busy game touches its own part of the log's index (and its snapshots) with each
    // commit: with SQLite's 2 MiB page cache those pages were read back from the OS at 1,000
    // busy games (5% of the server's time in pread), and the server took ~110 instead of ~100
    // us per action. Since the log is stored in arrival order (migration 6)
    // the rows themselves go to fresh pages that are not read again, so 16 MiB holds what is
    // hot; 64 MiB only filled with them. The cache fills only as pages are used.
    if (storage::as_sqlite(store->database()) != nullptr) {
      store->database().exec("PRAGMA cache_size = -" + std::to_string(kWriterCacheKiB));
    }
    probe_write(*store);
    return store;
  } catch (const storage::StorageError& e) {
    if (!storage::is_unavailable(e.kind())) throw;
    const char* what = e.primary_code() == SQLITE_CANTOPEN ? "cannot open the database "
                                                           : "cannot write the database ";
    const auto where = storage::is_postgres_uri(path.string())
                           ? storage::redacted_uri(path.string())
                           : path.string();
    throw storage::StorageError(e.code(), e.kind(), what + where + ": " + e.what());
  }
}

DbWorker::DbWorker(const std::filesystem::path& path, storage::Sync sync,
                   std::chrono::microseconds concurrent_window)
    : DbWorker(open_store(path, sync), sync, concurrent_window, false) {}

DbWorker::DbWorker(const std::filesystem::path& path, ReadOnly)
    : DbWorker(std::make_unique<storage::Store>(path, storage::Store::ReadOnly{}),
               storage::Sync::Normal, kConcurrentWindow, true) {}

DbWorker::DbWorker(std::unique_ptr<storage::Store> store, storage::Sync sync,
                   std::chrono::microseconds concurrent_window, bool read_only)
    : store_(std::move(store)),
      checkpointer_(read_only || storage::as_sqlite(store_->database()) == nullptr
                        ? nullptr
                        : std::make_unique<storage::BackgroundCheckpointer>(
                              *storage::as_sqlite(store_->database()),
                              storage::BackgroundCheckpointer::Limits{}, sync)),
      read_only_(read_only),
      max_group_(store_->database().backend() == storage::Backend::Postgres ? kMaxPostgresGroup
                                                                            : kMaxGroup),
      run_inline_(sync == storage::Sync::Normal),
      concurrent_window_(concurrent_window),
      probe_every_(probe_interval(*store_)),
      thread_([this] { run(); }) {
  // Wakes the thread now and then, so that a degraded store is probed while nothing else is
  // written (check_faults).
  if (!read_only_) every(probe_every_, [](storage::Store&) {});
}

void DbWorker::probe_write(storage::Store& store) {
  // The header's user_version is Blockfog's probe counter and means nothing else: writing it
  // dirties the database's first page, so the commit really goes to the WAL (and, with
  // --sync full, to the disk). A row written back unchanged would not: SQLite skips it.
  auto& db = store.database();
  if (storage::as_sqlite(db) == nullptr) {
    // PostgreSQL: a one-row table of its own (migrations/postgres/0020_baseline.sql).
    db.exec("UPDATE store_probe SET counter = (counter + 1) % 1000000 WHERE id = 1");
    return;
  }
  auto read = db.prepare("PRAGMA user_version");
  const auto next = ((read.step() ? read.column_int64(0) : 0) + 1) % 1000000;
  read.reset();
  db.exec("PRAGMA user_version = " + std::to_string(next));
}

StorageHealth DbWorker::health() const {
  if (read_only_) return StorageHealth::ReadOnly;
  if (failed_ || storage::fault_counts().lost_writes > 0) return StorageHealth::Failed;
  if (storage::fault_counts().unavailable > unavailable_at_ok_) return StorageHealth::Degraded;
  return StorageHealth::Ok;
}

void DbWorker::check_faults() {
  if (failed_ || read_only_) return;
  if (storage::fault_counts().lost_writes > 0) {
    failed_ = true;
    const auto why = storage::first_lost_write();
    log_error("storage failed: " + why +
              ". Nothing more is stored; the server stops, and its next start recovers from "
              "what is on disk");
    if (on_failure_) on_failure_(why);
    return;
  }
  if (health() != StorageHealth::Degraded) return;
  const auto now = Clock::now();
  if (now - last_probe_ < probe_every_) return;
  last_probe_ = now;
  const auto before = storage::fault_counts().unavailable;
  try {
    probe_write(*store_);
  } catch (const std::exception& e) {
    log_error_throttled("storage probe", std::string("storage: still cannot write: ") + e.what());
    return;
  }
  unavailable_at_ok_ = before;
  log_info("storage: writes succeed again");
}

DbWorker::~DbWorker() { stop(); }

void DbWorker::post(Task task, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    tasks_.push_back({std::move(task), std::move(done)});
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

void DbWorker::post_or_run(std::int64_t source, Task task, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    const auto now = Clock::now();
    if (source != last_source_) {
      other_source_at_ = last_source_at_;
      last_source_ = source;
    }
    last_source_at_ = now;
    const bool concurrent = now - other_source_at_ < concurrent_window_;
    if (!run_inline_ || busy_ || !tasks_.empty() || concurrent) {
      tasks_.push_back({std::move(task), std::move(done)});
      wake_.notify_one();
      return;
    }
    busy_ = true;
  }
  // Alone on the connection: a group of one, committed by the task's own transaction.
  std::vector<Entry> group;
  group.push_back({std::move(task), std::move(done)});
  run_group(group);
  check_faults();
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    busy_ = false;
    wake = !tasks_.empty() || waiting_for_connection_;
  }
  // The storage thread is woken only when tasks were posted meanwhile or it waits for the
  // connection (a periodic task fell due): otherwise waking it would cost a futex call and two
  // context switches per action, for nothing.
  if (wake) wake_.notify_one();
}

void DbWorker::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  checkpointer_.reset();  // after the last commit: it hands checkpoints back to the writer
}

bool DbWorker::next_group(std::unique_lock<std::mutex>& lock, std::vector<Entry>& group) {
  while (true) {
    if (busy_) {  // post_or_run has the connection
      waiting_for_connection_ = true;
      wake_.wait(lock);
      waiting_for_connection_ = false;
      continue;
    }
    const auto now = Clock::now();
    auto soonest = periodic_.end();
    for (auto it = periodic_.begin(); it != periodic_.end(); ++it) {
      // A due one goes first, so that a busy queue cannot starve it.
      if (!stopping_ && it->due <= now) {
        it->due = now + it->interval;
        group.push_back({it->task, nullptr});
      }
      if (soonest == periodic_.end() || it->due < soonest->due) soonest = it;
    }
    while (!tasks_.empty() && group.size() < max_group_) {
      group.push_back(std::move(tasks_.front()));
      tasks_.pop_front();
    }
    if (!group.empty()) {
      busy_ = true;
      return true;
    }
    if (stopping_) return false;  // and everything posted before is done
    if (soonest == periodic_.end()) {
      wake_.wait(lock);
    } else {
      // A copy: every() may grow periodic_ (and move its elements) during the wait.
      const auto due = soonest->due;
      wake_.wait_until(lock, due);
    }
  }
}

void DbWorker::run() {
  std::vector<Entry> group;
  while (true) {
    {
      std::unique_lock lock(mutex_);
      if (!next_group(lock, group)) return;
    }
    run_group(group);
    group.clear();
    check_faults();
    std::lock_guard lock(mutex_);
    busy_ = false;
  }
}

void DbWorker::run_group(std::vector<Entry>& group) {
  auto& db = store_->database();
  // Tells the tasks [from, to) how their transaction ended.
  const auto finish = [&group](std::size_t from, std::size_t to, bool committed) {
    for (std::size_t i = from; i < to; ++i) {
      if (!group[i].done) continue;
      try {
        group[i].done(committed);
      } catch (const std::exception& e) {
        log_error(std::string("storage completion failed: ") + e.what());
      }
    }
  };
  if (failed_) {  // nothing runs on a failed store (storage/faults.h)
    finish(0, group.size(), false);
    return;
  }
  // Opens the group's transaction; if even that fails, each task runs on its own.
  const auto begin = [this, &db]() {
    if (read_only_) return false;  // its tasks read, or fail alone at their first write
    try {
      db.cached(db.begin_sql())->run();
      return true;
    } catch (const std::exception& e) {
      log_error_throttled("storage begin",
                          std::string("storage: cannot begin a transaction: ") + e.what());
      return false;
    }
  };
  std::size_t open_from = 0;  // first task in the open transaction
  // A lone task needs no group: its own transaction (or statement) commits it, as before.
  bool open = group.size() > 1 && begin();
  // On PostgreSQL a failed statement fails the transaction around it, so each task of a group
  // runs in a savepoint of its own: its failure takes back its writes only, as on SQLite.
  const bool task_savepoints = db.backend() == storage::Backend::Postgres;
  for (std::size_t i = 0; i < group.size(); ++i) {
    try {
      if (open && task_savepoints) {
        storage::Transaction savepoint(db);
        group[i].task(*store_);
        savepoint.commit();
      } else {
        group[i].task(*store_);
      }
    } catch (const std::exception& e) {
      log_error_throttled("storage task", std::string("storage task failed: ") + e.what());
    }
    const bool more = i + 1 < group.size();
    if (!open) {
      finish(i, i + 1, true);  // autocommit: what it wrote is committed already
      open_from = i + 1;
      open = more && begin();
    } else if (!db.is_in_transaction()) {
      // SQLite rolled the whole transaction back (I/O error, disk full), or the connection to
      // PostgreSQL was lost: every task of it so far lost its writes.
      finish(open_from, i + 1, false);
      open_from = i + 1;
      open = more && begin();
    }
  }
  if (!open) return;
  bool committed = false;
  try {
    db.cached("COMMIT")->run();
    committed = true;
  } catch (const std::exception& e) {
    log_error_throttled("storage commit", std::string("storage: commit failed: ") + e.what());
    db.rollback_quietly(false);
  }
  finish(open_from, group.size(), committed);
}

}  // namespace blockfog::server
