// Promise 2 of docs/architecture.md through the real server: kill -9 in the middle of a game,
// restart, and the game goes on at the same view versions with the same state, no acknowledged
// action missing. Also: the snapshot cache agrees with the replay of the log, and SIGTERM drains.

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "rules/hots/module.h"
#include "tests/server/db_peek.h"
#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"
#include "tests/server/stored_games.h"
#include "tests/server/test_client.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

// `flags`: the server's, at both starts.
void kill_nine_mid_game(const std::vector<std::string>& flags) {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(dir.path(), flags);
  Table table(server->port(), "crash");
  std::mt19937_64 rng(7);
  for (int i = 0; i < 60 && table.play_random(rng); ++i) {
  }
  ASSERT_FALSE(::testing::Test::HasFailure());
  const std::int64_t acknowledged = table.actions;
  ASSERT_GT(acknowledged, 0);
  const json scot_view = table.scotland->view;
  const json eng_view = table.england->view;
  const json observer_view = table.observer->view;
  const std::int64_t versions[] = {table.scotland->seq, table.england->seq, table.observer->seq};

  // One more action is in flight when the server dies: it may or may not have committed.
  std::optional<std::pair<std::string, json>> in_flight;
  for (const char* role : {"scotland", "england"}) {
    const auto& legal = table.seat(role).view["legal_actions"];
    if (!in_flight && !legal.empty()) in_flight.emplace(role, legal.front());
  }
  if (in_flight) {
    const auto& seat = table.seat(in_flight->first);
    table.seat(in_flight->first).send_action(in_flight->second, seat.seq);
  }
  server->kill9();

  server = std::make_unique<ServerProcess>(dir.path(), flags);
  table.port = server->port();
  table.connect_all();
  const auto log = logged_actions(server->db_path(), table.game_id);
  const auto resumed = static_cast<std::int64_t>(log.size());
  ASSERT_TRUE(resumed == acknowledged || (in_flight && resumed == acknowledged + 1))
      << "resumed at " << resumed << ", acknowledged " << acknowledged;
  if (resumed == acknowledged) {
    // The same state: every seat sees exactly what it saw before the crash, at the same view
    // version (restored from the log, not counted again from zero).
    EXPECT_EQ(table.scotland->view, scot_view);
    EXPECT_EQ(table.england->view, eng_view);
    EXPECT_EQ(table.observer->view, observer_view);
    EXPECT_EQ(table.scotland->seq, versions[0]);
    EXPECT_EQ(table.england->seq, versions[1]);
    EXPECT_EQ(table.observer->seq, versions[2]);
  } else {
    EXPECT_GE(table.scotland->seq, versions[0]);
    EXPECT_GE(table.england->seq, versions[1]);
    EXPECT_GE(table.observer->seq, versions[2]);
  }
  table.actions = resumed;

  // Every acknowledged action is in the log, in order, and the log replays to its hash chain.
  for (const auto& ack : table.acknowledged) {
    const auto& logged = log.at(static_cast<std::size_t>(ack.seq - 1));
    bool found = false;
    for (const auto& [role, action] : ack.candidates) {
      found = found || (logged.role == role && logged.action == action);
    }
    EXPECT_TRUE(found) << "acknowledged seq " << ack.seq << " differs in the log";
  }
  const auto record = stored_record(server->db_path(), table.game_id);
  const auto replayed = replay_record(record);
  ASSERT_TRUE(replayed);
  EXPECT_EQ(replayed->state_hash(), log.back().state_hash);

  // The snapshot is only a cache, and it agrees with the replay of the log up to its seq.
  const auto snapshot = latest_snapshot(server->db_path(), table.game_id);
  ASSERT_TRUE(snapshot);
  const auto restored =
      hots::module().from_snapshot(record.at("rules_version").get<std::string>(), snapshot->state);
  ASSERT_TRUE(restored.game) << restored.error;
  EXPECT_EQ(restored.game->state_hash(), snapshot->state_hash);
  const auto replayed_to_snapshot = replay_record(record, snapshot->seq);
  ASSERT_TRUE(replayed_to_snapshot);
  EXPECT_EQ(replayed_to_snapshot->state_hash(), snapshot->state_hash);
  EXPECT_EQ(replayed_to_snapshot->to_json(), restored.game->to_json());
  if (snapshot->seq > 0) {
    EXPECT_EQ(log.at(static_cast<std::size_t>(snapshot->seq - 1)).state_hash, snapshot->state_hash);
  }

  // The game goes on after the restart, each seat acting at its restored version. Random play
  // can end a game within its first sixty actions (seen in about one run in a hundred, the
  // action in flight included): then both seats are told so and nothing is left to play.
  if (table.scotland->view.contains("outcome")) {
    EXPECT_TRUE(table.england->view.contains("outcome"));
    EXPECT_FALSE(table.play_random(rng));
  } else {
    const auto before = table.actions;
    for (int i = 0; i < 10 && table.play_random(rng); ++i) {
    }
    EXPECT_GT(table.actions, before);
  }
  EXPECT_EQ(static_cast<std::int64_t>(logged_actions(server->db_path(), table.game_id).size()),
            table.actions);

  // SIGTERM drains: every client is told, and the server exits 0.
  const int code = server->terminate();
  EXPECT_EQ(code, 0) << server->log();
  for (Connection* c : {table.scotland.get(), table.england.get(), table.observer.get()}) {
    while (c->read_one()) {
    }
    EXPECT_TRUE(c->restarting) << c->role;
  }
}

