// The commit of one action (server/play/action_commit.h) without sockets or a server process:
// a real store in a temporary folder, one test per outcome, and the refusals decided before
// any commit (the engine's, the stale seq's).

#include "server/play/action_commit.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "server/clocks/game_clocks.h"
#include "server/play/game_loader.h"
#include "storage/computer_seats.h"
#include "storage/play_by_web.h"
#include "tests/server/server_process.h"
#include "tests/server/stored_games.h"

namespace blockfog::server {
namespace {

using testing::kNow;

struct ActionCommit : ::testing::Test {
  testing::TempDir dir;
  std::unique_ptr<storage::Store> store =
      std::make_unique<storage::Store>(dir.path() / "blockfog.db", kNow);
  storage::GameRow row = testing::start_stored_game(*store, 7);
  std::shared_ptr<core::Game> game = setup_game(row).game;

  // The first legal action of a seat the game awaits, applied on a copy, as the room
  // prepares it.
  ActionCommitRequest prepare() {
    const auto role = game->active_roles().front();
    const auto action = game->legal_actions(role).front();
    auto next = game->clone();
    EXPECT_FALSE(next->apply(role, action));
    ActionCommitRequest request;
    request.game_id = row.id;
    request.seq = 1;
    request.actor = role;
    request.action_json = action.dump();
    request.state_hash = next->state_hash();
    request.seats = load_seats(*store, row.id);
    request.awaiting_before = public_awaiting(*game);
    request.awaiting_after = public_awaiting(*next);
    return request;
  }

