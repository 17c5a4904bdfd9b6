// Game-scoped HTTP requests and the per-node figures when several server nodes share one
// PostgreSQL database (docs/multi-node.md, section 3), with real processes on the throwaway
// cluster of the storage_pg CTest fixture (ctest's server.multinode.redirect; skipped when
// BLOCKFOG_TEST_PG_URI_FILE is not set). A request that changes a game, sent to a node that does
// not hold it, is answered 307 to the holder's path /n/<name>/... and changes nothing there;
// sent on to the holder (as nginx would, the prefix stripped) it is served, and the holder's
// room tells its clients. A game nobody holds is taken by the node asked. A holder whose lease
// was taken after it looked writes nothing (the fence) and sends the next try on. /healthz and
// /metrics say which node answers and how many games it holds.

#include <signal.h>

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/pg_peek.h"
#include "tests/server/server_process.h"
#include "tests/storage/test_store.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;
using RedirectClock = std::chrono::steady_clock;

// The games each node holds as the database says: leases not released, of live nodes.
constexpr const char* kHeldByNode =
    "SELECT count(*) FROM game_leases AS l JOIN nodes AS n ON n.node_id = l.node_id"
    " WHERE l.expires_at IS NULL AND n.expires_at > db_now_ms() AND n.name = "
    "(CASE ?1::bigint WHEN 1 THEN 'a' ELSE 'b' END)";

// Two nodes, a and b, on a new database of the cluster; one player of each side, whose login
// sessions (in the database) are good at both.
class MultiNodeRedirect : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto cluster = storage::testing::test_postgres_uri();
    if (!cluster) GTEST_SKIP() << "needs the PostgreSQL cluster (ctest -R server.multinode)";
    uri_ = fresh_pg_database_for_test(*cluster, "blockfog_r");
    a_ = std::make_unique<ServerProcess>(dir_a_.path(), flags("a"));
    b_ = std::make_unique<ServerProcess>(dir_b_.path(), flags("b"));
    scot_.emplace(register_user(a_->port(), "rd_scot"));
    eng_.emplace(register_user(a_->port(), "rd_eng"));
  }

  std::vector<std::string> flags(const std::string& name) const {
    return {"--db", uri_, "--node-name", name};
  }

  int port_of(const std::string& name) const {
    return name == "a" ? a_->port() : name == "b" ? b_->port() : 0;
  }

  // `who`'s request to the node on `port`, with his session, as his browser would send it.
  HttpResult post_at(int port, const HttpClient& who, const std::string& target,
                     const json& body) const {
    HttpClient client(port);
    client.set_session_cookie(who.session_cookie());
    return client.post(target, body);
  }

  // The request a 307 sends on: to the node its Location names, the /n/<name> prefix stripped
  // (as deploy/multi-node's nginx does), with the same method, body and session.
  HttpResult follow(const HttpResult& redirect, const HttpClient& who, const json& body) const {
    const auto location = redirect.headers.count("location") ? redirect.headers.at("location") : "";
    EXPECT_EQ(location.rfind("/n/", 0), 0U) << location;
    const auto slash = location.find('/', 3);
    if (location.rfind("/n/", 0) != 0 || slash == std::string::npos) return {};
    const auto port = port_of(location.substr(3, slash - 3));
    EXPECT_NE(port, 0) << location;
    if (port == 0) return {};
    return post_at(port, who, location.substr(slash), body);
  }

  std::int64_t number(const std::string& sql, std::int64_t game_id) const {
    return pg_number(uri_, sql, game_id);
  }
  std::int64_t seats(std::int64_t game_id) const {
    return number("SELECT count(*) FROM seats WHERE game_id = ?1", game_id);
  }
  std::int64_t dice_steps(std::int64_t game_id) const {
    return number("SELECT count(*) + count(contribution) FROM game_dice WHERE game_id = ?1",
                  game_id);
  }
  std::int64_t finished(std::int64_t game_id) const {
    return number("SELECT count(*) FROM games WHERE id = ?1 AND status = 'finished'", game_id);
  }
  std::int64_t rematches(std::int64_t game_id) const {
    return number("SELECT count(*) FROM rematches WHERE game_id = ?1", game_id);
  }

  std::int64_t create_game() {
    const auto created = scot_->post(
        "/api/games", {{"scenario", "braveheart"}, {"side", "scotland"}, {"visibility", "public"}});
    EXPECT_EQ(created.status, 201) << created.body;
    return created.json()["game"].value("id", std::int64_t{0});
  }

  std::string uri_;
  TempDir dir_a_;
  TempDir dir_b_;
  std::unique_ptr<ServerProcess> a_;
  std::unique_ptr<ServerProcess> b_;
  std::optional<HttpClient> scot_;
  std::optional<HttpClient> eng_;
};

