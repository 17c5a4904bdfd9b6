#pragma once

// Ratings (docs/ratings.md): each account's Glicko-2 rating and its history. A rated game
// changes its two players' ratings once, when it finishes (by the rules, resignation or
// timeout), in the transaction that records its end (Store::set_game_status); each rated game
// is one Glicko-2 rating period for both players, from their ratings before it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/glicko2.h"

namespace blockfog::storage {

class Store;

struct RatingRow {
  std::int64_t account_id = 0;
  std::string username;
  glicko2::Rating rating;
  std::int64_t games = 0;
  std::int64_t updated_at = 0;
  std::string kind;  // the game rated (games.kind): each game has its own ratings
};

// One account's rating change by one game.
struct RatingChange {
  std::int64_t id = 0;  // the order ratings changed in
  std::int64_t game_id = 0;
  bool public_game = true;  // an invite game's id is its players' business only
  std::int64_t account_id = 0;
  std::string role;  // "scotland" or "england"
  std::int64_t opponent_id = 0;
  std::string opponent;
  double score = 0.0;  // 1 won, 0.5 drawn, 0 lost
  glicko2::Rating before;
  glicko2::Rating after;
  std::int64_t created_at = 0;
  std::string kind;  // the game's kind
};

// Rates game `game_id` in its own kind's ratings, just marked finished with its result: nothing
// when the game is not rated or has not two seats held by two accounts. Must run inside the
// transaction that finished the game. A game is rated at most once (UNIQUE (game_id, account_id)).
// Locks both players' rows (lock_row) until that transaction ends: games of one player ending
// at once at several nodes move his rating one after the other.
void rate_finished_game(Store& store, std::int64_t game_id, std::int64_t now);

// Accounts rated in game `kind`, best first (rating, then id), `limit` from `offset`.
std::vector<RatingRow> list_ratings(Store& store, std::string_view kind, std::size_t limit,
                                    std::size_t offset);
std::int64_t count_ratings(Store& store, std::string_view kind);
// An account's rating in each game it was rated in, by kind.
std::vector<RatingRow> find_ratings(Store& store, std::int64_t account_id);
// None for an account never rated in game `kind`.
std::optional<RatingRow> find_rating(Store& store, std::int64_t account_id, std::string_view kind);
// An account's changes, oldest first; with account_id 0, everybody's (for recomputation).
std::vector<RatingChange> rating_history(Store& store, std::int64_t account_id);

}  // namespace blockfog::storage
