// A game room without sockets, its strand run by the test: a client that joins as a parked role
// (nobody was connected as it) while an action's commit is in flight gets its view once the
// commit is done, at the version the room then holds, and every view after it.

#include "server/play/room.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "protocol/view_frame.h"
#include "rules/hots/module.h"
#include "server/db_worker.h"
#include "server/metrics.h"
#include "server/play/game_loader.h"
#include "server/play/room_registry.h"
#include "tests/server/server_process.h"
#include "tests/server/stored_games.h"

namespace blockfog::server {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// Tasks posted to the room's strand, run when the test says so.
class ManualStrand {
 public:
  Strand strand() {
    return [this](std::function<void()> task) {
      std::lock_guard lock(mutex_);
      tasks_.push_back(std::move(task));
      posted_.notify_all();
    };
  }
  // Runs every task queued now and any they queue; false if there was none.
  bool run_ready() {
    bool ran = false;
    for (;;) {
      std::function<void()> task;
      {
        std::lock_guard lock(mutex_);
        if (tasks_.empty()) return ran;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
      ran = true;
    }
  }
  // Runs tasks as they come until `done()` (false after a few seconds without it).
  bool run_until(const std::function<bool()>& done) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!done()) {
      if (run_ready()) continue;
      std::unique_lock lock(mutex_);
      if (!posted_.wait_until(lock, deadline, [&] { return !tasks_.empty(); })) return false;
    }
    return true;
  }

 private:
  std::mutex mutex_;
  std::condition_variable posted_;
  std::deque<std::function<void()>> tasks_;
};

class FakeClient : public RoomClient {
 public:
  void send(std::shared_ptr<const std::string> frame) override {
    std::lock_guard lock(mutex_);
    frames_.push_back(json::parse(*frame));
  }
  void send_view(std::shared_ptr<const std::string> head,
                 std::shared_ptr<const std::string> view) override {
    send(
        std::make_shared<const std::string>(*head + *view + std::string(protocol::kViewFrameTail)));
  }
  void close() override {}
  std::vector<json> views() {
    std::lock_guard lock(mutex_);
    std::vector<json> out;
    for (const auto& f : frames_) {
      if (f.at("type") == "view") out.push_back(f);
    }
    return out;
  }

 private:
  std::mutex mutex_;
  std::vector<json> frames_;
};

struct RoomFixture : ::testing::Test {
  testing::TempDir dir;
  // --sync full: a commit always goes through the storage thread (never inline), so the test
  // can hold it there.
  DbWorker db{dir.path() / "blockfog.db", storage::Sync::Full};
  Metrics metrics;
  ManualStrand strands;
  RoomRegistry registry{db, metrics, [this](std::int64_t) { return strands.strand(); }};
  std::int64_t game_id = 0;
  std::shared_ptr<Room> room;
  std::shared_ptr<FakeClient> scotland = std::make_shared<FakeClient>();
  std::shared_ptr<FakeClient> england = std::make_shared<FakeClient>();
  std::mt19937_64 rng{17};
  int refs = 0;

  void SetUp() override {
    game_id =
        db.call([](storage::Store& store) { return testing::start_stored_game(store, 5).id; });
    room = registry.open(game_id);
    ASSERT_TRUE(room);
    room->join(scotland, core::Role::Scotland, Player{1, "scot", std::nullopt}, 0);
    room->join(england, core::Role::England, Player{2, "eng", std::nullopt}, 0);
    strands.run_ready();
    ASSERT_EQ(scotland->views().size(), 1U);
    ASSERT_EQ(england->views().size(), 1U);
  }

  // Sends one random legal action of a seat that may act (its latest view's); the room runs
  // it up to posting its commit. Returns the client, or null when nobody may act.
  FakeClient* send_random_action() {
    std::vector<std::pair<FakeClient*, json>> choices;
    for (FakeClient* c : {scotland.get(), england.get()}) {
      const auto last = c->views().back();
      for (const auto& a : last.at("view").at("legal_actions")) choices.emplace_back(c, a);
    }
    if (choices.empty()) return nullptr;
    const auto& [client, action] =
        choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
    const auto seq = client->views().back().at("seq").get<std::int64_t>();
    room->receive(client, protocol::ActionMessage{seq, action, "r" + std::to_string(++refs)},
                  std::chrono::steady_clock::now());
    return client;
  }

  // One action, played to the end (answered).
  void play_one() {
    FakeClient* actor = send_random_action();
    ASSERT_TRUE(actor);
    const auto ref = "r" + std::to_string(refs);
    ASSERT_TRUE(strands.run_until([&] {
      const auto views = actor->views();
      return views.back().value("ref", "") == ref;
    }));
  }
};

TEST_F(RoomFixture, AWatcherJoiningWhileACommitIsInFlightGetsItsViewOnceItIsDoneAndAllAfter) {
  // Nobody watches: after the first action the observer's view is parked.
  for (int i = 0; i < 12; ++i) play_one();
  ASSERT_FALSE(::testing::Test::HasFailure());

  // The storage thread is held, so the next action's commit waits there.
  std::promise<void> release;
  auto released = release.get_future().share();
  db.post([released](storage::Store&) { released.wait(); });
  ASSERT_TRUE(send_random_action());
  strands.run_ready();  // handle_action: the commit is posted and waits

  auto watcher = std::make_shared<FakeClient>();
  room->join(watcher, core::Role::Observer, std::nullopt, 0);
  strands.run_ready();
  EXPECT_TRUE(watcher->views().empty()) << "a view was sent while the commit was in flight";

  release.set_value();
  ASSERT_TRUE(strands.run_until([&] { return !watcher->views().empty(); }));
  strands.run_ready();
  const json first = watcher->views().front();
  EXPECT_EQ(first.at("log_from"), 0);

  // A watcher joining now, with nothing in flight, is told the same view at the same version.
  auto second = std::make_shared<FakeClient>();
  room->join(second, core::Role::Observer, std::nullopt, 0);
  strands.run_ready();
  ASSERT_EQ(second->views().size(), 1U);
  EXPECT_EQ(second->views().front().at("seq"), first.at("seq"));
  EXPECT_EQ(second->views().front().at("view"), first.at("view"));
  EXPECT_EQ(registry.summary(game_id)->versions.observer, first.at("seq").get<std::int64_t>());

  // The watcher's role is no longer parked: it hears of the next changes.
  for (int i = 0; i < 10; ++i) play_one();
  const auto seen = watcher->views();
  EXPECT_GT(seen.size(), 1U);
  EXPECT_GT(seen.back().at("seq").get<std::int64_t>(), first.at("seq").get<std::int64_t>());
  EXPECT_EQ(seen.back().at("seq"), second->views().back().at("seq"));
}

}  // namespace
}  // namespace blockfog::server
