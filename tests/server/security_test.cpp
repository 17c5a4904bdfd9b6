// The defences of docs/security.md through the real server: every route refuses a wrong
// method, a cross-site change and a missing login before its handler runs (and so changes
// nothing), metrics stay on the operator's port, unknown host names are refused, password
// guessing is slowed per (account, address) pair, password hashing is bounded, sessions per
// account are capped, logout and the cap close an ended session's sockets, weak passwords are
// refused, rematches count as created games, confirmation e-mails are bounded per recipient
// and per address and carry nothing of the requester's.

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "tests/server/db_peek.h"
#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/notice_endpoints.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

class Security : public ::testing::Test {
 protected:
  void SetUp() override { start(); }
  void start(std::vector<std::string> flags = {}) {
    server_.reset();
    std::filesystem::create_directories(dir_.path() / "web");
    std::ofstream(dir_.path() / "web" / "index.html") << "<!doctype html><title>Blockfog</title>";
    server_ = std::make_unique<ServerProcess>(dir_.path(), std::move(flags));
  }
  int port() const { return server_->port(); }
  std::string stored() const { return db_fingerprint(server_->db_path()); }
  std::string origin() const { return "http://127.0.0.1:" + std::to_string(port()); }

  TempDir dir_;
  std::unique_ptr<ServerProcess> server_;
};

struct RouteCase {
  std::string path;
  std::set<std::string> methods;  // what the route takes (GET also answers HEAD)
  std::set<std::string> login;    // the methods of those that need a login
};