TEST(ServerRestart, KillNineMidGameLosesNoAcknowledgedActionAndResumesExactly) {
  kill_nine_mid_game({});
}

// --sync normal commits a lone action on the room's own thread when the storage thread is
// idle (server/db_worker.h): an acknowledged action must survive kill -9 all the same.
TEST(ServerRestart, KillNineWithSyncNormalLosesNoAcknowledgedAction) {
  kill_nine_mid_game({"--sync", "normal"});
}

// The server died after committing the action that ended a game but before marking the game
// finished: on restart the replay of the log finishes it, and the record is published.
TEST(ServerRestart, AGameEndedInTheLogButNotMarkedFinishedIsFinishedOnRestart) {
  TempDir dir;
  const auto game_id = store_game(server_db(dir), 31, StoredEnd::FinishedUnmarked);
  ASSERT_FALSE(::testing::Test::HasFailure());
  ServerProcess server(dir.path());
  HttpClient anybody(server.port());
  const std::string game = "/api/games/" + std::to_string(game_id);
  json details;
  for (int i = 0; i < 100; ++i) {  // the status is written by the storage thread meanwhile
    details = anybody.get(game).json()["game"];
    if (details["status"] == "finished") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(details["status"], "finished");
  EXPECT_TRUE(details.contains("result"));
  EXPECT_TRUE(details.contains("seed"));
  const auto record = anybody.get(game + "/record");
  ASSERT_EQ(record.status, 200) << record.body;
  const auto replayed = replay_record(record.json());
  ASSERT_TRUE(replayed);
  EXPECT_TRUE(replayed->outcome().finished);
}

// A game created under rules version hots-1 (before hots-2 changed the state hash's format)
// is loaded as hots-1: its stored hashes verify on replay, so the server resumes it (here: it
// finds that the log ended the game and finishes it), and its record replays to hots-1 hashes.
TEST(ServerRestart, AGameCreatedUnderHots1IsResumedAndVerifiedWithHots1Hashes) {
  TempDir dir;
  const auto game_id = store_game(server_db(dir), 33, StoredEnd::FinishedUnmarked,
                                  storage::Visibility::Public, hots::kRulesVersion1);
  ASSERT_FALSE(::testing::Test::HasFailure());
  const auto log = logged_actions(server_db(dir), game_id);
  ASSERT_FALSE(log.empty());
  ServerProcess server(dir.path());
  HttpClient anybody(server.port());
  const std::string game = "/api/games/" + std::to_string(game_id);
  json details;
  for (int i = 0; i < 100; ++i) {
    details = anybody.get(game).json()["game"];
    if (details["status"] == "finished") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(details["status"], "finished") << "the hots-1 game was not resumed";
  const auto record = anybody.get(game + "/record");
  ASSERT_EQ(record.status, 200) << record.body;
  EXPECT_EQ(record.json()["rules_version"], "hots-1");
  const auto replayed = replay_record(record.json());
  ASSERT_TRUE(replayed);
  EXPECT_EQ(replayed->state_hash(), log.back().state_hash);
  // The same state under hots-2 has another hash: the version decided how it was verified.
  json state = replayed->to_json();
  EXPECT_EQ(state["rules_version"], "hots-1");
  state["rules_version"] = "hots-2";
  const auto as_hots2 = hots::module().from_json(state);
  ASSERT_TRUE(as_hots2.game);
  EXPECT_NE(as_hots2.game->state_hash(), log.back().state_hash);
}

// Open WebSocket connections, as /metrics counts them: a connection is counted until its room
// has let it go.
int websocket_connections(int port) {
  const std::string text = metrics_text(port);
  const std::string name = "blockfog_connections{kind=\"websocket\"} ";
  const auto at = text.find(name);
  return at == std::string::npos ? -1 : std::stoi(text.substr(at + name.size()));
}

void close_observer(Table& table) {
  table.observer.reset();
  for (int i = 0; i < 200 && websocket_connections(table.port) != 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(websocket_connections(table.port), 2);
}

void play(Table& table, std::mt19937_64& rng, int actions) {
  for (int i = 0; i < actions; ++i) ASSERT_TRUE(table.play_random(rng));
}

// While nobody watches, the observer's view is parked (server/play/role_views.h): not written, its
// version not stored with the actions. A watcher coming back is one version on (the seats'
// moves changed what it sees), and that version survives a kill -9 whether it was taken while
// the watcher was there or away.
TEST(ServerRestart, AWatcherAwayComesBackOneVersionOnAndRestartsKeepTheVersions) {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(dir.path());
  Table table(server->port(), "away");
  const auto kill_nine_and_reconnect = [&] {
    server->kill9();
    server = std::make_unique<ServerProcess>(dir.path());
    table.port = server->port();
    table.connect_all();
  };
  std::mt19937_64 rng(11);
  play(table, rng, 20);
  const std::int64_t watched = table.observer->seq;
  close_observer(table);
  play(table, rng, 30);
  ASSERT_FALSE(::testing::Test::HasFailure());

  table.observer = connect(table.port, table.game_id, "");
  ASSERT_TRUE(table.observer && table.observer->read_first_view());
  EXPECT_EQ(table.observer->seq, watched + 1);
  const json back_view = table.observer->view;
  const std::int64_t back = table.observer->seq;

  // Gone again, no action since: a restart finds the same view at the same version, though no
  // action stored it.
  close_observer(table);
  kill_nine_and_reconnect();
  EXPECT_EQ(table.observer->seq, back);
  EXPECT_EQ(table.observer->view, back_view);

  // Away over a restart: one version on again, or two (after a restart the room writes a
  // watcher's view for one more action before parking it, to store its version).
  close_observer(table);
  play(table, rng, 20);
  kill_nine_and_reconnect();
  EXPECT_GE(table.observer->seq, back + 1);
  EXPECT_LE(table.observer->seq, back + 2);
  const json again_view = table.observer->view;
  const std::int64_t again = table.observer->seq;
  kill_nine_and_reconnect();
  EXPECT_EQ(table.observer->seq, again);
  EXPECT_EQ(table.observer->view, again_view);
  // And from there on one version per change.
  play(table, rng, 10);
  EXPECT_GT(table.observer->seq, again);
  EXPECT_LE(table.observer->seq, again + 10);
}

}  // namespace
}  // namespace blockfog::server::testing
