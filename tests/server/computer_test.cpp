// The computer opponent in the product: games against the computer through the real server. The
// computer's seat is stored and shown, it acts whenever its seat is awaited (after a kill -9 too),
// its thinking runs off the network threads, and an ended game drops its pending thinking.

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/db_peek.h"
#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/random_walk.h"
#include "tests/server/server_process.h"
#include "tests/server/test_client.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

// Created and started: the player has rolled his dice (the computer's are the server's).
json create_computer_game(HttpClient& http, const std::string& level,
                          const std::string& side = "scotland") {
  const auto created =
      http.post("/api/games", {{"scenario", "braveheart"}, {"side", side}, {"computer", level}});
  EXPECT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["game"]["id"];
  EXPECT_EQ(created.json()["game"]["awaiting"], json::array({side})) << created.body;
  const auto hand = draw_dice();
  EXPECT_EQ(commit_dice(http, id, hand).status, 200);
  const auto revealed = reveal_dice(http, id, hand);
  EXPECT_EQ(revealed.status, 200) << revealed.body;
  return revealed.json()["game"];
}

std::int64_t actions_of(const std::filesystem::path& db, std::int64_t game_id,
                        const std::string& role) {
  std::int64_t n = 0;
  for (const auto& a : logged_actions(db, game_id)) n += a.role == role;
  return n;
}

// Waits (up to `seconds`) until the computer logged an action in the game as `role`.
bool wait_for_computer(const std::filesystem::path& db, std::int64_t game_id,
                       const std::string& role, std::int64_t more_than, int seconds = 120) {
  for (int i = 0; i < seconds * 10; ++i) {
    if (actions_of(db, game_id, role) > more_than) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

TEST(ComputerGame, StartsOnceThePlayerRolledWithTheComputerSeatMarkedAndUnrated) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto http = register_user(server.port(), "solo");
  const auto game = create_computer_game(http, "normal");
  EXPECT_EQ(game["status"], "active");
  EXPECT_EQ(game["players"]["scotland"], "solo");
  EXPECT_EQ(game["players"]["england"], "Computer (normal)");
  EXPECT_TRUE(game["computer"]["scotland"].is_null());
  EXPECT_EQ(game["computer"]["england"], json({{"level", "normal"}, {"stand_in", false}}));
  EXPECT_EQ(game["rated"], false);
  EXPECT_EQ(game["your_role"], "scotland");
  // The lobby's list of games under way shows it the same way.
  const auto live = http.get("/api/games/live").json()["games"];
  ASSERT_EQ(live.size(), 1U);
  EXPECT_EQ(live[0]["computer"]["england"]["level"], "normal");
  // Nobody can sign in as the computer's account.
  HttpClient other(server.port());
  EXPECT_EQ(other.post("/api/login", {{"username", "~computer"}, {"password", "whatever12"}})
                .error_code(),
            "bad_field");
}

TEST(ComputerGame, BadInputIsRefusedWithATypedErrorAndChangesNothing) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto http = register_user(server.port(), "solo");
  const auto before = db_fingerprint(server.db_path());
  const auto refused = [&](const json& body) {
    const auto r = http.post("/api/games", body);
    EXPECT_EQ(r.status, 400) << r.body;
    return r.error_code();
  };
  EXPECT_EQ(refused({{"scenario", "braveheart"}, {"computer", "expert"}}), "bad_field");
  EXPECT_EQ(refused({{"scenario", "braveheart"}, {"computer", 3}}), "bad_field");
  EXPECT_EQ(refused({{"scenario", "braveheart"}, {"side", "wales"}, {"computer", "easy"}}),
            "bad_field");
  EXPECT_EQ(refused({{"scenario", "agincourt"}, {"computer", "easy"}}), "bad_field");
  EXPECT_EQ(refused({{"scenario", "braveheart"}, {"computer", "easy"}, {"stand_in", true}}),
            "bad_field");
  EXPECT_EQ(refused({{"scenario", "braveheart"}, {"computer", "easy"}, {"rated", true}}),
            "bad_field");
  EXPECT_EQ(refused({{"scenario", "braveheart"}, {"stand_in", true}, {"rated", true}}),
            "bad_field");
  EXPECT_EQ(db_fingerprint(server.db_path()), before);
}