TEST_F(Security, EveryRouteChecksMethodOriginAndLoginBeforeItsHandler) {
  auto alice = register_user(port(), "alice");
  auto bob = register_user(port(), "bob");
  const auto created = alice.post("/api/games", {{"scenario", "braveheart"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string game = "/api/games/" + std::to_string(created.json()["game"]["id"].get<int>());
  // bob's own game: the one bob may cancel when the walk reaches the handler.
  const auto own = bob.post("/api/games", {{"scenario", "braveheart"}});
  ASSERT_EQ(own.status, 201) << own.body;
  const std::string bob_game = "/api/games/" + std::to_string(own.json()["game"]["id"].get<int>());
  const std::vector<RouteCase> routes = {
      {"/api/register", {"POST"}, {}},
      {"/api/login", {"POST"}, {}},
      {"/api/logout", {"POST"}, {}},
      {"/api/me", {"GET"}, {"GET"}},
      {"/api/scenarios", {"GET"}, {}},
      {"/api/games", {"GET", "POST"}, {"POST"}},
      {"/api/games/mine", {"GET"}, {"GET"}},
      {game, {"GET"}, {}},
      {game + "/join", {"POST"}, {"POST"}},
      {game + "/record", {"GET"}, {}},
      {game + "/replay/0", {"GET"}, {}},
      {"/api/invites/0123456789abcdef0123456789abcdef", {"GET"}, {}},
      {game + "/resign", {"POST"}, {"POST"}},
      {bob_game + "/cancel", {"POST"}, {"POST"}},
      {game + "/rematch/offer", {"POST"}, {"POST"}},
      {"/api/me/vacation", {"GET", "POST"}, {"GET", "POST"}},
  };
  // A body that would do something if a handler ran it: an account, a game, a seat.
  const std::string body = R"({"username":"mallory","password":"a-long-passphrase",)"
                           R"("scenario":"braveheart"})";
  int reached = 0;
  for (const auto& route : routes) {
    for (const std::string method : {"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"}) {
      for (const bool logged_in : {false, true}) {
        for (const bool foreign : {false, true}) {
          SCOPED_TRACE(method + " " + route.path + (logged_in ? " with" : " without") +
                       " cookie, " + (foreign ? "foreign" : "same") + " origin");
          const std::string as = method == "HEAD" ? std::string("GET") : method;
          const bool allowed = route.methods.contains(as);
          const bool changes = method != "GET" && method != "HEAD";
          int expected = 0;  // 0: the handler is reached
          if (!allowed) {
            expected = 405;
          } else if (changes && foreign) {
            expected = 403;
          } else if (route.login.contains(as) && !logged_in) {
            expected = 401;
          }
          std::map<std::string, std::string> headers = {{"Content-Type", "application/json"}};
          headers["Origin"] = foreign ? "https://evil.example" : origin();
          if (!foreign && !changes) headers.erase("Origin");
          if (foreign) headers["Referer"] = "https://evil.example/page";
          HttpClient client(port());
          // bob's session: logging it out would end the walk's cookie, so logout is sent
          // without a cookie when it would be reached (checked on its own below).
          const bool would_logout = route.path == "/api/logout" && expected == 0;
          if (logged_in && !would_logout) client.set_session_cookie(bob.session_cookie());
          const auto before = stored();
          const auto r = client.request(method, route.path, body, headers);
          if (expected == 0) {
            ++reached;
            EXPECT_NE(r.status, 405);
            EXPECT_NE(r.status, 401);
            EXPECT_NE(r.error_code(), "forbidden") << r.body;
            continue;
          }
          EXPECT_EQ(r.status, expected) << r.body;
          if (expected == 405) {
            ASSERT_TRUE(r.headers.contains("allow"));
            for (const auto& m : route.methods) {
              EXPECT_NE(r.headers.at("allow").find(m), std::string::npos);
            }
          }
          EXPECT_EQ(stored(), before) << "a refused request changed the database";
        }
      }
    }
  }
  EXPECT_GT(reached, 20);
  EXPECT_EQ(bob.get("/api/me").status, 200) << "the walk must not have ended bob's session";
}

TEST_F(Security, LinksAndOtherMethodsCannotActForALoggedInPlayer) {
  auto alice = register_user(port(), "alice");
  auto bob = register_user(port(), "bob");
  const auto created = alice.post("/api/games", {{"scenario", "braveheart"}});
  const std::string join =
      "/api/games/" + std::to_string(created.json()["game"]["id"].get<int>()) + "/join";
  const auto before = stored();
  // GET with a JSON body does not register anybody.
  HttpClient stranger(port());
  EXPECT_EQ(stranger
                .request("GET", "/api/register",
                         R"({"username":"linked","password":"a-long-passphrase"})",
                         {{"Content-Type", "application/json"}})
                .status,
            405);
  // A link on another site (a top-level GET, with the Lax cookie) or a PUT takes no seat.
  EXPECT_EQ(bob.request("GET", join, "", {{"Referer", "https://evil.example/"}}).status, 405);
  EXPECT_EQ(bob.request("PUT", join, "{}", {{"Content-Type", "application/json"}}).status, 405);
  // ...and logs nobody out.
  EXPECT_EQ(bob.request("GET", "/api/logout").status, 405);
  EXPECT_EQ(stored(), before);
  EXPECT_EQ(bob.get("/api/me").status, 200);
  const auto mine = alice.get("/api/games/mine");
  ASSERT_EQ(mine.status, 200) << mine.body;
  EXPECT_EQ(mine.json()["games"][0]["status"], "open") << mine.body;
}

TEST_F(Security, MetricsAreServedOnlyOnTheOperatorsPort) {
  HttpClient client(port());
  EXPECT_EQ(client.get("/metrics").status, 404);
  EXPECT_EQ(client.get("/healthz").status, 200);
  ASSERT_GT(server_->metrics_port(), 0);
  HttpClient operator_client(server_->metrics_port());
  const auto metrics = operator_client.get("/metrics");
  EXPECT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.body.find("blockfog_actions_applied_total"), std::string::npos);
  // The operator's port serves nothing else: no API, no pages, no WebSockets.
  EXPECT_EQ(operator_client.get("/api/scenarios").status, 404);
  EXPECT_EQ(operator_client.get("/").status, 404);
  WsClient ws;
  EXPECT_FALSE(ws.connect(server_->metrics_port(), "/ws/games/1", ""));
}

TEST_F(Security, UnknownHostNamesAreRefused) {
  HttpClient client(port());
  const std::string rebound = "rebound.example:" + std::to_string(port());
  const auto before = stored();
  // A DNS-rebinding page: its own name as Host, its Origin matching that Host.
  const auto r = client.request(
      "POST", "/api/register", R"({"username":"rebound","password":"a-long-passphrase"})",
      {{"Content-Type", "application/json"}, {"Host", rebound}, {"Origin", "http://" + rebound}});
  EXPECT_EQ(r.status, 421) << r.body;
  EXPECT_EQ(client.request("GET", "/", "", {{"Host", rebound}}).status, 421);
  EXPECT_EQ(stored(), before);
  // Addresses and localhost are served.
  EXPECT_EQ(client.request("GET", "/api/scenarios", "", {{"Host", "localhost"}}).status, 200);
  EXPECT_EQ(client.request("GET", "/api/scenarios").status, 200);

  // A configured public name is served.
  start({"--allowed-host", "play.example"});
  HttpClient named(port());
  EXPECT_EQ(named.request("GET", "/api/scenarios", "", {{"Host", "Play.Example"}}).status, 200);
  EXPECT_EQ(named.request("GET", "/api/scenarios", "", {{"Host", rebound}}).status, 421);
}

TEST_F(Security, GuessingIsSlowedPerAccountAndAddressWithoutLockingTheOwnerOut) {
  register_user(port(), "robert", "the-bruce-1306");
  HttpClient attacker(Endpoint{port(), false, "127.0.0.2"});
  auto guess = [&] {
    return attacker.post("/api/login", {{"username", "robert"}, {"password", "wrong-guess"}});
  };
  // Five free failures, a sixth that starts the delay, then a refusal until it passes.
  for (int i = 1; i <= 6; ++i) EXPECT_EQ(guess().status, 401) << "guess " << i;
  const auto slowed = guess();
  EXPECT_EQ(slowed.status, 429);
  EXPECT_EQ(slowed.error_code(), "too_many_attempts");
  EXPECT_EQ(slowed.headers.at("retry-after"), "1");
  // The owner, at another address, is not locked out.
  HttpClient owner(Endpoint{port(), false, "127.0.0.3"});
  EXPECT_EQ(
      owner.post("/api/login", {{"username", "robert"}, {"password", "the-bruce-1306"}}).status,
      200);
  // The delay doubles with each further failure of the pair.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_EQ(guess().status, 401);
  const auto longer = guess();
  EXPECT_EQ(longer.status, 429);
  EXPECT_EQ(longer.headers.at("retry-after"), "2");
}

TEST_F(Security, PasswordHashingIsBoundedPerAddress) {
  start({"--password-cost", "15"});  // hashes as slow as in production, so that they overlap
  register_user(port(), "douglas", "castle-dangerous-1307");
  std::atomic<int> busy{0};
  std::atomic<int> answered{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      HttpClient client(port());
      for (int i = 0; i < 6; ++i) {
        const auto r = client.post(
            "/api/login", {{"username", "douglas"}, {"password", "castle-dangerous-1307"}});
        if (r.status == 429 && r.error_code() == "rate_limited") ++busy;
        if (r.status == 200) ++answered;
      }
    });
  }
  // Meanwhile other requests of the same address are answered.
  HttpClient other(port());
  EXPECT_EQ(other.get("/api/scenarios").status, 200);
  for (auto& t : threads) t.join();
  EXPECT_GT(busy.load(), 0) << "four clients of one address hashed at once";
  EXPECT_GT(answered.load(), 0);
}

