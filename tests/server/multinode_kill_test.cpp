// A node that holds games killed, or paused past its lease, under load (docs/multi-node.md,
// section 5, items 1 and 2; the pause is described at its test). Killed: three nodes
// on a database of the storage_pg fixture's cluster (ctest's server.multinode_kill; skipped
// without it), clients acting on nine games without pause, three opened at each node, so each
// node holds three. Node a is killed (SIGKILL) mid-play: within the lease the other nodes hold
// every one of its games, its clients (reconnecting through the next node, as behind a
// round-robin proxy) act again, the other games never stop, each survivor serves exactly the
// games it holds the leases of, and every game's log holds every acknowledged action in its
// place, written under fences that never go down; each record replays to its last hash.

#include <signal.h>

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "tests/server/acting_client.h"
#include "tests/server/game_helpers.h"
#include "tests/server/node_clients.h"
#include "tests/server/pg_peek.h"
#include "tests/server/server_process.h"
#include "tests/storage/test_store.h"

namespace blockfog::server::testing {
namespace {

using KillClock = std::chrono::steady_clock;

// The game's lease is held, by a live node other than a.
constexpr const char* kHeldElsewhere =
    "SELECT count(*) FROM game_leases AS l JOIN nodes AS n ON n.node_id = l.node_id"
    " WHERE l.game_id = ?1 AND l.expires_at IS NULL AND n.expires_at > db_now_ms()"
    " AND n.name <> 'a'";
// The games whose leases node ?1 (0: a, 1: b, 2: c) holds.
constexpr const char* kLeasedByNode =
    "SELECT count(*) FROM game_leases AS l JOIN nodes AS n ON n.node_id = l.node_id"
    " WHERE l.expires_at IS NULL AND n.expires_at > db_now_ms()"
    " AND n.name = (CASE ?1::bigint WHEN 0 THEN 'a' WHEN 1 THEN 'b' ELSE 'c' END)";
// The fence of the game's lease (a new one with each take).
constexpr const char* kFenceOfLease = "SELECT fence FROM game_leases WHERE game_id = ?1";
// Consecutive actions of the game whose fence went down.
constexpr const char* kFenceWentDown =
    "SELECT count(*) FROM actions AS x JOIN actions AS y"
    " ON y.game_id = x.game_id AND y.seq = x.seq + 1 WHERE x.game_id = ?1 AND y.fence < x.fence";

class NodeKilled : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto cluster = storage::testing::test_postgres_uri();
    if (!cluster) GTEST_SKIP() << "needs the PostgreSQL cluster (ctest -R server.multinode_kill)";
    uri_ = fresh_pg_database_for_test(*cluster, "blockfog_k");
    for (std::size_t i = 0; i < names_.size(); ++i) {
      nodes_[i] = std::make_unique<ServerProcess>(
          dirs_[i].path(), std::vector<std::string>{"--db", uri_, "--node-name", names_[i]});
      ports_[names_[i]] = nodes_[i]->port();
    }
  }

  std::int64_t number(const std::string& sql, std::int64_t game_id) const {
    return pg_number(uri_, sql, game_id);
  }

  std::vector<int> ports() const {
    return {nodes_[0]->port(), nodes_[1]->port(), nodes_[2]->port()};
  }

  // Within a few seconds, the games each node from `first` on serves (its /healthz) are the
  // leases it holds, `games` in all.
  void expect_served_as_leased(std::size_t first, std::size_t games) {
    std::string served;
    EXPECT_TRUE(wait_for(
        [&] {
          served.clear();
          std::int64_t total = 0;
          bool same = true;
          for (std::size_t i = first; i < nodes_.size(); ++i) {
            const auto health = HttpClient(nodes_[i]->port()).get("/healthz").json();
            const std::int64_t held = health.value("games_held", std::int64_t{-1});
            const auto leased = number(kLeasedByNode, static_cast<std::int64_t>(i));
            served += " " + names_[i] + ": " + std::to_string(held) + " served, " +
                      std::to_string(leased) + " leased;";
            same = same && held == leased;
            total += held;
          }
          return same && total == static_cast<std::int64_t>(games);
        },
        std::chrono::seconds(5)))
        << served;
  }

  const std::array<std::string, 3> names_{"a", "b", "c"};
  std::string uri_;
  std::array<TempDir, 3> dirs_;
  std::array<std::unique_ptr<ServerProcess>, 3> nodes_;
  NodePorts ports_;
};

