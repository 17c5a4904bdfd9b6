// Ratings through the HTTP API (docs/ratings.md): rated games chosen at creation change both
// players' ratings when they end, casual ones never; the leaderboard and each player's history
// show them; and every stored rating is what the stored results give when recomputed from
// scratch with Glicko-2.

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "storage/glicko2.h"
#include "storage/store.h"
#include "tests/server/db_peek.h"
#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"
#include "tests/server/stored_games.h"
#include "tests/server/test_client.h"
#include "tests/server/tournament_helpers.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;
namespace glicko2 = storage::glicko2;

struct RatedPlayer {
  std::string name;
  HttpClient http;
};

// A game created by `creator` as Scotland, joined by `joiner`, resigned by `resigner`.
std::int64_t play_and_resign(RatedPlayer& creator, RatedPlayer& joiner, RatedPlayer& resigner,
                             bool rated) {
  json body = {{"scenario", "braveheart"}, {"side", "scotland"}};
  if (rated) body["rated"] = true;
  const auto created = creator.http.post("/api/games", body);
  EXPECT_EQ(created.status, 201) << created.body;
  const auto game = created.json().at("game");
  EXPECT_EQ(game.at("rated"), rated);
  const auto id = game.at("id").get<std::int64_t>();
  const auto path = "/api/games/" + std::to_string(id);
  EXPECT_EQ(joiner.http.post(path + "/join", json::object()).status, 200);
  roll_dice(creator.http, joiner.http, id);
  const auto resigned = resigner.http.post(path + "/resign", json::object());
  EXPECT_EQ(resigned.status, 200) << resigned.body;
  return id;
}

// From scratch: every rated finished game in the order ratings changed, from the stored
// result and seats alone, replayed with Glicko-2 from the defaults (docs/ratings.md), gives
// every stored history row and current rating: `expected_games` games, `expected_accounts` rated.
void expect_ratings_recompute(const std::filesystem::path& db_path, int expected_games,
                              int expected_accounts) {
  storage::Store store(db_path, storage::Store::ReadOnly{});
  auto& db = store.database();
  auto games = db.prepare(
      "SELECT g.id, json_extract(g.result, '$.winner'),"
      " (SELECT account_id FROM seats WHERE game_id = g.id AND role = 'scotland'),"
      " (SELECT account_id FROM seats WHERE game_id = g.id AND role = 'england')"
      " FROM games g WHERE g.rated = 1 AND g.status = 'finished'"
      " ORDER BY (SELECT min(id) FROM rating_history WHERE game_id = g.id)");
  std::map<std::int64_t, glicko2::Rating> ratings;
  std::map<std::int64_t, std::int64_t> games_of;
  int rated_games = 0;
  while (games.step()) {
    ++rated_games;
    const auto game_id = games.column_int64(0);
    const auto winner = games.column_optional_text(1);
    const std::int64_t scot = games.column_int64(2);
    const std::int64_t eng = games.column_int64(3);
    const double scot_score = !winner ? 0.5 : (*winner == "scotland" ? 1.0 : 0.0);
    const glicko2::Result scot_result{ratings[eng], scot_score};
    const glicko2::Result eng_result{ratings[scot], 1.0 - scot_score};
    const auto scot_after = glicko2::update(ratings[scot], std::span(&scot_result, 1));
    const auto eng_after = glicko2::update(ratings[eng], std::span(&eng_result, 1));
    // The stored history of this game says the same.
    for (const auto& [account, before, after] :
         {std::tuple(scot, ratings[scot], scot_after), std::tuple(eng, ratings[eng], eng_after)}) {
      auto row = db.prepare(
          "SELECT rating_before, deviation_before, volatility_before, rating_after,"
          " deviation_after, volatility_after FROM rating_history"
          " WHERE game_id = ?1 AND account_id = ?2");
      row.bind(1, game_id).bind(2, account);
      ASSERT_TRUE(row.step()) << "game " << game_id << " has no history for " << account;
      EXPECT_DOUBLE_EQ(row.column_real(0), before.rating);
      EXPECT_DOUBLE_EQ(row.column_real(1), before.deviation);
      EXPECT_DOUBLE_EQ(row.column_real(2), before.volatility);
      EXPECT_DOUBLE_EQ(row.column_real(3), after.rating);
      EXPECT_DOUBLE_EQ(row.column_real(4), after.deviation);
      EXPECT_DOUBLE_EQ(row.column_real(5), after.volatility);
    }
    ratings[scot] = scot_after;
    ratings[eng] = eng_after;
    ++games_of[scot];
    ++games_of[eng];
  }
  EXPECT_EQ(rated_games, expected_games);
  auto stored = db.prepare("SELECT account_id, rating, deviation, volatility, games FROM ratings");
  int accounts = 0;
  while (stored.step()) {
    ++accounts;
    const auto account = stored.column_int64(0);
    ASSERT_TRUE(ratings.contains(account));
    EXPECT_DOUBLE_EQ(stored.column_real(1), ratings[account].rating);
    EXPECT_DOUBLE_EQ(stored.column_real(2), ratings[account].deviation);
    EXPECT_DOUBLE_EQ(stored.column_real(3), ratings[account].volatility);
    EXPECT_EQ(stored.column_int64(4), games_of[account]);
  }
  EXPECT_EQ(accounts, expected_accounts);
  auto history_rows = db.prepare("SELECT count(*) FROM rating_history");
  history_rows.step();
  EXPECT_EQ(history_rows.column_int64(0), 2 * rated_games);
}

