// PostgreSQL restarted under load (docs/multi-node.md, section 5, item 3): two nodes on a
// cluster of the test's own (ctest's server.multinode_pg_restart; skipped without it), clients
// acting on four games without pause and recording every answer. The database is stopped
// cleanly and started again, then stopped as by a crash (recovery from the WAL) and started
// again. No node exits; an action sent while the database is away is answered
// storage_unavailable and is not stored, and a reconnection is refused; /healthz says degraded then
// and ok after; the clients act again within seconds of the database's return with no help; every
// acknowledged action is in the log, and each game's record replays to the log's last hash.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "storage/postgres.h"
#include "tests/server/acting_client.h"
#include "tests/server/game_helpers.h"
#include "tests/server/node_clients.h"
#include "tests/server/pg_peek.h"
#include "tests/server/scratch_cluster.h"
#include "tests/server/server_process.h"
#include "tests/storage/test_store.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

class PgRestart : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!storage::testing::test_postgres_uri()) {
      GTEST_SKIP() << "needs PostgreSQL (ctest -R server.multinode_pg_restart)";
    }
    std::string why;
    cluster_ = ScratchCluster::start(why);
    ASSERT_TRUE(cluster_) << why;
    a_ = std::make_unique<ServerProcess>(dir_a_.path(), flags("a"));
    b_ = std::make_unique<ServerProcess>(dir_b_.path(), flags("b"));
    nodes_ = {{"a", a_->port()}, {"b", b_->port()}};
  }

  std::vector<std::string> flags(const std::string& name) const {
    return {"--db", cluster_->uri(), "--node-name", name};
  }

  // The node's /healthz: its status code and "status".
  static std::pair<int, std::string> health(int port) {
    const auto r = HttpClient(port).get("/healthz");
    return {r.status, r.json().is_object() ? r.json().value("status", "") : ""};
  }

  std::unique_ptr<ScratchCluster> cluster_;
  TempDir dir_a_;
  TempDir dir_b_;
  std::unique_ptr<ServerProcess> a_;
  std::unique_ptr<ServerProcess> b_;
  NodePorts nodes_;
};

TEST_F(PgRestart, NodesRideOutACleanAndACrashedRestartOfTheDatabaseLosingNoAcknowledgedAction) {
  // Four games, two held by each node, played before the restarts.
  const auto clients = start_acting_clients(nodes_, {a_->port(), b_->port()}, 4, "pgr", 40, 5,
                                            std::chrono::seconds(30));
  ASSERT_FALSE(clients.empty());
  const auto each = [&clients](auto&& holds) { return every_client(clients, holds); };

  for (const bool crash : {false, true}) {
    SCOPED_TRACE(crash ? "stopped as by a crash" : "stopped cleanly");
    cluster_->stop(crash);
    const auto down = Clock::now();
    // Every game's client meets the outage: its action is refused, not acknowledged; or, when
    // its connection had just ended (its node letting go of its games after a heartbeat lapsed
    // in the last outage), its reconnection is refused.
    const auto met_outage = [&](const ActingClient& c) {
      return c.refused_since(down) + c.refused_upgrades_since(down) >= 2;
    };
    ASSERT_TRUE(wait_for([&] { return each(met_outage); }, std::chrono::seconds(20)))
        << "a client's action or reconnection while the database was away was not refused" << [&] {
             std::string said;
             for (const auto& c : clients) {
               said += "\ngame " + std::to_string(c->game_id()) + ": actions refused " +
                       std::to_string(c->refused_since(down)) + ", reconnections refused " +
                       std::to_string(c->refused_upgrades_since(down)) + ", acknowledged " +
                       std::to_string(c->acknowledged_since(down));
             }
             return said + "\nnode a:\n" + a_->log() + "node b:\n" + b_->log();
           }();
    for (const int port : {a_->port(), b_->port()}) {
      EXPECT_EQ(health(port), std::make_pair(503, std::string("degraded"))) << "node " << port;
      // An HTTP request that reads the store is refused too, and told to come back after the
      // next probe of the store (a second on PostgreSQL), not later.
      const auto listed = HttpClient(port).get("/api/games");
      EXPECT_EQ(listed.status, 503) << listed.body;
      EXPECT_EQ(listed.error_code(), "storage_unavailable") << listed.body;
      EXPECT_EQ(listed.headers.count("retry-after") ? listed.headers.at("retry-after") : "", "1");
      // So is a WebSocket upgrade (a spectator's here), with the same status.
      WsClient ws;
      EXPECT_FALSE(ws.connect(port, "/ws/games/" + std::to_string(clients[0]->game_id()), ""));
      EXPECT_EQ(ws.refused_status(), 503);
    }
    const auto up_from = Clock::now();
    for (const auto& c : clients) {
      EXPECT_EQ(c->acknowledged_since(down), 0u)
          << "game " << c->game_id() << ": acknowledged while the database was away";
    }
    cluster_->start_again();
    const auto up = Clock::now();
    ASSERT_GE(up, up_from);

    // The nodes recover by themselves: each game is played again, and health says ok.
    ASSERT_TRUE(
        wait_for([&] { return each([&](auto& c) { return c.acknowledged_since(up) >= 1; }); },
                 std::chrono::seconds(30)))
        << "a game was not played again after the database came back";
    Clock::duration slowest{};
    for (const auto& c : clients) {
      for (const auto& a : c->acknowledged()) {
        if (a.sent < up) continue;
        slowest = std::max(slowest, a.answered - up);
        break;
      }
    }
    EXPECT_LT(slowest, std::chrono::seconds(5))
        << "the last game acted again " << seconds(slowest) << " s after the database came back";
    for (const int port : {a_->port(), b_->port()}) {
      std::pair<int, std::string> said;
      EXPECT_TRUE(wait_for(
          [&] {
            said = health(port);
            return said.first == 200;
          },
          std::chrono::seconds(15)))
          << "node " << port << " still says " << said.second;
      EXPECT_EQ(said.second, "ok");
    }
    const auto healthy = Clock::now() - up;
    EXPECT_LT(healthy, std::chrono::seconds(3))
        << "health said ok " << seconds(healthy) << " s after the database came back";
    std::cout << (crash ? "crash" : "clean stop") << ": away " << seconds(up - down)
              << " s (and the stop), the last game acted again after " << seconds(slowest)
              << " s, health ok after " << seconds(healthy) << " s\n";
    // A few more actions each after the return, before the next outage.
    const auto again = Clock::now();
    ASSERT_TRUE(
        wait_for([&] { return each([&](auto& c) { return c.acknowledged_since(again) >= 3; }); },
                 std::chrono::seconds(30)));
  }
  for (auto& c : clients) c->finish();

  // No node exited: both drain as usual.
  EXPECT_EQ(a_->terminate(), 0) << a_->log();
  EXPECT_EQ(b_->terminate(), 0) << b_->log();

  for (const auto& c : clients) {
    SCOPED_TRACE("game " + std::to_string(c->game_id()));
    for (const auto& answer : c->other_answers()) ADD_FAILURE() << "answered " << answer;
    for (const auto& back : c->versions_back()) ADD_FAILURE() << back;
    const auto unknown = expect_log_keeps_acknowledged(*c, cluster_->uri());
    const auto acked = c->acknowledged();
    const auto refused = c->refused();
    const auto unanswered = c->unanswered();
    std::cout << "game " << c->game_id() << ": " << acked.size() << " acknowledged, "
              << refused.size() << " refused, " << unanswered.size() << " unanswered, " << unknown
              << " stored without an acknowledgement\n";
  }
  if (HasFailure()) std::cout << "node a:\n" << a_->log() << "node b:\n" << b_->log();
}

