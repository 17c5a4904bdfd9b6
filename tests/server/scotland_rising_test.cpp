// Scotland Rising served as Hammer of the Scots is (docs/architecture.md, "The game registry"):
// two players play a whole game through the real server with an observer watching, every
// frame checked (each connection's view is the engine's view of its role, and no frame holds
// the seed before the end), with a correspondence clock and in a tournament with a live one;
// the record verifies with hots-replay; resigning, a rematch of the same game, ratings kept
// per game, and the refusals of a game, a computer seat or an adjudication the server cannot
// give.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "games/registry.h"
#include "rules/core/hex.h"
#include "server/notices/notice_lines.h"
#include "server/notices/turn_notices.h"
#include "server/play/game_loader.h"
#include "tests/server/command.h"
#include "tests/server/db_peek.h"
#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/notice_endpoints.h"
#include "tests/server/random_walk.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

constexpr const char* kSrKind = "scotland_rising";
constexpr const char* kSrScenario = "bannockburn_variant";
// A random game of Scotland Rising ends within 15 turns; this bounds a runaway one.
constexpr int kMaxSrActions = 20000;

TableFeatures sr_features(int which, const std::string& webhook_url) {
  TableFeatures f;
  f.kind = kSrKind;
  f.scenario = kSrScenario;
  if (which == 0) {
    f.time_control = {
        {"kind", "correspondence"}, {"days_per_turn", 3}, {"bank_days", 7}, {"vacation", true}};
    f.webhook_url = webhook_url;
    f.name = "CorrespondenceClockNotices";
  } else {
    f.time_control = {{"kind", "live"}, {"minutes", 600}, {"increment_seconds", 30}};
    f.tournament = true;
    f.name = "LiveClockTournament";
  }
  return f;
}

// The game as the engine has it from the stored record of a game that has just started: the
// test's oracle of what each role may see and do.
std::unique_ptr<core::Game> engine_game(const std::filesystem::path& db, std::int64_t game_id) {
  auto game = replay_record(stored_record(db, game_id));
  EXPECT_TRUE(game);
  return game;
}

// Plays random legal actions of the awaited seats until the game ends; after each, every
// connection holds exactly the engine's view of its role. Returns the actions played.
int play_to_end(Table& table, core::Game& engine, std::mt19937_64& rng) {
  int played = 0;
  const auto views_match = [&] {
    for (Connection* c : table.open()) {
      const auto role = core::role_from_name(c->role);
      EXPECT_EQ(c->view, engine.view(*role)) << c->role << " after " << played << " actions";
    }
  };
  views_match();
  while (played < kMaxSrActions && !engine.outcome().finished) {
    std::vector<std::pair<core::Role, json>> choices;
    for (const auto role : engine.active_roles()) {
      for (const auto& a : engine.legal_actions(role)) choices.emplace_back(role, a);
    }
    if (choices.empty()) {
      ADD_FAILURE() << "no legal action in an unfinished game after " << played;
      break;
    }
    const auto& [role, action] =
        choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
    Connection& seat = table.seat(std::string(core::role_name(role)));
    const std::string ref = "sr" + std::to_string(played);
    seat.send_action(action, seat.seq, ref);
    if (!seat.read_answer(ref)) {
      ADD_FAILURE() << seat.role << " got no answer to " << action.dump();
      break;
    }
    if ((seat.last.at("type") != "view" && seat.last.at("type") != "view_patch") ||
        seat.last.value("stale", false)) {
      ADD_FAILURE() << "a legal action was not applied: " << seat.last.dump();
      break;
    }
    if (auto refused = engine.apply(role, action)) {
      ADD_FAILURE() << "the engine refused what the server applied: " << refused->message;
      break;
    }
    ++played;
    // The seed may be shown once the game is over.
    if (engine.outcome().finished) {
      for (Connection* c : table.open()) c->forbidden.clear();
    }
    for (Connection* c : table.open()) EXPECT_TRUE(c->barrier());
    views_match();
    if (::testing::Test::HasFailure()) break;
  }
  return played;
}

class ScotlandRisingServedWith : public ::testing::TestWithParam<int> {};

