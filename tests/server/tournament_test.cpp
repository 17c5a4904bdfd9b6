// Tournaments through the HTTP API (docs/tournaments.md): registration, the organiser's
// actions and their typed refusals, rounds that follow the end of their games, standings and
// the exported bundle of records.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "server/crypto.h"
#include "server/play/game_loader.h"
#include "storage/sqlite.h"
#include "tests/server/db_peek.h"
#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"
#include "tests/server/tournament_helpers.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

TEST(Tournaments, RefusalsAreTypedAndChangeNothing) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto organiser = register_user(server.port(), "org");
  auto ann = register_user(server.port(), "ann");
  auto bob = register_user(server.port(), "bob");
  auto cat = register_user(server.port(), "cat");
  auto dan = register_user(server.port(), "dan");

  auto refused = [&](HttpClient& client, const std::string& target, const json& body, int status,
                     const std::string& code) {
    const auto before = db_fingerprint(server.db_path());
    const auto r = client.post(target, body);
    EXPECT_EQ(r.status, status) << target << " " << body.dump() << ": " << r.body;
    EXPECT_EQ(r.error_code(), code) << r.body;
    EXPECT_EQ(db_fingerprint(server.db_path()), before) << target << " changed the store";
  };
  // A malformed format, no rounds for Swiss, rounds for a round robin, bad sides.
  auto bad = swiss_request(3, 3);
  bad["format"] = "knockout";
  refused(organiser, "/api/tournaments", bad, 400, "bad_field");
  bad = swiss_request(3, 3);
  bad.erase("rounds");
  refused(organiser, "/api/tournaments", bad, 400, "missing_field");
  bad = swiss_request(3, 3);
  bad["format"] = "round_robin";
  refused(organiser, "/api/tournaments", bad, 400, "bad_field");
  bad = swiss_request(3, 3);
  bad["sides"] = "bid";
  refused(organiser, "/api/tournaments", bad, 400, "bad_field");
  bad = swiss_request(3, 3);
  bad["scenario"] = "nowhere";
  refused(organiser, "/api/tournaments", bad, 400, "bad_field");
  bad = swiss_request(3, 3);
  bad["registration_closes_at"] = bad["registration_closes_at"].get<std::int64_t>() - 3601 * 1000;
  refused(organiser, "/api/tournaments", bad, 400, "bad_field");
  EXPECT_EQ(organiser.get("/api/tournaments").json()["tournaments"].size(), 0u);

  const auto created = organiser.post("/api/tournaments", swiss_request(2, 3));
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["tournament"]["id"];
  EXPECT_EQ(created.json()["tournament"]["status"], "registering");
  EXPECT_EQ(created.json()["tournament"]["organiser"], "org");

  for (auto* client : {&ann, &bob, &cat}) {
    EXPECT_EQ(client->post(tournament_path(id, "/register"), json::object()).status, 200);
  }
  refused(dan, tournament_path(id, "/register"), json::object(), 409, "tournament_full");
  refused(ann, tournament_path(id, "/register"), json::object(), 409, "conflict");
  refused(ann, tournament_path(id, "/start"), json::object(), 403, "not_organiser");
  refused(ann, tournament_path(id, "/note"), {{"text", "hello"}}, 403, "not_organiser");
  refused(organiser, tournament_path(id, "/note"), {{"text", ""}}, 400, "bad_field");
  refused(organiser, tournament_path(id, "/forfeit"), {{"game_id", 1}, {"winner", "wales"}}, 400,
          "bad_field");
  // Withdrawing frees the place.
  EXPECT_EQ(cat.post(tournament_path(id, "/withdraw"), json::object()).status, 200);
  EXPECT_EQ(dan.post(tournament_path(id, "/register"), json::object()).status, 200);

  const auto started = organiser.post(tournament_path(id, "/start"), json::object());
  ASSERT_EQ(started.status, 200) << started.body;
  auto t = started.json()["tournament"];
  EXPECT_EQ(t["status"], "running");
  EXPECT_EQ(t["current_round"], 1);
  ASSERT_EQ(t["rounds_played"].size(), 1u);
  const auto round1 = t["rounds_played"][0];
  ASSERT_EQ(round1["games"].size(), 1u);            // three players: one game, one bye
  EXPECT_EQ(round1["byes"], json::array({"dan"}));  // the lowest seed
  const std::int64_t game_id = round1["games"][0]["game_id"];
  EXPECT_TRUE(round1["games"][0]["lot"].is_string()) << "sides by lot, the lot recorded";
  // Its players roll their dice (docs/records.md, "Dice"); it is then an ordinary stored game
  // under way.
  EXPECT_EQ(ann.get("/api/games/" + std::to_string(game_id)).json()["game"]["status"], "open");
  const std::map<std::string, HttpClient*> by_name{{"ann", &ann}, {"bob", &bob}, {"cat", &cat}};
  roll_dice(*by_name.at(round1["games"][0]["scotland"]), *by_name.at(round1["games"][0]["england"]),
            game_id);
  const auto game = ann.get("/api/games/" + std::to_string(game_id)).json()["game"];
  EXPECT_EQ(game["status"], "active");
  EXPECT_EQ(game["seed_sha256"].get<std::string>().size(), 64u);

  refused(cat, tournament_path(id, "/register"), json::object(), 409, "registration_closed");
  refused(dan, tournament_path(id, "/withdraw"), json::object(), 409, "registration_closed");
  refused(organiser, tournament_path(id, "/start"), json::object(), 409, "conflict");
  refused(organiser, tournament_path(id, "/forfeit"),
          {{"game_id", game_id + 100}, {"winner", "england"}}, 404, "not_found");
  refused(bob, tournament_path(id, "/forfeit"), {{"game_id", game_id}, {"winner", "england"}}, 403,
          "not_organiser");
  EXPECT_EQ(organiser.post(tournament_path(9999, "/note"), {{"text", "x"}}).status, 404);

  // The organiser's actions, each logged with its author.
  EXPECT_EQ(organiser.post(tournament_path(id, "/extend"), {{"minutes", 90}}).status, 200);
  EXPECT_EQ(organiser.post(tournament_path(id, "/note"), {{"text", "play nicely"}}).status, 200);
  const auto forfeit = organiser.post(tournament_path(id, "/forfeit"),
                                      {{"game_id", game_id}, {"winner", "england"}});
  ASSERT_EQ(forfeit.status, 200) << forfeit.body;
  const auto game_after = ann.get("/api/games/" + std::to_string(game_id)).json()["game"];
  EXPECT_EQ(game_after["status"], "finished");
  EXPECT_EQ(game_after["result"], (json{{"winner", "england"}, {"reason", "forfeit"}}));
  // The round had no other game: round 2 started at once, with the bye to another player.
  t = forfeit.json()["tournament"];
  EXPECT_EQ(t["current_round"], 2);
  ASSERT_EQ(t["rounds_played"].size(), 2u);
  EXPECT_EQ(t["rounds_played"][1]["byes"].size(), 1u);
  EXPECT_NE(t["rounds_played"][1]["byes"][0], "dan");
  std::map<std::string, std::string> authored;
  for (const auto& entry : t["log"]) {
    if (entry["author"].is_string()) authored[entry["action"]] = entry["author"];
  }
  for (const char* action : {"create", "start", "extend", "note", "forfeit"}) {
    EXPECT_EQ(authored[action], "org") << action;
  }
  // The standings count the forfeit and each bye (round 2's already) as a win: a point each.
  const auto standings = t["standings"];
  ASSERT_EQ(standings.size(), 3u);
  int byes = 0;
  for (const auto& s : standings) {
    EXPECT_EQ(s["points"], 1.0) << s.dump();
    byes += s["byes"].get<int>();
  }
  EXPECT_EQ(byes, 2);

  // Removing a player forfeits his game under way.
  const auto round2 = t["rounds_played"][1]["games"][0];
  const std::string leaver = round2["scotland"];
  const auto removed = organiser.post(tournament_path(id, "/remove"), {{"player", leaver}});
  ASSERT_EQ(removed.status, 200) << removed.body;
  t = removed.json()["tournament"];
  const auto g2 =
      ann.get("/api/games/" + std::to_string(round2["game_id"].get<std::int64_t>())).json();
  EXPECT_EQ(g2["game"]["result"]["winner"], "england");
  // That was the last round.
  EXPECT_EQ(t["status"], "finished");

  // The bundle: the two finished games, each record's bytes as the record endpoint serves them.
  const auto exported = bob.get(tournament_path(id, "/export"));
  ASSERT_EQ(exported.status, 200);
  EXPECT_EQ(exported.headers.at("content-type"), "application/x-tar");
  std::vector<std::string> order;
  const auto files = bundle_files(exported.body, &order);
  ASSERT_TRUE(files.contains("manifest.json"));
  ASSERT_EQ(order.size(), 4u);
  // The manifest first, the server's public keys, then the records by round.
  EXPECT_EQ(order[0], "manifest.json");
  EXPECT_EQ(order[1], "server-key.json");
  EXPECT_EQ(order[2], "games/" + std::to_string(game_id) + ".json");
  const auto manifest = json::parse(files.at("manifest.json"));
  EXPECT_EQ(manifest["format"], "blockfog-tournament-bundle");
  EXPECT_EQ(manifest["version"], 1);
  EXPECT_EQ(manifest["tournament"]["organiser"], "org");
  EXPECT_EQ(manifest["tournament"]["format"], "swiss");
  ASSERT_EQ(manifest["rounds"].size(), 2u);
  const auto& first = manifest["rounds"][0]["games"][0];
  EXPECT_EQ(first["game_id"], std::to_string(game_id));
  EXPECT_EQ(first["winner"], "england");
  EXPECT_EQ(first["result"], "forfeit");
  EXPECT_EQ(first["seed_commitment"], game["seed_sha256"]);
  const auto record = bob.get("/api/games/" + std::to_string(game_id) + "/record");
  EXPECT_EQ(files.at(first["record"].get<std::string>()), record.body);
  EXPECT_EQ(first["record_sha256"], sha256_hex(record.body));
  EXPECT_EQ(bob.get(tournament_path(9999, "/export")).status, 404);
}