TEST_F(NodeKilled, ItsGamesAreTakenWithinTheLeaseAndNoAcknowledgedActionIsLost) {
  constexpr std::size_t kGames = 9;
  const auto clients =
      start_acting_clients(ports_, ports(), kGames, "nk", 60, 5, std::chrono::seconds(60));
  ASSERT_FALSE(clients.empty());
  const auto each = [&clients](auto&& holds) { return every_client(clients, holds); };

  nodes_[0]->kill9();
  const auto killed = KillClock::now();
  // a's games (0, 3, 6) are held by b or c within the lease (3 s after a's last renewal).
  ASSERT_TRUE(wait_for(
      [&] {
        for (std::size_t i = 0; i < kGames; i += 3) {
          if (number(kHeldElsewhere, clients[i]->game_id()) != 1) return false;
        }
        return true;
      },
      std::chrono::seconds(20)))
      << "a's games were not taken";
  const auto taken = KillClock::now() - killed;
  EXPECT_LT(taken, std::chrono::seconds(5)) << "a's games were taken " << seconds(taken) << " s on";
  // Every game acts again: a's, reconnected elsewhere, and the others, which never stopped.
  ASSERT_TRUE(
      wait_for([&] { return each([&](auto& c) { return c.acknowledged_since(killed) >= 3; }); },
               std::chrono::seconds(30)))
      << "a game did not go on after the kill";
  // No game is served twice, or by a node without its lease: under the load, the games each
  // survivor serves are the leases it holds, nine in all.
  expect_served_as_leased(1, kGames);
  KillClock::duration slowest{};
  for (std::size_t i = 0; i < kGames; i += 3) {
    for (const auto& a : clients[i]->acknowledged()) {
      if (a.sent < killed) continue;
      slowest = std::max(slowest, a.answered - killed);
      break;
    }
  }
  std::cout << "a's games taken " << seconds(taken) << " s after the kill; the last acted again "
            << seconds(slowest) << " s after it\n";
  for (auto& c : clients) c->finish();
  EXPECT_EQ(nodes_[1]->terminate(), 0) << nodes_[1]->log();
  EXPECT_EQ(nodes_[2]->terminate(), 0) << nodes_[2]->log();

  for (const auto& c : clients) {
    SCOPED_TRACE("game " + std::to_string(c->game_id()));
    for (const auto& answer : c->other_answers()) ADD_FAILURE() << "answered " << answer;
    for (const auto& back : c->versions_back()) ADD_FAILURE() << back;
    const auto unknown = expect_log_keeps_acknowledged(*c, uri_);
    EXPECT_EQ(number(kFenceWentDown, c->game_id()), 0);
    std::cout << "game " << c->game_id() << ": " << c->acknowledged().size() << " acknowledged, "
              << c->unanswered().size() << " unanswered, " << unknown
              << " stored without an acknowledgement\n";
  }
}

