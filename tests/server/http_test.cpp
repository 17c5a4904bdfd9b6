// The HTTP API through the real server: accounts and sessions, cross-site protection, login
// the lobby, records, static files, health and metrics.

#include <gtest/gtest.h>

#include <fstream>

#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

class ServerHttp : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_.path() / "web" / "js");
    std::ofstream(dir_.path() / "web" / "index.html") << "<!doctype html><title>Blockfog</title>";
    std::ofstream(dir_.path() / "web" / "js" / "app.js") << "export const x = 1;";
    std::ofstream(dir_.path() / "secret.txt") << "outside the web root";
    std::filesystem::create_symlink(dir_.path() / "secret.txt", dir_.path() / "web" / "link.txt");
    server_ = std::make_unique<ServerProcess>(dir_.path());
  }
  int port() const { return server_->port(); }

  TempDir dir_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(ServerHttp, AccountsAndSessions) {
  HttpClient alice(port());
  const auto registered =
      alice.post("/api/register", {{"username", "alice"}, {"password", "bannockburn"}});
  ASSERT_EQ(registered.status, 201) << registered.body;
  const auto& cookie = registered.headers.at("set-cookie");
  EXPECT_NE(cookie.find("HttpOnly"), std::string::npos);
  EXPECT_NE(cookie.find("SameSite=Lax"), std::string::npos);
  EXPECT_EQ(cookie.find("Secure"), std::string::npos);  // plain HTTP
  const auto me = alice.get("/api/me");
  EXPECT_EQ(me.json()["account"]["username"], "alice");
  EXPECT_EQ(me.headers.at("cache-control"), "no-store");  // an account's answers stay private

  HttpClient other(port());
  EXPECT_EQ(
      other.post("/api/register", {{"username", "ALICE"}, {"password", "stone-of-scone-1296"}})
          .error_code(),
      "name_taken");
  EXPECT_EQ(other.post("/api/register", {{"username", "a"}, {"password", "stone-of-scone-1296"}})
                .error_code(),
            "bad_field");
  EXPECT_EQ(other.request("POST", "/api/register", "{oops", {{"Content-Type", "application/json"}})
                .error_code(),
            "malformed_json");
  EXPECT_EQ(
      other.post("/api/login", {{"username", "alice"}, {"password", "wrong-password"}}).status,
      401);
  EXPECT_EQ(other.get("/api/me").status, 401);
  const auto login = other.post("/api/login", {{"username", "Alice"}, {"password", "bannockburn"}});
  EXPECT_EQ(login.status, 200) << login.body;
  EXPECT_EQ(other.get("/api/me").status, 200);

  EXPECT_EQ(alice.post("/api/logout", json::object()).status, 200);
  EXPECT_EQ(alice.get("/api/me").status, 401);
  EXPECT_EQ(other.get("/api/me").status, 200);  // another session of the same account
}

TEST_F(ServerHttp, StateChangesRefuseOtherSitesAndFormBodies) {
  HttpClient client(port());
  const std::string body = R"({"username":"mallory","password":"evil-plans-1314"})";
  EXPECT_EQ(client
                .request("POST", "/api/register", body,
                         {{"Content-Type", "application/json"}, {"Origin", "https://evil.example"}})
                .status,
            403);
  EXPECT_EQ(client.request("POST", "/api/register", body, {{"Content-Type", "text/plain"}}).status,
            415);
  EXPECT_EQ(client
                .request("POST", "/api/register", body,
                         {{"Content-Type", "application/json"},
                          {"Origin", "http://127.0.0.1:" + std::to_string(port())}})
                .status,
            201);
  EXPECT_EQ(client.request("GET", "/api/register").status, 405);
  EXPECT_EQ(client
                .request("POST", "/api/register", std::string(64 * 1024, ' '),
                         {{"Content-Type", "application/json"}})
                .status,
            413);
  // A cross-site WebSocket is refused too.
  WsClient ws;
  EXPECT_FALSE(ws.connect(port(), "/ws/games/1", "", "https://evil.example"));
  EXPECT_EQ(ws.refused_status(), 403);
}

