// Two players play a game through the real server, picking random legal actions from their
// views, while an observer watches: every frame each of them receives is checked for facts its
// seat may not know (patches of views included), and the record replays to the same final
// state.

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>

#include "rules/core/shared_seed.h"
#include "rules/hots/module.h"
#include "server/play/game_loader.h"
#include "tests/server/db_peek.h"
#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/notice_endpoints.h"
#include "tests/server/random_walk.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

// Sanitized debug builds are slow (every view is a large JSON document): they play a long
// stretch of the game, and the release build plays it to the end.
#ifdef NDEBUG
constexpr int kMaxActions = 5000;
#else
constexpr int kMaxActions = 250;
#endif

// Each acknowledged seq is in the log with one of the actions sent for it.
void expect_log_holds(const Table& table, const std::vector<LoggedAction>& log) {
  for (const auto& ack : table.acknowledged) {
    ASSERT_LE(ack.seq, static_cast<std::int64_t>(log.size())) << "acknowledged seq missing";
    const auto& logged = log[static_cast<std::size_t>(ack.seq - 1)];
    EXPECT_EQ(logged.seq, ack.seq);
    bool found = false;
    for (const auto& [role, action] : ack.candidates) {
      found = found || (logged.role == role && logged.action == action);
    }
    EXPECT_TRUE(found) << "seq " << ack.seq << " logged " << logged.action.dump();
  }
}

// Each set of features (a clock, a tournament, turn notices) adds frames or stored rows per
// action: the same checks run with each.
class FogOfWarWith : public ::testing::TestWithParam<int> {};