// docs/multi-node.md, section 5, item 2: node a paused (SIGSTOP) past its lease under the same
// load, then woken (SIGCONT). Its games are held by the others within the lease (taken when a
// spectator comes in through another node); woken, it finds
// its heartbeat lapsed, lets go of every room and sends its clients on; it writes nothing more to
// the games it lost (the fences never go down); every game goes on, each node serves exactly the
// games it holds the leases of, and no acknowledged action is lost.
TEST_F(NodeKilled, OnePausedPastItsLeaseLosesItsGamesAndWritesNothingMoreToThem) {
  constexpr std::size_t kGames = 9;
  const auto clients =
      start_acting_clients(ports_, ports(), kGames, "np", 80, 5, std::chrono::seconds(60));
  ASSERT_FALSE(clients.empty());
  const auto each = [&clients](auto&& holds) { return every_client(clients, holds); };

  ASSERT_EQ(::kill(nodes_[0]->pid(), SIGSTOP), 0);
  const auto stopped = KillClock::now();
  // a's players wait on it for their answers; a spectator of each of its games comes in through
  // b meanwhile, as a client that gave up on a silent node would (its proxy sends nothing to a
  // any more), and b takes the game once a's lease runs out.
  const NodePorts live{{"b", nodes_[1]->port()}, {"c", nodes_[2]->port()}};
  std::vector<std::unique_ptr<Connection>> spectators;
  for (std::size_t i = 0; i < kGames; i += 3) {
    spectators.push_back(open_following_moves(live, nodes_[1]->port(), clients[i]->game_id(), "",
                                              "", stopped + std::chrono::seconds(15)));
  }
  const bool taken_in_time = wait_for(
      [&] {
        for (std::size_t i = 0; i < kGames; i += 3) {
          if (number(kHeldElsewhere, clients[i]->game_id()) != 1) return false;
        }
        return true;
      },
      std::chrono::seconds(20));
  const auto taken = KillClock::now() - stopped;
  ASSERT_EQ(::kill(nodes_[0]->pid(), SIGCONT), 0);
  const auto woken = KillClock::now();
  ASSERT_TRUE(taken_in_time) << "a's games were not taken while it slept";
  EXPECT_LT(taken, std::chrono::seconds(5)) << "a's games were taken " << seconds(taken) << " s on";

  // Every game acts again after a woke: a's at their new holders, the others never stopped.
  ASSERT_TRUE(
      wait_for([&] { return each([&](auto& c) { return c.acknowledged_since(woken) >= 3; }); },
               std::chrono::seconds(40)))
      << "a game did not go on after a woke";
  std::cout << "a's games taken " << seconds(taken) << " s after the pause\n";
  expect_served_as_leased(0, kGames);
  for (auto& c : clients) c->finish();
  for (auto& node : nodes_) EXPECT_EQ(node->terminate(), 0) << node->log();

  for (const auto& c : clients) {
    SCOPED_TRACE("game " + std::to_string(c->game_id()));
    for (const auto& answer : c->other_answers()) ADD_FAILURE() << "answered " << answer;
    for (const auto& back : c->versions_back()) ADD_FAILURE() << back;
    const auto unknown = expect_log_keeps_acknowledged(*c, uri_);
    EXPECT_EQ(number(kFenceWentDown, c->game_id()), 0) << "a wrote after its game was taken";
    std::cout << "game " << c->game_id() << ": " << c->acknowledged().size() << " acknowledged, "
              << c->refused().size() << " refused, " << c->unanswered().size() << " unanswered, "
              << unknown << " stored without an acknowledgement\n";
  }
}

// docs/multi-node.md, section 5, item 2's short stop: node a paused (SIGSTOP) for a second,
// under its lease, while its games are played. Nothing moves: every lease stays where it was, no
// fence changes, no client is sent on or reconnects, and no action is refused or left
// unanswered; a's players only wait.
TEST_F(NodeKilled, OnePausedForASecondKeepsItsGamesAndItsPlayersOnlyWait) {
  constexpr std::size_t kGames = 9;
  const auto clients =
      start_acting_clients(ports_, ports(), kGames, "ns", 90, 5, std::chrono::seconds(60));
  ASSERT_FALSE(clients.empty());
  const auto fences = [&] {
    std::vector<std::int64_t> held;
    for (const auto& c : clients) held.push_back(number(kFenceOfLease, c->game_id()));
    return held;
  };
  const auto before = fences();

  ASSERT_EQ(::kill(nodes_[0]->pid(), SIGSTOP), 0);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  ASSERT_EQ(::kill(nodes_[0]->pid(), SIGCONT), 0);
  const auto woken = KillClock::now();
  ASSERT_TRUE(wait_for(
      [&] {
        return every_client(clients, [&](auto& c) { return c.acknowledged_since(woken) >= 3; });
      },
      std::chrono::seconds(40)))
      << "a game did not go on after a woke";
  EXPECT_EQ(fences(), before) << "a lease moved";
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    EXPECT_EQ(number(kLeasedByNode, static_cast<std::int64_t>(i)), 3) << names_[i];
  }
  expect_served_as_leased(0, kGames);
  for (auto& c : clients) c->finish();
  for (auto& node : nodes_) EXPECT_EQ(node->terminate(), 0) << node->log();

  for (const auto& c : clients) {
    SCOPED_TRACE("game " + std::to_string(c->game_id()));
    EXPECT_EQ(c->reconnections(), 0u);
    EXPECT_TRUE(c->unanswered().empty());
    EXPECT_TRUE(c->refused().empty());
    for (const auto& answer : c->other_answers()) ADD_FAILURE() << "answered " << answer;
    for (const auto& back : c->versions_back()) ADD_FAILURE() << back;
    EXPECT_EQ(expect_log_keeps_acknowledged(*c, uri_), 0u);
  }
}

}  // namespace
}  // namespace blockfog::server::testing
