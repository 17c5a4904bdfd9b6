// Every bad input on the WebSocket gets its typed error and changes nothing; a bad client
// never affects another game.

#include <gtest/gtest.h>

#include <random>

#include "tests/server/db_peek.h"
#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

// Sends `text` on `c`, waits for the pong behind it, and returns the last error's code.
std::string error_after(Connection& c, const std::string& text) {
  const auto before = c.errors.size();
  c.ws.send(text);
  EXPECT_TRUE(c.barrier());
  if (c.errors.size() == before) return "(no error)";
  return c.errors.back()["code"];
}

TEST(ServerErrors, EachBadInputGetsItsTypedErrorAndChangesNothing) {
  TempDir dir;
  ServerProcess server(dir.path());
  Table table(server.port(), "errors");
  std::mt19937_64 rng(3);
  // Play until exactly one seat is awaited, so the other can act out of turn.
  for (int i = 0; i < 200; ++i) {
    const bool scot = !table.scotland->view["legal_actions"].empty();
    const bool eng = !table.england->view["legal_actions"].empty();
    if (scot != eng) break;
    ASSERT_TRUE(table.play_random(rng));
  }
  const bool scotland_acts = !table.scotland->view["legal_actions"].empty();
  ASSERT_NE(scotland_acts, !table.england->view["legal_actions"].empty());
  Connection& actor = table.seat(scotland_acts ? "scotland" : "england");
  Connection& idle = table.seat(scotland_acts ? "england" : "scotland");
  // Each connection sends at its own role's current view version.
  const std::int64_t seq = actor.seq;
  const std::int64_t actions = table.actions;
  const json legal = actor.view["legal_actions"].front();
  const json views_before[] = {table.scotland->view, table.england->view, table.observer->view};
  const std::int64_t seqs_before[] = {table.scotland->seq, table.england->seq, table.observer->seq};
  const auto log_before = logged_actions(server.db_path(), table.game_id).size();

  auto action = [&](const json& a, std::int64_t s) {
    return json{{"v", 1}, {"type", "action"}, {"seq", s}, {"action", a}}.dump();
  };
  EXPECT_EQ(error_after(actor, "{not json"), "malformed_json");
  EXPECT_EQ(error_after(actor, R"({"v":1,"type":"surrender_scotland"})"), "unknown_type");
  EXPECT_EQ(error_after(actor, R"({"v":2,"type":"ping"})"), "wrong_version");
  EXPECT_EQ(error_after(actor, R"({"v":1,"type":"action","action":{"kind":"pass"}})"),
            "missing_field");
  EXPECT_EQ(error_after(actor, R"({"v":1,"type":"action","seq":"one","action":{}})"), "bad_field");
  EXPECT_EQ(error_after(actor,
                        json{{"v", 1}, {"type", "chat"}, {"text", std::string(20000, 'x')}}.dump()),
            "frame_too_large");
  EXPECT_EQ(error_after(idle, action(legal, idle.seq)), "not_your_turn");
  EXPECT_EQ(error_after(*table.observer, action(legal, table.observer->seq)), "not_seated");
  EXPECT_EQ(error_after(actor, action({{"kind", "summon_dragons"}}, seq)), "malformed_action");
  // Well-formed but not legal now: a card play outside the card phase, or a card not held.
  EXPECT_EQ(error_after(actor, action({{"kind", "play_card"}, {"card", "no_such_card"}}, seq)),
            "malformed_action");
  json not_legal = {{"kind", "end_regroup"}};
  for (const auto& a : actor.view["legal_actions"]) {
    if (a == not_legal) not_legal = {{"kind", "finish_retreat"}};
  }
  const auto code = error_after(actor, action(not_legal, seq));
  EXPECT_TRUE(code == "illegal_action" || code == "not_your_turn") << code;
  EXPECT_EQ(error_after(*table.observer, json{{"v", 1}, {"type", "chat"}, {"text", "hi"}}.dump()),
            "chat_not_allowed");
  // The answer to an action carries the ref the client gave it.
  actor.send_action(not_legal, seq, "mine-1");
  ASSERT_TRUE(actor.read_answer("mine-1"));
  EXPECT_EQ(actor.last["type"], "error");
  // A stale seq (here: of another role's view) is answered with the current view, not applied.
  const auto errors = actor.errors.size();
  actor.send_action(legal, seq + 7, "mine-2");
  ASSERT_TRUE(actor.read_answer("mine-2"));
  EXPECT_EQ(actor.last["type"], "view");
  EXPECT_EQ(actor.last["stale"], true);
  EXPECT_EQ(actor.seq, seq);
  // Without the lines the client was sent already: from its log_size on, none.
  EXPECT_EQ(actor.last["log_from"], actor.last["view"]["log_size"]);
  EXPECT_TRUE(actor.last["view"]["log"].empty());
  EXPECT_EQ(actor.view["log"].size(), actor.view["log_size"].get<std::size_t>());
  EXPECT_EQ(actor.errors.size(), errors);
  ASSERT_TRUE(actor.barrier());

  // Nothing changed: same versions, same views, same log.
  int i = 0;
  for (Connection* c : {table.scotland.get(), table.england.get(), table.observer.get()}) {
    c->ws.send_json({{"v", 1}, {"type", "sync"}, {"chat_since", 0}});
    ASSERT_TRUE(c->barrier());
    EXPECT_EQ(c->seq, seqs_before[i++]) << c->role;
  }
  EXPECT_EQ(table.scotland->view, views_before[0]);
  EXPECT_EQ(table.england->view, views_before[1]);
  EXPECT_EQ(table.observer->view, views_before[2]);
  EXPECT_EQ(logged_actions(server.db_path(), table.game_id).size(), log_before);

  // Chat from a seat reaches everybody, and a reconnecting client gets the history.
  actor.ws.send_json({{"v", 1}, {"type", "chat"}, {"text", "well played"}});
  for (Connection* c : {table.scotland.get(), table.england.get(), table.observer.get()}) {
    while (c->chat.empty()) ASSERT_TRUE(c->read_one());
    EXPECT_EQ(c->chat.back()["text"], "well played");
    EXPECT_EQ(c->chat.back()["role"], actor.role);
  }
  auto late = connect(server.port(), table.game_id, "", "?chat_since=0");
  ASSERT_TRUE(late);
  while (late->chat.empty()) ASSERT_TRUE(late->read_one());
  EXPECT_EQ(late->chat.front()["text"], "well played");

  // Other games, and this one, are unaffected.
  Table other(server.port(), "other");
  EXPECT_TRUE(other.play_random(rng));
  EXPECT_TRUE(table.play_random(rng));
  EXPECT_EQ(logged_actions(server.db_path(), table.game_id).size(),
            static_cast<std::size_t>(table.actions));
  EXPECT_GT(table.actions, actions);
}

