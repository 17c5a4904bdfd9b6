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
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/notice_endpoints.h"
#include "tests/server/pg_peek.h"
#include "tests/server/random_walk.h"
#include "tests/server/server_process.h"
#include "tests/storage/test_store.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

std::int64_t metric(int port, const std::string& name) {
  const auto text = metrics_text(port);
  const std::regex line("\n" + name + " (\\d+)");
  std::smatch m;
  return std::regex_search(text, m, line) ? std::stoll(m[1]) : -1;
}

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

// Random forward play, each action from a connection of the acting role opened for it (the
// other's closed first), so that the role awaited next has nobody at the game and is told.
int play_away(NoticedGame& g, std::mt19937_64& rng, int max_actions) {
  std::unique_ptr<Connection> current;
  const auto open_as = [&](const std::string& role) {
    if (current) current->ws.close();
    current = connect(g.port, g.id, (role == "scotland" ? g.scot : g.eng).session_cookie());
    EXPECT_TRUE(current && current->read_first_view());
  };
  open_as("scotland");
  int played = 0;
  for (; played < max_actions; ++played) {
    if (!current || current->view.is_null() || current->view.contains("outcome")) break;
    const auto awaiting = current->view["awaiting"];
    if (awaiting.empty()) break;
    const std::string role = awaiting[rng() % awaiting.size()];
    if (current->role != role) open_as(role);
    const auto legal = forward_actions(current->view["legal_actions"]);
    if (legal.empty()) break;
    const std::string ref = "a" + std::to_string(played);
    current->send_action(legal[rng() % legal.size()], current->seq, ref);
    if (!current->read_answer(ref)) break;
    EXPECT_NE(current->last.value("type", ""), "error") << current->last.dump();
  }
  if (current) current->ws.close();
  return played;
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
    for (auto& g : games) play_away(g, rng, 8);
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
    const auto n = metric(node->port(), "blockfog_notices_sent_total");
    counted += n;
    by_node += " " + std::to_string(n);
  }
  EXPECT_EQ(counted, sent) << "sent by the nodes:" << by_node;
  std::cout << sent << " notices, sent by the three nodes:" << by_node << "\n";
}

}  // namespace
}  // namespace blockfog::server::testing
