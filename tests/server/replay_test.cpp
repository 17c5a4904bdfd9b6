// Stepping through a finished game (GET /api/games/{id}/replay/{seq}): each step is the view
// the rules engine gives after the record's first seq actions, each seat's view hides what the
// seat did not know at that step, and a game is replayed from its log once, not per step.

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <random>

#include "rules/core/hex.h"
#include "rules/hots/module.h"
#include "server/api/replay.h"
#include "server/db_worker.h"
#include "server/play/game_loader.h"
#include "storage/store.h"
#include "tests/server/db_peek.h"
#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"
#include "tests/server/stored_games.h"
#include "tests/server/test_client.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

const char* const kRoles[] = {"scotland", "england", "observer"};

std::string replay_path(std::int64_t game_id, std::int64_t seq, const std::string& role) {
  return "/api/games/" + std::to_string(game_id) + "/replay/" + std::to_string(seq) +
         "?role=" + role;
}

// The leaks fog_leaks finds in `view` as `role` received it in a view frame.
std::vector<std::string> leaks_in(const std::string& role, const json& view) {
  const json frame = {{"v", 1}, {"type", "view"}, {"seq", 0}, {"view", view}};
  return fog_leaks(role, frame.dump(), frame);
}

TEST(ServerReplay, EachStepIsTheRecordReplayedThatFarAndHidesWhatTheSeatDidNotKnow) {
  TempDir dir;
  const auto game_id = store_finished_game(server_db(dir), 7);
  ASSERT_FALSE(::testing::Test::HasFailure());
  ServerProcess server(dir.path());
  HttpClient anybody(server.port());  // a finished game is a public record: no account needed

  const auto record = anybody.get("/api/games/" + std::to_string(game_id) + "/record").json();
  ASSERT_TRUE(record.is_object());
  const auto& actions = record.at("actions");
  const auto n = static_cast<std::int64_t>(actions.size());
  ASSERT_GT(n, 40);
  GTEST_LOG_(INFO) << "game " << game_id << " has " << n << " actions";

  // The steps looked at: the first ones one by one, then a spread, then the last ones.
#ifdef NDEBUG
  constexpr std::int64_t kFirst = 40;
  constexpr std::int64_t kStride = 3;
#else
  constexpr std::int64_t kFirst = 12;  // sanitized builds: fewer steps
  constexpr std::int64_t kStride = 40;
#endif
  std::vector<std::int64_t> steps;
  for (std::int64_t s = 0; s <= n; ++s) {
    if (s < kFirst || s % kStride == 0 || s >= n - 3) steps.push_back(s);
  }

  auto replayed =
      hots::module().setup(*core::seed_from_hex(record.at("seed").get<std::string>()),
                           record.at("scenario").get<std::string>(), record.at("options"));
  ASSERT_TRUE(replayed.game) << replayed.error;
  auto& local = *replayed.game;
  std::int64_t applied = 0;
  int seat_leaks_caught = 0;
  for (const auto step : steps) {
    for (; applied < step; ++applied) {
      const auto& a = actions.at(static_cast<std::size_t>(applied));
      ASSERT_FALSE(
          local.apply(*core::role_from_name(a.at("role").get<std::string>()), a.at("action")));
    }
    const bool over = step == n;
    EXPECT_EQ(local.outcome().finished, over) << "step " << step;
    for (const std::string role : kRoles) {
      const auto r = anybody.get(replay_path(game_id, step, role));
      ASSERT_EQ(r.status, 200) << step << " " << role << ": " << r.body;
      const auto body = r.json();
      EXPECT_EQ(body.at("seq"), step);
      EXPECT_EQ(body.at("actions"), n);
      EXPECT_EQ(body.at("role"), role);
      const auto& view = body.at("view");
      EXPECT_EQ(view, local.view(*core::role_from_name(role))) << "step " << step << " " << role;
      // Before the end, a seat's step shows no enemy block it had not seen (RULES 13.1.4).
      for (const auto& leak : leaks_in(role, view))
        ADD_FAILURE() << "step " << step << ": " << leak;
      // The check can fail: Scotland's own view, read as England's, names hidden blocks.
      if (!over && role == "scotland" && !leaks_in("england", view).empty()) ++seat_leaks_caught;
      if (over) {
        EXPECT_EQ(view.at("seed"), record.at("seed"));
        EXPECT_TRUE(view.contains("outcome"));
      }
    }
    const auto all = anybody.get(replay_path(game_id, step, "all"));
    ASSERT_EQ(all.status, 200) << all.body;
    const auto both = all.json();
    EXPECT_EQ(both.at("role"), "all");
    EXPECT_EQ(both.at("views").at("scotland"), local.view(core::Role::Scotland));
    EXPECT_EQ(both.at("views").at("england"), local.view(core::Role::England));
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(seat_leaks_caught, static_cast<int>(steps.size()) / 2);
  EXPECT_EQ(applied, n);
  // The last step is the state the log ends in.
  EXPECT_EQ(local.state_hash(), logged_actions(server.db_path(), game_id).back().state_hash);
}

TEST(ServerReplay, RefusesUnfinishedGamesUnknownGamesAndBadSteps) {
  TempDir dir;
  const auto db = server_db(dir);
  const auto finished = store_finished_game(db, 11);
  const auto active = store_finished_game(db, 12, storage::GameStatus::Active);
  ASSERT_FALSE(::testing::Test::HasFailure());
  ServerProcess server(dir.path());
  HttpClient anybody(server.port());
  const auto n =
      static_cast<std::int64_t>(anybody.get("/api/games/" + std::to_string(finished) + "/record")
                                    .json()
                                    .at("actions")
                                    .size());

  // A game still being played: its steps are secret like its record.
  auto r = anybody.get(replay_path(active, 0, "scotland"));
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(r.error_code(), "game_not_finished");
  r = anybody.get("/api/games/" + std::to_string(active) + "/record");
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(r.error_code(), "game_not_finished");
  // A game open for a second player.
  HttpClient creator = register_user(server.port(), "replay_creator");
  const auto created = creator.post("/api/games", {{"scenario", "braveheart"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t open_id = created.json()["game"]["id"];
  r = creator.get(replay_path(open_id, 0, "all"));
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(r.error_code(), "game_not_finished");

  r = anybody.get(replay_path(999, 0, "all"));
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");

  const auto base = "/api/games/" + std::to_string(finished) + "/replay/";
  for (const std::string bad : {"abc", "-1", "1x", "", "99999999999999999999999"}) {
    r = anybody.get(base + bad + "?role=all");
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_EQ(r.error_code(), "bad_field") << bad;
  }
  r = anybody.get(replay_path(finished, n + 1, "all"));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.error_code(), "bad_field");
  EXPECT_EQ(anybody.get(replay_path(finished, n, "all")).status, 200);
  r = anybody.get(replay_path(finished, 0, "king"));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.error_code(), "bad_field");
  r = anybody.get(base + "0");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.error_code(), "missing_field");
  r = anybody.request("POST", replay_path(finished, 0, "all"), "",
                      {{"Content-Type", "application/json"}});
  EXPECT_EQ(r.status, 405);
}

// In process: stepping through a whole game replays its log once, and every step from the
// checkpoints equals the logged state.
TEST(ServerReplay, StepsComeFromCheckpointsNotFromReplayingTheLogEachTime) {
  TempDir dir;
  const auto db = server_db(dir);
  const auto game_id = store_finished_game(db, 21);
  ASSERT_FALSE(::testing::Test::HasFailure());
  std::vector<storage::ActionRow> actions;
  storage::GameRow row;
  {
    storage::Store store(db, kNow);
    row = *store.find_game(game_id);
    actions = store.load_actions(game_id);
  }
  std::string error;
  const auto replayed = ReplayedGame::build(row, actions, 16, error);
  ASSERT_TRUE(replayed) << error;
  EXPECT_EQ(replayed->size(), actions.size());
  EXPECT_EQ(replayed->checkpoints(), actions.size() / 16 + 1);
  for (std::size_t seq = 1; seq <= actions.size(); ++seq) {
    ASSERT_EQ(replayed->at(seq)->state_hash(), actions[seq - 1].state_hash) << seq;
  }

  // A log that does not replay to its hashes is refused, not shown.
  auto forged = actions;
  forged[forged.size() / 2].state_hash = std::string(64, '0');
  EXPECT_FALSE(ReplayedGame::build(row, forged, 16, error));
  EXPECT_NE(error.find("state hash"), std::string::npos) << error;

  DbWorker worker(db, storage::Sync::Full);
  Replays replays(worker, 1, 16);
#ifdef NDEBUG
  constexpr std::size_t kStep = 1;
#else
  constexpr std::size_t kStep = 7;  // sanitized builds: every 7th step
#endif
  for (std::size_t seq = 0; seq <= actions.size(); seq += kStep) {
    const auto r = replays.handle(row, std::to_string(seq), seq % 2 ? "england" : "all");
    ASSERT_EQ(r.status, 200) << r.body;
  }
  EXPECT_EQ(replays.builds(), 1);
  // The cache holds one game here: stepping through another pushes the first out.
  const auto other_id = store_finished_game(db, 22);
  ASSERT_FALSE(::testing::Test::HasFailure());
  const auto other = *worker.call([&](storage::Store& store) { return store.find_game(other_id); });
  EXPECT_EQ(replays.handle(other, "1", "observer").status, 200);
  EXPECT_EQ(replays.handle(other, "2", "observer").status, 200);
  EXPECT_EQ(replays.builds(), 2);
  EXPECT_EQ(replays.handle(row, "1", "observer").status, 200);
  EXPECT_EQ(replays.builds(), 3);
  EXPECT_EQ(replays.handle(row, "3", "scotland").status, 200);
  EXPECT_EQ(replays.builds(), 3);
}

}  // namespace
}  // namespace blockfog::server::testing