TEST_P(ScotlandRisingServedWith, TwoPlayersPlayItToTheEndAndItsRecordVerifies) {
  TempDir dir;
  ServerProcess server(dir.path(), {"--webhook-allow", "http,private"});
  WebhookReceiver hooks;
  const auto features =
      sr_features(GetParam(), "http://127.0.0.1:" + std::to_string(hooks.port()) + "/hook");
  Table table(server.port(), "sr", features);
  ASSERT_FALSE(::testing::Test::HasFailure());
  const std::string game = "/api/games/" + std::to_string(table.game_id);
  const auto started = table.scot_http.get(game).json()["game"];
  EXPECT_EQ(started["game"], kSrKind);
  EXPECT_EQ(started["game_name"], "Scotland Rising: Bannockburn 1314");
  EXPECT_EQ(started["invented_variant"], true);
  EXPECT_EQ(started["rules_version"], "scotland-rising-1");
  EXPECT_EQ(started["status"], "active");

  if (features.tournament) {
    // The tournament is of the game, and its rules decide nothing before the end.
    const std::string path = "/api/tournaments/" + std::to_string(table.tournament_id);
    const auto tournament = table.organiser_http->get(path).json()["tournament"];
    EXPECT_EQ(tournament["game"], kSrKind);
    EXPECT_EQ(tournament["invented_variant"], true);
    const auto adjudicated = table.organiser_http->post(
        path + "/forfeit", {{"game_id", table.game_id}, {"reason", "adjudicated"}});
    EXPECT_EQ(adjudicated.status, 400) << adjudicated.body;
    EXPECT_EQ(adjudicated.error_code(), "not_adjudicable");
  }

  // The seeds are the server's secret until the end.
  const auto secret = game_seed(server.db_path(), table.game_id);
  const auto play_seed = stored_record(server.db_path(), table.game_id)["play_seed"];
  ASSERT_TRUE(play_seed.is_string());
  for (Connection* c : table.open()) {
    c->forbidden = {secret, play_seed.get<std::string>()};
    EXPECT_EQ(c->view.dump().find(secret), std::string::npos);
    EXPECT_FALSE(c->view.contains("rng"));
  }
  auto engine = engine_game(server.db_path(), table.game_id);
  ASSERT_TRUE(engine);
  std::mt19937_64 rng(20261207 + GetParam());
  const int played = play_to_end(table, *engine, rng);
  ASSERT_FALSE(::testing::Test::HasFailure());
  ASSERT_TRUE(engine->outcome().finished) << played << " actions";
  GTEST_LOG_(INFO) << "Scotland Rising finished after " << played
                   << " actions: " << engine->outcome().reason;
  for (Connection* c : table.open()) EXPECT_TRUE(c->errors.empty()) << c->role;
  // The clock ran with the game: its frames came with changes of awaiting only (Connection).
  EXPECT_GT(table.observer->clocks, 0);

  // Finished: the result, the seed and a record that replays and verifies.
  const auto details = table.eng_http.get(game).json()["game"];
  EXPECT_EQ(details["status"], "finished");
  EXPECT_EQ(details["seq"], played);
  EXPECT_EQ(seed_commitment(details["seed"].get<std::string>()), details["seed_sha256"]);
  const auto outcome = engine->outcome();
  EXPECT_EQ(details["result"]["reason"], outcome.reason);
  const auto record = table.eng_http.get(game + "/record").json();
  EXPECT_EQ(record["game"], kSrKind);
  EXPECT_EQ(record["rules_version"], "scotland-rising-1");
  EXPECT_EQ(record["actions"].size(), static_cast<std::size_t>(played));
  const auto replayed = replay_record(record);
  ASSERT_TRUE(replayed);
  EXPECT_EQ(replayed->state_hash(), engine->state_hash());
  EXPECT_EQ(record["final_state_hash"], engine->state_hash());
  const auto path = dir.path() / "sr-record.json";
  std::ofstream(path) << record.dump();
  const auto verified = run_program(BLOCKFOG_HOTS_REPLAY_BIN, {"verify", path.string()});
  EXPECT_EQ(verified.status, 0) << verified.output;
  EXPECT_NE(verified.output.find("verified 1 game: 1 ok, 0 failed"), std::string::npos)
      << verified.output;
  // A changed action no longer verifies.
  auto tampered = record;
  tampered["actions"][0]["state_hash"] = std::string(64, '0');
  std::ofstream(path) << tampered.dump();
  EXPECT_EQ(run_program(BLOCKFOG_HOTS_REPLAY_BIN, {"verify", path.string()}).status, 1);

  if (features.tournament) return;
  // A rematch is a game of Scotland Rising too, sides swapped.
  EXPECT_EQ(table.scot_http.post(game + "/rematch/offer", json::object()).status, 200);
  const auto accepted = table.eng_http.post(game + "/rematch/accept", json::object());
  ASSERT_EQ(accepted.status, 200) << accepted.body;
  const auto rematch_id = accepted.json()["rematch"]["game_id"].get<std::int64_t>();
  const auto rematch =
      table.eng_http.get("/api/games/" + std::to_string(rematch_id)).json()["game"];
  EXPECT_EQ(rematch["game"], kSrKind);
  EXPECT_EQ(rematch["scenario"], kSrScenario);
  EXPECT_EQ(rematch["players"]["scotland"], "sr_eng");
  EXPECT_EQ(rematch["time_control"]["kind"], "correspondence");
  roll_dice(table.scot_http, table.eng_http, rematch_id);
  EXPECT_EQ(
      table.scot_http.get("/api/games/" + std::to_string(rematch_id)).json()["game"]["status"],
      "active");
}

