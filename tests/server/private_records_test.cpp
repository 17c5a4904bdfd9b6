// Records and steps of invite games (GET /api/games/{id}/record, /replay/{seq}) through the
// real server: they are for those who may see the game, as its details are. To anybody else
// the game does not exist, finished or not, so its id tells a stranger nothing.

#include <gtest/gtest.h>

#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"
#include "tests/server/stored_games.h"
#include "tests/server/test_client.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

constexpr std::uint64_t kFinishedInvite = 41;
constexpr std::uint64_t kActiveInvite = 42;
constexpr std::uint64_t kFinishedPublic = 43;
constexpr std::int64_t kUnknownId = 999'999;

std::string record_path(std::int64_t game_id) {
  return "/api/games/" + std::to_string(game_id) + "/record";
}

std::string replay_path(std::int64_t game_id, const std::string& step = "0",
                        const std::string& query = "?role=all") {
  return "/api/games/" + std::to_string(game_id) + "/replay/" + step + query;
}

// Every request a stranger might make of one game's record and steps, malformed ones included:
// none of them may answer otherwise for a hidden game than for an unknown id.
std::vector<std::string> record_and_replay_paths(std::int64_t game_id) {
  return {record_path(game_id),
          replay_path(game_id),
          replay_path(game_id, "1", "?role=scotland"),
          replay_path(game_id, "abc"),
          replay_path(game_id, "0", "?role=king"),
          replay_path(game_id, "0", "")};
}

void expect_hidden(HttpClient& client, const std::string& who, std::int64_t game_id) {
  const auto hidden = record_and_replay_paths(game_id);
  const auto unknown = record_and_replay_paths(kUnknownId);
  for (std::size_t i = 0; i < hidden.size(); ++i) {
    const auto r = client.get(hidden[i]);
    EXPECT_EQ(r.status, 404) << who << " " << hidden[i] << ": " << r.body;
    EXPECT_EQ(r.error_code(), "not_found") << who << " " << hidden[i];
    // The same answer as for an id no game has, and as the game's details give.
    EXPECT_EQ(r.body, client.get(unknown[i]).body) << who << " " << hidden[i];
    EXPECT_EQ(r.body, client.get("/api/games/" + std::to_string(game_id)).body) << who;
  }
}

// A client logged in as a player of a game stored before the server started.
HttpClient as_player(const ServerProcess& server, std::uint64_t rng_seed, const std::string& role) {
  HttpClient client(server.port());
  client.set_session_cookie(store_session(server.db_path(), stored_player(rng_seed, role)));
  return client;
}

TEST(ServerPrivateRecords, StrangersAreToldAnInviteGameDoesNotExistWhetherFinishedOrNot) {
  TempDir dir;
  const auto db = server_db(dir);
  const auto finished =
      store_game(db, kFinishedInvite, StoredEnd::Finished, storage::Visibility::Invite);
  const auto active = store_game(db, kActiveInvite, StoredEnd::Open, storage::Visibility::Invite);
  ASSERT_FALSE(::testing::Test::HasFailure());
  ServerProcess server(dir.path());
  HttpClient anonymous(server.port());
  HttpClient stranger = register_user(server.port(), "stranger");
  // An invite game still waiting for its second player, made through the API.
  HttpClient creator = register_user(server.port(), "private_creator");
  const auto created =
      creator.post("/api/games", {{"scenario", "braveheart"}, {"visibility", "invite"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t open = created.json()["game"]["id"];

  for (const auto game_id : {finished, active, open}) {
    SCOPED_TRACE("game " + std::to_string(game_id));
    expect_hidden(anonymous, "anonymous", game_id);
    expect_hidden(stranger, "stranger", game_id);
  }
  // The creator may see the open game: for it, the record is merely not published yet.
  const auto r = creator.get(record_path(open));
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(r.error_code(), "game_not_finished");
}

TEST(ServerPrivateRecords, ItsPlayersGetTheRecordAndStepsOnceTheGameIsFinished) {
  TempDir dir;
  const auto db = server_db(dir);
  const auto finished =
      store_game(db, kFinishedInvite, StoredEnd::Finished, storage::Visibility::Invite);
  const auto active = store_game(db, kActiveInvite, StoredEnd::Open, storage::Visibility::Invite);
  ASSERT_FALSE(::testing::Test::HasFailure());
  ServerProcess server(dir.path());

  for (const std::string role : {"scotland", "england"}) {  // the creator, and the one invited
    SCOPED_TRACE(role);
    auto player = as_player(server, kFinishedInvite, role);
    ASSERT_EQ(player.get("/api/games/" + std::to_string(finished)).status, 200);
    const auto record = player.get(record_path(finished));
    ASSERT_EQ(record.status, 200) << record.body;
    const auto body = record.json();
    EXPECT_EQ(body.at("seed").get<std::string>().size(), 64U);
    const auto n = body.at("actions").size();
    ASSERT_GT(n, 0U);

    const auto last = player.get(replay_path(finished, std::to_string(n), "?role=" + role));
    ASSERT_EQ(last.status, 200) << last.body;
    EXPECT_EQ(last.json().at("view").at("seed"), body.at("seed"));
    // Its steps never change, but they are this player's: no shared cache may keep them.
    const auto& cache = last.headers.at("cache-control");
    EXPECT_NE(cache.find("private, max-age=86400, immutable"), std::string::npos) << cache;
    EXPECT_EQ(cache.find("public"), std::string::npos) << cache;
    EXPECT_EQ(player.get(replay_path(finished)).status, 200);

    // The player of another invite game is a stranger to this one.
    expect_hidden(player, "another game's player", active);
  }
  // A game its players are still playing: nothing is published yet.
  auto player = as_player(server, kActiveInvite, "england");
  for (const auto& path : {record_path(active), replay_path(active)}) {
    const auto r = player.get(path);
    EXPECT_EQ(r.status, 409) << path;
    EXPECT_EQ(r.error_code(), "game_not_finished") << path;
  }
}

TEST(ServerPrivateRecords, PublicFinishedGamesStayReadableByAnybody) {
  TempDir dir;
  const auto finished = store_game(server_db(dir), kFinishedPublic, StoredEnd::Finished);
  ASSERT_FALSE(::testing::Test::HasFailure());
  ServerProcess server(dir.path());
  HttpClient anonymous(server.port());
  HttpClient stranger = register_user(server.port(), "stranger");
  for (auto* client : {&anonymous, &stranger}) {
    const auto record = client->get(record_path(finished));
    ASSERT_EQ(record.status, 200) << record.body;
    EXPECT_FALSE(record.json().at("actions").empty());
    const auto step = client->get(replay_path(finished, "1", "?role=observer"));
    ASSERT_EQ(step.status, 200) << step.body;
    EXPECT_NE(step.headers.at("cache-control").find("public, max-age=86400, immutable"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace blockfog::server::testing
