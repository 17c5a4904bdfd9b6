// Ratings in the store (docs/ratings.md): a rated game's end changes both players' ratings in
// the transaction that finishes it, once; unrated and aborted games change nothing.

#include "storage/ratings.h"

#include <gtest/gtest.h>

#include <string>

#include "storage/store.h"
#include "tests/storage/now.h"
#include "tests/storage/temp_dir.h"
#include "tests/storage/test_store.h"

namespace blockfog::storage {
namespace {

using testing::kNow;
using testing::TempDir;

class RatingsTest : public ::testing::Test {
 protected:
  RatingsTest() : owned_(testing::open_test_store(dir_, kNow)), store_(*owned_) {
    scot_ = store_.create_account("wallace", "x", kNow)->id;
    eng_ = store_.create_account("edward", "x", kNow)->id;
  }

  // A started game between wallace (Scotland) and edward (England).
  std::int64_t started(bool rated, const std::string& kind = "hots") {
    NewGame game;
    game.kind = kind;
    game.rules_version = kind == "hots" ? "hots-3" : "scotland-rising-1";
    game.scenario = "braveheart";
    game.seed_hex = "00ff";
    game.seed_sha256 = std::string(64, 'a');
    game.created_by = scot_;
    game.creator_role = "scotland";
    game.rated = rated;
    const auto row = store_.create_game(game, kNow);
    EXPECT_EQ(store_.take_seat(row.id, "england", eng_, kNow), SeatOutcome::Seated);
    store_.set_game_status(row.id, GameStatus::Active, kNow);
    return row.id;
  }

  TempDir dir_;
  std::unique_ptr<Store> owned_;
  Store& store_;
  std::int64_t scot_ = 0;
  std::int64_t eng_ = 0;
};

TEST_F(RatingsTest, ARatedWinMovesBothPlayersOnceWithHistory) {
  const auto game = started(true);
  EXPECT_TRUE(store_.find_game(game)->rated);
  store_.set_game_status(game, GameStatus::Finished, kNow + 5,
                         R"({"winner":"scotland","reason":"resigned"})");
  const auto wallace = find_rating(store_, scot_, "hots");
  const auto edward = find_rating(store_, eng_, "hots");
  ASSERT_TRUE(wallace && edward);
  EXPECT_GT(wallace->rating.rating, 1600);
  EXPECT_LT(edward->rating.rating, 1400);
  EXPECT_EQ(wallace->games, 1);
  EXPECT_EQ(wallace->updated_at, kNow + 5);
  const auto history = rating_history(store_, scot_);
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0].game_id, game);
  EXPECT_EQ(history[0].role, "scotland");
  EXPECT_EQ(history[0].opponent, "edward");
  EXPECT_EQ(history[0].score, 1.0);
  EXPECT_EQ(history[0].before.rating, 1500);
  EXPECT_EQ(history[0].before.deviation, 350);
  EXPECT_EQ(history[0].after.rating, wallace->rating.rating);
  EXPECT_EQ(rating_history(store_, 0).size(), 2u);

  // The next game starts from the ratings after the first.
  const auto second = started(true);
  store_.set_game_status(second, GameStatus::Finished, kNow + 9,
                         R"({"winner":"england","reason":"timeout"})");
  const auto again = rating_history(store_, eng_);
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[1].before.rating, edward->rating.rating);
  EXPECT_EQ(again[1].score, 1.0);
  EXPECT_EQ(find_rating(store_, eng_, "hots")->games, 2);

  // The order of the leaderboard.
  const auto board = list_ratings(store_, "hots", 10, 0);
  ASSERT_EQ(board.size(), 2u);
  EXPECT_GE(board[0].rating.rating, board[1].rating.rating);
  EXPECT_EQ(count_ratings(store_, "hots"), 2);
  EXPECT_EQ(list_ratings(store_, "hots", 10, 1).size(), 1u);
}

TEST_F(RatingsTest, EachGameHasItsOwnRatings) {
  const auto hots = started(true);
  store_.set_game_status(hots, GameStatus::Finished, kNow,
                         R"({"winner":"scotland","reason":"resigned"})");
  const auto sr = started(true, "scotland_rising");
  store_.set_game_status(sr, GameStatus::Finished, kNow + 1,
                         R"({"winner":"england","reason":"victory_points"})");
  // Edward's win in Scotland Rising starts from 1500, not from his Hammer of the Scots loss.
  const auto edward_hots = find_rating(store_, eng_, "hots");
  const auto edward_sr = find_rating(store_, eng_, "scotland_rising");
  ASSERT_TRUE(edward_hots && edward_sr);
  EXPECT_LT(edward_hots->rating.rating, 1400);
  EXPECT_GT(edward_sr->rating.rating, 1600);
  EXPECT_EQ(edward_sr->games, 1);
  EXPECT_EQ(rating_history(store_, eng_).at(1).before.rating, 1500);
  EXPECT_EQ(rating_history(store_, eng_).at(1).kind, "scotland_rising");
  EXPECT_EQ(find_ratings(store_, eng_).size(), 2u);
  // Each leaderboard holds its own game's ratings only.
  EXPECT_EQ(count_ratings(store_, "hots"), 2);
  EXPECT_EQ(count_ratings(store_, "scotland_rising"), 2);
  EXPECT_EQ(list_ratings(store_, "scotland_rising", 10, 0).front().username, "edward");
  EXPECT_EQ(list_ratings(store_, "hots", 10, 0).front().username, "wallace");
}

TEST_F(RatingsTest, ADrawKeepsEqualRatings) {
  const auto game = started(true);
  store_.set_game_status(game, GameStatus::Finished, kNow, R"({"winner":null,"reason":"x"})");
  EXPECT_NEAR(find_rating(store_, scot_, "hots")->rating.rating, 1500, 1e-9);
  EXPECT_EQ(rating_history(store_, eng_).at(0).score, 0.5);
}

TEST_F(RatingsTest, UnratedAndAbortedGamesChangeNoRating) {
  const auto casual = started(false);
  store_.set_game_status(casual, GameStatus::Finished, kNow,
                         R"({"winner":"scotland","reason":"resigned"})");
  const auto aborted = started(true);
  store_.set_game_status(aborted, GameStatus::Aborted, kNow);
  EXPECT_FALSE(find_rating(store_, scot_, "hots"));
  EXPECT_TRUE(rating_history(store_, 0).empty());
}

TEST_F(RatingsTest, TheEndAndTheRatingsStandOrFallTogether) {
  const auto game = started(true);
  {
    Transaction outer(store_.database());
    store_.set_game_status(game, GameStatus::Finished, kNow,
                           R"({"winner":"scotland","reason":"resigned"})");
    // Not committed: as when the storage thread's group commit fails.
  }
  EXPECT_EQ(store_.find_game(game)->status, GameStatus::Active);
  EXPECT_FALSE(find_rating(store_, scot_, "hots"));
  EXPECT_TRUE(rating_history(store_, 0).empty());
}

TEST_F(RatingsTest, WhetherAGameIsRatedCannotChange) {
  const auto game = started(false);
  EXPECT_THROW(
      store_.database().exec("UPDATE games SET rated = 1 WHERE id = " + std::to_string(game)),
      StorageError);
  EXPECT_FALSE(store_.find_game(game)->rated);
}

}  // namespace
}  // namespace blockfog::storage
