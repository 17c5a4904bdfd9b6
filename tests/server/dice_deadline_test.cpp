// The dice deadline sweep (server/play/dice.h) without a server process: open games whose dice
// were not revealed in time are cancelled, each on its own, and only those this node may write.

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include "server/play/dice.h"
#include "storage/game_dice.h"
#include "tests/server/server_process.h"
#include "tests/server/stored_games.h"

namespace blockfog::server {
namespace {

using testing::kNow;

// Two seated games still rolling their dice, with deadlines one and two seconds away.
struct DiceDeadlines : ::testing::Test {
  testing::TempDir dir;
  std::unique_ptr<storage::Store> store =
      std::make_unique<storage::Store>(dir.path() / "blockfog.db", kNow);
  std::int64_t first = open_with_deadline(41, kNow + 1000);
  std::int64_t second = open_with_deadline(42, kNow + 2000);

  std::int64_t open_with_deadline(std::uint64_t seed, std::int64_t deadline) {
    const auto scot = store->create_account("dice_scot_" + std::to_string(seed), "x", kNow);
    const auto eng = store->create_account("dice_eng_" + std::to_string(seed), "x", kNow);
    storage::NewGame game;
    game.rules_version = std::string(hots::kRulesVersion);
    game.scenario = "braveheart";
    game.seed_hex = std::string(64, 'a');
    game.seed_sha256 = std::string(64, 'b');
    game.created_by = scot->id;
    game.creator_role = "scotland";
    const auto id = store->create_game(game, kNow).id;
    EXPECT_EQ(store->take_seat(id, "england", eng->id, kNow), storage::SeatOutcome::Seated);
    storage::set_dice_deadline(*store, id, deadline);
    return id;
  }
  storage::GameStatus status(std::int64_t id) { return store->find_game(id)->status; }
};

TEST_F(DiceDeadlines, OnlyTheGamesPastTheirDeadlineAreCancelled) {
  EXPECT_TRUE(cancel_games_past_dice_deadline(*store, kNow + 999).empty());
  const auto cancelled = cancel_games_past_dice_deadline(*store, kNow + 1000);
  EXPECT_EQ(std::set(cancelled.begin(), cancelled.end()), std::set<std::int64_t>{first});
  EXPECT_EQ(status(first), storage::GameStatus::Aborted);
  EXPECT_EQ(status(second), storage::GameStatus::Open);
}

TEST_F(DiceDeadlines, AGameAnotherNodeHoldsIsLeftToItsHolder) {
  // Several nodes: the lease rule says this node may not write `first`; it cancels the other.
  std::set<std::int64_t> asked;
  const auto cancelled =
      cancel_games_past_dice_deadline(*store, kNow + 5000, [&](storage::Store&, std::int64_t id) {
        asked.insert(id);
        return id != first;
      });
  EXPECT_EQ(asked, (std::set<std::int64_t>{first, second}));
  EXPECT_EQ(std::set(cancelled.begin(), cancelled.end()), std::set<std::int64_t>{second});
  EXPECT_EQ(status(first), storage::GameStatus::Open) << "left to the node that holds it";
  EXPECT_EQ(status(second), storage::GameStatus::Aborted);
}

}  // namespace
}  // namespace blockfog::server
