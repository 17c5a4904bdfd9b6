// Turn notices sent by three nodes on one PostgreSQL database (docs/multi-node.md, section 5,
// item 4; ctest's server.multinode_notices, on the storage_pg fixture's cluster). Every node
// runs a notice sender, and each delivery is claimed by one of them (docs/server.md, "Turn
// notices"): games held by each node write notices to a webhook receiver on loopback, and each
// notice arrives there once, whichever node sent it, however slowly the receiver answers;
// one whose sender is killed during the delivery arrives again, with the same id.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
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

// How many times each notice id came in `received`.
std::map<std::string, int> arrivals(const std::vector<WebhookRequest>& received) {
  std::map<std::string, int> times;
  for (const auto& request : received) ++times[request.notice_id];
  return times;
}

// The webhook deliveries of game ?1.
constexpr const char* kWebhookDeliveries =
    "SELECT count(*) FROM notice_deliveries AS d JOIN notices AS n ON n.id = d.notice_id"
    " WHERE d.channel = 'webhook' AND n.game_id = ?1";
// Notice ?1's webhook delivery, if it is still pending.
constexpr const char* kStillPending =
    "SELECT count(*) FROM notice_deliveries WHERE notice_id = ?1 AND channel = 'webhook'"
    " AND state = 'pending'";

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
    // A retry due a second after a claim, and each step of an attempt bounded by 3 s (the whole
    // attempt by 9 s): a receiver may hold its answer past the retry and within the step.
    return {"--db",           uri_, "--node-name",      name, "--webhook-allow", "http,private",
            "--notice-retry", "1",  "--notice-timeout", "3"};
  }

  // The node whose TCP connection from port `from` goes to port `to` (a webhook delivery under
  // way), or -1: the socket of /proc/net/tcp with those ends, found among the nodes' open files.
  int node_connected(int from, int to) const {
    std::string socket;
    std::ifstream tcp("/proc/net/tcp");
    std::string line;
    std::getline(tcp, line);  // the header
    const auto port_of = [](const std::string& address) {
      const auto colon = address.find(':');
      return colon == std::string::npos ? -1 : std::stoi(address.substr(colon + 1), nullptr, 16);
    };
    while (std::getline(tcp, line)) {
      std::istringstream fields(line);
      std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
      fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >>
          timeout >> inode;
      if (port_of(local) == from && port_of(remote) == to) socket = "socket:[" + inode + "]";
    }
    if (socket.empty()) return -1;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const auto fds = std::filesystem::path("/proc") / std::to_string(nodes_[i]->pid()) / "fd";
      std::error_code error;
      for (const auto& fd : std::filesystem::directory_iterator(fds, error)) {
        const auto target = std::filesystem::read_symlink(fd.path(), error);
        if (!error && target.string() == socket) return static_cast<int>(i);
      }
    }
    return -1;
  }

  // A game started at node a whose first notice's delivery `receiver` holds unanswered: play
  // (from `seed`) stops once a webhook delivery is written, so that the seat told does not act,
  // which would drop its notice.
  NoticedGame hold_first_notice(WebhookReceiver& receiver, const std::string& prefix,
                                std::uint64_t seed) const {
    auto g = start_noticed_game(nodes_[0]->port(), prefix, receiver.port());
    receiver.hold();
    std::mt19937_64 rng(seed);
    play_forward_away(g.port, g.id, g.scot.session_cookie(), g.eng.session_cookie(), rng, 60,
                      [&] { return pg_number(uri_, kWebhookDeliveries, g.id) > 0; });
    EXPECT_TRUE(receiver.wait_for(1, 30s)) << "no notice arrived";
    return g;
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
  for (const auto& [id, times] : arrivals(got)) {
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

// A receiver that answers after the retry is due (2.5 s, the retry 1 s): the sender's claim
// lasts as long as its attempt can, so no other node's sender tries the delivery meanwhile and
// each notice arrives once.
TEST_F(NoticesOnNodes, AWebhookAnsweringAfterTheRetryIsDueIsSentByOneNodeOnce) {
  WebhookReceiver receiver;
  hold_first_notice(receiver, "slow", 58);
  ASSERT_FALSE(HasFailure());
  // Every node's sender passes (each 0.5 s) see the delivery due again by its retry.
  std::this_thread::sleep_for(2500ms);
  receiver.release();
  ASSERT_TRUE(settled(60s)) << "deliveries still pending";
  std::this_thread::sleep_for(1500ms);  // a few more passes of every sender

  const auto got = receiver.received();
  for (const auto& [id, times] : arrivals(got)) {
    EXPECT_EQ(times, 1) << "notice " << id << " arrived " << times << " times";
  }
  EXPECT_EQ(static_cast<std::int64_t>(got.size()), pg_number(uri_, kAttempts, 0));
}

// A node killed while the receiver holds its delivery's answer: another node's sender takes the
// delivery once the claim has run out and sends it again with the same id, so that it arrives
// twice, and every other notice once (docs/multi-node.md, section 5, item 4).
TEST_F(NoticesOnNodes, ANodeKilledDuringADeliveryIsStoodInForWithTheSameId) {
  WebhookReceiver receiver;
  hold_first_notice(receiver, "kill", 59);
  ASSERT_FALSE(HasFailure());
  // The node whose request the receiver holds (others may wait to be taken, behind it).
  const auto first = receiver.received().front();
  const auto held = first.notice_id;
  const int sender = node_connected(first.peer_port, receiver.port());
  ASSERT_GE(sender, 0) << "no node has the held connection open";
  nodes_[static_cast<std::size_t>(sender)]->kill9();
  const auto killed = Clock::now();
  receiver.release();
  const auto arrived_again = [&] {
    int times = 0;
    for (const auto& request : receiver.received()) times += request.notice_id == held;
    return times >= 2;
  };
  while (!arrived_again() && Clock::now() < killed + 30s) std::this_thread::sleep_for(50ms);
  ASSERT_TRUE(arrived_again()) << "notice " << held << " was not sent again: "
                               << pg_number(uri_, kStillPending, std::stoll(held))
                               << " delivery of it pending";
  std::cout << "notice " << held << " sent again "
            << std::chrono::duration<double>(Clock::now() - killed).count()
            << " s after its sender was killed\n";
  ASSERT_TRUE(settled(60s)) << "deliveries still pending";
  std::this_thread::sleep_for(1500ms);

  for (const auto& [id, times] : arrivals(receiver.received())) {
    EXPECT_EQ(times, id == held ? 2 : 1) << "notice " << id << " arrived " << times << " times";
  }
}

}  // namespace
}  // namespace blockfog::server::testing