TEST_F(Security, NewPasswordsAreHashedAtTheConfiguredCostAndOldOnesStillLogIn) {
  register_user(port(), "wishart", "bishop-of-glasgow-1297");  // the test servers' cost 10
  EXPECT_NE(stored().find("scrypt$1024$8$1$"), std::string::npos);
  start({"--password-cost", "12"});
  register_user(port(), "lamberton", "bishop-of-st-andrews-1297");
  EXPECT_NE(stored().find("scrypt$4096$8$1$"), std::string::npos);
  HttpClient client(port());
  EXPECT_EQ(
      client.post("/api/login", {{"username", "wishart"}, {"password", "bishop-of-glasgow-1297"}})
          .status,
      200);
  EXPECT_EQ(
      client.post("/api/login", {{"username", "wishart"}, {"password", "wrong-guess"}}).status,
      401);
}

TEST_F(Security, AnAccountHoldsABoundedNumberOfSessions) {
  auto first = register_user(port(), "comyn", "greyfriars-dumfries-1306");
  HttpClient later(port());
  for (int i = 0; i < 24; ++i) {
    ASSERT_EQ(
        later.post("/api/login", {{"username", "comyn"}, {"password", "greyfriars-dumfries-1306"}})
            .status,
        200);
  }
  EXPECT_EQ(later.get("/api/me").status, 200);  // the newest session works
  EXPECT_EQ(first.get("/api/me").status, 401);  // the oldest ended
  const auto fingerprint = stored();
  const auto sessions_at = fingerprint.find("[sessions]\n");
  ASSERT_NE(sessions_at, std::string::npos);
  const auto next_table = fingerprint.find("\n[", sessions_at + 1);
  const auto end = next_table == std::string::npos ? fingerprint.size() : next_table + 1;
  const auto rows = fingerprint.substr(sessions_at, end - sessions_at);
  EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), 1 + 20);
}