std::string redirect_game_path(std::int64_t game_id, const std::string& rest) {
  return "/api/games/" + std::to_string(game_id) + "/" + rest;
}

// A 307 to node a's path for `target`, with nothing else to do in it.
void expect_sent_to_a(const HttpResult& r, const std::string& target) {
  EXPECT_EQ(r.status, 307) << r.body;
  ASSERT_TRUE(r.headers.count("location")) << r.body;
  EXPECT_EQ(r.headers.at("location"), "/n/a" + target);
}

// The value of an unlabelled metric in Prometheus text, or -1 when it is not there.
TEST_F(MultiNodeRedirect, EveryGameScopedPostAtTheOtherNodeIsSentToTheHolderAndServedThere) {
  const auto game_id = create_game();
  ASSERT_GT(game_id, 0);
  // The creator waits at the open game on a: a holds it.
  auto creator = connect(a_->port(), game_id, scot_->session_cookie());
  ASSERT_TRUE(creator);
  creator->role = "scotland";

  // The join, sent to b, is sent to a and changes nothing at b.
  const auto join = redirect_game_path(game_id, "join");
  const auto at_b = post_at(b_->port(), *eng_, join, json::object());
  expect_sent_to_a(at_b, join);
  EXPECT_EQ(seats(game_id), 1);
  const auto joined = follow(at_b, *eng_, json::object());
  ASSERT_EQ(joined.status, 200) << joined.body;
  EXPECT_EQ(seats(game_id), 2);
  // The holder's room tells the creator, who is on a: what the redirect is for.
  bool told = false;
  while (!told && creator->read_one()) {
    told = creator->last.value("type", "") == "welcome" &&
           creator->last["players"]["england"] == "rd_eng";
  }
  EXPECT_TRUE(told) << "the creator at a was not told of the join";

  // Each dice step, sent to b, goes the same way.
  const auto scot_hand = draw_dice();
  const auto eng_hand = draw_dice();
  const auto dice = redirect_game_path(game_id, "dice");
  for (const auto& [who, body] :
       {std::pair{&*scot_, json{{"commitment", scot_hand.commitment}}},
        std::pair{&*eng_, json{{"commitment", eng_hand.commitment}}},
        std::pair{&*scot_, json{{"contribution", scot_hand.contribution}}},
        std::pair{&*eng_, json{{"contribution", eng_hand.contribution}}}}) {
    const auto before = dice_steps(game_id);
    const auto sent = post_at(b_->port(), *who, dice, body);
    expect_sent_to_a(sent, dice);
    EXPECT_EQ(dice_steps(game_id), before) << "b stored a dice step";
    const auto rolled = follow(sent, *who, body);
    ASSERT_EQ(rolled.status, 200) << rolled.body;
    EXPECT_EQ(dice_steps(game_id), before + 1);
  }
  EXPECT_EQ(number("SELECT count(*) FROM games WHERE id = ?1 AND status = 'active'", game_id), 1);

  // Resigning.
  const auto resign = redirect_game_path(game_id, "resign");
  const auto resign_at_b = post_at(b_->port(), *eng_, resign, json::object());
  expect_sent_to_a(resign_at_b, resign);
  EXPECT_EQ(finished(game_id), 0);
  const auto resigned = follow(resign_at_b, *eng_, json::object());
  ASSERT_EQ(resigned.status, 200) << resigned.body;
  EXPECT_EQ(finished(game_id), 1);

  // A rematch offered and accepted; the query, if any, goes along.
  const auto offer = redirect_game_path(game_id, "rematch/offer?from=lobby");
  const auto offer_at_b = post_at(b_->port(), *eng_, offer, json::object());
  expect_sent_to_a(offer_at_b, offer);
  EXPECT_EQ(rematches(game_id), 0);
  const auto offered = follow(offer_at_b, *eng_, json::object());
  ASSERT_EQ(offered.status, 200) << offered.body;
  EXPECT_EQ(rematches(game_id), 1);
  const auto accept = redirect_game_path(game_id, "rematch/accept");
  const auto accept_at_b = post_at(b_->port(), *scot_, accept, json::object());
  expect_sent_to_a(accept_at_b, accept);
  const auto accepted = follow(accept_at_b, *scot_, json::object());
  ASSERT_EQ(accepted.status, 200) << accepted.body;
  EXPECT_EQ(accepted.json()["rematch"]["state"], "accepted");

  // Cancelling an open game a holds.
  const auto other = create_game();
  auto waiting = connect(a_->port(), other, scot_->session_cookie());
  ASSERT_TRUE(waiting);
  const auto cancel = redirect_game_path(other, "cancel");
  const auto cancel_at_b = post_at(b_->port(), *scot_, cancel, json::object());
  expect_sent_to_a(cancel_at_b, cancel);
  EXPECT_EQ(number("SELECT count(*) FROM games WHERE id = ?1 AND status = 'open'", other), 1);
  const auto cancelled = follow(cancel_at_b, *scot_, json::object());
  ASSERT_EQ(cancelled.status, 200) << cancelled.body;

  // b counted what it sent away; a sent nothing away.
  EXPECT_EQ(metric_value(metrics_text(b_->port()), "blockfog_redirects_sent_total"), 9);
  EXPECT_EQ(metric_value(metrics_text(a_->port()), "blockfog_redirects_sent_total"), 0);
}

