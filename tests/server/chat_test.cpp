// Chat through the real server: seated players always write; logged-in observers write only in
// a game created with observer_chat, which the game's details show; anonymous visitors never.

#include <gtest/gtest.h>

#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

std::string game_path(std::int64_t id) { return "/api/games/" + std::to_string(id); }

// A started game made by `scot` (Scotland) and joined by `eng`, with these create fields.
std::int64_t started_game(HttpClient& scot, HttpClient& eng, const json& fields) {
  json body = {{"scenario", "braveheart"}, {"side", "scotland"}};
  body.update(fields);
  const auto created = scot.post("/api/games", body);
  EXPECT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["game"]["id"];
  EXPECT_EQ(eng.post(game_path(id) + "/join", json::object()).status, 200);
  roll_dice(scot, eng, id);
  return id;
}

// Sends a chat line and waits for the pong behind it; the error it got, or "".
std::string chat_refusal(Connection& c, const std::string& text) {
  const auto before = c.errors.size();
  c.ws.send_json({{"v", 1}, {"type", "chat"}, {"text", text}});
  EXPECT_TRUE(c.barrier());
  return c.errors.size() == before ? "" : c.errors.back()["code"].get<std::string>();
}

json chat_history(int port, std::int64_t game_id) {
  auto late = connect(port, game_id, "", "?chat_since=0");
  EXPECT_TRUE(late && late->read_first_view());
  // A seated player's line was sent last: everything stored before it has arrived with it.
  while (late->chat.empty() || late->chat.back()["role"] == "observer") {
    if (!late->read_one()) break;
  }
  return late->chat;
}

TEST(ServerChat, ObserversWriteOnlyInGamesCreatedWithObserverChat) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto scot = register_user(server.port(), "chat_scot");
  auto eng = register_user(server.port(), "chat_eng");
  auto watcher = register_user(server.port(), "chat_watcher");

  const auto open_id = started_game(scot, eng, {{"observer_chat", true}});
  const auto closed_id = started_game(scot, eng, json::object());
  EXPECT_EQ(watcher.get(game_path(open_id)).json()["game"]["observer_chat"], true);
  EXPECT_EQ(watcher.get(game_path(closed_id)).json()["game"]["observer_chat"], false);

  // Observer chat on: the watcher's line reaches the players, marked as an observer's.
  auto player = connect(server.port(), open_id, scot.session_cookie());
  auto observer = connect(server.port(), open_id, watcher.session_cookie());
  auto anonymous = connect(server.port(), open_id, "");
  ASSERT_TRUE(player && observer && anonymous);
  ASSERT_TRUE(player->read_first_view() && observer->read_first_view() &&
              anonymous->read_first_view());
  EXPECT_EQ(observer->role, "observer");
  EXPECT_EQ(chat_refusal(*observer, "hello from the stands"), "");
  while (player->chat.empty()) ASSERT_TRUE(player->read_one());
  EXPECT_EQ(player->chat.back()["text"], "hello from the stands");
  EXPECT_EQ(player->chat.back()["role"], "observer");
  EXPECT_EQ(player->chat.back()["user"], "chat_watcher");
  // Whoever is not logged in still only reads.
  EXPECT_EQ(chat_refusal(*anonymous, "me too"), "chat_not_allowed");

  // Observer chat off (the default): refused, and nothing is stored.
  auto closed_player = connect(server.port(), closed_id, scot.session_cookie());
  auto closed_observer = connect(server.port(), closed_id, watcher.session_cookie());
  ASSERT_TRUE(closed_player && closed_observer);
  ASSERT_TRUE(closed_player->read_first_view() && closed_observer->read_first_view());
  EXPECT_EQ(chat_refusal(*closed_observer, "let me in"), "chat_not_allowed");
  EXPECT_EQ(chat_refusal(*closed_player, "good luck"), "");
  const auto history = chat_history(server.port(), closed_id);
  ASSERT_EQ(history.size(), 1U) << history.dump();
  EXPECT_EQ(history[0]["text"], "good luck");
}

TEST(ServerChat, ABadObserverChatFieldIsRefusedAndCreatesNothing) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto creator = register_user(server.port(), "chat_creator");
  const auto r = creator.post("/api/games", {{"scenario", "braveheart"}, {"observer_chat", "yes"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.error_code(), "bad_field");
  EXPECT_TRUE(creator.get("/api/games/mine").json()["games"].empty());
}

}  // namespace
}  // namespace blockfog::server::testing
