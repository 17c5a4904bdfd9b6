// Clock timeouts applied once across nodes (docs/multi-node.md, section 4 "Sweeps, exactly
// once", and section 5 item 5; ctest's server.multinode_clock, on the PostgreSQL cluster of the
// storage_pg fixture; skipped without it). Three nodes share one test clock
// (BLOCKFOG_TEST_CLOCK_FILE) and sweep every two seconds. Rated games with a one-minute live
// clock are started at each node, nobody stays connected, one node is killed (its games are
// then nobody's once its lease runs out), and the clock jumps past every deadline. Each game
// ends once, on time: by the node holding it, or, for the dead node's games, by exactly one of
// the others; one rating change per player; all within a sweep period and a lease.

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/clocked_server.h"
#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/pg_peek.h"
#include "tests/server/server_process.h"
#include "tests/storage/test_store.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr std::array<const char*, 3> kSweepNodeNames = {"a", "b", "c"};

// How many lines of `text` hold `needle`.
int lines_with(const std::string& text, const std::string& needle) {
  std::istringstream lines(text);
  int n = 0;
  for (std::string line; std::getline(lines, line);) n += line.find(needle) != line.npos ? 1 : 0;
  return n;
}

class SweepsOnThreeNodes : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto cluster = storage::testing::test_postgres_uri();
    if (!cluster) GTEST_SKIP() << "needs the PostgreSQL cluster (ctest -R server.multinode_clock)";
    uri_ = fresh_pg_database(*cluster, "blockfog_sweeps_on_three_nodes");
    for (std::size_t i = 0; i < kSweepNodeNames.size(); ++i) {
      nodes_[i] = std::make_unique<ServerProcess>(
          dirs_[i].path(),
          std::vector<std::string>{"--db", uri_, "--node-name", kSweepNodeNames[i]}, clock_.env());
    }
  }

  std::int64_t number(const std::string& sql, std::int64_t game_id) const {
    return pg_number(uri_, sql, game_id);
  }

  std::string uri_;
  TempDir clock_dir_;
  TestClock clock_{clock_dir_.path()};
  std::array<TempDir, 3> dirs_;
  std::array<std::unique_ptr<ServerProcess>, 3> nodes_;
};

TEST_F(SweepsOnThreeNodes, EachGameOutOfTimeEndsOnceWhicheverNodesSweepIt) {
  constexpr int kGamesPerNode = 3;
  std::array<std::vector<std::int64_t>, 3> games;  // by the node that started them
  for (std::size_t node = 0; node < nodes_.size(); ++node) {
    const int port = nodes_[node]->port();
    for (int g = 0; g < kGamesPerNode; ++g) {
      const std::string prefix = "sw" + std::to_string(node) + "_" + std::to_string(g);
      auto scot = register_user(port, prefix + "s");
      auto eng = register_user(port, prefix + "e");
      const auto created = scot.post(
          "/api/games",
          {{"scenario", "braveheart"},
           {"side", "scotland"},
           {"rated", true},
           {"time_control", {{"kind", "live"}, {"minutes", 1}, {"increment_seconds", 0}}}});
      ASSERT_EQ(created.status, 201) << created.body;
      const std::int64_t id = created.json()["game"]["id"];
      ASSERT_EQ(eng.post("/api/games/" + std::to_string(id) + "/join", json::object()).status, 200);
      roll_dice(scot, eng, id);  // started at this node, which loads the game and holds it
      ASSERT_FALSE(HasFailure());
      games[node].push_back(id);
    }
  }
  for (std::size_t node = 0; node < nodes_.size(); ++node) {
    for (const auto id : games[node]) {
      EXPECT_EQ(number(std::string("SELECT count(*) FROM game_leases WHERE game_id = ?1 AND "
                                   "expires_at IS NULL AND node_id LIKE '") +
                           kSweepNodeNames[node] + "/%'",
                       id),
                1)
          << "game " << id << " is not held by the node that started it";
    }
  }

  // c dies holding its games; the clock passes every deadline.
  nodes_[2]->kill9();
  clock_.advance(2 * 60 * 1000);
  const auto advanced = Clock::now();
  const auto all = [&] {
    std::vector<std::int64_t> ids;
    for (const auto& node : games) ids.insert(ids.end(), node.begin(), node.end());
    return ids;
  }();
  const auto unfinished = [&] {
    int n = 0;
    for (const auto id : all) {
      n += number("SELECT count(*) FROM games WHERE id = ?1 AND status <> 'finished'", id) > 0;
    }
    return n;
  };
  while (unfinished() > 0 && Clock::now() - advanced < std::chrono::seconds(20)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const auto took = Clock::now() - advanced;
  ASSERT_EQ(unfinished(), 0) << "games still running 20 s after their clocks ran out";
  // A sweep period (2 s) and the dead node's lease (3 s), and a second for a loaded machine.
  EXPECT_LT(took, std::chrono::seconds(6))
      << "the last game ended " << std::chrono::duration<double>(took).count() << " s after";
  std::cout << "every game ended " << std::chrono::duration<double>(took).count()
            << " s after the clocks ran out\n";

  // A look after one more sweep of each node: nothing ends twice.
  const auto settled = Clock::now() + std::chrono::seconds(3);
  while (Clock::now() < settled) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(nodes_[0]->terminate(), 0);
  EXPECT_EQ(nodes_[1]->terminate(), 0);
  const std::array<std::string, 2> logs = {nodes_[0]->log(), nodes_[1]->log()};
  for (std::size_t node = 0; node < nodes_.size(); ++node) {
    for (const auto id : games[node]) {
      SCOPED_TRACE("game " + std::to_string(id) + " started at " + kSweepNodeNames[node]);
      EXPECT_EQ(number("SELECT count(*) FROM games WHERE id = ?1 AND result ->> 'reason' = "
                       "'timeout'",
                       id),
                1);
      EXPECT_EQ(number("SELECT count(*) FROM rating_history WHERE game_id = ?1", id), 2);
      const std::string ended = "game " + std::to_string(id) + " ended: time ran out";
      const int by_a = lines_with(logs[0], ended);
      const int by_b = lines_with(logs[1], ended);
      EXPECT_EQ(by_a + by_b, 1) << "ended by a " << by_a << " times, by b " << by_b << " times";
      // A live node's game is ended by that node alone.
      if (node < 2) {
        EXPECT_EQ(node == 0 ? by_a : by_b, 1);
      }
    }
  }
}

}  // namespace
}  // namespace blockfog::server::testing