TEST_F(MultiNodeRedirect, AStrangersRequestIsRefusedWhereItLandsWithoutLearningTheHolder) {
  const auto created = scot_->post(
      "/api/games", {{"scenario", "braveheart"}, {"side", "scotland"}, {"visibility", "invite"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t game_id = created.json()["game"]["id"];
  const std::string token = created.json()["invite"];
  auto creator = connect(a_->port(), game_id, scot_->session_cookie());
  ASSERT_TRUE(creator);
  creator->role = "scotland";
  const auto join = redirect_game_path(game_id, "join");
  // Without the link the invite game is as absent at b as an unused id.
  const auto stranger = post_at(b_->port(), *eng_, join, json::object());
  EXPECT_EQ(stranger.status, 404) << stranger.body;
  EXPECT_EQ(stranger.headers.count("location"), 0U);
  // With it, b sends him to a, where he joins.
  const auto invited = post_at(b_->port(), *eng_, join, {{"invite", token}});
  expect_sent_to_a(invited, join);
  const auto joined = follow(invited, *eng_, {{"invite", token}});
  EXPECT_EQ(joined.status, 200) << joined.body;
  EXPECT_EQ(seats(game_id), 2);
}

TEST_F(MultiNodeRedirect, AGameNobodyHoldsIsTakenAndServedByTheNodeAsked) {
  const auto game_id = create_game();
  ASSERT_GT(game_id, 0);
  EXPECT_EQ(number("SELECT count(*) FROM game_leases WHERE game_id = ?1", game_id), 0);
  const auto joined =
      post_at(b_->port(), *eng_, redirect_game_path(game_id, "join"), json::object());
  ASSERT_EQ(joined.status, 200) << joined.body;
  EXPECT_EQ(seats(game_id), 2);
  EXPECT_EQ(number("SELECT count(*) FROM game_leases AS l JOIN nodes AS n USING (node_id)"
                   " WHERE l.game_id = ?1 AND l.expires_at IS NULL AND n.name = 'b'",
                   game_id),
            1);
  // b holds it now: a sends the next step there, and a client there too.
  const auto hand = draw_dice();
  const auto dice = redirect_game_path(game_id, "dice");
  const auto at_a = post_at(a_->port(), *scot_, dice, {{"commitment", hand.commitment}});
  EXPECT_EQ(at_a.status, 307) << at_a.body;
  EXPECT_EQ(at_a.headers.count("location") ? at_a.headers.at("location") : "", "/n/b" + dice);
  auto watcher = connect(a_->port(), game_id, "");
  ASSERT_TRUE(watcher && watcher->read_one());
  EXPECT_EQ(watcher->last.value("ws", ""), "/n/b/ws/games/" + std::to_string(game_id));
}

TEST_F(MultiNodeRedirect, ADrainedHoldersGamesAreServedByTheOtherNodeAtOnce) {
  const auto game_id = create_game();
  ASSERT_GT(game_id, 0);
  // The creator stays at the game through the drain: its room is not let go before.
  auto creator = connect(a_->port(), game_id, scot_->session_cookie());
  ASSERT_TRUE(creator);
  expect_sent_to_a(post_at(b_->port(), *eng_, redirect_game_path(game_id, "join"), json::object()),
                   redirect_game_path(game_id, "join"));
  EXPECT_EQ(a_->terminate(), 0) << a_->log();
  const auto drained = RedirectClock::now();
  // No lease to wait out, no game_moving: b serves the first request.
  const auto joined =
      post_at(b_->port(), *eng_, redirect_game_path(game_id, "join"), json::object());
  EXPECT_EQ(joined.status, 200) << joined.body;
  EXPECT_LT(RedirectClock::now() - drained, std::chrono::seconds(2));
  EXPECT_EQ(seats(game_id), 2);
}

TEST_F(MultiNodeRedirect, AHolderThatStopsAnsweringIsWaitedOutThenItsGameIsServedByTheOther) {
  const auto game_id = create_game();
  ASSERT_GT(game_id, 0);
  auto creator = connect(a_->port(), game_id, scot_->session_cookie());
  ASSERT_TRUE(creator);
  creator->role = "scotland";
  const auto join = redirect_game_path(game_id, "join");
  ASSERT_EQ(post_at(b_->port(), *eng_, join, json::object()).status, 307);

  ASSERT_EQ(::kill(a_->pid(), SIGSTOP), 0);
  const auto stopped = RedirectClock::now();
  // Until a's lease runs out b sends the join to a, then (a's heartbeat over 2 s old) says when
  // to come back; once it ran out b takes the game and serves it. Nothing is stored before.
  HttpResult last;
  int moving = 0;
  while (RedirectClock::now() - stopped < std::chrono::seconds(8)) {
    last = post_at(b_->port(), *eng_, join, json::object());
    if (last.status != 307 && last.status != 503) break;
    EXPECT_EQ(seats(game_id), 1) << "stored before the game was taken";
    if (last.status == 503) {
      ++moving;
      EXPECT_EQ(last.error_code(), "game_moving") << last.body;
      ASSERT_TRUE(last.headers.count("retry-after")) << last.body;
      const auto seconds = std::stoll(last.headers.at("retry-after"));
      EXPECT_GE(seconds, 1);
      EXPECT_LE(seconds, 3);
    } else {
      EXPECT_EQ(last.headers.count("location") ? last.headers.at("location") : "", "/n/a" + join);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const auto took = RedirectClock::now() - stopped;
  EXPECT_EQ(last.status, 200) << last.body;
  EXPECT_LT(took, std::chrono::seconds(5));
  EXPECT_EQ(seats(game_id), 2);
  ASSERT_EQ(::kill(a_->pid(), SIGCONT), 0);
  // The window between a 2 s old heartbeat and the lease's end (3 s) is a second long.
  EXPECT_GT(moving, 0) << "b never said the holder looked dead";
  EXPECT_EQ(a_->terminate(), 0) << a_->log();
}

TEST_F(MultiNodeRedirect, AWriteAfterTheHoldersLeaseWasTakenIsRefusedAndTheNextTryGoesOn) {
  const auto game_id = create_game();
  ASSERT_GT(game_id, 0);
  auto creator = connect(a_->port(), game_id, scot_->session_cookie());
  ASSERT_TRUE(creator);
  creator->role = "scotland";
  // b takes the game as it would once a's heartbeat lapsed, but with a running and sure it
  // still holds it: the window between a handler's look (send_to_holder) and its write, which
  // a node paused there would meet. Only the fence in the write's transaction can catch it.
  const auto fence = number(
      "UPDATE game_leases SET fence = nextval('game_lease_fence'), expires_at = NULL,"
      " node_id = (SELECT node_id FROM nodes WHERE name = 'b' AND expires_at > db_now_ms()"
      " ORDER BY started_at DESC LIMIT 1)"
      " WHERE game_id = ?1 RETURNING fence",
      game_id);
  ASSERT_GT(fence, 0) << "a held no lease of the game";

  const auto join = redirect_game_path(game_id, "join");
  const auto refused = post_at(a_->port(), *eng_, join, json::object());
  EXPECT_EQ(refused.status, 503) << refused.body;
  EXPECT_EQ(refused.error_code(), "game_moving") << refused.body;
  EXPECT_TRUE(refused.headers.count("retry-after")) << refused.body;
  EXPECT_EQ(seats(game_id), 1) << "a wrote the seat under a lease it no longer held";
  // a let go of the game: its client is told, and the next try is sent to b, which serves it.
  bool moved = false;
  while (!moved && creator->read_one()) moved = creator->last.value("type", "") == "moved";
  EXPECT_TRUE(moved) << "a's client was not told the game moved";
  const auto again = post_at(a_->port(), *eng_, join, json::object());
  EXPECT_EQ(again.status, 307) << again.body;
  EXPECT_EQ(again.headers.count("location") ? again.headers.at("location") : "", "/n/b" + join);
  const auto joined = follow(again, *eng_, json::object());
  EXPECT_EQ(joined.status, 200) << joined.body;
  EXPECT_EQ(seats(game_id), 2);
}

TEST_F(MultiNodeRedirect, EachNodeReportsItsOwnGamesAndTheirSumIsWhatTheDatabaseLeased) {
  std::vector<std::unique_ptr<Connection>> clients;
  std::vector<std::int64_t> games;
  for (int i = 0; i < 3; ++i) {
    const auto game_id = create_game();
    ASSERT_GT(game_id, 0);
    games.push_back(game_id);
    clients.push_back(connect(i < 2 ? a_->port() : b_->port(), game_id, scot_->session_cookie()));
    ASSERT_TRUE(clients.back());
  }
  // One more client, at the wrong node: told to go (moved).
  auto wrong = connect(b_->port(), games.front(), "");
  ASSERT_TRUE(wrong && wrong->read_one());
  EXPECT_EQ(wrong->last.value("type", ""), "moved");

  const std::map<std::string, int> expected = {{"a", 2}, {"b", 1}};
  std::int64_t sum = 0;
  for (const auto& [name, held] : expected) {
    const auto health = HttpClient(port_of(name)).get("/healthz");
    ASSERT_EQ(health.status, 200) << health.body;
    EXPECT_EQ(health.json()["node"], name);
    EXPECT_EQ(health.json()["games_held"], held) << health.body;
    EXPECT_EQ(health.json()["heartbeat"], "current") << health.body;
    EXPECT_EQ(number(kHeldByNode, name == "a" ? 1 : 2), held);
    const auto text = metrics_text(port_of(name));
    EXPECT_NE(text.find("\nblockfog_node_info{node=\"" + name + "\"} 1\n"), std::string::npos);
    EXPECT_EQ(metric_value(text, "blockfog_games_held"), held);
    EXPECT_EQ(metric_value(text, "blockfog_leases_taken_total"), held);
    EXPECT_EQ(metric_value(text, "blockfog_leases_lost_total"), 0);
    EXPECT_EQ(metric_value(text, "blockfog_moved_sent_total"), name == "b" ? 1 : 0);
    sum += metric_value(text, "blockfog_games_held");
  }
  EXPECT_EQ(sum,
            number("SELECT count(*) FROM game_leases AS l JOIN nodes AS n USING (node_id)"
                   " WHERE l.expires_at IS NULL AND n.expires_at > db_now_ms() AND ?1::bigint > 0",
                   1));

  // A node paused past its lease: the other takes its game, and once running again it lets go
  // of its rooms (its renewal finds the heartbeat lapsed). No game is held twice.
  ASSERT_EQ(::kill(b_->pid(), SIGSTOP), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(3500));
  auto moved_client = connect(a_->port(), games.back(), scot_->session_cookie());
  ASSERT_TRUE(moved_client && moved_client->read_one());
  EXPECT_NE(moved_client->last.value("type", ""), "moved") << moved_client->last;
  ASSERT_EQ(::kill(b_->pid(), SIGCONT), 0);
  json health_b;
  const auto resumed = RedirectClock::now();
  // b lets go of its rooms first and registers anew after (NodeLeases::on_lapse): between the
  // two it holds nothing and its heartbeat is still the lapsed one.
  while (RedirectClock::now() - resumed < std::chrono::seconds(5)) {
    health_b = HttpClient(b_->port()).get("/healthz").json();
    if (health_b.value("games_held", -1) == 0 && health_b.value("heartbeat", "") == "current") {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(health_b["games_held"], 0) << health_b;
  EXPECT_EQ(health_b["heartbeat"], "current") << health_b;
  EXPECT_EQ(HttpClient(a_->port()).get("/healthz").json()["games_held"], 3);
  EXPECT_EQ(number(kHeldByNode, 1), 3);
  EXPECT_EQ(number(kHeldByNode, 2), 0);
}

}  // namespace
}  // namespace blockfog::server::testing