// `hots-replay verify` on an exported bundle: its exit status and what it printed.
// `key_id` pins the server's key (docs/records.md, "Signatures").
std::pair<int, std::string> verify_bundle(const TempDir& dir, const std::string& bundle_bytes,
                                          const std::string& key_id) {
  const auto bundle = dir.path() / "tournament.tar";
  std::ofstream(bundle, std::ios::binary) << bundle_bytes;
  const auto report = dir.path() / "verify.txt";
  const int status =
      std::system((std::string(BLOCKFOG_HOTS_REPLAY_BIN) + " verify --key-id '" + key_id + "' '" +
                   bundle.string() + "' > '" + report.string() + "' 2>&1")
                      .c_str());
  std::stringstream out;
  out << std::ifstream(report).rdbuf();
  return {status, out.str()};
}

// The bundle of a finished tournament lists exactly `games`, each record's SHA-256, seed
// commitment, result and winner as the manifest says; and hots-replay verifies all of it
// (docs/records.md).
void expect_bundle_verifies(const TempDir& dir, HttpClient& client, std::int64_t id,
                            const std::set<std::int64_t>& games, std::size_t rounds) {
  const auto exported = client.get(tournament_path(id, "/export"));
  ASSERT_EQ(exported.status, 200);
  const auto files = bundle_files(exported.body);
  EXPECT_EQ(files.size(), games.size() + 2);
  ASSERT_TRUE(files.contains("manifest.json"));
  ASSERT_TRUE(files.contains("server-key.json"));
  const auto manifest = json::parse(files.at("manifest.json"));
  ASSERT_EQ(manifest["rounds"].size(), rounds);
  std::set<std::int64_t> listed;
  for (const auto& round : manifest["rounds"]) {
    for (const auto& g : round["games"]) {
      const auto game_id = std::stoll(g["game_id"].get<std::string>());
      listed.insert(game_id);
      ASSERT_TRUE(files.contains(g["record"].get<std::string>())) << g.dump();
      const auto& bytes = files.at(g["record"].get<std::string>());
      EXPECT_EQ(g["record_sha256"], sha256_hex(bytes));
      const auto record = json::parse(bytes);
      EXPECT_EQ(g["seed_commitment"], seed_commitment(record["seed"].get<std::string>()));
      EXPECT_EQ(record["result"]["winner"], g["winner"]);
      EXPECT_EQ(record["result"]["reason"], g["result"]);
    }
  }
  EXPECT_EQ(listed, games);
  // Every seed against its commitment, every action, state hash and result replayed, every
  // signature the server's.
  const auto key = client.get("/api/server-key");
  ASSERT_EQ(key.status, 200);
  const auto [status, out] = verify_bundle(dir, exported.body, key.json()["current"]);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("verified " + std::to_string(games.size()) + " games"), std::string::npos)
      << out;
}

