// The computer's thinking is shared fairly between accounts (server/play/fair_queue.h,
// server/play/computer_players.h): one account's flood of decisions does not hold up another
// account's first one. Without sockets or the AI: the worker thinks with a stand-in that the
// test holds and releases, so the order is the scheduler's alone, whatever the machine's speed.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "server/metrics.h"
#include "server/play/computer_players.h"
#include "server/play/fair_queue.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

TEST(ComputerQueue, AccountsTakeTurnsAndEachKeepsItsOwnOrder) {
  FairQueue<int> queue;
  for (int i = 0; i < 5; ++i) queue.push(1, 100 + i);
  queue.push(2, 200);
  queue.push(3, 300);
  queue.push(3, 301);
  EXPECT_EQ(queue.size(), 8u);
  std::vector<int> order;
  while (auto item = queue.pop()) order.push_back(*item);
  EXPECT_EQ(order, (std::vector<int>{100, 200, 300, 101, 301, 102, 103, 104}));
  EXPECT_TRUE(queue.empty());
  // An account that comes back after its queue ran dry waits behind those waiting.
  queue.push(1, 110);
  queue.push(2, 210);
  queue.push(1, 111);
  EXPECT_EQ(*queue.pop(), 110);
  queue.push(3, 310);
  EXPECT_EQ(*queue.pop(), 210);
  EXPECT_EQ(*queue.pop(), 111);
  EXPECT_EQ(*queue.pop(), 310);
  EXPECT_FALSE(queue.pop());
}

// A worker's thinking that the test controls: it records which decision it thinks (by the
// decision's seed) and holds the first one until released.
class HeldThinking {
 public:
  std::optional<json> think(const Decision& decision) {
    std::unique_lock lock(mutex_);
    order_.push_back(decision.seed);
    if (order_.size() == 1) {
      started_ = true;
      changed_.notify_all();
      changed_.wait(lock, [this] { return released_; });
    }
    return json{{"kind", "pass"}};
  }
  void wait_until_started() {
    std::unique_lock lock(mutex_);
    ASSERT_TRUE(changed_.wait_for(lock, std::chrono::seconds(60), [this] { return started_; }));
  }
  void release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }
  void answered() {
    std::lock_guard lock(mutex_);
    ++answered_;
    changed_.notify_all();
  }
  void wait_for_answers(std::size_t count) {
    std::unique_lock lock(mutex_);
    ASSERT_TRUE(
        changed_.wait_for(lock, std::chrono::seconds(60), [&] { return answered_ >= count; }));
  }
  std::vector<std::uint64_t> order() {
    std::lock_guard lock(mutex_);
    return order_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::uint64_t> order_;
  bool started_ = false;
  bool released_ = false;
  std::size_t answered_ = 0;
};

Decision decision_of(std::int64_t account, std::uint64_t id, HeldThinking& thinking) {
  Decision d;
  d.account = account;
  d.seed = id;
  d.cancelled = std::make_shared<std::atomic<bool>>(false);
  d.history = std::make_shared<SeatHistory>();
  d.done = [&thinking](std::optional<json>) { thinking.answered(); };
  return d;
}

// Two accounts drive 20 games each flat out; a third account's first decision is thought
// after at most one decision of each of them, not after their 40.
TEST(ComputerQueue, OneAccountsFloodDelaysAnothersFirstDecisionByOneTurnEach) {
  constexpr std::int64_t kFlooder = 1;
  constexpr std::int64_t kSecondFlooder = 2;
  constexpr std::int64_t kHonest = 3;
  constexpr std::uint64_t kHonestDecision = 1000;
  Metrics metrics;
  HeldThinking thinking;
  ComputerPlayers players(1, metrics, [&thinking](const Decision& d) { return thinking.think(d); });
  // The worker is busy with the first flooder's first decision while the rest arrive.
  players.submit(decision_of(kFlooder, 0, thinking));
  thinking.wait_until_started();
  for (std::uint64_t i = 1; i <= 20; ++i) players.submit(decision_of(kFlooder, i, thinking));
  for (std::uint64_t i = 1; i <= 20; ++i) {
    players.submit(decision_of(kSecondFlooder, 100 + i, thinking));
  }
  players.submit(decision_of(kHonest, kHonestDecision, thinking));
  EXPECT_EQ(metrics.computer_decisions_waiting.load(), 42);
  thinking.release();
  thinking.wait_for_answers(42);

  const auto order = thinking.order();
  ASSERT_EQ(order.size(), 42u);
  const auto honest = std::find(order.begin(), order.end(), kHonestDecision) - order.begin();
  // Ahead of it: the decision being thought when it came, and one of each other account.
  const std::ptrdiff_t other_accounts_waiting = 2;
  EXPECT_LE(honest, 1 + other_accounts_waiting) << "thought " << honest << "th";
  // Each account's decisions are thought in the order they came, and none is lost.
  std::map<std::int64_t, std::vector<std::uint64_t>> per_account;
  for (auto id : order) per_account[id >= kHonestDecision ? 3 : id > 100 ? 2 : 1].push_back(id);
  for (const auto& [account, ids] : per_account) {
    EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end())) << "account " << account;
  }
  EXPECT_EQ(per_account[1].size(), 21u);
  EXPECT_EQ(per_account[2].size(), 20u);
  EXPECT_EQ(metrics.computer_decisions_waiting.load(), 0);
  EXPECT_EQ(metrics.computer_decisions.load(), 42);
}

}  // namespace
}  // namespace blockfog::server::testing