TEST_F(Security, LogoutClosesTheSessionsSockets) {
  Table table(port(), "logout");
  table.connect_all();
  const auto actions_before = logged_actions(server_->db_path(), table.game_id).size();
  EXPECT_EQ(table.scot_http.post("/api/logout", json::object()).status, 200);
  // The socket is closed; nothing it sends afterwards is applied.
  const auto legal = table.scotland->view["legal_actions"];
  if (!legal.empty()) table.scotland->send_action(legal[0], table.scotland->seq, "after");
  for (int i = 0; i < 100 && !table.scotland->ws.is_closed(); ++i) table.scotland->read_one();
  EXPECT_TRUE(table.scotland->ws.is_closed());
  EXPECT_EQ(logged_actions(server_->db_path(), table.game_id).size(), actions_before);
  // England's socket (another session) stays.
  EXPECT_TRUE(table.england->barrier());
}

// The cap of sessions per account ends the oldest session as a logout would: its sockets too.
TEST_F(Security, ASessionEndedByTheSessionCapClosesItsSockets) {
  Table table(port(), "evicted");
  const auto actions_before = logged_actions(server_->db_path(), table.game_id).size();
  HttpClient elsewhere(port());
  for (int i = 0; i < 20; ++i) {  // the cap: 20 newer sessions
    ASSERT_EQ(
        elsewhere.post("/api/login", {{"username", "evicted_scot"}, {"password", "correct horse"}})
            .status,
        200);
  }
  EXPECT_EQ(table.scot_http.get("/api/me").status, 401);  // the first session ended
  const auto legal = table.scotland->view["legal_actions"];
  if (!legal.empty()) table.scotland->send_action(legal[0], table.scotland->seq, "after");
  for (int i = 0; i < 100 && !table.scotland->ws.is_closed(); ++i) table.scotland->read_one();
  EXPECT_TRUE(table.scotland->ws.is_closed());
  EXPECT_EQ(logged_actions(server_->db_path(), table.game_id).size(), actions_before);
  // The other player's socket stays, and the newest session still opens one.
  EXPECT_TRUE(table.england->barrier());
  auto again = connect(port(), table.game_id, elsewhere.session_cookie());
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->read_first_view());
  EXPECT_EQ(again->role, "scotland");
}

