// The storage thread's group commit (server/db_worker.h): tasks waiting together share one
// transaction, nobody is told of a write before it is committed, and a failing task takes
// back only its own writes.

#include "server/db_worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "storage/sqlite.h"
#include "tests/server/server_process.h"

namespace blockfog::server {
namespace {

void create_scratch(DbWorker& worker) {
  worker.call([](storage::Store& store) {
    store.database().exec("CREATE TABLE IF NOT EXISTS scratch (x INTEGER NOT NULL)");
  });
}

// Holds the storage thread until the returned promise is set, so that what is posted next
// queues up behind it. Returns once the thread is inside the holding task: posted before that,
// a task could still join the holding task's group instead of the queue behind it.
std::promise<void> hold(DbWorker& worker) {
  std::promise<void> release;
  auto started = std::make_shared<std::promise<void>>();
  auto running = started->get_future();
  worker.post([released = release.get_future().share(), started](storage::Store&) {
    started->set_value();
    released.wait();
  });
  running.wait();
  return release;
}

std::int64_t rows_seen_by(storage::Database& db) {
  auto statement = db.prepare("SELECT count(*) FROM scratch");
  statement.step();
  return statement.column_int64(0);
}

TEST(DbWorker, TasksWaitingTogetherCommitAsOneGroupBeforeAnyoneIsTold) {
  testing::TempDir dir;
  const auto path = dir.path() / "group.db";
  DbWorker worker(path, storage::Sync::Full);
  create_scratch(worker);
  storage::SqliteDatabase reader(path, storage::OpenMode::ReadBesideWriter);

  auto release = hold(worker);

  constexpr int kTasks = 20;
  std::mutex mutex;
  std::vector<std::int64_t> seen_while_running;  // by another connection, during each task
  std::vector<std::int64_t> seen_when_told;      // by another connection, in each `done`
  std::promise<void> all_told;
  std::atomic<int> told = 0;
  for (int i = 0; i < kTasks; ++i) {
    worker.post(
        [&, i](storage::Store& store) {
          storage::Transaction transaction(store.database());
          store.database().prepare("INSERT INTO scratch VALUES (?1)").bind(1, i).run();
          transaction.commit();
          std::lock_guard lock(mutex);
          seen_while_running.push_back(rows_seen_by(reader));
        },
        [&](bool committed) {
          EXPECT_TRUE(committed);
          {
            std::lock_guard lock(mutex);
            seen_when_told.push_back(rows_seen_by(reader));
          }
          if (++told == kTasks) all_told.set_value();
        });
  }
  release.set_value();
  ASSERT_EQ(all_told.get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);

  // One transaction for the waiting tasks: none of their rows was visible outside it before
  // its COMMIT, and each task heard back only once all of them were.
  ASSERT_EQ(seen_while_running.size(), static_cast<std::size_t>(kTasks));
  for (auto n : seen_while_running) EXPECT_EQ(n, 0);
  for (auto n : seen_when_told) EXPECT_EQ(n, kTasks);
}

TEST(DbWorker, AFailingTaskTakesBackOnlyItsOwnWrites) {
  testing::TempDir dir;
  const auto path = dir.path() / "group.db";
  DbWorker worker(path, storage::Sync::Normal);
  create_scratch(worker);
  auto release = hold(worker);
  const auto insert = [](storage::Store& store, int x) {
    storage::Transaction transaction(store.database());
    store.database().prepare("INSERT INTO scratch VALUES (?1)").bind(1, x).run();
    if (x == 2) throw std::runtime_error("the task fails after writing");
    transaction.commit();
  };
  std::vector<std::future<void>> results;
  for (int x = 1; x <= 3; ++x) {
    results.push_back(std::async(std::launch::async, [&worker, insert, x] {
      worker.call([insert, x](storage::Store& store) { insert(store, x); });
    }));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // let the three queue up
  release.set_value();
  EXPECT_NO_THROW(results[0].get());
  EXPECT_THROW(results[1].get(), std::runtime_error);
  EXPECT_NO_THROW(results[2].get());
  storage::SqliteDatabase reader(path, storage::OpenMode::ReadBesideWriter);
  auto rows = reader.prepare("SELECT group_concat(x) FROM (SELECT x FROM scratch ORDER BY x)");
  ASSERT_TRUE(rows.step());
  EXPECT_EQ(rows.column_text(0), "1,3");
}

// --sync normal: a lone action is committed on the caller's thread when the storage thread is
// idle (no hand-off), and told only once committed; otherwise it waits its turn in order.
TEST(DbWorker, ALoneTaskRunsOnTheCallersThreadOnlyWhenIdleAndSyncNormal) {
  testing::TempDir dir;
  const auto path = dir.path() / "inline.db";
  const auto caller = std::this_thread::get_id();
  for (const auto sync : {storage::Sync::Normal, storage::Sync::Full}) {
    DbWorker worker(path, sync);
    create_scratch(worker);
    storage::SqliteDatabase reader(path, storage::OpenMode::ReadBesideWriter);
    // call() returns once its task is committed, a moment before the storage thread is idle
    // again: give it that moment, as a room's next action always does.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::thread::id ran_on;
    std::promise<std::int64_t> seen_when_told;
    auto told = seen_when_told.get_future();
    worker.post_or_run(
        1,
        [&](storage::Store& store) {
          ran_on = std::this_thread::get_id();
          store.database().prepare("INSERT INTO scratch VALUES (1)").run();
        },
        [&](bool committed) {
          EXPECT_TRUE(committed);
          seen_when_told.set_value(rows_seen_by(reader));
        });
    ASSERT_EQ(told.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    const auto rows = told.get();
    EXPECT_GE(rows, 1) << "told before the row was committed";
    if (sync == storage::Sync::Normal) {
      EXPECT_EQ(ran_on, caller) << "an idle storage thread still took the hand-off";
    } else {
      EXPECT_NE(ran_on, caller) << "--sync full must not fsync on the caller's thread";
    }
  }

  // Busy storage thread: the task queues behind the running one and runs there, in order.
  DbWorker worker(path, storage::Sync::Normal);
  std::promise<void> release;
  auto released = release.get_future().share();
  std::vector<int> order;
  std::mutex mutex;
  worker.post([&, released](storage::Store&) {
    released.wait();
    std::lock_guard lock(mutex);
    order.push_back(1);
  });
  std::promise<std::thread::id> second_ran_on;
  auto second = second_ran_on.get_future();
  worker.post_or_run(
      1,
      [&](storage::Store&) {
        std::lock_guard lock(mutex);
        order.push_back(2);
        second_ran_on.set_value(std::this_thread::get_id());
      },
      nullptr);
  release.set_value();
  ASSERT_EQ(second.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_NE(second.get(), caller);
  worker.stop();
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
}

// Two games acting within the concurrency window share group commits: the second game's
// action is queued for the storage thread even though it is idle, instead of taking a COMMIT of
// its own on the caller's thread. One game alone (a window later) runs inline again. The
// window is widened from the server's 1 ms: on a loaded machine (sanitizers, tests in
// parallel) the pause between two posts alone can exceed that.
TEST(DbWorker, ActionsOfTwoGamesAtOnceGoToTheStorageThreadOneGameAloneRunsInline) {
  testing::TempDir dir;
  constexpr std::chrono::milliseconds kWindow{300};
  DbWorker worker(dir.path() / "concurrent.db", storage::Sync::Normal, kWindow);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // idle, as in the tests above
  const auto caller = std::this_thread::get_id();
  const auto ran_on = [&](std::int64_t game) {
    std::promise<std::thread::id> ran;
    auto future = ran.get_future();
    worker.post_or_run(
        game, [&](storage::Store&) { ran.set_value(std::this_thread::get_id()); }, nullptr);
    EXPECT_EQ(future.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    return future.get();
  };
  EXPECT_EQ(ran_on(1), caller) << "a lone game on an idle storage thread runs inline";
  EXPECT_NE(ran_on(2), caller) << "a second game at the same moment must join the group";
  std::this_thread::sleep_for(kWindow + std::chrono::milliseconds(20));
  EXPECT_EQ(ran_on(2), caller) << "game 1 has been quiet for a window: game 2 is alone again";
}

TEST(DbWorker, APeriodicTaskDueWhileTheCallerHoldsTheConnectionRunsRightAfter) {
  testing::TempDir dir;
  DbWorker worker(dir.path() / "periodic.db", storage::Sync::Normal);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // idle, as in the test above
  std::atomic<int> runs{0};
  worker.every(std::chrono::milliseconds(20), [&](storage::Store&) { ++runs; });
  // The caller keeps the connection past the periodic task's due time, and nothing else is
  // posted afterwards: the storage thread, which found the connection taken, must be woken
  // when it is given back, not left waiting for the next post.
  std::promise<void> ran_inline;
  worker.post_or_run(
      1, [&](storage::Store&) { std::this_thread::sleep_for(std::chrono::milliseconds(100)); },
      [&](bool) { ran_inline.set_value(); });
  ASSERT_EQ(ran_inline.get_future().wait_for(std::chrono::seconds(0)), std::future_status::ready)
      << "the task did not run on the caller's thread, so this test tests nothing";
  const int before = runs.load();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (runs.load() == before && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_GT(runs.load(), before) << "the periodic task stayed blocked behind the caller";
}

TEST(DbWorker, TheWritingConnectionKeepsAPageCacheForManyGames) {
  testing::TempDir dir;
  DbWorker worker(dir.path() / "cache.db", storage::Sync::Normal);
  const auto kib = worker.call([](storage::Store& store) {
    auto statement = store.database().prepare("PRAGMA cache_size");
    statement.step();
    return -statement.column_int64(0);  // negative: KiB rather than pages
  });
  EXPECT_EQ(kib, DbWorker::kWriterCacheKiB);
  // Room for what 1,000 busy games touch with each commit (a 4 KiB page of the log's index
  // each, with the pages above them), twice over: SQLite's default of 2 MiB is not.
  EXPECT_GE(kib, 8 * 1024);
}

}  // namespace
}  // namespace blockfog::server