// The standings of a Swiss tournament: everybody, ranked by points then Buchholz then
// Sonneborn-Berger, each with `rounds` results; each player's points are what `points` (from
// the games' results and the byes) gives.
void expect_swiss_standings(const json& standings, const std::map<std::string, double>& points,
                            int rounds) {
  ASSERT_EQ(standings.size(), points.size());
  for (std::size_t i = 0; i < standings.size(); ++i) {
    const auto& s = standings[i];
    EXPECT_EQ(s["rank"], i + 1);
    const std::string player = s["player"];
    ASSERT_TRUE(points.contains(player)) << player;
    EXPECT_EQ(s["points"].get<double>(), points.at(player)) << player;
    EXPECT_EQ(s["wins"].get<int>() + s["losses"].get<int>() + s["no_winner"].get<int>() +
                  s["byes"].get<int>(),
              rounds)
        << s.dump();
    if (i > 0) {
      const auto& above = standings[i - 1];
      const auto key = [](const json& x) {
        return std::make_tuple(x["points"].get<double>(), x["buchholz"].get<double>(),
                               x["sonneborn_berger"].get<double>());
      };
      EXPECT_GE(key(above), key(s));
    }
  }
}

// A game's points to each side: 1 to the winner, 1/2 each without one (docs/tournaments.md).
void add_points(std::map<std::string, double>& points, const json& result, const std::string& scot,
                const std::string& eng) {
  if (result["winner"].is_null()) {
    points[scot] += 0.5;
    points[eng] += 0.5;
  } else {
    points[result["winner"] == "scotland" ? scot : eng] += 1;
  }
}