TEST_F(Security, WeakPasswordsAreRefusedAtRegistration) {
  HttpClient client(port());
  const auto before = stored();
  for (const std::string weak :
       {"password", "12345678", "        ", "aaaaaaaa", "abcabcabc", "Qwertyuiop", "xxrobertxx",
        "password1234", "Passw0rd!", "P@ssword1", "letmein!", "monkey123", "qwerty1234"}) {
    const auto r = client.post("/api/register", {{"username", "robert"}, {"password", weak}});
    EXPECT_EQ(r.status, 400) << weak;
    EXPECT_EQ(r.error_code(), "bad_field") << weak;
  }
  EXPECT_EQ(stored(), before);
  EXPECT_EQ(client.post("/api/register", {{"username", "robert"}, {"password", "loch-trool-1307"}})
                .status,
            201);
}

TEST_F(Security, PagesCarryAStrictContentSecurityPolicy) {
  const auto page = HttpClient(port()).get("/");
  ASSERT_EQ(page.status, 200);
  const auto& csp = page.headers.at("content-security-policy");
  EXPECT_NE(csp.find("script-src 'self'"), std::string::npos);
  EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos);
  EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos);
}

TEST_F(Security, GameCreationHasPerAccountQuotas) {
  auto alice = register_user(port(), "alice");
  auto bob = register_user(port(), "bob");
  auto create = [&] { return alice.post("/api/games", {{"scenario", "braveheart"}}); };
  // At most ten games wait for an opponent at once.
  std::vector<int> ids;
  for (int i = 0; i < 10; ++i) {
    const auto r = create();
    ASSERT_EQ(r.status, 201) << r.body;
    ids.push_back(r.json()["game"]["id"]);
  }
  auto before = stored();
  EXPECT_EQ(create().status, 409);
  EXPECT_EQ(stored(), before);
  // Started games leave room for more, within a burst of twenty requests to create (the
  // refused one counted: a flood is measured in requests).
  for (int id : ids) {
    ASSERT_EQ(bob.post("/api/games/" + std::to_string(id) + "/join", json::object()).status, 200);
  }
  for (int i = 0; i < 9; ++i) {
    const auto r = create();
    ASSERT_EQ(r.status, 201) << r.body;
    const auto id = r.json()["game"]["id"].get<int>();
    ASSERT_EQ(bob.post("/api/games/" + std::to_string(id) + "/join", json::object()).status, 200);
  }
  before = stored();
  const auto fast = create();
  EXPECT_EQ(fast.status, 429);
  EXPECT_EQ(fast.error_code(), "rate_limited");
  EXPECT_EQ(stored(), before);
}

