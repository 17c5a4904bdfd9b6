// Turn notices sent by three nodes on one PostgreSQL database (docs/multi-node.md, section 5,
// item 4; ctest's server.multinode_notices, on the storage_pg fixture's cluster). Every node
// runs a notice sender, and each delivery is claimed by one of them (docs/server.md, "Turn
// notices"): games held by each node write notices to a webhook receiver on loopback, and each
// notice arrives there once, whichever node sent it.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/notice_endpoints.h"
#include "tests/server/pg_peek.h"
#include "tests/server/server_process.h"
#include "tests/storage/test_store.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// A game's two players, each asking for turn notices by webhook to `receiver` under
// /hook/<prefix>/<role>.
struct NoticedGame {
  int port = 0;  // the node that holds it: it was started there
  std::int64_t id = 0;
  HttpClient scot;
  HttpClient eng;
};

// Started before the webhooks are on, so that only the notices of play go out (the dice step's
// notice, replaced in the outbox by the start's, would leave no row behind once replaced).
NoticedGame start_noticed_game(int port, const std::string& prefix, int receiver_port) {
  NoticedGame g{port, 0, register_user(port, prefix + "_scot"),
                register_user(port, prefix + "_eng")};
  const auto created = g.scot.post(
      "/api/games", {{"scenario", "braveheart"}, {"side", "scotland"}, {"visibility", "public"}});
  EXPECT_EQ(created.status, 201) << created.body;
  g.id = created.json()["game"]["id"];
  const auto joined = g.eng.post("/api/games/" + std::to_string(g.id) + "/join", json::object());
  EXPECT_EQ(joined.status, 200) << joined.body;
  roll_dice(g.scot, g.eng, g.id);
  for (const auto& [http, role] : {std::pair<HttpClient*, std::string>{&g.scot, "scotland"},
                                   std::pair<HttpClient*, std::string>{&g.eng, "england"}}) {
    const auto url =
        "http://127.0.0.1:" + std::to_string(receiver_port) + "/hook/" + prefix + "/" + role;
    const auto r = http->post("/api/notices", {{"webhook_url", url}, {"webhook", true}});
    EXPECT_EQ(r.status, 200) << r.body;
  }
  return g;
}

// Deliveries of the games after ?1 (0: all).
constexpr const char* kPending =
    "SELECT count(*) FROM notice_deliveries AS d JOIN notices AS n ON n.id = d.notice_id"
    " WHERE d.state = 'pending' AND n.game_id > ?1";
// The webhook deliveries' attempts: each is one claim by one node's sender.
constexpr const char* kAttempts =
    "SELECT coalesce(sum(d.attempts), 0) FROM notice_deliveries AS d"
    " JOIN notices AS n ON n.id = d.notice_id WHERE d.channel = 'webhook' AND n.game_id > ?1";

class NoticesOnNodes : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto cluster = storage::testing::test_postgres_uri();
    if (!cluster) GTEST_SKIP() << "needs the PostgreSQL cluster (ctest -R server.multinode)";
    uri_ = fresh_pg_database_for_test(*cluster, "blockfog");
    for (const char* name : {"a", "b", "c"}) {
      nodes_.push_back(std::make_unique<ServerProcess>(dirs_[nodes_.size()].path(), flags(name)));
    }
  }

  std::vector<std::string> flags(const std::string& name) const {
    return {"--db",           uri_, "--node-name", name, "--webhook-allow", "http,private",
            "--notice-retry", "1"};
  }

  bool settled(std::chrono::seconds limit) const {
    const auto until = Clock::now() + limit;
    while (pg_number(uri_, kPending, 0) > 0) {
      if (Clock::now() > until) return false;
      std::this_thread::sleep_for(100ms);
    }
    return true;
  }

  std::string uri_;
  TempDir dirs_[3];
  std::vector<std::unique_ptr<ServerProcess>> nodes_;
};

TEST_F(NoticesOnNodes, EachNoticeOfGamesHeldAtThreeNodesArrivesOnce) {
  WebhookReceiver receiver;
  std::vector<NoticedGame> games;
  for (int i = 0; i < 6; ++i) {
    games.push_back(start_noticed_game(nodes_[static_cast<std::size_t>(i % 3)]->port(),
                                       "n" + std::to_string(i), receiver.port()));
    ASSERT_FALSE(HasFailure());
  }
  // The games played in turns, so that the senders of all three nodes have work at once.
  std::mt19937_64 rng(57);
  for (int round = 0; round < 6; ++round) {
    for (auto& g : games)
      play_forward_away(g.port, g.id, g.scot.session_cookie(), g.eng.session_cookie(), rng, 8);
    ASSERT_FALSE(HasFailure());
  }
  ASSERT_TRUE(settled(60s)) << "deliveries still pending";
  const auto sent = pg_number(uri_, kAttempts, 0);
  ASSERT_TRUE(receiver.wait_for(static_cast<std::size_t>(sent), 10s));
  std::this_thread::sleep_for(1500ms);  // a few more passes of every sender

  const auto got = receiver.received();
  std::map<std::string, int> arrivals;  // notice id -> times
  for (const auto& request : got) ++arrivals[request.notice_id];
  for (const auto& [id, times] : arrivals) {
    EXPECT_EQ(times, 1) << "notice " << id << " arrived " << times << " times";
  }
  EXPECT_EQ(static_cast<std::int64_t>(got.size()), sent);
  EXPECT_GE(sent, 6) << "too few notices to tell";
  std::int64_t counted = 0;
  std::string by_node;
  for (const auto& node : nodes_) {
    const auto n = metric_value(node->port(), "blockfog_notices_sent_total");
    counted += n;
    by_node += " " + std::to_string(n);
  }
  EXPECT_EQ(counted, sent) << "sent by the nodes:" << by_node;
  std::cout << sent << " notices, sent by the three nodes:" << by_node << "\n";
}

}  // namespace
}  // namespace blockfog::server::testing