// A whole game turn: the human plays until the computer has answered, through the same
// WebSocket views; the stored record replays with the engine (verify). The human only goes
// forward (random_walk.h): with nothing forward to do it waits for the computer, whose answer
// then always comes; a human who took back each card he chose would cancel the computer's
// thinking every time and could starve it for the whole walk.
TEST(ComputerGame, TheComputerAnswersAndTheRecordReplays) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto http = register_user(server.port(), "solo");
  const auto game = create_computer_game(http, "easy", "england");
  const std::int64_t id = game["id"];
  auto me = connect(server.port(), id, http.session_cookie());
  ASSERT_TRUE(me && me->read_first_view());
  EXPECT_EQ(me->role, "england");
  std::mt19937_64 rng(5);
  int mine = 0;
  for (int step = 0; step < 400 && actions_of(server.db_path(), id, "scotland") < 3; ++step) {
    const auto legal = forward_actions(me->view["legal_actions"]);
    if (legal.empty()) {
      // The computer is to act: its action changes this seat's view.
      ASSERT_TRUE(me->read_one()) << "the computer did not answer";
      continue;
    }
    const auto ref = "a" + std::to_string(step);
    me->send_action(legal[rng() % legal.size()], me->seq, ref);
    ASSERT_TRUE(me->read_answer(ref));
    ++mine;
  }
  EXPECT_GT(mine, 0);
  EXPECT_GE(actions_of(server.db_path(), id, "scotland"), 3);
  const auto record = stored_record(server.db_path(), id);
  EXPECT_NE(replay_record(record), nullptr);
  // A seat the computer plays refuses a human: the game's only human sits at the other one.
  EXPECT_TRUE(me->errors.empty());
}

TEST(ComputerGame, ARestartResumesTheComputerWhoseSeatIsAwaited) {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(dir.path());
  auto http = register_user(server->port(), "solo");
  // Hard thinks for a while (ai/player.h): the kill comes before its first action.
  const std::int64_t id = create_computer_game(http, "hard")["id"];
  server->kill9();
  ASSERT_EQ(actions_of(server->db_path(), id, "england"), 0)
      << "the computer acted before the kill: the test needs it still thinking";
  server = std::make_unique<ServerProcess>(dir.path());
  EXPECT_TRUE(wait_for_computer(server->db_path(), id, "england", 0));
}

// Games against the computer at hard level think (one worker thread: a queue of decisions of
// up to 2 s each) while a game between two humans goes on: every one of its actions is
// answered while the computer is still thinking, so no network or room thread waits for it.
// Before each action the queue is topped up to kQueued decisions (a new game's first decision
// each), so that every action, however slow the machine, is sent and answered while they are
// thought, rather than ten actions racing one fixed queue. A slow machine takes more games
// than the burst of the hourly limit, which is off. (The latency with and without them is
// measured in bench/RESULTS.md.)
TEST(ComputerGame, OtherGamesAreAnsweredWhileTheComputerThinks) {
  constexpr std::int64_t kQueued = 3;
  TempDir dir;
  ServerProcess server(dir.path(), {"--games-per-hour", "0"});
  auto http = register_user(server.port(), "solo");
  Table table(server.port(), "humans");
  const auto waiting = [&] {
    return metric_value(server.port(), "blockfog_computer_decisions_waiting");
  };
  std::mt19937_64 rng(11);
  int games = 0;
  for (int i = 0; i < 10; ++i) {
    while (waiting() < kQueued) {
      ASSERT_LT(games++, 100) << "the computer's decisions end as soon as they are queued";
      ASSERT_FALSE(create_computer_game(http, "hard").is_null());
    }
    ASSERT_TRUE(table.play_random(rng));
    EXPECT_GT(waiting(), 0) << "action " << i << " was answered only once the computer's "
                            << kQueued << " decisions were thought";
  }
  EXPECT_EQ(table.actions, 10);
  EXPECT_GE(games, kQueued);
}

TEST(ComputerGame, AResignationDropsThePendingThinking) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto http = register_user(server.port(), "solo");
  const std::int64_t first = create_computer_game(http, "hard")["id"];
  const std::int64_t second = create_computer_game(http, "hard")["id"];
  const auto resigned =
      http.post("/api/games/" + std::to_string(second) + "/resign", json::object());
  ASSERT_EQ(resigned.status, 200) << resigned.body;
  ASSERT_TRUE(wait_for_computer(server.db_path(), first, "england", 0));
  for (int i = 0;
       i < 600 && metric_value(server.port(), "blockfog_computer_decisions_waiting") != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(metric_value(server.port(), "blockfog_computer_decisions_waiting"), 0);
  EXPECT_EQ(actions_of(server.db_path(), second, "england"), 0);
  EXPECT_EQ(metric_value(server.port(), "blockfog_computer_decisions_total"), 1);
}

}  // namespace
}  // namespace blockfog::server::testing