// Accepting a rematch creates a game: it takes from the acceptor's game-creation quota, so a
// resign-offer-accept loop stops where creating games would. (With one game an hour after the
// burst, no token comes back while the test runs.)
TEST_F(Security, RematchesCountAgainstTheGameQuota) {
  start({"--games-per-hour", "1"});
  auto alice = register_user(port(), "alice");
  auto bob = register_user(port(), "bob");
  const auto path = [](std::int64_t id, const std::string& what) {
    return "/api/games/" + std::to_string(id) + "/" + what;
  };
  // Bob spends 19 of his burst of 20 on games he cancels.
  for (int i = 0; i < 19; ++i) {
    const auto r = bob.post("/api/games", {{"scenario", "braveheart"}});
    ASSERT_EQ(r.status, 201) << r.body;
    ASSERT_EQ(bob.post(path(r.json()["game"]["id"], "cancel"), json::object()).status, 200);
  }
  const auto created = alice.post("/api/games", {{"scenario", "braveheart"}});
  ASSERT_EQ(created.status, 201) << created.body;
  std::int64_t game = created.json()["game"]["id"];
  ASSERT_EQ(bob.post(path(game, "join"), json::object()).status, 200);
  roll_dice(alice, bob, game);
  // The first rematch takes his last game; the next is refused as a 21st creation would be.
  for (int round = 0; round < 2; ++round) {
    ASSERT_EQ(alice.post(path(game, "resign"), json::object()).status, 200);
    ASSERT_EQ(alice.post(path(game, "rematch/offer"), json::object()).status, 200);
    const auto before = stored();
    const auto accepted = bob.post(path(game, "rematch/accept"), json::object());
    if (round == 0) {
      ASSERT_EQ(accepted.status, 200) << accepted.body;
      game = accepted.json()["rematch"]["game_id"];
      roll_dice(alice, bob, game);
      continue;
    }
    EXPECT_EQ(accepted.status, 429) << accepted.body;
    EXPECT_EQ(accepted.error_code(), "rate_limited");
    EXPECT_FALSE(accepted.headers.at("retry-after").empty());
    EXPECT_EQ(stored(), before);  // no game, and the offer still stands
    const auto creating = bob.post("/api/games", {{"scenario", "braveheart"}});
    EXPECT_EQ(creating.status, 429);
    EXPECT_EQ(creating.error_code(), accepted.error_code());
  }
  // Declining costs nothing: it creates no game.
  EXPECT_EQ(bob.post(path(game, "rematch/decline"), json::object()).status, 200);
}

// Confirmation e-mails: fresh accounts cannot send many to one stranger (a budget per
// mailbox, however the address is spelled), one client cannot send to many (a budget per
// client address), and the e-mail says nothing the requester chose but the address.
TEST_F(Security, ConfirmationEmailsAreBoundedPerRecipientAndPerAddress) {
  SmtpServer smtp(dir_.path());
  start({"--smtp-host", "localhost", "--smtp-port", std::to_string(smtp.port()), "--smtp-starttls",
         "off", "--smtp-from", "turns@blockfog.example", "--trusted-proxy", "127.0.0.1"});
  int accounts = 0;
  const auto account = [&] {
    return register_user(port(), "Buy_Cheap_Pills_" + std::to_string(++accounts));
  };
  const auto ask = [](HttpClient& client, const std::string& email, const std::string& from) {
    return client.post("/api/notices/email", {{"email", email}}, {{"X-Forwarded-For", from}});
  };
  const auto refused_storing_nothing = [&](HttpClient& client, const std::string& email,
                                           const std::string& from) {
    const auto before = stored();
    const auto r = ask(client, email, from);
    EXPECT_EQ(r.status, 429) << email << " " << r.body;
    EXPECT_EQ(r.error_code(), "rate_limited");
    EXPECT_FALSE(r.headers.at("retry-after").empty());
    EXPECT_EQ(stored(), before) << email;
  };

  // Three to one mailbox, each from an account and address of its own; the fourth is refused,
  // however the address is spelled.
  int address = 0;
  for (const std::string email :
       {"victim@example.org", "Victim+blockfog@Example.ORG", "vic.tim@example.org"}) {
    auto client = account();
    const auto r = ask(client, email, "192.0.2." + std::to_string(++address));
    ASSERT_EQ(r.status, 202) << email << " " << r.body;
  }
  auto fourth = account();
  refused_storing_nothing(fourth, "VICTIM@example.org", "192.0.2.9");
  ASSERT_TRUE(smtp.wait_for(3, std::chrono::seconds(20)));
  const auto sent = smtp.messages();
  ASSERT_EQ(sent.size(), 3u);
  for (const auto& message : sent) {
    EXPECT_EQ(message.find("Buy_Cheap_Pills"), std::string::npos) << message;
    EXPECT_NE(message.find("/api/notices/confirm/"), std::string::npos) << message;
  }

  // Five from one client address to five mailboxes; the sixth is refused without taking from
  // its mailbox's budget: the same mailbox from another client address gets its e-mail.
  for (int i = 1; i <= 5; ++i) {
    auto client = account();
    const auto r = ask(client, "friend" + std::to_string(i) + "@example.org", "198.51.100.7");
    ASSERT_EQ(r.status, 202) << r.body;
  }
  auto sixth = account();
  refused_storing_nothing(sixth, "friend6@example.org", "198.51.100.7");
  EXPECT_EQ(ask(sixth, "friend6@example.org", "198.51.100.8").status, 202);
  ASSERT_TRUE(smtp.wait_for(9, std::chrono::seconds(20)));
  EXPECT_EQ(smtp.messages().size(), 9u);
}