INSTANTIATE_TEST_SUITE_P(Features, ScotlandRisingServedWith, ::testing::Range(0, 2),
                         [](const ::testing::TestParamInfo<int>& param_info) {
                           return sr_features(param_info.param, "").name;
                         });

// A game of the given kind between `a` (Scotland) and `b`, started, rated.
std::int64_t started_rated_game(HttpClient& a, HttpClient& b, const std::string& kind,
                                const std::string& scenario) {
  const auto created =
      a.post("/api/games",
             {{"kind", kind}, {"scenario", scenario}, {"side", "scotland"}, {"rated", true}});
  EXPECT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["game"]["id"];
  EXPECT_EQ(b.post("/api/games/" + std::to_string(id) + "/join", json::object()).status, 200);
  roll_dice(a, b, id);
  return id;
}

TEST(ScotlandRisingServed, ResigningEndsItAndRatingsAreKeptPerGame) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto bruce = register_user(server.port(), "bruce");
  auto edward = register_user(server.port(), "edward");

  // Bruce resigns a rated Scotland Rising game; Edward then resigns a rated Hammer of the Scots.
  const auto sr = started_rated_game(bruce, edward, kSrKind, kSrScenario);
  const auto resigned = bruce.post("/api/games/" + std::to_string(sr) + "/resign", json::object());
  ASSERT_EQ(resigned.status, 200) << resigned.body;
  const auto sr_game = edward.get("/api/games/" + std::to_string(sr)).json()["game"];
  EXPECT_EQ(sr_game["status"], "finished");
  EXPECT_EQ(sr_game["result"]["winner"], "england");
  EXPECT_EQ(sr_game["result"]["reason"], "resigned");
  const auto hots = started_rated_game(bruce, edward, "hots", "braveheart");
  ASSERT_EQ(edward.post("/api/games/" + std::to_string(hots) + "/resign", json::object()).status,
            200);

  // Each leaderboard ranks the winner of its own game first.
  const auto sr_board = bruce.get("/api/ratings?game=scotland_rising").json();
  EXPECT_EQ(sr_board["game"], kSrKind);
  EXPECT_EQ(sr_board["invented_variant"], true);
  ASSERT_EQ(sr_board["total"], 2);
  EXPECT_EQ(sr_board["ratings"][0]["username"], "edward");
  EXPECT_EQ(sr_board["ratings"][0]["games"], 1);
  const auto hots_board = bruce.get("/api/ratings").json();
  EXPECT_EQ(hots_board["game"], "hots");
  ASSERT_EQ(hots_board["total"], 2);
  EXPECT_EQ(hots_board["ratings"][0]["username"], "bruce");
  // Both started from 1500 in each game: the same rating, one up and one down.
  EXPECT_EQ(sr_board["ratings"][0]["rating"], hots_board["ratings"][0]["rating"]);

  const auto edward_sr = bruce.get("/api/players/edward/ratings?game=scotland_rising").json();
  EXPECT_EQ(edward_sr["player"]["game"], kSrKind);
  EXPECT_GT(edward_sr["player"]["rating"]["rating"].get<double>(), 1500);
  EXPECT_EQ(edward_sr["player"]["games"], 1);
  ASSERT_EQ(edward_sr["player"]["ratings"].size(), 2u);
  EXPECT_EQ(edward_sr["history"].size(), 2u);
  EXPECT_EQ(edward_sr["history"][0]["game"], kSrKind);
  EXPECT_EQ(edward_sr["history"][1]["game"], "hots");
  const auto edward_hots = bruce.get("/api/players/edward/ratings").json();
  EXPECT_LT(edward_hots["player"]["rating"]["rating"].get<double>(), 1500);
  EXPECT_EQ(bruce.get("/api/ratings?game=chess").error_code(), "unknown_game");
}