  std::size_t logged() { return store->load_actions(row.id).size(); }
  storage::GameStatus status() { return store->find_game(row.id)->status; }
};

TEST_F(ActionCommit, StoresTheActionAndReportsNoClocksWithoutATimeControl) {
  const auto request = prepare();
  const auto result = commit_action(*store, request, kNow + 1000);
  EXPECT_EQ(result.outcome, CommitOutcome::Stored) << result.error;
  ASSERT_EQ(logged(), 1U);
  EXPECT_EQ(store->load_actions(row.id).front().state_hash, request.state_hash);
  EXPECT_TRUE(result.clocks.is_null());
  EXPECT_FALSE(result.stand_in);
}

TEST_F(ActionCommit, AnIllegalActionIsRefusedByTheEngineBeforeAnyCommit) {
  // The room applies the action to a copy first; the engine's refusal leaves the game as it
  // was and nothing reaches the store.
  const auto role = game->active_roles().front();
  const auto hash = game->state_hash();
  auto next = game->clone();
  EXPECT_TRUE(next->apply(role, nlohmann::json{{"type", "no_such_action"}}));
  EXPECT_EQ(game->state_hash(), hash);
  EXPECT_EQ(logged(), 0U);
}

TEST_F(ActionCommit, ASeqTheLogHasAlreadyWritesNothingAndTheRoomLoadsAgain) {
  // The seq is stored already (a commit whose answer was lost was kept after all): the store
  // refuses the second, which leaves no trace, and the room is told it is behind the log.
  const auto request = prepare();
  ASSERT_EQ(commit_action(*store, request, kNow).outcome, CommitOutcome::Stored);
  const auto again = commit_action(*store, request, kNow + 1);
  EXPECT_EQ(again.outcome, CommitOutcome::Reload);
  EXPECT_FALSE(again.error.empty());
  EXPECT_EQ(logged(), 1U);
  // A seq past the log's next is no such case: a plain failure.
  auto ahead = prepare();
  ahead.seq = 5;
  EXPECT_EQ(commit_action(*store, ahead, kNow + 2).outcome, CommitOutcome::Failed);
  EXPECT_EQ(logged(), 1U);
}

TEST_F(ActionCommit, AStoreThatCannotWriteIsUnavailableAndWritesNothing) {
  const auto request = prepare();
  store->database().exec("PRAGMA query_only = ON");  // every write refused: SQLITE_READONLY
  const auto result = commit_action(*store, request, kNow);
  EXPECT_EQ(result.outcome, CommitOutcome::StorageUnavailable);
  EXPECT_FALSE(result.error.empty());
  store->database().exec("PRAGMA query_only = OFF");
  EXPECT_EQ(logged(), 0U);
}

TEST_F(ActionCommit, AGameThatEndedMeanwhileIsOverAndTheActionIsNotStored) {
  const auto request = prepare();
  const auto result_json = result_against(core::Role::Scotland, "resigned");
  store->set_game_status(row.id, storage::GameStatus::Finished, kNow, result_json);
  const auto result = commit_action(*store, request, kNow + 1);
  EXPECT_EQ(result.outcome, CommitOutcome::GameOver) << result.error;
  EXPECT_EQ(logged(), 0U);
  EXPECT_EQ(status(), storage::GameStatus::Finished);
}

TEST_F(ActionCommit, AnActionAfterTheClockRanOutEndsTheGameOnTime) {
  storage::set_time_control(*store, row.id, R"({"kind":"live","minutes":1,"increment_seconds":0})");
  const auto tc = load_time_control(*store, row.id);
  ASSERT_TRUE(tc.timed());
  start_clocks(*store, row.id, tc, public_awaiting(*game), kNow);
  const auto request = prepare();

  // In time: stored, and the clocks are reported when `awaiting` changed.
  auto in_time = commit_action(*store, request, kNow + 1000);
  ASSERT_EQ(in_time.outcome, CommitOutcome::Stored) << in_time.error;
  EXPECT_EQ(in_time.clocks.is_null(), request.awaiting_before == request.awaiting_after);

  // The game after that action, and its next action two minutes later: out of time.
  auto next = game->clone();
  ASSERT_FALSE(next->apply(request.actor, nlohmann::json::parse(request.action_json)));
  game = std::move(next);
  auto late = prepare();
  late.seq = 2;
  const auto result = commit_action(*store, late, kNow + 3 * kMinuteMs);
  EXPECT_EQ(result.outcome, CommitOutcome::TimedOut) << result.error;
  ASSERT_TRUE(result.timed_out_result);
  EXPECT_NE(result.timed_out_result->find("timeout"), std::string::npos);
  EXPECT_EQ(logged(), 1U);
  EXPECT_EQ(status(), storage::GameStatus::Finished);
}

TEST_F(ActionCommit, WhenBothAllowedItTheComputerTakesTheSeatWhoseTimeRanOut) {
  storage::set_time_control(*store, row.id, R"({"kind":"live","minutes":1,"increment_seconds":0})");
  const auto tc = load_time_control(*store, row.id);
  start_clocks(*store, row.id, tc, public_awaiting(*game), kNow);
  for (const char* side : {"scotland", "england"})
    storage::add_stand_in_consent(*store, row.id, side);
  const auto request = prepare();

  // The actor is the side whose time ran out: its action is dropped, the computer takes its
  // seat, and the game goes on.
  const auto result = commit_action(*store, request, kNow + 3 * kMinuteMs);
  EXPECT_EQ(result.outcome, CommitOutcome::StandIn) << result.error;
  ASSERT_TRUE(result.stand_in);
  EXPECT_EQ(result.stand_in->role, request.actor);
  EXPECT_EQ(logged(), 0U);
  EXPECT_EQ(status(), storage::GameStatus::Active);
  const auto seats = storage::list_computer_seats(*store, row.id);
  ASSERT_EQ(seats.size(), 1U);
  EXPECT_EQ(seats.front().role, core::role_name(request.actor));
  EXPECT_TRUE(seats.front().stand_in);
}

TEST_F(ActionCommit, ACommitTheStoreNeverRanIsRefusedAsStorageUnavailable) {
  // The group's completion says "not stored" without the commit having run.
  ActionCommitResult result;
  unstored_by_group_commit(result);
  EXPECT_EQ(result.outcome, CommitOutcome::StorageUnavailable);
}

TEST_F(ActionCommit, AFailedGroupCommitLeavesNothingStored) {
  ActionCommitResult result;
  result.outcome = CommitOutcome::Stored;
  unstored_by_group_commit(result);
  EXPECT_EQ(result.outcome, CommitOutcome::StorageUnavailable);
  result.outcome = CommitOutcome::GameOver;
  unstored_by_group_commit(result);
  EXPECT_EQ(result.outcome, CommitOutcome::GameOver);
  result.outcome = CommitOutcome::Reload;
  unstored_by_group_commit(result);
  EXPECT_EQ(result.outcome, CommitOutcome::Reload);
}

}  // namespace
}  // namespace blockfog::server