// Sends `count` chat lines at once, then waits for the pong behind them: the errors they got.
std::vector<json> send_chat_lines(Connection& c, const std::string& text, int count) {
  const auto before = c.errors.size();
  for (int i = 0; i < count; ++i) {
    c.ws.send_json({{"v", 1}, {"type", "chat"}, {"text", text + " " + std::to_string(i)}});
  }
  EXPECT_TRUE(c.barrier());
  return {c.errors.begin() + static_cast<std::ptrdiff_t>(before), c.errors.end()};
}

TEST_F(Security, ActionsWithFieldsOfTheirOwnAreRefusedAndNotStored) {
  Table table(port(), "fields");
  const json legal = table.scotland->view["legal_actions"];
  ASSERT_FALSE(legal.empty());
  json padded = legal[0];
  padded["note"] = "<img src=x onerror=alert(1)>" + std::string(2000, 'x');
  const auto before = stored();
  table.scotland->send_action(padded, table.scotland->seq, "padded");
  ASSERT_TRUE(table.scotland->read_answer("padded"));
  ASSERT_FALSE(table.scotland->errors.empty());
  EXPECT_EQ(table.scotland->errors.back()["code"], "malformed_action");
  EXPECT_EQ(stored(), before);
  // The same action without the extra field is applied, and stored exactly as the engine
  // writes it.
  table.scotland->send_action(legal[0], table.scotland->seq, "plain");
  ASSERT_TRUE(table.scotland->read_answer("plain"));
  EXPECT_NE(table.scotland->last["type"], "error") << table.scotland->last.dump();
  const auto logged = logged_actions(server_->db_path(), table.game_id);
  ASSERT_EQ(logged.size(), 1U);
  EXPECT_EQ(logged[0].action, legal[0]);
}

TEST_F(Security, ChatHasQuotasPerAccountAndPerGame) {
  Table table(port(), "chatty");
  // One account: a burst of ten lines, then one a second.
  const auto scot_errors = send_chat_lines(*table.scotland, "scot", 14);
  ASSERT_GE(scot_errors.size(), 2U);
  EXPECT_EQ(scot_errors.back()["code"], "rate_limited");
  EXPECT_NE(scot_errors.back()["message"].get<std::string>().find("too fast"), std::string::npos);
  // The game: fifteen lines at once from all writers together, then two a second.
  const auto eng_errors = send_chat_lines(*table.england, "eng", 10);
  ASSERT_FALSE(eng_errors.empty());
  EXPECT_EQ(eng_errors.back()["code"], "rate_limited");
  EXPECT_NE(eng_errors.back()["message"].get<std::string>().find("busy"), std::string::npos);
  // An accepted line is stored before it is broadcast, so it may reach the observer after
  // the senders' pongs: read until every accepted line came (or the connection timed out).
  const auto accepted = (14U - scot_errors.size()) + (10U - eng_errors.size());
  while (table.observer->chat.size() < accepted && table.observer->read_one()) {
  }
  EXPECT_TRUE(table.observer->barrier());
  const auto stored_lines = table.observer->chat.size();
  EXPECT_EQ(stored_lines, accepted);
  EXPECT_LE(stored_lines, 15U + 2U * 2U);  // the burst, and two seconds' worth at most
  EXPECT_GE(stored_lines, 10U);
}

