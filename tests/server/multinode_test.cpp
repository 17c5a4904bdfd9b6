// Several server nodes on one PostgreSQL database (docs/multi-node.md, sections 2 and 3), with
// real processes on the throwaway cluster of the storage_pg CTest fixture (ctest's
// server.multinode; skipped when BLOCKFOG_TEST_PG_URI_FILE is not set). Each game has one
// writer, the node holding its lease: a node that does not hold it sends the client there
// (moved); a dead node's game is taken by another within the lease and served from the log with
// every acknowledged action; a node paused past its lease writes nothing more to the game. The
// lobby of either node says who is online at the other, and a logout at one closes the
// session's sockets at the other. A signing key rotated while both serve signs at both.
// Registrations racing at both nodes for a tournament's last seats fill it and no more; rated
// games of one pair ending at both nodes at once each move the ratings from where the other
// left them.

#include <signal.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/command.h"
#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/pg_peek.h"
#include "tests/server/server_process.h"
#include "tests/server/tournament_helpers.h"
#include "tests/storage/test_store.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// Two nodes, a and b, on a new database of the cluster.
class MultiNode : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto cluster = storage::testing::test_postgres_uri();
    if (!cluster) GTEST_SKIP() << "needs the PostgreSQL cluster (ctest -R server.multinode)";
    uri_ = fresh_pg_database_for_test(*cluster, "blockfog");
    a_ = std::make_unique<ServerProcess>(dir_a_.path(), flags("a"));
    b_ = std::make_unique<ServerProcess>(dir_b_.path(), flags("b"));
  }

  std::vector<std::string> flags(const std::string& name) const {
    return {"--db", uri_, "--node-name", name};
  }

  std::int64_t number(const std::string& sql, std::int64_t game_id) const {
    return pg_number(uri_, sql, game_id);
  }

  std::string uri_;
  TempDir dir_a_;
  TempDir dir_b_;
  std::unique_ptr<ServerProcess> a_;
  std::unique_ptr<ServerProcess> b_;
};

// What a client connecting through one node met: the `moved` frames, in order, and the
// connection once a view came.
struct Reached {
  std::unique_ptr<Connection> connection;
  std::vector<json> moves;
};

