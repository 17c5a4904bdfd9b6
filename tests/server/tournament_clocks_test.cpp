// A tournament's time control and its vacation rule (docs/tournaments.md, "Time control and
// vacations"), through the real server with its clock driven by the test: every game of a
// round gets the tournament's clock; a tournament that forbids vacations neither pauses for
// a vacation taken ahead nor takes one automatically, and both players see it; a bad time
// control at creation is a typed error that creates nothing.

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "tests/server/clocked_server.h"
#include "tests/server/db_peek.h"
#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/tournament_helpers.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

constexpr std::int64_t kHourMs = 3600 * 1000;
constexpr std::int64_t kOneDayMs = 24 * kHourMs;

// A one-round Swiss tournament of two players on a correspondence clock of one day per turn
// and no bank, started, with the awaited player about to go on vacation.
struct ClockedTournament {
  ClockedServer server;
  HttpClient organiser = register_user(server.port(), "tc_org");
  HttpClient ann = register_user(server.port(), "tc_ann");
  HttpClient bob = register_user(server.port(), "tc_bob");
  std::int64_t id = 0;
  std::int64_t game_id = 0;
  json tournament;

  explicit ClockedTournament(const json& settings) {
    json request = swiss_request(1, 2, "lot", server.clock.now());
    request["time_control"] = {{"kind", "correspondence"}, {"days_per_turn", 1}, {"bank_days", 0}};
    request.update(settings);
    const auto created = organiser.post("/api/tournaments", request);
    EXPECT_EQ(created.status, 201) << created.body;
    id = created.json()["tournament"]["id"];
    for (auto* player : {&ann, &bob}) {
      EXPECT_EQ(player->post(tournament_path(id, "/register"), json::object()).status, 200);
    }
    const auto started = organiser.post(tournament_path(id, "/start"), json::object());
    EXPECT_EQ(started.status, 200) << started.body;
    tournament = started.json()["tournament"];
    game_id = tournament["rounds_played"][0]["games"][0]["game_id"];
    roll_dice(player("scotland"), player("england"), game_id);
  }

  HttpClient& player(const std::string& role) {
    return tournament["rounds_played"][0]["games"][0][role] == "tc_ann" ? ann : bob;
  }

  json game(HttpClient& client) {
    const auto got = client.get("/api/games/" + std::to_string(game_id));
    EXPECT_EQ(got.status, 200) << got.body;
    return got.json()["game"];
  }