TEST_F(Security, AGamesStoredChatIsBounded) {
  Table table(port(), "full");
  add_chat_lines(server_->db_path(), table.game_id, 4999);
  // A line is stored before it is broadcast or refused: read until its answer came.
  auto say = [](Connection& c, const std::string& text) -> json {
    const auto errors = c.errors.size();
    c.ws.send_json({{"v", 1}, {"type", "chat"}, {"text", text}});
    while (c.errors.size() == errors) {
      if (!c.chat.empty() && c.chat.back().value("text", "") == text) return c.chat.back();
      if (!c.read_one()) return "closed";
    }
    return c.errors.back();
  };
  EXPECT_EQ(say(*table.scotland, "the last line").value("text", ""), "the last line");
  const auto refused = say(*table.england, "one too many");
  EXPECT_EQ(refused.value("code", ""), "chat_not_allowed") << refused.dump();
  EXPECT_NE(refused.value("message", "").find("full"), std::string::npos);
}

TEST_F(Security, OpenGamesLeaveMemoryWhenNobodyWatches) {
  auto alice = register_user(port(), "alice");
  auto bob = register_user(port(), "bob");
  const auto rooms_before = metric_value(port(), "blockfog_rooms_loaded");
  const auto created = alice.post("/api/games", {{"scenario", "braveheart"}, {"side", "scotland"}});
  ASSERT_EQ(created.status, 201);
  const std::int64_t id = created.json()["game"]["id"];
  {
    auto watcher = connect(port(), id, alice.session_cookie());
    ASSERT_TRUE(watcher && watcher->barrier());
    EXPECT_EQ(metric_value(port(), "blockfog_rooms_loaded"), rooms_before + 1);
  }
  auto rooms = metric_value(port(), "blockfog_rooms_loaded");
  for (int i = 0; i < 100 && rooms != rooms_before; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    rooms = metric_value(port(), "blockfog_rooms_loaded");
  }
  EXPECT_EQ(rooms, rooms_before);
  // The game is loaded again for the next visitor, and its creator hears it start.
  auto creator = connect(port(), id, alice.session_cookie());
  ASSERT_TRUE(creator);
  creator->role = "scotland";
  ASSERT_TRUE(creator->barrier());
  ASSERT_EQ(bob.post("/api/games/" + std::to_string(id) + "/join", json::object()).status, 200);
  roll_dice(alice, bob, id);
  EXPECT_TRUE(creator->read_first_view());
  // A refused stranger's upgrade to an invitation loads nothing.
  const auto invite =
      alice.post("/api/games", {{"scenario", "braveheart"}, {"visibility", "invite"}});
  ASSERT_EQ(invite.status, 201);
  const std::int64_t hidden = invite.json()["game"]["id"];
  const auto loaded = metric_value(port(), "blockfog_rooms_loaded");
  WsClient stranger;
  EXPECT_FALSE(
      stranger.connect(port(), "/ws/games/" + std::to_string(hidden), bob.session_cookie()));
  EXPECT_EQ(metric_value(port(), "blockfog_rooms_loaded"), loaded);
}

// docs/protocol.md (malformed_json): a text frame that is not UTF-8 closes the connection
// with 1007, as RFC 6455 8.1 requires, and changes nothing.
TEST_F(Security, AFrameThatIsNotUtf8ClosesItsSocketWith1007) {
  Table table(port(), "utf");
  const auto before = stored();
  ASSERT_TRUE(table.scotland->ws.send("{\"v\":1,\"type\":\"chat\",\"text\":\"\xff\xfe\"}"));
  EXPECT_FALSE(table.scotland->ws.read());
  EXPECT_EQ(table.scotland->ws.close_code(), 1007);
  EXPECT_EQ(stored(), before);
  EXPECT_TRUE(table.england->barrier());
}

}  // namespace
}  // namespace blockfog::server::testing