TEST(ServerErrors, FloodingAndHugeFramesCloseOnlyThatConnection) {
  TempDir dir;
  ServerProcess server(dir.path(), {"--ws-rate", "20"});  // the default limit
  Table table(server.port(), "flood");
  std::mt19937_64 rng(5);
  // A flooding client is throttled and then closed; a huge frame closes its connection.
  {
    auto flood = connect(server.port(), table.game_id, "");
    ASSERT_TRUE(flood);
    for (int i = 0; i < 200 && !flood->ws.is_closed(); ++i) {
      flood->ws.send_json({{"v", 1}, {"type", "ping"}});
    }
    while (flood->read_one()) {
    }
    bool limited = false;
    for (const auto& e : flood->errors) limited = limited || e["code"] == "rate_limited";
    EXPECT_TRUE(limited);
  }
  {
    auto huge = connect(server.port(), table.game_id, "");
    ASSERT_TRUE(huge);
    huge->ws.send(std::string(200 * 1024, ' '));
    while (huge->read_one()) {
    }
    EXPECT_TRUE(huge->ws.is_closed());
  }

  // The game on that server goes on.
  EXPECT_TRUE(table.play_random(rng));
  EXPECT_GE(table.actions, 1);
}

}  // namespace
}  // namespace blockfog::server::testing