// End to end: a Swiss tournament of 16 players and 5 rounds through the HTTP
// API, every game played by random legal actions through both seats' WebSockets, the eight
// games of a round at once. The last round's games are played to the end the rules give them
// (RULES 12); all 40 played out take about 50,000 actions, over ten minutes in the ASan build
// on two cores, so the games of rounds 1-4 get a few random actions each and are then decided
// the other ways a tournament game ends: a resignation, the organiser's forfeit or his
// adjudication, in turn. Then the pairings (no repeat, everybody in every round), the
// standings against the games' results, and the exported bundle verified by hots-replay.
TEST(Tournaments, SwissOfSixteenPlayersAndFiveRoundsEndToEnd) {
  TempDir dir;
  // Durability is not what this test is about: commits return without an fsync per action
  // (docs/server.md, --sync), as the load tool's server does.
  ServerProcess server(dir.path(), {"--sync", "normal"});
  auto organiser = register_user(server.port(), "organiser");
  std::map<std::string, HttpClient> players;
  const auto created = organiser.post("/api/tournaments", swiss_request(5, 16));
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["tournament"]["id"];
  for (int i = 1; i <= 16; ++i) {
    const std::string name = "player" + std::to_string(100 + i);
    players.emplace(name, register_user(server.port(), name));
    ASSERT_EQ(players.at(name).post(tournament_path(id, "/register"), json::object()).status, 200);
  }
  ASSERT_EQ(organiser.post(tournament_path(id, "/start"), json::object()).status, 200);

  std::set<std::pair<std::string, std::string>> met;
  std::set<std::int64_t> all_games;
  std::map<std::string, double> points;
  for (const auto& [name, client] : players) points[name] = 0;
  std::set<std::string> reasons;
  int actions = 0;
  int decided = 0;
  json t;
  for (std::int64_t round = 1; round <= 5; ++round) {
    t = organiser.get(tournament_path(id)).json()["tournament"];
    ASSERT_EQ(t["current_round"], round);
    const auto games = t["rounds_played"][round - 1]["games"];
    ASSERT_EQ(games.size(), 8u) << "round " << round;
    EXPECT_TRUE(t["rounds_played"][round - 1]["byes"].empty());
    std::set<std::string> playing;
    for (const auto& g : games) {
      const std::string scot = g["scotland"];
      const std::string eng = g["england"];
      EXPECT_TRUE(playing.insert(scot).second && playing.insert(eng).second);
      EXPECT_TRUE(met.insert({std::min(scot, eng), std::max(scot, eng)}).second)
          << scot << " and " << eng << " met before (round " << round << ")";
      all_games.insert(g["game_id"].get<std::int64_t>());
      EXPECT_EQ(g["status"], "open") << "its players have not rolled yet";
    }
    EXPECT_EQ(playing.size(), 16u);
    // The round's games at once, each by its own two connections and random generator.
    const bool played_out = round == 5;
    std::vector<RandomPlay> plays(games.size());
    std::vector<std::thread> threads;
    for (std::size_t k = 0; k < games.size(); ++k) {
      threads.emplace_back([&, k] {
        const auto& g = games[k];
        const std::int64_t game_id = g["game_id"];
        std::mt19937_64 rng(36 * 1000 + game_id);
        plays[k] = play_random_to_end(server.port(), game_id,
                                      players.at(g["scotland"].get<std::string>()).session_cookie(),
                                      players.at(g["england"].get<std::string>()).session_cookie(),
                                      played_out ? 5000 : 30, rng);
      });
    }
    for (auto& thread : threads) thread.join();
    for (std::size_t k = 0; k < games.size(); ++k) {
      const std::int64_t game_id = games[k]["game_id"];
      const std::string scot = games[k]["scotland"];
      const std::string eng = games[k]["england"];
      actions += plays[k].actions;
      if (played_out) {
        EXPECT_TRUE(plays[k].ended) << "game " << game_id << " did not end by the rules after "
                                    << plays[k].actions << " actions";
      } else {
        EXPECT_EQ(plays[k].actions, 30) << "game " << game_id;
        const std::string winner = (game_id + round) % 2 ? "scotland" : "england";
        const auto r = decide_early(decided++, players, organiser, id, game_id, scot, eng, winner);
        ASSERT_EQ(r.status, 200) << r.body;
      }
      const auto game = organiser.get("/api/games/" + std::to_string(game_id)).json()["game"];
      EXPECT_EQ(game["status"], "finished") << game.dump();
      const std::string reason = game["result"]["reason"];
      // A game played out ends by the engine: its result is the rules' own (RULES 12).
      const bool by_decision = reason == "resigned" || reason == "timeout" || reason == "forfeit" ||
                               reason == "adjudicated";
      EXPECT_EQ(by_decision, !played_out) << "game " << game_id << ": " << reason;
      reasons.insert(reason);
      add_points(points, game["result"], scot, eng);
    }
    t = await_round_after(organiser, id, round);
  }
  EXPECT_EQ(t["status"], "finished");
  EXPECT_EQ(t["current_round"], 5);
  EXPECT_EQ(all_games.size(), 40u);
  // Random Braveheart games take about 1,270 actions each (bench/RESULTS.md).
  EXPECT_GT(actions, 32 * 30 + 8 * 200);
  for (const char* reason : {"resigned", "forfeit", "adjudicated"}) {
    EXPECT_TRUE(reasons.contains(reason)) << reason;
  }
  expect_swiss_standings(t["standings"], points, 5);
  expect_bundle_verifies(dir, players.at("player101"), id, all_games, 5);
}