TEST_P(FogOfWarWith, PlaysToTheEndWithFogOfWarOnTheWireAndAVerifiableRecord) {
  TempDir dir;
  ServerProcess server(dir.path(), {"--webhook-allow", "http,private"});
  WebhookReceiver hooks;
  const auto features =
      fog_feature_sets("http://127.0.0.1:" + std::to_string(hooks.port()) + "/hook")[GetParam()];
  Table table(server.port(), "game", features);
  const std::string commitment = table.scotland->seed_sha256;
  EXPECT_EQ(table.england->seed_sha256, commitment);
  EXPECT_EQ(table.observer->seed_sha256, commitment);

  std::mt19937_64 rng(20240601);
  int rounds = 0;
  while (rounds < kMaxActions && table.play_random(rng)) {
    ++rounds;
    if (::testing::Test::HasFailure()) break;
  }
  ASSERT_FALSE(::testing::Test::HasFailure());
  const auto actions = static_cast<int>(table.actions);
  EXPECT_GT(actions, 20);
  if (!features.time_control.is_null()) {
    // The clocks came, each with a change of awaiting: fewer than the views.
    EXPECT_GT(table.observer->clocks, 0);
    EXPECT_LT(table.observer->clocks, table.observer->views);
  }
  // A notice delivered meanwhile (none is due while every seat is connected) names nothing
  // its recipient may not know.
  for (const auto& hook : hooks.received()) {
    for (const char* role : {"scotland", "england"}) {
      if (hook.body.find(std::string("\"") + role + "\"") == std::string::npos) continue;
      for (const auto& leak : fog_leaks(role, hook.body)) ADD_FAILURE() << leak;
    }
  }
  for (Connection* c : {table.scotland.get(), table.england.get(), table.observer.get()}) {
    EXPECT_TRUE(c->errors.empty()) << c->role << ": " << c->errors.front().dump();
    // A view version counts changes of that role's view, never more than the actions.
    EXPECT_LE(c->seq, actions) << c->role;
  }
  // RULES 13.1.4: a decision the other seat may not see sends it nothing, not even a new
  // version number, so it cannot count them. Both sides make such decisions (moves chosen
  // before they show, winter steps); the observer sees less than either seat.
  EXPECT_GT(table.quiet_rounds["observer"], 0);
#ifdef NDEBUG
  // The whole game (a build in winter is hidden from the other side: RULES 10). The game's
  // seed is the server's, so the game differs from run to run: one ended (nobles majority,
  // after 1,163 actions) with no decision of England's hidden from Scotland.
  EXPECT_GT(table.quiet_rounds["scotland"] + table.quiet_rounds["england"], 0);
#endif
  EXPECT_LT(table.observer->seq, actions);
  // Scotland and the observer asked for patches (?patches=1) and got them after actions, each
  // rebuilding the whole view (Connection checks); England asked for none and got whole views.
  EXPECT_GT(table.scotland->patches, actions / 4);
  EXPECT_GT(table.observer->patches, 0);
  EXPECT_EQ(table.england->patches, 0);

  // The log holds every acknowledged action, and replaying it gives the stored hash chain.
  const auto log = logged_actions(server.db_path(), table.game_id);
  ASSERT_EQ(static_cast<int>(log.size()), actions);
  expect_log_holds(table, log);
  const auto replayed = replay_record(stored_record(server.db_path(), table.game_id));
  ASSERT_TRUE(replayed);
  EXPECT_EQ(replayed->state_hash(), log.back().state_hash);
  // The seed was committed to at the start.
  EXPECT_EQ(seed_commitment(game_seed(server.db_path(), table.game_id)), commitment);

  const std::string game = "/api/games/" + std::to_string(table.game_id);
  const json& final_view = table.observer->view;
  // The lobby gives each account its own view version too; the record's length once over.
  const auto scot_details = table.scot_http.get(game).json()["game"];
  const auto eng_details = table.eng_http.get(game).json()["game"];
  if (scot_details["status"] == "finished") {
    EXPECT_EQ(scot_details["seq"], actions);
  } else {
    EXPECT_EQ(scot_details["seq"], table.scotland->seq);
    EXPECT_EQ(eng_details["seq"], table.england->seq);
  }
  if (rounds == kMaxActions) {
    EXPECT_EQ(table.scot_http.get(game + "/record").status, 409);
    return;
  }
  if (!final_view.contains("outcome")) {
    // The engine stops before the end of the game (later rules are not in yet): no action is
    // legal for anybody, and the record stays secret.
    GTEST_LOG_(INFO) << "engine stopped in phase " << final_view.value("phase", "?") << " after "
                     << actions << " actions";
    EXPECT_TRUE(table.scotland->view["legal_actions"].empty());
    EXPECT_TRUE(table.england->view["legal_actions"].empty());
    EXPECT_EQ(table.scot_http.get(game + "/record").status, 409);
    EXPECT_FALSE(table.scot_http.get(game).json()["game"].contains("seed"));
    return;
  }

  // Finished: seed and record are published and verify.
  GTEST_LOG_(INFO) << "game finished after " << actions
                   << " actions: " << final_view["outcome"].dump();
  const auto details = table.eng_http.get(game).json()["game"];
  EXPECT_EQ(details["status"], "finished");
  EXPECT_EQ(details["seed_sha256"], commitment);
  EXPECT_EQ(seed_commitment(details["seed"].get<std::string>()), commitment);
  // The final view shows the seed the game was set up from: the secret's and both dice's.
  EXPECT_EQ(final_view["seed"],
            core::shared_seed(details["seed"].get<std::string>(),
                              details["dice"]["scotland"]["contribution"].get<std::string>(),
                              details["dice"]["england"]["contribution"].get<std::string>())
                .value_or(""));
  const auto record =
      table.observer->ws.is_closed() ? json() : table.eng_http.get(game + "/record").json();
  ASSERT_TRUE(record.is_object());
  EXPECT_EQ(record["game"], "hots");
  EXPECT_EQ(record["seed"], details["seed"]);
  EXPECT_EQ(record["actions"].size(), log.size());
  const auto verified = replay_record(record);
  ASSERT_TRUE(verified);
  const auto final_state = hots::module().from_json(final_view["final_state"]);
  ASSERT_TRUE(final_state.game) << final_state.error;
  EXPECT_EQ(verified->state_hash(), final_state.game->state_hash());
  EXPECT_EQ(verified->state_hash(), log.back().state_hash);
  EXPECT_TRUE(verified->outcome().finished);

  // A finished game leaves memory when its last client leaves, and comes back for the next.
  auto metric = [&](const std::string& name) { return metric_value(table.port, name); };
  EXPECT_EQ(metric("blockfog_rooms_loaded"), 1);
  for (Connection* c : {table.scotland.get(), table.england.get(), table.observer.get()}) {
    c->ws.close();
  }
  for (int i = 0; i < 100 && metric("blockfog_rooms_loaded") != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(metric("blockfog_rooms_loaded"), 0);
  table.connect_all();
  EXPECT_TRUE(table.observer->view.contains("outcome"));
  EXPECT_EQ(metric("blockfog_rooms_loaded"), 1);

  // Nothing more can be done in a finished game.
  table.scotland->send_action({{"kind", "pass"}}, table.scotland->seq);
  ASSERT_TRUE(table.scotland->barrier());
  ASSERT_FALSE(table.scotland->errors.empty());
  EXPECT_EQ(table.scotland->errors.back()["code"], "game_over");
}

INSTANTIATE_TEST_SUITE_P(
    Features, FogOfWarWith, ::testing::Range(0, 3),
    [](const ::testing::TestParamInfo<int>& param_info) {
      return fog_feature_sets("")[static_cast<std::size_t>(param_info.param)].name;
    });

// Against the computer, with a live clock and turn notices on: every frame the human seat and
// an observer receive is checked as above, and none comes but a view that changed (with the
// clocks that go with it) or the answer to the human's own action, whatever the computer
// decides where they cannot see it.
TEST(ServerGame, AgainstTheComputerWithAClockNoFrameTellsOfItsHiddenDecisions) {
  TempDir dir;
  ServerProcess server(dir.path(), {"--webhook-allow", "http,private"});
  WebhookReceiver hooks;
  auto human = register_user(server.port(), "solo");
  ASSERT_EQ(human
                .post("/api/notices",
                      {{"webhook_url", "http://127.0.0.1:" + std::to_string(hooks.port()) + "/h"},
                       {"webhook", true}})
                .status,
            200);
  const auto created =
      human.post("/api/games",
                 {{"scenario", "braveheart"},
                  {"side", "scotland"},
                  {"computer", "easy"},
                  {"time_control", {{"kind", "live"}, {"minutes", 60}, {"increment_seconds", 5}}}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["game"]["id"];
  roll_dice(human, id);
  auto me = connect(server.port(), id, human.session_cookie(), "?patches=1");
  auto observer = connect(server.port(), id, "");
  ASSERT_TRUE(me && observer && me->read_first_view() && observer->read_first_view());
  std::mt19937_64 rng(77);
  int mine = 0;
  for (int step = 0; step < 150 && !HasFailure(); ++step) {
    // The human's own decisions, never one taken back: the walk moves on by construction.
    const json choices = forward_actions(me->view["legal_actions"]);
    if (choices.empty()) {
      if (me->view.contains("outcome")) break;
      // The computer is to act: what reaches this seat is a changed view and its clocks.
      // (Connection checks that a clocks frame follows a change of the view.)
      const auto views = me->views;
      while (me->views == views) {
        ASSERT_TRUE(me->read_one()) << "the computer did not answer";
        const std::string type = me->last["type"];
        EXPECT_TRUE(type == "view_patch" || type == "view" || type == "clocks") << me->last.dump();
      }
    } else {
      const auto ref = "a" + std::to_string(step);
      me->send_action(choices[rng() % choices.size()], me->seq, ref);
      ASSERT_TRUE(me->read_answer(ref));
      ++mine;
    }
    ASSERT_TRUE(observer->barrier());
  }
  ASSERT_TRUE(me->barrier());
  EXPECT_GT(mine, 10);
  EXPECT_TRUE(me->errors.empty()) << me->errors.front().dump();
  EXPECT_GT(me->clocks, 0);
  EXPECT_GT(observer->views, 1);
  std::int64_t computer = 0;
  for (const auto& a : logged_actions(server.db_path(), id)) computer += a.role == "england";
  EXPECT_GT(computer, 0);
}

// Each network thread serves the games whose id it is given (server/net/net.cpp): a WebSocket
// moves at its upgrade from the thread that read its HTTP request to its game's. With three
// threads, games 1 to 4 and twelve connections taken in turn, most connections move, some do
// not; every game plays with the same checks as above (fog of war, versions, patches adding up
// to the views), and SIGTERM still reaches every connection and ends the server.
TEST(ServerGame, GamesSpreadOverTheNetworkThreadsPlayAndDrain) {
  TempDir dir;
  ServerProcess server(dir.path(), {"--threads", "3"});
  std::vector<std::unique_ptr<Table>> tables;
  for (int i = 0; i < 4; ++i) {
    tables.push_back(std::make_unique<Table>(server.port(), "spread" + std::to_string(i)));
  }
  std::mt19937_64 rng(7);
  for (int round = 0; round < 30; ++round) {
    for (auto& table : tables) table->play_random(rng);
    ASSERT_FALSE(::testing::Test::HasFailure());
  }
  for (auto& table : tables) {
    EXPECT_GE(table->actions, 30) << "game " << table->game_id;
    EXPECT_EQ(static_cast<std::int64_t>(logged_actions(server.db_path(), table->game_id).size()),
              table->actions);
    for (Connection* c : table->open()) {
      EXPECT_TRUE(c->errors.empty()) << c->role << ": " << c->errors.front().dump();
      EXPECT_GT(c->views, 1) << c->role;
    }
  }

  EXPECT_EQ(server.terminate(), 0) << server.log();
  for (auto& table : tables) {
    for (Connection* c : table->open()) {
      while (c->read_one()) {
      }
      EXPECT_TRUE(c->restarting) << "game " << table->game_id << " " << c->role;
    }
  }
}

}  // namespace
}  // namespace blockfog::server::testing
