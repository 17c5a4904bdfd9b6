// Clocks, vacations, resignation, cancel and rematch, through the real server with
// its clock driven by the test (BLOCKFOG_TEST_CLOCK_FILE, server/clock.h): the arithmetic of
// time controls, each endpoint and its errors, and a whole correspondence game over days with
// a restart mid-turn and a loss on time.

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>

#include "server/clocks/time_control.h"
#include "tests/server/clocked_server.h"
#include "tests/server/db_peek.h"
#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/random_walk.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

constexpr std::int64_t kHour = 3600 * 1000;
constexpr std::int64_t kStart = kClockStart;

// --- the arithmetic ------------------------------------------------------------------------

TEST(TimeControl, RefusesOutOfRangeAndUnknownSettingsWithAMessage) {
  const auto refused = [](const json& j) {
    const auto parsed = parse_time_control(&j);
    return std::holds_alternative<std::string>(parsed);
  };
  EXPECT_TRUE(refused({{"kind", "live"}, {"minutes", 0}}));
  EXPECT_TRUE(refused({{"kind", "live"}, {"minutes", 601}}));
  EXPECT_TRUE(refused({{"kind", "live"}, {"increment_seconds", -1}}));
  EXPECT_TRUE(refused({{"kind", "live"}, {"minutes", "60"}}));
  EXPECT_TRUE(refused({{"kind", "correspondence"}, {"days_per_turn", 31}}));
  EXPECT_TRUE(refused({{"kind", "correspondence"}, {"bank_days", 61}}));
  EXPECT_TRUE(refused({{"kind", "correspondence"}, {"vacation", 1}}));
  EXPECT_TRUE(refused({{"kind", "correspondence"}, {"minutes", 5}}));
  EXPECT_TRUE(refused({{"kind", "blitz"}}));
  EXPECT_TRUE(refused(json::array()));
  const json live = {{"kind", "live"}, {"minutes", 60}, {"increment_seconds", 30}};
  const auto tc = std::get<TimeControl>(parse_time_control(&live));
  EXPECT_EQ(tc.to_json(), live);
  EXPECT_FALSE(std::get<TimeControl>(parse_time_control(nullptr)).timed());
}

TEST(TimeControl, LiveGetsItsIncrementAndCorrespondenceSpendsItsBankBeyondTheTurn) {
  TimeControl live;
  live.kind = TimeControl::Kind::Live;
  live.minutes = 60;
  live.increment_seconds = 30;
  EXPECT_EQ(live.initial_bank_ms(), 60 * kMinuteMs);
  EXPECT_EQ(live.bank_after(60 * kMinuteMs, 10 * kMinuteMs), 50 * kMinuteMs + 30000);

  TimeControl mail;
  mail.kind = TimeControl::Kind::Correspondence;
  mail.days_per_turn = 3;
  mail.bank_days = 7;
  EXPECT_EQ(mail.allowance_ms(mail.initial_bank_ms()), 10 * kDayMs);
  EXPECT_EQ(mail.bank_after(7 * kDayMs, 2 * kDayMs), 7 * kDayMs);  // within the turn: untouched
  EXPECT_EQ(mail.bank_after(7 * kDayMs, 4 * kDayMs), 6 * kDayMs);
}

TEST(TimeControl, PausesStopTheClockAndMoveTheDeadline) {
  // A day's pause inside a two-day wait.
  const std::vector<Pause> pauses{{kDayMs, 2 * kDayMs}};
  EXPECT_EQ(running_ms(0, 3 * kDayMs, pauses), 2 * kDayMs);
  EXPECT_EQ(moment_after(0, 2 * kDayMs, pauses), 3 * kDayMs);
  // Overlapping pauses count once; a pause before the start does not count.
  EXPECT_EQ(running_ms(0, 3 * kDayMs, {{kDayMs, 2 * kDayMs}, {kDayMs + kHour, 2 * kDayMs}}),
            2 * kDayMs);
  EXPECT_EQ(moment_after(5 * kDayMs, kDayMs, pauses), 6 * kDayMs);
  // A pause that begins just when the time would run out postpones it.
  EXPECT_EQ(moment_after(0, kDayMs, pauses), 2 * kDayMs);
}

// --- through the server ----------------------------------------------------------------------

using Server = ClockedServer;

std::string path(std::int64_t game_id, const std::string& rest = "") {
  return "/api/games/" + std::to_string(game_id) + rest;
}

// A game created by `a` (Scotland) and joined by `b`.
std::int64_t started_timed_game(HttpClient& a, HttpClient& b, const json& time_control) {
  json request = {{"scenario", "braveheart"}, {"side", "scotland"}};
  if (!time_control.is_null()) request["time_control"] = time_control;
  const auto created = a.post("/api/games", request);
  EXPECT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["game"]["id"];
  const auto joined = b.post(path(id, "/join"), json::object());
  EXPECT_EQ(joined.status, 200) << joined.body;
  roll_dice(a, b, id);
  return id;
}