// The other ways a tournament game ends, and the bye: a Swiss tournament of seven players and
// three rounds, each game given a few random legal actions and then decided by a resignation,
// the organiser's forfeit or his adjudication in turn. Each round one player has the bye,
// nobody twice; the standings count each bye as a won pairing; the bundle verifies.
TEST(Tournaments, SwissGamesEndedByResignationForfeitOrAdjudicationAndByes) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto organiser = register_user(server.port(), "organiser");
  std::map<std::string, HttpClient> players;
  const auto created = organiser.post("/api/tournaments", swiss_request(3, 7));
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["tournament"]["id"];
  for (int i = 1; i <= 7; ++i) {
    const std::string name = "player" + std::to_string(100 + i);
    players.emplace(name, register_user(server.port(), name));
    ASSERT_EQ(players.at(name).post(tournament_path(id, "/register"), json::object()).status, 200);
  }
  ASSERT_EQ(organiser.post(tournament_path(id, "/start"), json::object()).status, 200);

  std::mt19937_64 rng(36);
  std::set<std::pair<std::string, std::string>> met;
  std::set<std::string> had_bye;
  std::set<std::int64_t> all_games;
  std::map<std::string, double> points;
  for (const auto& [name, client] : players) points[name] = 0;
  std::set<std::string> reasons;
  int decided = 0;
  json t;
  for (std::int64_t round = 1; round <= 3; ++round) {
    t = organiser.get(tournament_path(id)).json()["tournament"];
    ASSERT_EQ(t["current_round"], round);
    const auto games = t["rounds_played"][round - 1]["games"];
    ASSERT_EQ(games.size(), 3u) << "round " << round;
    const auto& byes = t["rounds_played"][round - 1]["byes"];
    ASSERT_EQ(byes.size(), 1u) << "round " << round;
    const std::string bye = byes[0];
    EXPECT_TRUE(had_bye.insert(bye).second) << bye << ": a second bye";
    points[bye] += 1;  // a bye is a won pairing of one game
    std::set<std::string> playing = {bye};
    for (const auto& g : games) {
      const std::string scot = g["scotland"];
      const std::string eng = g["england"];
      EXPECT_TRUE(playing.insert(scot).second && playing.insert(eng).second);
      EXPECT_TRUE(met.insert({std::min(scot, eng), std::max(scot, eng)}).second)
          << scot << " and " << eng << " met before (round " << round << ")";
      const std::int64_t game_id = g["game_id"];
      all_games.insert(game_id);
      EXPECT_EQ(g["status"], "open") << "its players have not rolled yet";
      EXPECT_EQ(g["lot"].get<std::string>().size(), 2u) << "the lot's byte, in hex";
      play_random_actions(server.port(), game_id, players.at(scot).session_cookie(),
                          players.at(eng).session_cookie(), 4, rng);
      // Decided: a resignation, a forfeit or an adjudication, in turn.
      const std::string winner = rng() % 2 ? "scotland" : "england";
      const auto r = decide_early(decided++, players, organiser, id, game_id, scot, eng, winner);
      ASSERT_EQ(r.status, 200) << r.body;
      const auto game = organiser.get("/api/games/" + std::to_string(game_id)).json()["game"];
      EXPECT_EQ(game["status"], "finished");
      reasons.insert(game["result"]["reason"].get<std::string>());
      add_points(points, game["result"], scot, eng);
    }
    EXPECT_EQ(playing.size(), 7u);
    t = await_round_after(organiser, id, round);
  }
  EXPECT_EQ(t["status"], "finished");
  EXPECT_EQ(had_bye.size(), 3u);
  EXPECT_EQ(all_games.size(), 9u);
  EXPECT_EQ(reasons, (std::set<std::string>{"resigned", "forfeit", "adjudicated"}));
  expect_swiss_standings(t["standings"], points, 3);
  expect_bundle_verifies(dir, players.at("player101"), id, all_games, 3);
}