// A COMMIT whose answer is lost (the connection to PostgreSQL dropping while it commits) may
// have stored the action: the room then answers its client storage_unavailable, and its state
// is one action behind the log. Here such an action is written into the log behind the room's
// back, under the room's fence, as the lost COMMIT would have: the room's next commit finds the
// seq taken, writes nothing, and the room lets go; its clients, told to come back at once, get
// the game as the log has it and play on.
TEST_F(PgRestart, ARoomBehindTheLogLoadsTheGameAgainAndPlaysOn) {
  Table table(a_->port(), "behind");
  std::mt19937_64 rng(51);
  for (int i = 0; i < 10 && table.play_random(rng); ++i) {
  }
  ASSERT_FALSE(HasFailure());
  const auto stored =
      static_cast<std::int64_t>(logged_actions(cluster_->uri(), table.game_id).size());
  ASSERT_EQ(stored, table.actions);

  // The next action as the engine plays it, stored as the lost COMMIT would have stored it.
  auto game = replay_record(stored_record(cluster_->uri(), table.game_id));
  ASSERT_TRUE(game);
  const auto role = game->active_roles().front();
  const json action = game->legal_actions(role).front();
  ASSERT_FALSE(game->apply(role, action));
  {
    storage::PgDatabase db(cluster_->uri());
    auto insert = db.prepare(
        "INSERT INTO actions (game_id, seq, role, action, applied_at, state_hash, fence)"
        " SELECT ?1, ?2, ?3, ?4, ?5, ?6, fence FROM game_leases WHERE game_id = ?1");
    insert.bind(1, table.game_id)
        .bind(2, stored + 1)
        .bind(3, std::string(core::role_name(role)))
        .bind(4, action.dump())
        .bind(5, std::int64_t{1})
        .bind(6, game->state_hash());
    insert.run();
    ASSERT_EQ(db.changes(), 1);
  }

  // The room still shows the game before it: the seat's action there is at the stored seq.
  Connection& seat = table.seat(std::string(core::role_name(role)));
  seat.send_action(seat.view.at("legal_actions").front(), seat.seq, "behind");
  bool moved = false;
  while (seat.read_one()) {
    EXPECT_NE(seat.last.value("ref", ""), "behind") << "answered " << seat.last;
    if (seat.last.at("type") == "moved") {
      moved = true;
      EXPECT_EQ(seat.last.value("retry_ms", std::int64_t{-1}), 0) << seat.last;
    }
  }
  EXPECT_TRUE(moved) << "the room did not let go";
  EXPECT_EQ(logged_actions(cluster_->uri(), table.game_id).size(),
            static_cast<std::size_t>(stored + 1));

  // Come back: the game as the log has it, and it goes on.
  const auto deadline = Clock::now() + std::chrono::seconds(15);
  table.scotland = open_following_moves(nodes_, a_->port(), table.game_id,
                                        table.scot_http.session_cookie(), "?patches=1", deadline);
  table.england = open_following_moves(nodes_, a_->port(), table.game_id,
                                       table.eng_http.session_cookie(), "", deadline);
  table.observer.reset();
  ASSERT_TRUE(table.scotland && table.england);
  table.actions = stored + 1;
  for (int i = 0; i < 10 && table.play_random(rng); ++i) {
  }
  ASSERT_FALSE(HasFailure());
  const auto log = logged_actions(cluster_->uri(), table.game_id);
  ASSERT_EQ(static_cast<std::int64_t>(log.size()), table.actions);
  EXPECT_EQ(log.at(static_cast<std::size_t>(stored)).action, action);
  const auto replayed = replay_record(stored_record(cluster_->uri(), table.game_id));
  ASSERT_TRUE(replayed);
  EXPECT_EQ(replayed->state_hash(), log.back().state_hash);
}

}  // namespace
}  // namespace blockfog::server::testing