class RatingsApi : public ::testing::Test {
 protected:
  RatingsApi() : server_(dir_.path()) {
    for (const char* name : {"ratings_ann", "ratings_bob", "ratings_cat"}) {
      players_.push_back({name, register_user(server_.port(), name)});
    }
  }

  HttpResult get(const std::string& target) { return HttpClient(server_.port()).get(target); }

  TempDir dir_;
  ServerProcess server_;
  std::vector<RatedPlayer> players_;
};

TEST_F(RatingsApi, RatedGamesMoveRatingsAndRecomputingThemFromTheResultsGivesTheSame) {
  auto& ann = players_[0];
  auto& bob = players_[1];
  auto& cat = players_[2];
  play_and_resign(ann, bob, bob, true);   // ann wins as Scotland
  play_and_resign(bob, cat, bob, true);   // cat wins as England
  play_and_resign(cat, ann, cat, true);   // ann wins as England
  play_and_resign(ann, cat, ann, false);  // casual: no rating moves
  play_and_resign(bob, ann, bob, true);   // ann wins as England

  // The leaderboard: best first, ranks from 1, all three rated.
  const auto board = get("/api/ratings").json();
  ASSERT_EQ(board.at("total"), 3) << board.dump();
  const auto& list = board.at("ratings");
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].at("username"), "ratings_ann");
  EXPECT_EQ(list[0].at("rank"), 1);
  EXPECT_EQ(list[0].at("games"), 3);
  EXPECT_GT(list[0].at("rating").get<double>(), list[1].at("rating").get<double>());
  EXPECT_GT(list[1].at("rating").get<double>(), list[2].at("rating").get<double>());
  EXPECT_EQ(list[2].at("username"), "ratings_bob");  // lost all three
  const auto page = get("/api/ratings?limit=1&offset=1").json();
  ASSERT_EQ(page.at("ratings").size(), 1u);
  EXPECT_EQ(page.at("ratings")[0].at("rank"), 2);
  EXPECT_EQ(page.at("ratings")[0].at("username"), list[1].at("username"));

  // Ann's history, oldest first, each game starting where the one before ended.
  const auto mine = get("/api/players/RATINGS_ANN/ratings").json();
  EXPECT_EQ(mine.at("player").at("username"), "ratings_ann");
  EXPECT_EQ(mine.at("player").at("games"), 3);
  const auto& history = mine.at("history");
  ASSERT_EQ(history.size(), 3u);
  EXPECT_EQ(history[0].at("before").at("rating"), 1500.0);
  EXPECT_EQ(history[0].at("opponent"), "ratings_bob");
  EXPECT_EQ(history[0].at("role"), "scotland");
  EXPECT_EQ(history[1].at("role"), "england");
  for (std::size_t i = 0; i < history.size(); ++i) {
    EXPECT_EQ(history[i].at("score"), 1.0);
    EXPECT_GT(history[i].at("after").at("rating").get<double>(),
              history[i].at("before").at("rating").get<double>());
    if (i > 0) {
      EXPECT_EQ(history[i].at("before"), history[i - 1].at("after"));
    }
  }
  EXPECT_EQ(history[2].at("after"), json({{"rating", list[0].at("rating")},
                                          {"deviation", list[0].at("deviation")},
                                          {"volatility", list[0].at("volatility")}}));

  expect_ratings_recompute(server_db(dir_), 4, 3);
}