// Opens the game on `port` as `cookie` until a view comes (or `deadline` passes), as a client
// behind a round-robin proxy that always lands on this node would: a `moved` to another node
// or a `retry_ms` is answered by trying this node again, after retry_ms (or 100 ms).
Reached open_until_served(int port, std::int64_t game_id, const std::string& cookie,
                          Clock::time_point deadline) {
  Reached reached;
  while (Clock::now() < deadline) {
    auto c = connect(port, game_id, cookie);
    if (!c) return reached;
    std::int64_t wait_ms = 100;
    while (c->read_one()) {
      if (c->last.at("type") == "moved") {
        reached.moves.push_back(c->last);
        wait_ms = c->last.value("retry_ms", std::int64_t{100});
        break;
      }
      if (c->seq >= 0) {
        reached.connection = std::move(c);
        return reached;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(std::max<std::int64_t>(wait_ms, 20)));
  }
  return reached;
}

// The first legal action a seat has, sent without waiting for its answer: its ref, or "".
std::string send_one(Table& table, std::string& role) {
  for (const char* seat : {"scotland", "england"}) {
    const auto& legal = table.seat(seat).view["legal_actions"];
    if (!legal.empty()) {
      role = seat;
      table.seat(seat).send_action(legal.front(), table.seat(seat).seq, "in-flight");
      return "in-flight";
    }
  }
  return "";
}

// Every acknowledged action is in the log at its place, and the log replays to its last hash.
void expect_log_keeps(const Table& table, const std::vector<LoggedAction>& log,
                      const json& record) {
  for (const auto& ack : table.acknowledged) {
    ASSERT_LE(ack.seq, static_cast<std::int64_t>(log.size())) << "acknowledged seq missing";
    const auto& logged = log.at(static_cast<std::size_t>(ack.seq - 1));
    bool found = false;
    for (const auto& [role, action] : ack.candidates) {
      found = found || (logged.role == role && logged.action == action);
    }
    EXPECT_TRUE(found) << "acknowledged seq " << ack.seq << " differs in the log";
  }
  const auto replayed = replay_record(record);
  ASSERT_TRUE(replayed);
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(replayed->state_hash(), log.back().state_hash);
}

constexpr const char* kFencesGoingDown =
    "SELECT count(*) FROM actions AS x JOIN actions AS y"
    " ON y.game_id = x.game_id AND y.seq = x.seq + 1"
    " WHERE x.game_id = ?1 AND (y.fence < x.fence OR x.fence IS NULL OR y.fence IS NULL)";

TEST_F(MultiNode, AClientAtTheOtherNodeIsSentToTheOwnerAndAKilledOwnersGameMovesWithinFiveSeconds) {
  Table table(a_->port(), "mnk");
  std::mt19937_64 rng(11);
  for (int i = 0; i < 40 && table.play_random(rng); ++i) {
  }
  ASSERT_FALSE(HasFailure());
  ASSERT_GT(table.actions, 0);

  // b does not hold the game: it sends the client to a, by a's name.
  auto at_b = connect(b_->port(), table.game_id, table.eng_http.session_cookie());
  ASSERT_TRUE(at_b && at_b->read_one());
  EXPECT_EQ(at_b->last, json({{"v", 1},
                              {"type", "moved"},
                              {"ws", "/n/a/ws/games/" + std::to_string(table.game_id)}}));
  EXPECT_FALSE(at_b->read_one()) << "the connection stays open after moved";

  // kill -9 of a with an action on its way.
  const auto acknowledged = table.actions;
  std::string role;
  const auto ref = send_one(table, role);
  a_->kill9();
  const auto killed = Clock::now();

  auto reached = open_until_served(b_->port(), table.game_id, table.scot_http.session_cookie(),
                                   killed + std::chrono::seconds(15));
  const auto took = Clock::now() - killed;
  ASSERT_TRUE(reached.connection) << "b never served the game";
  EXPECT_LT(took, std::chrono::seconds(5))
      << "served by b " << std::chrono::duration<double>(took).count() << " s after a died";
  EXPECT_EQ(reached.connection->role, "scotland");
  for (const auto& moved : reached.moves) {
    // Before a's lease ran out b said where it was, then when to come back.
    EXPECT_TRUE(moved.contains("retry_ms") ||
                moved.value("ws", "") == "/n/a/ws/games/" + std::to_string(table.game_id))
        << moved;
  }

  const auto log = logged_actions(uri_, table.game_id);
  const auto stored = static_cast<std::int64_t>(log.size());
  EXPECT_TRUE(stored == acknowledged || (!ref.empty() && stored == acknowledged + 1))
      << "stored " << stored << ", acknowledged " << acknowledged;
  expect_log_keeps(table, log, stored_record(uri_, table.game_id));

  // The game goes on at b, under a larger fence; along the log the fence never goes down.
  const auto fence_a = number("SELECT max(fence) FROM actions WHERE game_id = ?1", table.game_id);
  table.port = b_->port();
  table.actions = stored;
  table.connect_all();
  const auto before = table.actions;
  for (int i = 0; i < 10 && table.play_random(rng); ++i) {
  }
  if (table.actions > before) {
    EXPECT_GT(number("SELECT max(fence) FROM actions WHERE game_id = ?1", table.game_id), fence_a);
  }
  EXPECT_EQ(number(kFencesGoingDown, table.game_id), 0);
  EXPECT_EQ(number("SELECT count(*) FROM actions WHERE game_id = ?1", table.game_id),
            table.actions);
}

TEST_F(MultiNode, AnOwnerPausedPastItsLeaseLosesTheGameAndWritesNothingMoreToIt) {
  Table table(a_->port(), "mns");
  std::mt19937_64 rng(12);
  for (int i = 0; i < 20 && table.play_random(rng); ++i) {
  }
  ASSERT_FALSE(HasFailure());
  const auto acknowledged = table.actions;
  ASSERT_GT(acknowledged, 0);
  const auto fence_a = number("SELECT max(fence) FROM actions WHERE game_id = ?1", table.game_id);

  ASSERT_EQ(::kill(a_->pid(), SIGSTOP), 0);
  const auto stopped = Clock::now();
  // Sent while a sleeps: it reads the action and the chat lines only after b took the game.
  std::string role;
  const auto ref = send_one(table, role);
  ASSERT_FALSE(ref.empty());
  for (Connection* c : table.open()) {
    c->ws.send_json({{"v", 1}, {"type", "chat"}, {"text", "sent to a sleeping node"}});
  }

  auto reached =
      open_until_served(b_->port(), table.game_id, "", stopped + std::chrono::seconds(15));
  const auto took = Clock::now() - stopped;
  ASSERT_TRUE(reached.connection) << "b never served the game";
  EXPECT_LT(took, std::chrono::seconds(5));
  ASSERT_EQ(::kill(a_->pid(), SIGCONT), 0);

  // a's clients are told to go (moved), and the action that reached a is not acknowledged: a
  // may refuse it (its session was ended while it slept inside a transaction, so the write
  // fails as storage_unavailable: docs/multi-node.md, section 5) but never applies it.
  for (Connection* c : table.open()) {
    bool moved = false;
    while (c->read_one()) {
      if (c->last.at("type") == "moved") {
        moved = true;
        EXPECT_TRUE(c->last.contains("ws") || c->last.contains("retry_ms")) << c->last;
      }
      if (c->last.value("ref", "") == ref) {
        EXPECT_EQ(c->last.value("type", ""), "error")
            << c->role << ": the paused node answered " << c->last;
      }
    }
    EXPECT_TRUE(moved) << c->role << " was not told the game moved";
    EXPECT_TRUE(c->chat.empty()) << c->role << ": the paused node wrote a chat line";
  }
  EXPECT_EQ(number("SELECT count(*) FROM actions WHERE game_id = ?1", table.game_id), acknowledged);
  EXPECT_EQ(number("SELECT count(*) FROM chat WHERE game_id = ?1", table.game_id), 0)
      << "a chat line was stored without the game's lease";
  EXPECT_EQ(number("SELECT count(*) FROM actions WHERE game_id = ?1 AND fence = " +
                       std::to_string(fence_a),
                   table.game_id),
            acknowledged);
  expect_log_keeps(table, logged_actions(uri_, table.game_id), stored_record(uri_, table.game_id));

  // The game goes on at b; a, running again, still works and stops cleanly.
  table.port = b_->port();
  table.connect_all();
  const auto before = table.actions;
  for (int i = 0; i < 5 && table.play_random(rng); ++i) {
  }
  EXPECT_GT(table.actions, before);
  EXPECT_EQ(number(kFencesGoingDown, table.game_id), 0);
  EXPECT_EQ(number("SELECT count(*) FROM actions WHERE game_id = ?1 AND fence = " +
                       std::to_string(fence_a),
                   table.game_id),
            acknowledged);
  EXPECT_EQ(a_->terminate(), 0) << a_->log();
}

TEST_F(MultiNode, ADrainedNodeReleasesItsGamesAtOnce) {
  Table table(a_->port(), "mnd");
  std::mt19937_64 rng(13);
  for (int i = 0; i < 5 && table.play_random(rng); ++i) {
  }
  ASSERT_FALSE(HasFailure());
  EXPECT_EQ(a_->terminate(), 0) << a_->log();
  const auto drained = Clock::now();
  auto reached = open_until_served(b_->port(), table.game_id, table.eng_http.session_cookie(),
                                   drained + std::chrono::seconds(10));
  ASSERT_TRUE(reached.connection);
  // No lease to wait out: b takes the game at its first try.
  EXPECT_TRUE(reached.moves.empty()) << reached.moves.front();
  EXPECT_LT(Clock::now() - drained, std::chrono::seconds(2));
}

// The lobby of a node that does not hold a game still says whose turn it is and how far the
// game is: the holder shares its rooms' summaries through the database (docs/multi-node.md,
// section 4: at most a second old).
// The game as the lobby of the node on `port` describes it to a guest.
json lobby_game(int port, std::int64_t game_id) {
  const auto r = HttpClient(port).get("/api/games/" + std::to_string(game_id));
  EXPECT_EQ(r.status, 200) << r.body;
  return r.status == 200 ? r.json()["game"] : json::object();
}

TEST_F(MultiNode, APlayerAtOneNodeIsOnlineAtTheOtherAndALogoutThereClosesHisSockets) {
  Table table(a_->port(), "mno");
  ASSERT_FALSE(HasFailure());
  // Both players' clients are at a; b's lobby says they are online within a pass or two.
  const auto online_at_b = [&](const std::string& role) {
    return lobby_game(b_->port(), table.game_id)["last_active"].value(role, json()) == "online";
  };
  const auto within = [](auto&& holds, std::chrono::seconds limit) {
    const auto until = Clock::now() + limit;
    while (Clock::now() < until) {
      if (holds()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return holds();
  };
  EXPECT_TRUE(within([&] { return online_at_b("scotland") && online_at_b("england"); },
                     std::chrono::seconds(5)))
      << lobby_game(b_->port(), table.game_id).dump();
  // Scotland closes his client at a: b stops saying he is online.
  table.scotland.reset();
  EXPECT_TRUE(within([&] { return !online_at_b("scotland"); }, std::chrono::seconds(5)))
      << lobby_game(b_->port(), table.game_id).dump();
  EXPECT_TRUE(online_at_b("england"));

  // England logs out at b: his socket at a, opened with that session, is closed.
  HttpClient at_b(b_->port());
  at_b.set_session_cookie(table.eng_http.session_cookie());
  const auto out = at_b.post("/api/logout", json::object());
  ASSERT_EQ(out.status, 200) << out.body;
  const auto logged_out = Clock::now();
  while (!table.england->ws.is_closed() && Clock::now() - logged_out < std::chrono::seconds(8)) {
    table.england->ws.read(std::chrono::milliseconds(500));
  }
  EXPECT_TRUE(table.england->ws.is_closed()) << "a kept the logged-out session's socket open";
  EXPECT_LT(Clock::now() - logged_out, std::chrono::seconds(5));
  EXPECT_TRUE(within([&] { return !online_at_b("england"); }, std::chrono::seconds(5)));
}

TEST_F(MultiNode, TheOtherNodesLobbySaysWhoseTurnItIs) {
  Table table(a_->port(), "mnl");
  std::mt19937_64 rng(14);
  const auto path = "/api/games/" + std::to_string(table.game_id);
  const auto summary = [&](int port) {
    const auto game = HttpClient(port).get(path).json()["game"];
    return json{{"awaiting", game["awaiting"]}, {"seq", game["seq"]}};
  };
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 4 && table.play_random(rng); ++i) {
    }
    ASSERT_FALSE(HasFailure());
    const auto at_a = summary(a_->port());
    ASSERT_FALSE(at_a["awaiting"].empty()) << at_a;
    const auto until = Clock::now() + std::chrono::seconds(5);
    json at_b = summary(b_->port());
    while (at_b != at_a && Clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      at_b = summary(b_->port());
    }
    EXPECT_EQ(at_b, at_a) << "round " << round << ": b's lobby does not follow a's game";
  }
}

TEST_F(MultiNode, ASigningKeyRotatedWhileTheNodesServeSignsAtEveryNodeWithinSeconds) {
  Table table(a_->port(), "mnk");
  const auto path = "/api/games/" + std::to_string(table.game_id);
  ASSERT_EQ(table.eng_http.post(path + "/resign", json::object()).status, 200);
  const auto signed_by = [&](int port) {
    const auto r = HttpClient(port).get(path + "/record");
    return r.status == 200 ? r.json()["signature"].value("key_id", "") : "";
  };
  const auto before = signed_by(a_->port());
  ASSERT_FALSE(before.empty());
  ASSERT_EQ(signed_by(b_->port()), before);

  const auto rotated = run_program(BLOCKFOG_SERVER_BIN, {"--rotate-signing-key", "--db", uri_});
  ASSERT_EQ(rotated.status, 0) << rotated.output;
  const auto keys = HttpClient(b_->port()).get("/api/server-key").json();
  const std::string current = keys.value("current", "");
  ASSERT_FALSE(current.empty()) << keys;
  ASSERT_NE(current, before);
  // Each node reads the current key every 5 s: within that (and a second's slack) both sign
  // with the new one, and neither signs with the retired one again.
  for (const int port : {a_->port(), b_->port()}) {
    const auto until = Clock::now() + std::chrono::seconds(6);
    std::string now = signed_by(port);
    while (now != current && Clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      now = signed_by(port);
    }
    EXPECT_EQ(now, current) << "node " << port << " still signs with " << now;
  }
  EXPECT_EQ(signed_by(a_->port()), current);
}

TEST_F(MultiNode, PlayersRegisteringAtBothNodesAtOnceNeverOverfillATournament) {
  // Twelve players, six at each node, ask for the four seats of each tournament at once.
  std::vector<HttpClient> players;
  for (int i = 0; i < 12; ++i) {
    players.push_back(
        register_user(i % 2 == 0 ? a_->port() : b_->port(), "mnt" + std::to_string(i)));
  }
  HttpClient organiser = register_user(a_->port(), "mnt_org");
  for (int t = 0; t < 3; ++t) {
    const auto created = organiser.post("/api/tournaments", swiss_request(1, 4));
    ASSERT_EQ(created.status, 201) << created.body;
    const std::int64_t id = created.json()["tournament"]["id"];
    std::atomic<bool> go{false};
    std::vector<HttpResult> answers(players.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < players.size(); ++i) {
      threads.emplace_back([&, i] {
        while (!go) std::this_thread::yield();
        answers[i] = players[i].post(tournament_path(id, "/register"), json::object());
      });
    }
    go = true;
    for (auto& thread : threads) thread.join();
    int seated = 0;
    for (const auto& answer : answers) {
      if (answer.status == 200) {
        ++seated;
      } else {
        EXPECT_EQ(answer.error_code(), "tournament_full") << answer.body;
      }
    }
    EXPECT_EQ(seated, 4) << "tournament " << id;
    const auto listed = HttpClient(b_->port()).get(tournament_path(id)).json();
    EXPECT_EQ(listed["tournament"]["players"].size(), 4u) << listed;
  }
}

// A started rated game between `scotland` and `england`, both at the same node.
std::int64_t start_rated_game(HttpClient& scotland, HttpClient& england) {
  const auto created = scotland.post(
      "/api/games", {{"scenario", "braveheart"}, {"side", "scotland"}, {"rated", true}});
  EXPECT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["game"]["id"];
  const auto joined = england.post("/api/games/" + std::to_string(id) + "/join", json::object());
  EXPECT_EQ(joined.status, 200) << joined.body;
  roll_dice(scotland, england, id);
  return id;
}

TEST_F(MultiNode, RatedGamesOfOnePairEndingAtBothNodesAtOnceEachMoveTheRatingsOnFromTheOther) {
  // Per pair, two rated games in opposite seats, one held at each node, resigned at once.
  constexpr int kPairs = 8;
  struct Pair {
    std::string first_name;
    std::string second_name;
    HttpClient first_at_a;
    HttpClient second_at_a;
    HttpClient first_at_b;
    HttpClient second_at_b;
    std::int64_t game_at_a = 0;
    std::int64_t game_at_b = 0;
  };
  std::vector<std::unique_ptr<Pair>> pairs;
  for (int i = 0; i < kPairs; ++i) {
    const auto first = "mnr" + std::to_string(i) + "f";
    const auto second = "mnr" + std::to_string(i) + "s";
    auto pair = std::make_unique<Pair>(Pair{first, second, register_user(a_->port(), first),
                                            register_user(a_->port(), second),
                                            HttpClient(b_->port()), HttpClient(b_->port())});
    pair->first_at_b.set_session_cookie(pair->first_at_a.session_cookie());
    pair->second_at_b.set_session_cookie(pair->second_at_a.session_cookie());
    pair->game_at_a = start_rated_game(pair->first_at_a, pair->second_at_a);
    pair->game_at_b = start_rated_game(pair->second_at_b, pair->first_at_b);
    pairs.push_back(std::move(pair));
  }
  // The first wins at a, the second at b: both ratings move in both games.
  std::atomic<bool> go{false};
  std::vector<HttpResult> answers(2 * kPairs);
  std::vector<std::thread> threads;
  for (int i = 0; i < kPairs; ++i) {
    Pair& pair = *pairs[i];
    threads.emplace_back([&, i] {
      while (!go) std::this_thread::yield();
      answers[2 * i] = pair.second_at_a.post(
          "/api/games/" + std::to_string(pair.game_at_a) + "/resign", json::object());
    });
    threads.emplace_back([&, i] {
      while (!go) std::this_thread::yield();
      answers[2 * i + 1] = pair.first_at_b.post(
          "/api/games/" + std::to_string(pair.game_at_b) + "/resign", json::object());
    });
  }
  go = true;
  for (auto& thread : threads) thread.join();
  for (const auto& answer : answers) EXPECT_EQ(answer.status, 200) << answer.body;

  // Each player's history is one chain: his second game starts where his first left him, and
  // his rating is where the second left him.
  HttpClient reader(a_->port());
  for (const auto& pair : pairs) {
    for (const auto& name : {pair->first_name, pair->second_name}) {
      const auto mine = reader.get("/api/players/" + name + "/ratings").json();
      EXPECT_EQ(mine.at("player").at("games"), 2) << mine;
      const auto& history = mine.at("history");
      ASSERT_EQ(history.size(), 2u) << mine;
      EXPECT_EQ(history[1].at("before"), history[0].at("after")) << name << ": " << mine;
      EXPECT_EQ(history[1].at("after"), mine.at("player").at("rating")) << mine;
    }
  }
}

}  // namespace
}  // namespace blockfog::server::testing