json details(HttpClient& client, std::int64_t id) {
  const auto got = client.get(path(id));
  EXPECT_EQ(got.status, 200) << got.body;
  return got.json()["game"];
}

// Polls the game until `done` holds (the clock check runs every few seconds).
json wait_for(HttpClient& client, std::int64_t id, const std::function<bool(const json&)>& done) {
  for (int i = 0; i < 150; ++i) {
    auto game = details(client, id);
    if (done(game)) return game;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ADD_FAILURE() << "the game never reached the awaited state: " << details(client, id).dump();
  return nullptr;
}

// The awaited seat plays its first legal action that goes forward (random_walk.h: a seat whose
// card is chosen may only take it back, and taking it back each time would keep the game in
// its first card phase); returns its role.
std::string play_one(Connection& scotland, Connection& england, const std::string& ref) {
  for (Connection* c : {&scotland, &england}) {
    const auto legal = forward_actions(c->view["legal_actions"]);
    if (legal.empty()) continue;
    c->send_action(legal.front(), c->seq, ref);
    EXPECT_TRUE(c->read_answer(ref));
    return c->role;
  }
  ADD_FAILURE() << "nobody may act";
  return "";
}

TEST(ServerClocks, ABadTimeControlIsATypedErrorAndStoresNoGame) {
  Server server;
  auto alice = register_user(server.port(), "tc_alice");
  for (const json& bad : {json{{"kind", "live"}, {"minutes", 0}},
                          json{{"kind", "correspondence"}, {"days_per_turn", 99}},
                          json{{"kind", "sometimes"}}, json("3 days")}) {
    const auto created =
        alice.post("/api/games", {{"scenario", "braveheart"}, {"time_control", bad}});
    EXPECT_EQ(created.status, 400) << created.body;
    EXPECT_EQ(created.error_code(), "bad_field") << created.body;
  }
  EXPECT_TRUE(alice.get("/api/games/mine").json()["games"].empty());
  const auto fine = alice.post(
      "/api/games",
      {{"scenario", "braveheart"},
       {"time_control", {{"kind", "live"}, {"minutes", 60}, {"increment_seconds", 30}}}});
  ASSERT_EQ(fine.status, 201) << fine.body;
  EXPECT_EQ(fine.json()["game"]["time_control"]["minutes"], 60);
}

TEST(ServerClocks, AWholeCorrespondenceGameOverDaysRestartsMidTurnAndIsLostOnTime) {
  Server server;
  auto scot = register_user(server.port(), "mail_scot");
  auto eng = register_user(server.port(), "mail_eng");
  const json tc = {
      {"kind", "correspondence"}, {"days_per_turn", 1}, {"bank_days", 1}, {"vacation", false}};
  const auto id = started_timed_game(scot, eng, tc);
  auto s = connect(server.port(), id, scot.session_cookie());
  auto e = connect(server.port(), id, eng.session_cookie());
  ASSERT_TRUE(s && e && s->read_first_view() && e->read_first_view());

  // Turns pass with hours between the actions: the clock runs for the awaited role only, as
  // the public `awaiting` says.
  for (int i = 0; i < 12; ++i) {
    const auto before = details(scot, id);
    const std::string awaited = before["awaiting"].front();
    const std::int64_t left = before["clocks"][awaited]["remaining_ms"];
    server.clock.advance(3 * kHour);
    const auto during = details(eng, id);
    EXPECT_EQ(during["clocks"][awaited]["remaining_ms"], left - 3 * kHour) << during.dump();
    EXPECT_TRUE(during["clocks"][awaited]["running"]);
    const auto awaiting_before = e->view["awaiting"];
    const auto clocks_before = std::make_pair(s->clocks, e->clocks);
    play_one(*s, *e, "a" + std::to_string(i));
    ASSERT_TRUE(s->barrier() && e->barrier());
    // Both are told the clocks after each action that changed whom the game awaits, and only
    // then (a frame after any other action would count the other's hidden decisions).
    const int told = e->view["awaiting"] != awaiting_before ? 1 : 0;
    EXPECT_EQ(s->clocks - clocks_before.first, told) << i;
    EXPECT_EQ(e->clocks - clocks_before.second, told) << i;
    if (told) {
      EXPECT_EQ(s->last_clocks["time_control"], tc);
      EXPECT_EQ(s->last_clocks, e->last_clocks);
    }
  }

  // A restart mid-turn neither loses nor adds time: the clock is recomputed from the store.
  const auto before = details(scot, id);
  const std::string awaited = before["awaiting"].front();
  const std::int64_t left = before["clocks"][awaited]["remaining_ms"];
  server.clock.advance(5 * kHour);
  server.restart();
  auto again = HttpClient(server.port());
  again.set_session_cookie(scot.session_cookie());
  const auto after = details(again, id);
  EXPECT_EQ(after["clocks"][awaited]["remaining_ms"], left - 5 * kHour) << after.dump();
  EXPECT_EQ(after["clocks"][awaited]["deadline"], server.clock.now() + (left - 5 * kHour));

  // Past the deadline the awaited side loses by time, with nobody acting.
  s = connect(server.port(), id, scot.session_cookie());
  ASSERT_TRUE(s && s->read_first_view());
  server.clock.advance(left);
  const auto ended = wait_for(again, id, [](const json& g) { return g["status"] == "finished"; });
  ASSERT_FALSE(ended.is_null());
  EXPECT_EQ(ended["result"]["reason"], "timeout");
  EXPECT_EQ(ended["result"]["winner"], awaited == "scotland" ? "england" : "scotland");
  // The connected client is told.
  bool told = false;
  for (int i = 0; i < 20 && !told; ++i) {
    if (!s->read_one()) break;
    told = s->last["type"] == "game_ended";
  }
  EXPECT_TRUE(told);
  EXPECT_EQ(s->last["result"]["reason"], "timeout");
  // The record shows it, and so does the lobby.
  const auto record = again.get(path(id, "/record"));
  ASSERT_EQ(record.status, 200) << record.body;
  EXPECT_EQ(record.json()["result"]["reason"], "timeout");
  const auto mine = again.get("/api/games/mine").json()["games"];
  ASSERT_FALSE(mine.empty());
  EXPECT_EQ(mine[0]["result"]["reason"], "timeout");
}

// The clock sweep reads only the clocks whose stored `check_at` has passed (server/
// clock_checks.h): a deadline that passed while the server was down is found by the first
// sweep after the restart, with nobody connected or acting, and a game whose deadline is still
// ahead is left alone.
TEST(ServerClocks, ADeadlinePassedWhileTheServerWasDownEndsTheGameAfterTheRestart) {
  Server server;
  auto scot = register_user(server.port(), "down_scot");
  auto eng = register_user(server.port(), "down_eng");
  const json short_tc = {
      {"kind", "correspondence"}, {"days_per_turn", 1}, {"bank_days", 0}, {"vacation", false}};
  const json long_tc = {
      {"kind", "correspondence"}, {"days_per_turn", 5}, {"bank_days", 0}, {"vacation", false}};
  const auto due = started_timed_game(scot, eng, short_tc);
  const auto later = started_timed_game(scot, eng, long_tc);
  const auto before = details(scot, due);
  const std::string awaited = before["awaiting"].front();
  const std::int64_t deadline = before["clocks"][awaited]["deadline"];
  EXPECT_EQ(deadline, server.clock.now() + 24 * kHour) << before.dump();

  server.process->kill9();
  server.clock.set(deadline + kHour);
  server.process = std::make_unique<ServerProcess>(server.dir.path(), std::vector<std::string>{},
                                                   server.clock.env());
  auto again = HttpClient(server.port());
  again.set_session_cookie(scot.session_cookie());
  const auto ended = wait_for(again, due, [](const json& g) { return g["status"] == "finished"; });
  ASSERT_FALSE(ended.is_null());
  EXPECT_EQ(ended["result"]["reason"], "timeout");
  EXPECT_EQ(ended["result"]["winner"], awaited == "scotland" ? "england" : "scotland");
  // Ended by the sweep that ended the other: the game whose deadline is ahead is still on,
  // its clock running on from where it was.
  const auto going = details(again, later);
  EXPECT_EQ(going["status"], "active") << going.dump();
  EXPECT_EQ(going["clocks"][awaited]["remaining_ms"], 5 * 24 * kHour - 25 * kHour) << going.dump();
}

// RULES 13.1.4: others see only the public phase. A clock running for a role is a public fact,
// so it must follow the public `awaiting` of every view, never the true sub-step: over random
// play through card choices (a card taken back awaits its side again), moves, battles and
// winter, both seats are told the same clocks exactly when that public `awaiting` changes, and
// the clocks that run are exactly the roles both views await. Steps back (random_walk.h) are one
// action in ten at most, so that the walk reaches the later phases by construction rather than
// by the luck of its draws.
TEST(ServerClocks, TheClocksEachSeatIsToldRunOnlyForThePubliclyAwaitedRoles) {
  Server server;
  auto scot = register_user(server.port(), "pub_scot");
  auto eng = register_user(server.port(), "pub_eng");
  const json tc = {{"kind", "live"}, {"minutes", 600}, {"increment_seconds", 30}};
  const auto id = started_timed_game(scot, eng, tc);
  auto s = connect(server.port(), id, scot.session_cookie());
  auto e = connect(server.port(), id, eng.session_cookie());
  ASSERT_TRUE(s && e && s->read_first_view() && e->read_first_view());

  std::mt19937_64 rng(35);
  std::set<std::string> phases;
  std::set<std::string> awaited_before = e->view["awaiting"];
  std::pair<std::int64_t, std::int64_t> clocks_before{s->clocks, e->clocks};
  int changes = 0;
  int back = 0;  // steps back taken
  for (int i = 0; i < 400; ++i) {
    const bool may_step_back = (back + 1) * 10 <= i + 1;
    std::vector<std::pair<Connection*, json>> able;  // a seat and what it may do
    for (Connection* c : {s.get(), e.get()}) {
      auto legal =
          may_step_back ? c->view["legal_actions"] : forward_actions(c->view["legal_actions"]);
      if (!legal.empty()) able.emplace_back(c, std::move(legal));
    }
    if (able.empty()) break;
    auto& [seat, legal] = able[rng() % able.size()];
    Connection& actor = *seat;
    const json action = legal[rng() % legal.size()];
    const std::string ref = "p" + std::to_string(i);
    server.clock.advance(10'000);
    actor.send_action(action, actor.seq, ref);
    ASSERT_TRUE(actor.read_answer(ref));
    if (actor.last["type"] == "error") continue;
    back += steps_back(action) ? 1 : 0;
    ASSERT_TRUE(s->barrier() && e->barrier());
    const std::set<std::string> awaited_s = s->view["awaiting"];
    const std::set<std::string> awaited_e = e->view["awaiting"];
    EXPECT_EQ(awaited_s, awaited_e) << "action " << i;
    // Told exactly when the public `awaiting` changed, both the same clocks.
    const bool changed = awaited_e != awaited_before;
    EXPECT_EQ(s->clocks - clocks_before.first, changed ? 1 : 0) << "action " << i;
    EXPECT_EQ(e->clocks - clocks_before.second, changed ? 1 : 0) << "action " << i;
    awaited_before = awaited_e;
    clocks_before = {s->clocks, e->clocks};
    if (!changed) continue;
    ++changes;
    const json& told_s = s->last_clocks;
    EXPECT_EQ(told_s, e->last_clocks) << "action " << i;
    std::set<std::string> running;
    for (const char* role : {"scotland", "england"}) {
      if (told_s[role]["running"].get<bool>()) running.insert(role);
    }
    EXPECT_EQ(running, awaited_e) << "action " << i << ": " << told_s.dump();
    phases.insert(e->view.value("phase", json("")).dump());
  }
  // The walk reached more than the opening card choice, and whom the game awaits changed.
  EXPECT_GT(phases.size(), 3U);
  EXPECT_GT(changes, 3);
}

// A card chosen and taken back ends and resumes the chooser's wait: the wait is charged from
// when the seat first became awaited in that card phase, the time between choice and take-back
// included, and earns no increment; a live bank never grows, a correspondence deadline never
// moves on. The opponent's clock, awaited throughout, is untouched by it.
void expect_take_backs_refill_nothing(const json& tc) {
  Server server;
  auto scot = register_user(server.port(), "back_scot");
  auto eng = register_user(server.port(), "back_eng");
  const auto id = started_timed_game(scot, eng, tc);
  auto s = connect(server.port(), id, scot.session_cookie());
  ASSERT_TRUE(s && s->read_first_view());
  const auto start = details(eng, id)["clocks"];
  ASSERT_TRUE(start["scotland"]["running"]) << start.dump();
  const std::int64_t allowance = start["scotland"]["remaining_ms"];
  const std::int64_t deadline = start["scotland"]["deadline"];
  std::int64_t spent = 0;
  for (int cycle = 0; cycle < 8; ++cycle) {
    json card;
    for (const auto& a : s->view["legal_actions"]) {
      if (a["kind"] == "play_card") card = a;
    }
    ASSERT_FALSE(card.is_null()) << s->view["legal_actions"].dump();
    server.clock.advance(20'000);
    spent += 20'000;
    s->send_action(card, s->seq, "c" + std::to_string(cycle));
    ASSERT_TRUE(s->read_answer("c" + std::to_string(cycle)));
    ASSERT_EQ(s->last["type"], "view") << s->last.dump();
    const auto chosen = details(eng, id)["clocks"];
    EXPECT_FALSE(chosen["scotland"]["running"]) << chosen.dump();
    server.clock.advance(40'000);
    spent += 40'000;
    s->send_action({{"kind", "take_back"}}, s->seq, "t" + std::to_string(cycle));
    ASSERT_TRUE(s->read_answer("t" + std::to_string(cycle)));
    ASSERT_EQ(s->last["type"], "view") << s->last.dump();
    const auto back = details(eng, id)["clocks"];
    ASSERT_TRUE(back["scotland"]["running"]) << back.dump();
    EXPECT_EQ(back["scotland"]["remaining_ms"], allowance - spent) << "cycle " << cycle;
    EXPECT_EQ(back["scotland"]["deadline"], deadline) << "cycle " << cycle;
    EXPECT_EQ(back["england"]["remaining_ms"], allowance - spent) << "cycle " << cycle;
  }
  // After a restart too: the paused wait is stored with the clock.
  server.restart();
  HttpClient again(server.port());
  again.set_session_cookie(eng.session_cookie());
  EXPECT_EQ(details(again, id)["clocks"]["scotland"]["deadline"], deadline);
}

TEST(ServerClocks, TakingBackALiveCardChoiceNeverRefillsTheClock) {
  expect_take_backs_refill_nothing({{"kind", "live"}, {"minutes", 60}, {"increment_seconds", 60}});
}

TEST(ServerClocks, TakingBackACorrespondenceCardChoiceNeverMovesTheDeadline) {
  expect_take_backs_refill_nothing(
      {{"kind", "correspondence"}, {"days_per_turn", 1}, {"bank_days", 2}, {"vacation", false}});
}

// A wait the seat's own action ended resumes only by that seat's next action: once the other
// seat acted, the next wait is a fresh one (here: both chose, the cards were revealed).
TEST(ServerClocks, AFreshTurnAfterTheOtherSeatActedGetsItsIncrement) {
  Server server;
  auto scot = register_user(server.port(), "fresh_scot");
  auto eng = register_user(server.port(), "fresh_eng");
  const json tc = {{"kind", "live"}, {"minutes", 60}, {"increment_seconds", 60}};
  const auto id = started_timed_game(scot, eng, tc);
  auto s = connect(server.port(), id, scot.session_cookie());
  auto e = connect(server.port(), id, eng.session_cookie());
  ASSERT_TRUE(s && e && s->read_first_view() && e->read_first_view());
  auto play_card = [&](Connection& c, const std::string& ref) {
    for (const auto& a : c.view["legal_actions"]) {
      if (a["kind"] != "play_card") continue;
      c.send_action(a, c.seq, ref);
      ASSERT_TRUE(c.read_answer(ref));
      return;
    }
    ADD_FAILURE() << c.role << " has no card to play";
  };
  server.clock.advance(30'000);
  play_card(*s, "s1");
  server.clock.advance(30'000);
  play_card(*e, "e1");
  ASSERT_TRUE(s->barrier() && e->barrier());
  // Scotland's wait ended at 30 s with its increment: 60 min - 30 s + 60 s.
  const auto after = details(eng, id)["clocks"];
  EXPECT_EQ(after["scotland"]["bank_ms"], 60 * 60'000 - 30'000 + 60'000) << after.dump();
  EXPECT_EQ(after["england"]["bank_ms"], 60 * 60'000 - 60'000 + 60'000) << after.dump();
}

TEST(ServerClocks, AVacationPausesTheCorrespondenceClockVisiblyAndIsTakenWhenTimeRunsOut) {
  Server server;
  auto scot = register_user(server.port(), "vac_scot");
  auto eng = register_user(server.port(), "vac_eng");
  const json tc = {{"kind", "correspondence"}, {"days_per_turn", 1}, {"bank_days", 0}};
  const auto id = started_timed_game(scot, eng, tc);
  const auto game = details(scot, id);
  const std::string awaited = game["awaiting"].front();
  auto& player = awaited == "scotland" ? scot : eng;
  auto& opponent = awaited == "scotland" ? eng : scot;

  const auto vacation = player.get("/api/me/vacation").json();
  EXPECT_EQ(vacation["days_left"], vacation["days_per_year"]);
  EXPECT_EQ(player.post("/api/me/vacation", {{"days", 0}}).error_code(), "bad_field");
  EXPECT_EQ(player.post("/api/me/vacation", {{"days", "2"}}).error_code(), "bad_field");
  EXPECT_EQ(player.post("/api/me/vacation", {{"days", 2}, {"extra", 1}}).error_code(), "bad_field");
  const auto taken = player.post("/api/me/vacation", {{"days", 2}});
  ASSERT_EQ(taken.status, 200) << taken.body;
  const std::int64_t per_year = vacation["days_per_year"];
  EXPECT_EQ(taken.json()["days_left"], per_year - 2);

  // Two days later the clock has not moved, and the opponent sees why.
  const std::int64_t left = details(opponent, id)["clocks"][awaited]["remaining_ms"];
  EXPECT_EQ(left, kDayMs);
  EXPECT_EQ(details(opponent, id)["clocks"][awaited]["vacation_until"],
            server.clock.now() + 2 * kDayMs);
  server.clock.advance(2 * kDayMs - kHour);
  EXPECT_EQ(details(opponent, id)["clocks"][awaited]["remaining_ms"], kDayMs);
  server.clock.advance(kHour + 6 * kHour);
  EXPECT_EQ(details(opponent, id)["clocks"][awaited]["remaining_ms"], kDayMs - 6 * kHour);

  // When the turn's day runs out, a vacation day is taken automatically instead of a loss.
  server.clock.advance(kDayMs);
  const auto paused = wait_for(opponent, id, [&](const json& g) {
    return g["status"] != "active" || !g["clocks"][awaited]["vacation_until"].is_null();
  });
  ASSERT_FALSE(paused.is_null());
  EXPECT_EQ(paused["status"], "active");
  EXPECT_EQ(player.get("/api/me/vacation").json()["days_left"], per_year - 3);
}

TEST(ServerGames, ResignAndCancelAnswerEachCaseAndTellTheRoom) {
  Server server;
  auto a = register_user(server.port(), "rs_a");
  auto b = register_user(server.port(), "rs_b");
  auto c = register_user(server.port(), "rs_c");

  // Cancel: only the creator, only before the start.
  const auto open = a.post("/api/games", {{"scenario", "braveheart"}, {"side", "england"}});
  const std::int64_t open_id = open.json()["game"]["id"];
  EXPECT_EQ(b.post(path(open_id, "/cancel"), json::object()).error_code(), "forbidden");
  EXPECT_EQ(a.post(path(open_id, "/resign"), json::object()).error_code(), "game_not_started");
  EXPECT_EQ(a.post(path(999, "/cancel"), json::object()).status, 404);
  const auto cancelled = a.post(path(open_id, "/cancel"), json::object());
  ASSERT_EQ(cancelled.status, 200) << cancelled.body;
  EXPECT_EQ(cancelled.json()["game"]["status"], "aborted");
  EXPECT_EQ(a.post(path(open_id, "/cancel"), json::object()).error_code(), "conflict");
  EXPECT_EQ(b.post(path(open_id, "/join"), json::object()).status, 409);

  // Resign: a player of a started game, at any moment.
  const auto id = started_timed_game(a, b, nullptr);
  EXPECT_EQ(a.post(path(id, "/cancel"), json::object()).error_code(), "conflict");
  EXPECT_EQ(c.post(path(id, "/resign"), json::object()).error_code(), "not_seated");
  auto watcher = connect(server.port(), id, b.session_cookie());
  ASSERT_TRUE(watcher && watcher->read_first_view());
  const auto resigned = a.post(path(id, "/resign"), json::object());
  ASSERT_EQ(resigned.status, 200) << resigned.body;
  EXPECT_EQ(resigned.json()["game"]["result"],
            (json{{"winner", "england"}, {"reason", "resigned"}}));
  EXPECT_EQ(b.post(path(id, "/resign"), json::object()).error_code(), "game_over");
  bool told = false;
  for (int i = 0; i < 20 && !told; ++i) {
    if (!watcher->read_one()) break;
    told = watcher->last["type"] == "game_ended";
  }
  ASSERT_TRUE(told);
  EXPECT_EQ(watcher->last["result"]["reason"], "resigned");
  // No action is taken after it.
  watcher->send_action(json::object(), watcher->seq, "late");
  ASSERT_TRUE(watcher->read_answer("late"));
  EXPECT_EQ(watcher->last["code"], "game_over");
  const auto record = a.get(path(id, "/record"));
  ASSERT_EQ(record.status, 200);
  EXPECT_EQ(record.json()["result"]["reason"], "resigned");
}

TEST(ServerGames, ARematchSwapsSidesAndKeepsTheSettingsOnceTheOtherAccepts) {
  Server server;
  auto a = register_user(server.port(), "rm_a");
  auto b = register_user(server.port(), "rm_b");
  auto c = register_user(server.port(), "rm_c");
  const json tc = {{"kind", "live"}, {"minutes", 90}, {"increment_seconds", 10}};
  const auto id = started_timed_game(a, b, tc);  // a plays Scotland
  EXPECT_EQ(a.post(path(id, "/rematch/offer"), json::object()).error_code(), "game_not_finished");
  ASSERT_EQ(b.post(path(id, "/resign"), json::object()).status, 200);
  EXPECT_EQ(c.post(path(id, "/rematch/offer"), json::object()).error_code(), "not_seated");
  EXPECT_EQ(a.post(path(id, "/rematch/accept"), json::object()).error_code(), "conflict");
  EXPECT_EQ(a.post(path(id, "/rematch/maybe"), json::object()).status, 404);

  auto watcher = connect(server.port(), id, b.session_cookie());
  ASSERT_TRUE(watcher && watcher->read_first_view());
  const auto offered = a.post(path(id, "/rematch/offer"), json::object());
  ASSERT_EQ(offered.status, 200) << offered.body;
  EXPECT_EQ(a.post(path(id, "/rematch/offer"), json::object()).error_code(), "conflict");
  EXPECT_EQ(a.post(path(id, "/rematch/accept"), json::object()).error_code(), "conflict");
  bool told = false;
  for (int i = 0; i < 20 && !told; ++i) {
    if (!watcher->read_one()) break;
    told = watcher->last["type"] == "rematch";
  }
  ASSERT_TRUE(told);
  EXPECT_EQ(watcher->last["state"], "offered");
  EXPECT_EQ(watcher->last["offered_by"], "rm_a");

  const auto accepted = b.post(path(id, "/rematch/accept"), json::object());
  ASSERT_EQ(accepted.status, 200) << accepted.body;
  const std::int64_t next = accepted.json()["rematch"]["game_id"];
  EXPECT_EQ(details(a, next)["status"], "open");  // until both have rolled
  roll_dice(b, a, next);
  const auto game = details(a, next);
  EXPECT_EQ(game["status"], "active");
  EXPECT_EQ(game["players"]["scotland"], "rm_b");
  EXPECT_EQ(game["players"]["england"], "rm_a");
  EXPECT_EQ(game["scenario"], "braveheart");
  EXPECT_EQ(game["time_control"], tc);
  EXPECT_EQ(game["clocks"]["scotland"]["bank_ms"], 90 * kMinuteMs);
  EXPECT_EQ(b.post(path(id, "/rematch/decline"), json::object()).error_code(), "conflict");

  // Declining another game's offer.
  const auto other = started_timed_game(a, b, nullptr);
  ASSERT_EQ(a.post(path(other, "/resign"), json::object()).status, 200);
  ASSERT_EQ(b.post(path(other, "/rematch/offer"), json::object()).status, 200);
  const auto declined = a.post(path(other, "/rematch/decline"), json::object());
  ASSERT_EQ(declined.status, 200) << declined.body;
  EXPECT_EQ(declined.json()["rematch"]["state"], "declined");
}

TEST(ServerGames, MyGamesShowsTheOpponentsLastActivityAndTheClocks) {
  Server server;
  auto a = register_user(server.port(), "act_a");
  auto b = register_user(server.port(), "act_b");
  const auto id = started_timed_game(a, b, json{{"kind", "correspondence"}});
  server.clock.advance(2 * kHour);
  const auto mine = a.get("/api/games/mine").json()["games"];
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(mine[0]["id"], id);
  // b was last seen when he joined, two hours ago by the server's clock.
  EXPECT_EQ(mine[0]["last_active"]["england"], kStart);
  EXPECT_TRUE(mine[0]["clocks"].is_object());
  EXPECT_EQ(mine[0]["time_control"]["days_per_turn"], 3);

  // Never the time of something b did at the game, which may be a hidden decision: while he is
  // connected he is "online", and after that his connection's close shows.
  const auto active = [&] {
    return a.get("/api/games/" + std::to_string(id)).json()["game"]["last_active"]["england"];
  };
  auto socket = connect(server.port(), id, b.session_cookie());
  ASSERT_TRUE(socket->read_first_view());
  EXPECT_EQ(active(), "online");
  server.clock.advance(5 * kMinuteMs);
  const auto left_at = server.clock.now();
  socket->ws.close();
  // The server hears of the close on its own thread: wait for it, not for a time.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (active() == "online" && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(active(), left_at);
  // A request a while later counts, to the minute.
  server.clock.advance(10 * kMinuteMs);
  ASSERT_EQ(b.get("/api/me").status, 200);
  EXPECT_EQ(active(), server.clock.now());

  // A newer game that does not await a (open, waiting for an opponent) comes after the one
  // that does, though the list is otherwise newest first.
  const auto waiting = a.post("/api/games", {{"scenario", "braveheart"}});
  ASSERT_EQ(waiting.status, 201) << waiting.body;
  const auto sorted = a.get("/api/games/mine").json()["games"];
  ASSERT_EQ(sorted.size(), 2u);
  EXPECT_EQ(sorted[0]["id"], id);
  EXPECT_EQ(sorted[0]["your_turn"], true);
  EXPECT_EQ(sorted[1]["id"], waiting.json()["game"]["id"]);
  EXPECT_EQ(sorted[1]["your_turn"], false);
}

}  // namespace
}  // namespace blockfog::server::testing

// --- the computer stands in ---------------------------------------------------------------------

namespace blockfog::server::testing {
namespace {

// A live game whose players both allowed the stand-in: when a clock runs out the game goes on,
// the computer (normal) playing the seat out of time, visibly to both; with one consent only,
// the game is lost on time as ever.
TEST(ServerClocks, TheComputerStandsInForATimedOutPlayerWhenBothAllowedIt) {
  Server server;
  auto scot = register_user(server.port(), "standin_s");
  auto eng = register_user(server.port(), "standin_e");
  const json tc = {{"kind", "live"}, {"minutes", 1}, {"increment_seconds", 0}};
  const auto game = [&](bool creator_allows, bool joiner_allows) {
    const auto created = scot.post("/api/games", {{"scenario", "braveheart"},
                                                  {"side", "scotland"},
                                                  {"time_control", tc},
                                                  {"stand_in", creator_allows}});
    EXPECT_EQ(created.status, 201) << created.body;
    const std::int64_t id = created.json()["game"]["id"];
    EXPECT_EQ(eng.post(path(id, "/join"), {{"stand_in", joiner_allows}}).status, 200);
    roll_dice(scot, eng, id);
    return id;
  };
  const auto both = game(true, true);
  const auto one = game(true, false);
  auto s = connect(server.port(), both, scot.session_cookie());
  ASSERT_TRUE(s && s->read_first_view());
  const std::string awaited = details(scot, both)["awaiting"].front();
  ASSERT_TRUE(details(scot, both)["computer"][awaited].is_null());

  server.clock.advance(2 * 60 * 1000);
  const auto taken =
      wait_for(eng, both, [&](const json& g) { return !g["computer"][awaited].is_null(); });
  ASSERT_FALSE(taken.is_null());
  EXPECT_EQ(taken["status"], "active");
  EXPECT_EQ(taken["computer"][awaited], json({{"level", "normal"}, {"stand_in", true}}));
  EXPECT_EQ(taken["players"][awaited], awaited == "scotland" ? "standin_s" : "standin_e");
  // The connected player is told who plays his seat now.
  bool told = false;
  for (int i = 0; i < 20 && !told; ++i) {
    if (!s->read_one()) break;
    told = s->last["type"] == "welcome" && !s->last["computer"][awaited].is_null();
  }
  EXPECT_TRUE(told);
  // The computer plays the seat: its action is logged under the seat's role.
  bool acted = false;
  for (int i = 0; i < 600 && !acted; ++i) {
    for (const auto& a : logged_actions(server.process->db_path(), both))
      acted |= a.role == awaited;
    if (!acted) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(acted);

  const auto ended = wait_for(scot, one, [](const json& g) { return g["status"] == "finished"; });
  ASSERT_FALSE(ended.is_null());
  EXPECT_EQ(ended["result"]["reason"], "timeout");
  EXPECT_TRUE(ended["computer"]["scotland"].is_null());
  EXPECT_TRUE(ended["computer"]["england"].is_null());
}

// A rated game lost on time (the fake clock past the awaited side's bank) moves both ratings
// (docs/ratings.md): the side whose time ran out loses, the other wins.
TEST(ServerClocks, ARatedGameLostOnTimeMovesBothRatings) {
  Server server;
  auto scot = register_user(server.port(), "rated_scot");
  auto eng = register_user(server.port(), "rated_eng");
  const json live = {{"kind", "live"}, {"minutes", 10}, {"increment_seconds", 0}};
  const auto created = scot.post(
      "/api/games",
      {{"scenario", "braveheart"}, {"side", "scotland"}, {"rated", true}, {"time_control", live}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["game"]["id"];
  ASSERT_EQ(eng.post(path(id, "/join"), json::object()).status, 200);
  roll_dice(scot, eng, id);
  const std::string awaited = details(scot, id)["awaiting"].front();
  server.clock.advance(11 * 60 * 1000);
  const auto ended = wait_for(scot, id, [](const json& g) { return g["status"] == "finished"; });
  ASSERT_FALSE(ended.is_null());
  EXPECT_EQ(ended["result"]["reason"], "timeout");
  const std::string winner = awaited == "scotland" ? "england" : "scotland";
  EXPECT_EQ(ended["result"]["winner"], winner);
  // The leaderboard: both rated once, the winner first.
  const auto board = scot.get("/api/ratings").json();
  ASSERT_EQ(board.at("ratings").size(), 2u) << board.dump();
  const auto rating = [&](const std::string& name) {
    for (const auto& r : board.at("ratings")) {
      if (r.at("username") == name) {
        EXPECT_EQ(r.at("games"), 1) << r.dump();
        return r.at("rating").get<double>();
      }
    }
    ADD_FAILURE() << name << " is not rated: " << board.dump();
    return 0.0;
  };
  EXPECT_GT(rating(winner == "scotland" ? "rated_scot" : "rated_eng"), 1500.0);
  EXPECT_LT(rating(winner == "scotland" ? "rated_eng" : "rated_scot"), 1500.0);
}

}  // namespace
}  // namespace blockfog::server::testing
