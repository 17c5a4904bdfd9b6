// The upgrade of deploy/README.md ("Upgrade with zero lost actions"): SIGTERM while a game is
// being played drains and exits 0, and the next server on the same database has every action
// that was acknowledged, tells nobody anything false, and lets the game go on.

#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "tests/deploy/match.h"
#include "tests/deploy/web_client.h"
#include "tests/server/db_peek.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

TEST(Upgrade, DrainThenStartLosesNoAcknowledgedAction) {
  TempDir dir;
  auto server =
      std::make_unique<ServerProcess>(dir.path(), std::vector<std::string>{"--drain-timeout", "3"});
  const Endpoint endpoint{server->port(), false, "127.0.0.1"};
  Agent scot(endpoint);
  Agent eng(endpoint);
  ASSERT_EQ(
      scot.post("/api/register", {{"username", "randolph"}, {"password", "pw-123456"}}).status,
      201);
  ASSERT_EQ(eng.post("/api/register", {{"username", "pembroke"}, {"password", "pw-123456"}}).status,
            201);
  const auto game_id = start_game(scot, eng);
  ASSERT_GT(game_id, 0);
  std::mt19937_64 rng(1306);
  std::int64_t acknowledged = 0;
  {
    Match match(endpoint, game_id, scot.cookie(), eng.cookie());
    ASSERT_TRUE(match.connect());
    for (int i = 0; i < 30; ++i) ASSERT_TRUE(match.play_random(rng)) << "at action " << i;
    acknowledged = 30;

    // One more action goes out as the stop begins: it is either committed (and then in the log)
    // or refused with `restarting`; never acknowledged and then lost.
    const char* role = match.seat("scotland").has_legal_actions() ? "scotland" : "england";
    Seat& actor = match.seat(role);
    const auto action = actor.view.at("legal_actions").at(0);
    ASSERT_TRUE(actor.ws.send(
        nlohmann::json{{"v", 1}, {"type", "action"}, {"seq", actor.seq}, {"action", action}}
            .dump()));
    EXPECT_EQ(server->terminate(), 0) << server->log();
    const auto views_before = actor.views;
    while (actor.read_frame()) {
    }
    if (actor.views > views_before) ++acknowledged;
    EXPECT_TRUE(actor.restarting) << "clients are told the server is restarting";
  }

  // The new version starts on the same database (migrations, then every game from its log).
  server = std::make_unique<ServerProcess>(dir.path());
  const auto log = logged_actions(server->db_path(), game_id);
  EXPECT_GE(static_cast<std::int64_t>(log.size()), acknowledged);
  EXPECT_LE(log.size(), 31u);
  const auto replayed = replay_record(stored_record(server->db_path(), game_id));
  ASSERT_TRUE(replayed);
  EXPECT_EQ(replayed->state_hash(), log.back().state_hash);

  const Endpoint restarted{server->port(), false, "127.0.0.1"};
  Match resumed(restarted, game_id, scot.cookie(), eng.cookie());
  ASSERT_TRUE(resumed.connect());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(resumed.play_random(rng)) << "after the restart, " << i;
  EXPECT_EQ(logged_actions(server->db_path(), game_id).size(), log.size() + 10);
  EXPECT_EQ(server->terminate(), 0);
}

}  // namespace
}  // namespace blockfog::server::testing