// Nobody sees a game under way with anything revealed, its tournament's organiser included
// (RULES 13.1): a player who organises a tournament with a second account learns no more of his
// opponent than an observer does. Once the game is finished, its public replay needs no account.
TEST(Tournaments, NobodyStepsThroughAGameUnderWayNotEvenItsOrganiser) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto organiser = register_user(server.port(), "org");
  auto ann = register_user(server.port(), "ann");
  auto bob = register_user(server.port(), "bob");
  auto eve = register_user(server.port(), "eve");
  HttpClient anonymous(server.port());
  auto request = swiss_request(1, 2);
  request["format"] = "single_elimination";
  request.erase("rounds");
  const auto created = organiser.post("/api/tournaments", request);
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["tournament"]["id"];
  for (auto* client : {&ann, &bob}) {
    ASSERT_EQ(client->post(tournament_path(id, "/register"), json::object()).status, 200);
  }
  const auto started = organiser.post(tournament_path(id, "/start"), json::object());
  ASSERT_EQ(started.status, 200) << started.body;
  const auto pairing = started.json()["tournament"]["rounds_played"][0]["games"][0];
  const std::int64_t game_id = pairing["game_id"];
  auto& scot = pairing["scotland"] == "ann" ? ann : bob;
  auto& eng = pairing["scotland"] == "ann" ? bob : ann;
  std::mt19937_64 rng(4);
  const auto play = play_random_actions(server.port(), game_id, scot.session_cookie(),
                                        eng.session_cookie(), 30, rng);
  ASSERT_EQ(play.actions, 30);
  const auto step = [&](std::int64_t seq, const std::string& role) {
    return "/api/games/" + std::to_string(game_id) + "/replay/" + std::to_string(seq) +
           "?role=" + role;
  };
  const auto seed = game_seed(server.db_path(), game_id);

  // Nobody, whatever the role asked for: the organiser, a stranger, a visitor, the players.
  for (auto* client : {&organiser, &eve, &anonymous, &ann, &bob}) {
    for (const char* role : {"all", "scotland", "england", "observer"}) {
      for (const std::int64_t seq : {0, 12, 30}) {
        const auto r = client->get(step(seq, role));
        EXPECT_EQ(r.status, 409) << role << ": " << r.body;
        EXPECT_EQ(r.error_code(), "game_not_finished") << role;
        EXPECT_EQ(r.body.find("\"view"), std::string::npos) << r.body;
      }
    }
    const auto record = client->get("/api/games/" + std::to_string(game_id) + "/record");
    EXPECT_EQ(record.status, 409);
    EXPECT_EQ(record.error_code(), "game_not_finished");
  }
  // What the organiser's pages read tells him nothing an observer may not know: the game, and
  // the tournament with its overdue list (each whole answer checked as an observer's frame).
  for (const auto& path : {"/api/games/" + std::to_string(game_id), tournament_path(id)}) {
    const auto r = organiser.get(path);
    EXPECT_TRUE(fog_leaks("observer", r.body).empty()) << path << ": " << r.body;
    EXPECT_EQ(r.body.find(seed), std::string::npos) << path;
  }
  // Watching the game, he is an observer.
  auto watching = connect(server.port(), game_id, organiser.session_cookie());
  ASSERT_TRUE(watching);
  ASSERT_TRUE(watching->read_first_view());
  EXPECT_EQ(watching->role, "observer");

  // Finished: its public replay link works without an account, and the record with its seed.
  ASSERT_EQ(eng.post("/api/games/" + std::to_string(game_id) + "/resign", json::object()).status,
            200);
  const auto shared = anonymous.get(step(30, "all"));
  ASSERT_EQ(shared.status, 200) << shared.body;
  EXPECT_EQ(shared.headers.at("cache-control"), "public, max-age=86400, immutable");
  EXPECT_EQ(shared.json()["actions"], 30);
  const auto public_record = anonymous.get("/api/games/" + std::to_string(game_id) + "/record");
  ASSERT_EQ(public_record.status, 200);
  EXPECT_EQ(public_record.json()["seed"], seed);
}

TEST(Tournaments, RoundGamesTellTheirAwaitedPlayers) {
  TempDir dir;
  ServerProcess server(dir.path(), {"--webhook-allow", "http,private"});
  auto organiser = register_user(server.port(), "org");
  auto ann = register_user(server.port(), "ann");
  auto bob = register_user(server.port(), "bob");
  json round_robin = swiss_request(1, 2);
  round_robin.erase("rounds");
  round_robin["format"] = "round_robin";
  const auto created = organiser.post("/api/tournaments", round_robin);
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["tournament"]["id"];
  // Ann and Bob want turn notices (to a webhook nobody listens on: the notice is written all
  // the same, and its delivery retried).
  for (auto* client : {&ann, &bob}) {
    ASSERT_EQ(
        client
            ->post("/api/notices", {{"webhook_url", "http://127.0.0.1:9/hook"}, {"webhook", true}})
            .status,
        200);
    ASSERT_EQ(client->post(tournament_path(id, "/register"), json::object()).status, 200);
  }
  const auto started = organiser.post(tournament_path(id, "/start"), json::object());
  ASSERT_EQ(started.status, 200) << started.body;
  const auto t = started.json()["tournament"];
  EXPECT_EQ(t["rounds"], 1);
  const std::int64_t game_id = t["rounds_played"][0]["games"][0]["game_id"];
  // Both players were told that their game is ready to roll its dice (nobody was at it)...
  const auto told = [&](const std::string& kind) {
    const auto database = open_store_at(server.db_path(), storage::OpenMode::ReadBesideWriter);
    auto notices = database->prepare(
        "SELECT a.username, n.content FROM notices n JOIN accounts a ON a.id = n.account_id"
        " WHERE n.game_id = ?1 AND n.seq = 0");
    notices.bind(1, game_id);
    std::set<std::string> names;
    while (notices.step()) {
      const auto content = json::parse(notices.column_text(1));
      if (content.value("dice", false) == (kind == "dice")) names.insert(notices.column_text(0));
    }
    return names;
  };
  EXPECT_EQ(told("dice"), (std::set<std::string>{"ann", "bob"}));
  // ... and, once both rolled and left, the awaited ones are told of the start instead.
  // Both choose a card at once (RULES 3.1); Bob's reveal, the last, started the game where he
  // was: Ann alone is told.
  roll_dice(ann, bob, game_id);
  EXPECT_TRUE(told("dice").empty());
  EXPECT_EQ(told("start"), (std::set<std::string>{"ann"}));
}

