// Records and steps of invite games (GET /api/games/{id}/record, /replay/{seq}) through the
// real server: they are for those who may see the game, as its details are. To anybody else
// the game does not exist, finished or not, so its id tells a stranger nothing.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"
#include "tests/server/stored_games.h"
#include "tests/server/test_client.h"

namespace blockfog::server::testing {
namespace {

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

// Two invite games stored before the server starts, one finished and one active, and a
// finished public game.
class ServerPrivateRecords : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto db = server_db(dir_);
    finished_ = store_game(db, kFinishedInvite, StoredEnd::Finished, storage::Visibility::Invite);
    active_ = store_game(db, kActiveInvite, StoredEnd::Open, storage::Visibility::Invite);
    public_ = store_game(db, kFinishedPublic, StoredEnd::Finished);
    for (const auto seed : {kFinishedInvite, kActiveInvite}) {
      for (const std::string role : {"scotland", "england"}) {
        const auto name = stored_player(seed, role);
        cookies_[name] = store_session(db, name);
      }
    }
    ASSERT_FALSE(HasFailure());
    server_ = std::make_unique<ServerProcess>(dir_.path());
  }
  int port() const { return server_->port(); }
  // A client logged in as a player of a stored invite game.
  HttpClient as_player(std::uint64_t rng_seed, const std::string& role) {
    HttpClient client(port());
    client.set_session_cookie(cookies_.at(stored_player(rng_seed, role)));
    return client;
  }

  TempDir dir_;
  std::int64_t finished_ = 0;
  std::int64_t active_ = 0;
  std::int64_t public_ = 0;
  std::map<std::string, std::string> cookies_;  // by user name: a session stored beforehand
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(ServerPrivateRecords, StrangersAreToldAnInviteGameDoesNotExistWhetherFinishedOrNot) {
  HttpClient anonymous(port());
  HttpClient stranger = register_user(port(), "stranger");
  // An invite game still waiting for its second player, made through the API.
  HttpClient creator = register_user(port(), "private_creator");
  const auto created =
      creator.post("/api/games", {{"scenario", "braveheart"}, {"visibility", "invite"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t open = created.json()["game"]["id"];

  for (const auto game_id : {finished_, active_, open}) {
    SCOPED_TRACE("game " + std::to_string(game_id));
    expect_hidden(anonymous, "anonymous", game_id);
    expect_hidden(stranger, "stranger", game_id);
  }
  // The creator may see the open game: for it, the record is merely not published yet.
  const auto r = creator.get(record_path(open));
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(r.error_code(), "game_not_finished");
}

TEST_F(ServerPrivateRecords, ItsPlayersGetTheRecordAndStepsOnceTheGameIsFinished) {
  for (const std::string role : {"scotland", "england"}) {  // the creator, and the one invited
    SCOPED_TRACE(role);
    auto player = as_player(kFinishedInvite, role);
    ASSERT_EQ(player.get("/api/games/" + std::to_string(finished_)).status, 200);
    const auto record = player.get(record_path(finished_));
    ASSERT_EQ(record.status, 200) << record.body;
    const auto body = record.json();
    EXPECT_EQ(body.at("seed").get<std::string>().size(), 64U);
    const auto n = body.at("actions").size();
    ASSERT_GT(n, 0U);

    const auto last = player.get(replay_path(finished_, std::to_string(n), "?role=" + role));
    ASSERT_EQ(last.status, 200) << last.body;
    EXPECT_EQ(last.json().at("view").at("seed"), body.at("seed"));
    // Its steps never change, but they are this player's: no shared cache may keep them.
    EXPECT_EQ(last.headers.at("cache-control"), "private, max-age=86400, immutable");
    EXPECT_EQ(player.get(replay_path(finished_)).status, 200);

    // The player of another invite game is a stranger to this one.
    expect_hidden(player, "another game's player", active_);
  }
  // A game its players are still playing: nothing is published yet.
  auto player = as_player(kActiveInvite, "england");
  for (const auto& path : {record_path(active_), replay_path(active_)}) {
    const auto r = player.get(path);
    EXPECT_EQ(r.status, 409) << path;
    EXPECT_EQ(r.error_code(), "game_not_finished") << path;
  }
}

TEST_F(ServerPrivateRecords, PublicFinishedGamesStayReadableByAnybody) {
  HttpClient anonymous(port());
  HttpClient stranger = register_user(port(), "stranger");
  for (auto* client : {&anonymous, &stranger}) {
    const auto record = client->get(record_path(public_));
    ASSERT_EQ(record.status, 200) << record.body;
    EXPECT_FALSE(record.json().at("actions").empty());
    const auto step = client->get(replay_path(public_, "1", "?role=observer"));
    ASSERT_EQ(step.status, 200) << step.body;
    // One Cache-Control, the step's own (not joined with the API's default no-store).
    EXPECT_EQ(step.headers.at("cache-control"), "public, max-age=86400, immutable");
  }
}

}  // namespace
}  // namespace blockfog::server::testing