TEST(ScotlandRisingServed, TheLobbyOffersItAndRefusesWhatCannotBeServed) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto bruce = register_user(server.port(), "bruce");

  const auto offered = bruce.get("/api/scenarios").json();
  EXPECT_EQ(offered["game"], "hots");  // the default game, as before there was a choice
  ASSERT_EQ(offered["games"].size(), 2u);
  const auto& sr = offered["games"][1];
  EXPECT_EQ(sr["game"], kSrKind);
  EXPECT_EQ(sr["invented_variant"], true);
  EXPECT_EQ(sr["computer"], true);
  EXPECT_EQ(sr["scenarios"], json::array({kSrScenario}));
  EXPECT_EQ(sr["options"]["battle_events"], "boolean");
  EXPECT_EQ(offered["games"][0]["computer"], true);

  // Each refusal is typed and stores nothing.
  const auto before = db_fingerprint(server.db_path());
  const auto refused = [&](const json& request, const std::string& code) {
    const auto r = bruce.post("/api/games", request);
    EXPECT_EQ(r.status, 400) << request.dump() << " " << r.body;
    EXPECT_EQ(r.error_code(), code) << request.dump();
  };
  refused({{"kind", "chess"}, {"scenario", "braveheart"}}, "unknown_game");
  refused({{"kind", kSrKind}, {"scenario", kSrScenario}, {"computer", "expert"}}, "bad_field");
  refused({{"kind", kSrKind}, {"scenario", "braveheart"}}, "bad_field");
  refused({{"kind", kSrKind}, {"scenario", kSrScenario}, {"options", {{"schiltroms", true}}}},
          "bad_field");
  refused({{"kind", kSrKind}, {"scenario", kSrScenario}, {"options", {{"solitaire_events", true}}}},
          "bad_field");
  const auto tournament = bruce.post("/api/tournaments", {{"name", "Chess cup"},
                                                          {"kind", "chess"},
                                                          {"scenario", "braveheart"},
                                                          {"format", "round_robin"},
                                                          {"sides", "lot"},
                                                          {"round_deadline_minutes", 60},
                                                          {"registration_closes_at", 4102444800000},
                                                          {"max_players", 4}});
  EXPECT_EQ(tournament.error_code(), "unknown_game") << tournament.body;
  EXPECT_EQ(db_fingerprint(server.db_path()), before);

  // With its options, it is created; lists name the game.
  const auto created = bruce.post(
      "/api/games",
      {{"kind", kSrKind}, {"scenario", kSrScenario}, {"options", {{"battle_events", true}}}});
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.json()["game"]["options"]["battle_events"], true);
  const auto open = bruce.get("/api/games").json()["games"];
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0]["game"], kSrKind);
  EXPECT_EQ(open[0]["game_name"], "Scotland Rising: Bannockburn 1314");
  // Without a kind, a game is Hammer of the Scots, as before.
  const auto hots = bruce.post("/api/games", {{"scenario", "braveheart"}});
  ASSERT_EQ(hots.status, 201) << hots.body;
  EXPECT_EQ(hots.json()["game"]["game"], "hots");
  EXPECT_EQ(hots.json()["game"]["invented_variant"], false);
}