TEST(Tournaments, OnlyListedOrganisersCreateWhenTheOperatorSaysSo) {
  TempDir dir;
  ServerProcess server(dir.path(), {"--tournament-organiser", "Boss"});
  auto boss = register_user(server.port(), "boss");
  auto other = register_user(server.port(), "other");
  const auto r = other.post("/api/tournaments", swiss_request(2, 4));
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "not_organiser");
  EXPECT_EQ(boss.post("/api/tournaments", swiss_request(2, 4)).status, 201);
}

// An adjudication is the server's count of the game's true state (RULES 12.1.2): at the
// start of Braveheart, before any action, the stored result gives the winner and the counts.
// The organiser cannot name the winner of an adjudication.
TEST(Tournaments, AnAdjudicationCountsTheNoblesOfTheTrueState) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto organiser = register_user(server.port(), "org");
  auto ann = register_user(server.port(), "ann");
  auto bob = register_user(server.port(), "bob");
  const auto created = organiser.post("/api/tournaments", swiss_request(1, 2));
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["tournament"]["id"];
  for (auto* client : {&ann, &bob}) {
    ASSERT_EQ(client->post(tournament_path(id, "/register"), json::object()).status, 200);
  }
  const auto started = organiser.post(tournament_path(id, "/start"), json::object());
  ASSERT_EQ(started.status, 200) << started.body;
  const std::int64_t game_id =
      started.json()["tournament"]["rounds_played"][0]["games"][0]["game_id"];
  const auto before = db_fingerprint(server.db_path());
  const auto named =
      organiser.post(tournament_path(id, "/forfeit"),
                     {{"game_id", game_id}, {"winner", "scotland"}, {"reason", "adjudicated"}});
  EXPECT_EQ(named.status, 400) << named.body;
  EXPECT_EQ(named.error_code(), "bad_field");
  EXPECT_EQ(db_fingerprint(server.db_path()), before);

  const auto r = organiser.post(tournament_path(id, "/forfeit"),
                                {{"game_id", game_id}, {"reason", "adjudicated"}});
  ASSERT_EQ(r.status, 200) << r.body;
  const auto game = ann.get("/api/games/" + std::to_string(game_id)).json()["game"];
  ASSERT_TRUE(game.contains("result")) << game.dump();
  const auto& result = game["result"];
  EXPECT_EQ(result["reason"], "adjudicated");
  // Braveheart's setup (game-data.json, "nobles_at_start"): England 11, Scotland 3 (Bruce,
  // Galloway and Moray).
  EXPECT_EQ(result["nobles"], json({{"scotland", 3}, {"england", 11}}));
  EXPECT_EQ(result["winner"], "england");
  EXPECT_EQ(result["tie_broken"], false);
  EXPECT_EQ(result["text"], "England wins: more nobles (11 to 3), adjudicated");
  // Once it is over, the game cannot be adjudicated again.
  const auto again = organiser.post(tournament_path(id, "/forfeit"),
                                    {{"game_id", game_id}, {"reason", "adjudicated"}});
  EXPECT_EQ(again.status, 409) << again.body;
}

