// A node that holds games killed under load (docs/multi-node.md, section 5, item 1): three nodes
// on a database of the storage_pg fixture's cluster (ctest's server.multinode_kill; skipped
// without it), clients acting on nine games without pause, three opened at each node, so each
// node holds three. Node a is killed (SIGKILL) mid-play: within the lease the other nodes hold
// every one of its games, its clients (reconnecting through the next node, as behind a
// round-robin proxy) act again, the other games never stop, and every game's log holds every
// acknowledged action in its place, written under fences that never go down; each record
// replays to its last hash.

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

  const std::array<std::string, 3> names_{"a", "b", "c"};
  std::string uri_;
  std::array<TempDir, 3> dirs_;
  std::array<std::unique_ptr<ServerProcess>, 3> nodes_;
  NodePorts ports_;
};

TEST_F(NodeKilled, ItsGamesAreTakenWithinTheLeaseAndNoAcknowledgedActionIsLost) {
  constexpr std::size_t kGames = 9;
  std::vector<std::unique_ptr<ActingClient>> clients;
  for (std::size_t i = 0; i < kGames; ++i) {
    const int port = nodes_[i % 3]->port();
    Table table(port, "nk" + std::to_string(i));
    ASSERT_FALSE(HasFailure());
    clients.push_back(std::make_unique<ActingClient>(ports_, port, table.game_id,
                                                     table.scot_http.session_cookie(),
                                                     table.eng_http.session_cookie(), 60 + i));
  }
  for (auto& c : clients) c->begin();
  const auto each = [&clients](auto&& holds, std::size_t from = 0, std::size_t step = 1) {
    for (std::size_t i = from; i < clients.size(); i += step) {
      if (!holds(*clients[i])) return false;
    }
    return true;
  };
  ASSERT_TRUE(wait_for([&] { return each([](auto& c) { return c.acknowledged().size() >= 5; }); },
                       std::chrono::seconds(60)))
      << "the games were not played before the kill";

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
    const auto unknown = expect_log_keeps_acknowledged(*c, uri_);
    EXPECT_EQ(number(kFenceWentDown, c->game_id()), 0);
    std::cout << "game " << c->game_id() << ": " << c->acknowledged().size() << " acknowledged, "
              << c->unanswered().size() << " unanswered, " << unknown
              << " stored without an acknowledgement\n";
  }
}

}  // namespace
}  // namespace blockfog::server::testing