TEST_F(ServerHttp, LobbyCreateListJoinAndInvite) {
  auto scot = register_user(port(), "wallace");
  auto eng = register_user(port(), "edward");
  auto third = register_user(port(), "comyn");
  HttpClient anonymous(port());
  EXPECT_EQ(anonymous.post("/api/games", {{"scenario", "braveheart"}}).status, 401);
  EXPECT_EQ(scot.post("/api/games", {{"scenario", "atlantis"}}).error_code(), "bad_field");
  EXPECT_EQ(scot.post("/api/games", {{"scenario", "braveheart"}, {"options", {{"dragons", true}}}})
                .error_code(),
            "bad_field");

  const auto created = scot.post("/api/games", {{"scenario", "braveheart"}, {"side", "england"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const json game = created.json()["game"];
  const std::string id = std::to_string(game["id"].get<int>());
  EXPECT_EQ(game["status"], "open");
  EXPECT_EQ(game["your_role"], "england");
  EXPECT_EQ(game["seed_sha256"].get<std::string>().size(), 64U);
  EXPECT_FALSE(game.contains("seed"));
  const auto open = anonymous.get("/api/games").json()["games"];
  ASSERT_EQ(open.size(), 1U);
  EXPECT_EQ(open[0]["id"], game["id"]);

  EXPECT_EQ(scot.post("/api/games/" + id + "/join", json::object()).error_code(), "seat_taken");
  const auto joined = eng.post("/api/games/" + id + "/join", json::object());
  ASSERT_EQ(joined.status, 200) << joined.body;
  // Both seats taken: the game starts once both players have rolled (docs/records.md, Dice).
  EXPECT_EQ(joined.json()["game"]["status"], "open");
  EXPECT_EQ(joined.json()["game"]["awaiting"], json::array({"scotland", "england"}));
  EXPECT_EQ(joined.json()["game"]["your_role"], "scotland");
  EXPECT_EQ(third.post("/api/games/" + id + "/join", json::object()).error_code(), "seat_taken");
  EXPECT_TRUE(anonymous.get("/api/games").json()["games"].empty());
  roll_dice(scot, eng, std::stoll(id));
  // Now it is a game to watch, for anybody.
  const auto live = anonymous.get("/api/games/live");
  ASSERT_EQ(live.status, 200) << live.body;
  ASSERT_EQ(live.json()["games"].size(), 1U);
  EXPECT_EQ(live.json()["games"][0]["id"], game["id"]);
  EXPECT_EQ(live.json()["games"][0]["status"], "active");
  EXPECT_FALSE(live.json()["games"][0].contains("seed"));

  // My games say whose turn it is (both seats choose a card first).
  const auto mine = eng.get("/api/games/mine").json()["games"];
  ASSERT_EQ(mine.size(), 1U);
  EXPECT_EQ(mine[0]["your_turn"], true);
  EXPECT_EQ(mine[0]["awaiting"].size(), 2U);
  const auto details = anonymous.get("/api/games/" + id).json()["game"];
  EXPECT_EQ(details["players"]["england"], "wallace");
  EXPECT_EQ(details["players"]["scotland"], "edward");
  EXPECT_FALSE(details.contains("seed"));
  EXPECT_EQ(anonymous.get("/api/games/" + id + "/record").status, 409);
  EXPECT_EQ(anonymous.get("/api/games/999").status, 404);

  // Invite-only games: hidden from the list and from strangers; the token admits.
  const auto invited = scot.post("/api/games", {{"scenario", "bruce"}, {"visibility", "invite"}});
  ASSERT_EQ(invited.status, 201);
  const std::string token = invited.json()["invite"];
  const std::string invite_id = std::to_string(invited.json()["game"]["id"].get<int>());
  EXPECT_TRUE(anonymous.get("/api/games").json()["games"].empty());
  EXPECT_EQ(third.get("/api/games/" + invite_id).status, 404);
  EXPECT_EQ(third.post("/api/games/" + invite_id + "/join", json::object()).status, 404);
  EXPECT_EQ(third.post("/api/games/" + invite_id + "/join", {{"invite", "wrong"}}).status, 404);
  EXPECT_EQ(anonymous.get("/api/invites/" + token).json()["game"]["id"].get<int>(),
            std::stoi(invite_id));
  EXPECT_EQ(third.post("/api/games/" + invite_id + "/join", {{"invite", token}}).status, 200);
  // An invite-only game under way is no game to watch for strangers.
  const auto live_now = anonymous.get("/api/games/live").json()["games"];
  ASSERT_EQ(live_now.size(), 1U);
  EXPECT_EQ(live_now[0]["id"], game["id"]);
}

TEST_F(ServerHttp, StaticFilesStayInsideTheWebRoot) {
  HttpClient client(port());
  const auto index = client.get("/");
  EXPECT_EQ(index.status, 200);
  EXPECT_EQ(index.headers.at("content-type"), "text/html; charset=utf-8");
  EXPECT_NE(index.body.find("Blockfog"), std::string::npos);
  const auto js = client.get("/js/app.js");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.headers.at("content-type"), "text/javascript; charset=utf-8");
  for (const char* bad : {"/../secret.txt", "/%2e%2e/secret.txt", "/js/..%2f..%2fsecret.txt",
                          "/link.txt", "/nothing.html", "/.hidden", "/js/%00app.js"}) {
    EXPECT_EQ(client.get(bad).status, 404) << bad;
  }
  EXPECT_EQ(client.request("DELETE", "/index.html").status, 405);
}

TEST_F(ServerHttp, HealthAndMetrics) {
  HttpClient client(port());
  const auto health = client.get("/healthz").json();
  EXPECT_EQ(health["status"], "ok");
  // The only node on SQLite: named after the host (no --node-name), holding the rooms it
  // loaded; no heartbeat to tell of.
  ASSERT_TRUE(health["node"].is_string()) << health;
  const std::string node = health["node"];
  EXPECT_FALSE(node.empty());
  EXPECT_EQ(health["games_held"], 0);
  EXPECT_FALSE(health.contains("heartbeat"));
  auto owner = register_user(port(), "healthy");
  const auto created = owner.post(
      "/api/games", {{"scenario", "braveheart"}, {"side", "scotland"}, {"visibility", "public"}});
  ASSERT_EQ(created.status, 201) << created.body;
  auto watcher = connect(port(), created.json()["game"]["id"], owner.session_cookie());
  ASSERT_TRUE(watcher);
  EXPECT_EQ(client.get("/healthz").json()["games_held"], 1);
  const auto node_metrics = metrics_text(port());
  EXPECT_NE(node_metrics.find("\nblockfog_node_info{node=\"" + node + "\"} 1\n"),
            std::string::npos);
  EXPECT_NE(node_metrics.find("\nblockfog_games_held 1\n"), std::string::npos);
  client.post("/api/login", {{"username", "nobody"}, {"password", "password1"}});
  // Metrics are the operator's (tests/server/security_test.cpp): read on its port.
  HttpClient operator_client(server_->metrics_port());
  const auto metrics = operator_client.get("/metrics");
  EXPECT_EQ(metrics.status, 200);
  for (const char* name :
       {"blockfog_connections{kind=\"websocket\"}", "blockfog_games_live",
        "blockfog_actions_applied_total", "blockfog_action_latency_seconds_bucket{le=\"+Inf\"}",
        "blockfog_errors_total{kind=\"bad_credentials\"} 1"}) {
    EXPECT_NE(metrics.body.find(name), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace blockfog::server::testing