// A rated casual game that the rules end (RULES 12), played through the HTTP API and both
// seats' WebSockets by random legal actions: the engine's result moves both players' ratings
// as docs/ratings.md says (one Glicko-2 period from their ratings before it, the winner up and
// the loser down, each history row starting where the one before ended), and recomputing every
// rating from the stored results gives the same.
TEST_F(RatingsApi, ARatedGameEndedByTheRulesMovesBothRatings) {
  auto& ann = players_[0];
  auto& bob = players_[1];
  play_and_resign(ann, bob, bob, true);  // first a rated game: neither starts from the defaults
  const auto before = [&](const std::string& name) {
    return get("/api/players/" + name + "/ratings").json().at("player");
  };
  const auto ann_before = before(ann.name);
  const auto bob_before = before(bob.name);

  const auto created = bob.http.post(
      "/api/games", {{"scenario", "braveheart"}, {"side", "scotland"}, {"rated", true}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t game_id = created.json().at("game").at("id");
  const auto path = "/api/games/" + std::to_string(game_id);
  ASSERT_EQ(ann.http.post(path + "/join", json::object()).status, 200);
  std::mt19937_64 rng(1212);
  const auto play = play_random_to_end(server_.port(), game_id, bob.http.session_cookie(),
                                       ann.http.session_cookie(), 5000, rng);
  ASSERT_TRUE(play.ended) << "no end by the rules after " << play.actions << " actions";

  const auto game = get(path).json().at("game");
  EXPECT_EQ(game.at("status"), "finished");
  const auto& result = game.at("result");
  for (const char* decided : {"resigned", "timeout", "forfeit", "adjudicated"}) {
    EXPECT_NE(result.at("reason"), decided) << result.dump();
  }
  // Bob played Scotland, Ann England.
  const double bob_score =
      result.at("winner").is_null() ? 0.5 : (result.at("winner") == "scotland" ? 1.0 : 0.0);
  for (const auto& [name, player_before, score, role, opponent] :
       {std::tuple(bob.name, bob_before, bob_score, "scotland", ann.name),
        std::tuple(ann.name, ann_before, 1.0 - bob_score, "england", bob.name)}) {
    const auto mine = get("/api/players/" + name + "/ratings").json();
    EXPECT_EQ(mine.at("player").at("games"), 2) << name;
    const auto& history = mine.at("history");
    ASSERT_EQ(history.size(), 2u) << name;
    const auto& last = history[1];
    EXPECT_EQ(last.at("game_id"), game_id) << last.dump();
    EXPECT_EQ(last.at("score"), score) << name;
    EXPECT_EQ(last.at("role"), role) << name;
    EXPECT_EQ(last.at("opponent"), opponent) << name;
    EXPECT_EQ(last.at("before"), history[0].at("after")) << name;
    EXPECT_EQ(last.at("before"), player_before.at("rating")) << name;
    const double moved =
        last.at("after").at("rating").get<double>() - last.at("before").at("rating").get<double>();
    if (score == 1.0) {
      EXPECT_GT(moved, 0) << name;
    } else if (score == 0.0) {
      EXPECT_LT(moved, 0) << name;
    }
    // One more game played: less uncertainty about the player.
    EXPECT_LT(last.at("after").at("deviation").get<double>(),
              last.at("before").at("deviation").get<double>())
        << name;
    EXPECT_EQ(mine.at("player").at("rating"), last.at("after")) << name;
  }
  expect_ratings_recompute(server_db(dir_), 2, 2);
}

TEST_F(RatingsApi, BadQueriesAndUnknownPlayersAreRefused) {
  for (const char* query : {"limit=abc", "limit=0", "limit=101", "offset=-1", "offset=1x"}) {
    const auto r = get(std::string("/api/ratings?") + query);
    EXPECT_EQ(r.status, 400) << query;
    EXPECT_EQ(r.error_code(), "bad_field") << query;
  }
  const auto unknown = get("/api/players/nobody_here/ratings");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(unknown.error_code(), "not_found");
  EXPECT_NE(unknown.body.find("no such player"), std::string::npos);

  // A player who never played a rated game: no rating yet, an empty history.
  const auto fresh = get("/api/players/ratings_cat/ratings").json();
  EXPECT_TRUE(fresh.at("player").at("rating").is_null());
  EXPECT_EQ(fresh.at("player").at("games"), 0);
  EXPECT_TRUE(fresh.at("history").empty());
  EXPECT_EQ(get("/api/ratings").json().at("ratings"), json::array());

  // `rated` must be a boolean.
  const auto bad = players_[0].http.post("/api/games", {{"scenario", "braveheart"}, {"rated", 1}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.error_code(), "bad_field");
}

// The computer never stands in in a rated game: asking for it at creation or at join is a
// typed refusal that stores nothing (the seat stays free).
TEST_F(RatingsApi, AStandInIsRefusedForARatedGame) {
  const auto before = db_fingerprint(server_.db_path());
  const auto at_creation = players_[0].http.post(
      "/api/games", {{"scenario", "braveheart"}, {"rated", true}, {"stand_in", true}});
  EXPECT_EQ(at_creation.status, 400) << at_creation.body;
  EXPECT_EQ(at_creation.error_code(), "bad_field");
  EXPECT_EQ(db_fingerprint(server_.db_path()), before);

  const auto created =
      players_[0].http.post("/api/games", {{"scenario", "braveheart"}, {"rated", true}});
  ASSERT_EQ(created.status, 201) << created.body;
  const auto path =
      "/api/games/" + std::to_string(created.json()["game"]["id"].get<std::int64_t>());
  const auto open = db_fingerprint(server_.db_path());
  const auto at_join = players_[1].http.post(path + "/join", {{"stand_in", true}});
  EXPECT_EQ(at_join.status, 400) << at_join.body;
  EXPECT_EQ(at_join.error_code(), "bad_field");
  EXPECT_EQ(db_fingerprint(server_.db_path()), open);
  // Without it the seat is there to take.
  EXPECT_EQ(players_[1].http.post(path + "/join", json::object()).status, 200);
}

}  // namespace
}  // namespace blockfog::server::testing