  // Polls the game until `done` holds (the clock sweep runs every few seconds).
  json wait_for(const std::function<bool(const json&)>& done) {
    for (int i = 0; i < 150; ++i) {
      auto g = game(organiser);
      if (done(g)) return g;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << "the game never reached the awaited state: " << game(organiser).dump();
    return nullptr;
  }

  // England decides first if both are awaited, so that Scotland alone is awaited: his clock
  // alone runs. Returns Scotland's player.
  HttpClient& scotland_alone_awaited() {
    auto s = connect(server.port(), game_id, player("scotland").session_cookie());
    auto e = connect(server.port(), game_id, player("england").session_cookie());
    EXPECT_TRUE(s && e && s->read_first_view() && e->read_first_view());
    if (!e->view["legal_actions"].empty()) {
      e->send_action(e->view["legal_actions"].front(), e->seq, "first");
      EXPECT_TRUE(e->read_answer("first"));
      EXPECT_NE(e->last.value("type", ""), "error") << e->last.dump();
    }
    EXPECT_EQ(game(organiser)["awaiting"], json::array({"scotland"}));
    return player("scotland");
  }
};

TEST(TournamentClocks, AGameWhoseTournamentForbidsVacationIsNotPausedAndIsLostOnTime) {
  ClockedTournament t(json{{"vacation", false}});
  EXPECT_EQ(t.tournament["vacation"], false);
  EXPECT_EQ(t.tournament["time_control"]["kind"], "correspondence");
  // Both players see that vacations do not pause this game: on the game and in "my games".
  for (auto* client : {&t.ann, &t.bob}) {
    const auto g = t.game(*client);
    EXPECT_EQ(g["time_control"], json({{"kind", "correspondence"},
                                       {"days_per_turn", 1},
                                       {"bank_days", 0},
                                       {"vacation", false}}));
    const auto mine = client->get("/api/games/mine").json()["games"];
    ASSERT_EQ(mine.size(), 1u);
    EXPECT_EQ(mine[0]["time_control"]["vacation"], false);
  }
  auto& scot = t.scotland_alone_awaited();
  const std::int64_t days_left = scot.get("/api/me/vacation").json()["days_left"];
  ASSERT_EQ(scot.post("/api/me/vacation", {{"days", 2}}).status, 200);

  // The vacation taken ahead does not pause the game: its clock runs on.
  t.server.clock.advance(6 * kHourMs);
  const auto clocks = t.game(t.organiser)["clocks"]["scotland"];
  EXPECT_TRUE(clocks["vacation_until"].is_null()) << clocks.dump();
  EXPECT_EQ(clocks["remaining_ms"], kOneDayMs - 6 * kHourMs);

  // And no vacation day is taken when it runs out: Scotland loses on time.
  t.server.clock.advance(kOneDayMs);
  const auto ended = t.wait_for([](const json& g) { return g["status"] != "active"; });
  ASSERT_FALSE(ended.is_null());
  EXPECT_EQ(ended["status"], "finished");
  EXPECT_EQ(ended["result"], json({{"winner", "england"}, {"reason", "timeout"}}));
  EXPECT_EQ(scot.get("/api/me/vacation").json()["days_left"], days_left - 2);
}

TEST(TournamentClocks, AGameWhoseTournamentAllowsVacationIsPausedByIt) {
  ClockedTournament t(json::object());  // vacations allowed: the default
  EXPECT_EQ(t.tournament["vacation"], true);
  EXPECT_EQ(t.game(t.ann)["time_control"]["vacation"], true);
  auto& scot = t.scotland_alone_awaited();
  ASSERT_EQ(scot.post("/api/me/vacation", {{"days", 2}}).status, 200);

  t.server.clock.advance(kOneDayMs + 6 * kHourMs);
  const auto g = t.game(t.organiser);
  EXPECT_EQ(g["status"], "active");
  EXPECT_EQ(g["clocks"]["scotland"]["vacation_until"], kClockStart + 2 * kOneDayMs);
  EXPECT_EQ(g["clocks"]["scotland"]["remaining_ms"], kOneDayMs);
}

TEST(TournamentClocks, ALiveTimeControlIsEveryRoundGamesClock) {
  ClockedTournament t(json{{"time_control", {{"kind", "live"}, {"minutes", 30}}}});
  const auto g = t.game(t.bob);
  EXPECT_EQ(g["time_control"],
            json({{"kind", "live"}, {"minutes", 30}, {"increment_seconds", 30}}));
  EXPECT_EQ(g["clocks"]["scotland"]["bank_ms"], 30 * 60 * 1000);
}

TEST(TournamentClocks, ABadTimeControlIsATypedErrorAndCreatesNothing) {
  ClockedServer server;
  auto organiser = register_user(server.port(), "tc_org");
  for (const json& bad :
       {json{{"kind", "live"}, {"minutes", 0}}, json{{"kind", "correspondence"}, {"bank_days", 99}},
        json{{"kind", "sometimes"}}, json("3 days"), json{{"kind", "live"}, {"days_per_turn", 3}},
        json{{"kind", "correspondence"}, {"vacation", false}}}) {
    json request = swiss_request(1, 2, "lot", server.clock.now());
    request["time_control"] = bad;
    const auto before = db_fingerprint(server.process->db_path());
    const auto r = organiser.post("/api/tournaments", request);
    EXPECT_EQ(r.status, 400) << bad.dump() << ": " << r.body;
    EXPECT_EQ(r.error_code(), "bad_field") << r.body;
    EXPECT_EQ(db_fingerprint(server.process->db_path()), before) << bad.dump();
  }
  json request = swiss_request(1, 2, "lot", server.clock.now());
  request["vacation"] = "no";
  EXPECT_EQ(organiser.post("/api/tournaments", request).error_code(), "bad_field");
  EXPECT_TRUE(organiser.get("/api/tournaments").json()["tournaments"].empty());
}

}  // namespace
}  // namespace blockfog::server::testing