// The computer plays Scotland Rising's other side through the same seat as in Hammer of the
// Scots: it answers the human's turns, and the stored record replays with the engine.
TEST(ScotlandRisingServed, TheComputerPlaysTheOtherSide) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto http = register_user(server.port(), "solo");
  const auto created = http.post(
      "/api/games",
      {{"kind", kSrKind}, {"scenario", kSrScenario}, {"side", "england"}, {"computer", "easy"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["game"]["id"];
  EXPECT_EQ(created.json()["game"]["players"]["scotland"], "Computer (easy)");
  const auto hand = draw_dice();
  ASSERT_EQ(commit_dice(http, id, hand).status, 200);
  ASSERT_EQ(reveal_dice(http, id, hand).status, 200);

  auto me = connect(server.port(), id, http.session_cookie());
  ASSERT_TRUE(me && me->read_first_view());
  EXPECT_EQ(me->role, "england");
  const auto computer_actions = [&] {
    int n = 0;
    for (const auto& a : logged_actions(server.db_path(), id)) n += a.role == "scotland";
    return n;
  };
  // The Scots act first (their set-up and turn): the human only goes forward (random_walk.h)
  // and, with nothing to do, waits for the computer's next action to reach his view.
  std::mt19937_64 rng(11);
  int mine = 0;
  for (int step = 0; step < 400 && (computer_actions() < 10 || mine < 3); ++step) {
    const auto legal = forward_actions(me->view["legal_actions"]);
    if (legal.empty()) {
      ASSERT_TRUE(me->read_one()) << "the computer did not answer";
      continue;
    }
    const auto ref = "a" + std::to_string(step);
    me->send_action(legal[rng() % legal.size()], me->seq, ref);
    ASSERT_TRUE(me->read_answer(ref));
    ++mine;
  }
  EXPECT_GE(computer_actions(), 10);
  EXPECT_GE(mine, 3);
  // The stored record, the computer's actions included, replays with the engine to the stored
  // position. The computer may still be acting: the log is read first, and the record (read
  // after it, so holding at least as much) is replayed as far as that log goes.
  const auto log = logged_actions(server.db_path(), id);
  ASSERT_FALSE(log.empty());
  auto engine = replay_record(stored_record(server.db_path(), id), log.back().seq);
  ASSERT_TRUE(engine);
  EXPECT_EQ(engine->state_hash(), log.back().state_hash);
}

// A turn notice quotes what happened since the seat's last decision: Scotland Rising's log lines
// are plain text, quoted as they are.
TEST(ScotlandRisingServed, ATurnNoticeQuotesItsLogLines) {
  const auto* kind = games::find_game_kind(kSrKind);
  ASSERT_TRUE(kind);
  auto setup =
      kind->module->setup(*core::seed_from_hex(std::string(64, '7')), kSrScenario, json::object());
  ASSERT_TRUE(setup.game) << setup.error;
  auto& game = *setup.game;
  const auto first = game.active_roles().front();
  const auto other = core::other_side(first);
  const DecisionMark mark = decision_mark(game, other);
  // The first side acts until the other is awaited.
  for (int i = 0; i < 500 && game.active_roles().front() == first && !game.outcome().finished;
       ++i) {
    const auto legal = game.legal_actions(first);
    ASSERT_FALSE(legal.empty());
    // Ends the setup and the turn as soon as it may (the dice of the action points first).
    json chosen = legal.front();
    for (const char* type : {"roll_ap", "setup_done", "end_turn"}) {
      for (const auto& a : legal) {
        if (a.value("type", "") == type) chosen = a;
      }
    }
    ASSERT_FALSE(game.apply(first, chosen)) << chosen.dump();
  }
  ASSERT_EQ(game.active_roles().front(), other);
  const auto happened = happened_since(game, other, mark);
  ASSERT_FALSE(happened.lines.empty());
  const auto log = game.view(other).at("log");
  EXPECT_EQ(happened.lines.back(), log.back().is_string()
                                       ? log.back().get<std::string>()
                                       : log.back().at("text").get<std::string>());
  Seats seats;
  seats.scotland = Player{11, "bruce", std::nullopt};
  seats.england = Player{12, "edward", std::nullopt};
  DecisionMarks marks{};
  marks[static_cast<std::size_t>(other)] = mark;
  const auto notices =
      turn_notices(5, nullptr, game, seats, marks, [](std::int64_t) { return false; });
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(notices[0].content_json.find(happened.lines.back()), std::string::npos);
}

}  // namespace
}  // namespace blockfog::server::testing