// A body over the 16 KiB limit: 413 with the typed error, and nothing stored, on the
// tournament endpoints and on the creation and joining of rated and computer games.
TEST(Tournaments, OversizedBodiesAreRefusedWithATypedError) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto organiser = register_user(server.port(), "org");
  auto ann = register_user(server.port(), "ann");
  const auto created = organiser.post("/api/tournaments", swiss_request(2, 4));
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["tournament"]["id"];
  const auto open = ann.post("/api/games", {{"scenario", "braveheart"}, {"rated", true}});
  ASSERT_EQ(open.status, 201) << open.body;
  const std::int64_t game_id = open.json()["game"]["id"];
  const std::string padding(20 * 1024, 'x');
  const auto too_large = [&](HttpClient& client, const std::string& target, json body) {
    body["padding"] = padding;
    const auto before = db_fingerprint(server.db_path());
    const auto r = client.post(target, body);
    EXPECT_EQ(r.status, 413) << target << ": " << r.body;
    EXPECT_EQ(r.error_code(), "frame_too_large") << target << ": " << r.body;
    EXPECT_EQ(db_fingerprint(server.db_path()), before) << target << " changed the store";
  };
  too_large(organiser, "/api/tournaments", swiss_request(2, 4));
  too_large(ann, tournament_path(id, "/register"), json::object());
  too_large(organiser, tournament_path(id, "/note"), {{"text", "hello"}});
  too_large(organiser, "/api/games", {{"scenario", "braveheart"}, {"rated", true}});
  too_large(organiser, "/api/games", {{"scenario", "braveheart"}, {"computer", "easy"}});
  too_large(organiser, "/api/games/" + std::to_string(game_id) + "/join", json::object());
  EXPECT_EQ(organiser.get("/api/tournaments").json()["tournaments"].size(), 1u);
}

// With rounds started by hand, a round's end waits for the organiser: only he starts the next,
// only once every game of this one has ended, and the Swiss pairing then meets the winners.
TEST(Tournaments, TheOrganiserStartsEachRoundByHand) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto organiser = register_user(server.port(), "org");
  std::vector<HttpClient> players;
  for (const char* name : {"ann", "bob", "cat", "dan"}) {
    players.push_back(register_user(server.port(), name));
  }
  auto refused = [&](HttpClient& client, const std::string& target, int status,
                     const std::string& code) {
    const auto before = db_fingerprint(server.db_path());
    const auto r = client.post(target, json::object());
    EXPECT_EQ(r.status, status) << target << ": " << r.body;
    EXPECT_EQ(r.error_code(), code) << r.body;
    EXPECT_EQ(db_fingerprint(server.db_path()), before) << target << " changed the store";
  };
  auto request = swiss_request(2, 4);
  request["rounds_by_hand"] = true;
  const auto created = organiser.post("/api/tournaments", request);
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.json()["tournament"]["rounds_by_hand"], true);
  const std::int64_t id = created.json()["tournament"]["id"];
  refused(organiser, tournament_path(id, "/next_round"), 409, "conflict");  // not started
  for (auto& p : players) {
    ASSERT_EQ(p.post(tournament_path(id, "/register"), json::object()).status, 200);
  }
  const auto started = organiser.post(tournament_path(id, "/start"), json::object());
  ASSERT_EQ(started.status, 200) << started.body;
  const auto round1 = started.json()["tournament"]["rounds_played"][0]["games"];
  ASSERT_EQ(round1.size(), 2u);

  refused(players[0], tournament_path(id, "/next_round"), 403, "not_organiser");
  refused(organiser, tournament_path(id, "/next_round"), 409, "round_not_finished");

  // England wins both games; the round is over, and nothing starts by itself.
  std::set<std::string> winners;
  json t;
  for (const auto& g : round1) {
    const auto r = organiser.post(tournament_path(id, "/forfeit"),
                                  {{"game_id", g["game_id"]}, {"winner", "england"}});
    ASSERT_EQ(r.status, 200) << r.body;
    winners.insert(g["england"].get<std::string>());
    t = r.json()["tournament"];
  }
  EXPECT_EQ(t["current_round"], 1);
  EXPECT_EQ(t["rounds_played"].size(), 1u);
  refused(players[0], tournament_path(id, "/next_round"), 403, "not_organiser");

  const auto next = organiser.post(tournament_path(id, "/next_round"), json::object());
  ASSERT_EQ(next.status, 200) << next.body;
  t = next.json()["tournament"];
  EXPECT_EQ(t["current_round"], 2);
  ASSERT_EQ(t["rounds_played"].size(), 2u);
  const auto round2 = t["rounds_played"][1]["games"];
  ASSERT_EQ(round2.size(), 2u);
  bool winners_met = false;
  for (const auto& g : round2) {
    EXPECT_EQ(g["status"], "open") << "its players have not rolled yet";
    winners_met = winners_met || std::set<std::string>{g["scotland"], g["england"]} == winners;
  }
  EXPECT_TRUE(winners_met) << "Swiss pairs the two round-1 winners: " << round2.dump();
  bool logged = false;
  for (const auto& entry : t["log"]) {
    logged = logged || (entry["action"] == "next_round" && entry["author"] == "org");
  }
  EXPECT_TRUE(logged) << t["log"].dump();

  // The last round's end finishes the tournament; no round comes after it.
  for (const auto& g : round2) {
    const auto r = organiser.post(tournament_path(id, "/forfeit"),
                                  {{"game_id", g["game_id"]}, {"winner", "scotland"}});
    ASSERT_EQ(r.status, 200) << r.body;
    t = r.json()["tournament"];
  }
  EXPECT_EQ(t["status"], "finished");
  refused(organiser, tournament_path(id, "/next_round"), 409, "tournament_over");
}

}  // namespace
}  // namespace blockfog::server::testing
