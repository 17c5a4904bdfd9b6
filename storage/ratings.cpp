#include "storage/ratings.h"

#include <algorithm>
#include <array>

#include "storage/store.h"

namespace blockfog::storage {
namespace {

glicko2::Rating current_rating(Database& db, std::int64_t account_id, const std::string& kind) {
  auto select = db.cached(
      "SELECT rating, deviation, volatility FROM ratings WHERE account_id = ?1 AND kind = ?2");
  select->bind(1, account_id).bind(2, kind);
  if (!select->step()) return {};
  return {select->column_real(0), select->column_real(1), select->column_real(2)};
}

RatingRow read_rating(const Statement& row) {
  return {.account_id = row.column_int64(0),
          .username = row.column_text(1),
          .rating = {row.column_real(2), row.column_real(3), row.column_real(4)},
          .games = row.column_int64(5),
          .updated_at = row.column_int64(6),
          .kind = row.column_text(7)};
}

constexpr std::string_view kRatingColumns =
    "SELECT r.account_id, a.username, r.rating, r.deviation, r.volatility, r.games,"
    " r.updated_at, r.kind FROM ratings r JOIN accounts a ON a.id = r.account_id ";

}  // namespace

void rate_finished_game(Store& store, std::int64_t game_id, std::int64_t now) {
  auto& db = store.database();
  auto game = db.cached("SELECT rated, status, result ->> 'winner', kind FROM games WHERE id = ?1");
  game->bind(1, game_id);
  if (!game->step() || game->column_int64(0) == 0 || game->column_text(1) != "finished") return;
  const auto winner = game->column_optional_text(2);
  // The rating of the game's own kind: each game has its ratings.
  const auto kind = game->column_text(3);
  // Both seats, each by a different account: a game against nobody is never rated.
  auto seats = db.cached("SELECT role, account_id FROM seats WHERE game_id = ?1 ORDER BY role");
  seats->bind(1, game_id);
  std::vector<std::pair<std::string, std::int64_t>> players;
  while (seats->step()) players.emplace_back(seats->column_text(0), seats->column_int64(1));
  if (players.size() != 2 || players[0].second == players[1].second) return;
  // Both players' rows locked, the lower id first, before their ratings are read: a game of
  // either ending at another node meanwhile commits first and this one starts from its result
  // (PostgreSQL's reads do not wait for writers), and two games of one pair in opposite seats
  // lock in one order, never each other's.
  lock_row(db, LockedRow::Account, std::min(players[0].second, players[1].second));
  lock_row(db, LockedRow::Account, std::max(players[0].second, players[1].second));
  const std::array before = {current_rating(db, players[0].second, kind),
                             current_rating(db, players[1].second, kind)};
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& [role, account] = players[i];
    const std::size_t other = 1 - i;
    const double score = !winner ? 0.5 : (*winner == role ? 1.0 : 0.0);
    const glicko2::Result result{before[other], score};
    const auto after = glicko2::update(before[i], std::span(&result, 1));
    db.cached(
          "INSERT INTO ratings (account_id, kind, rating, deviation, volatility, games,"
          " updated_at) VALUES (?1, ?6, ?2, ?3, ?4, 1, ?5) ON CONFLICT (account_id, kind) DO"
          " UPDATE SET"
          " rating = excluded.rating, deviation = excluded.deviation,"
          " volatility = excluded.volatility, games = ratings.games + 1,"
          " updated_at = excluded.updated_at")
        ->bind(1, account)
        .bind_real(2, after.rating)
        .bind_real(3, after.deviation)
        .bind_real(4, after.volatility)
        .bind(5, now)
        .bind(6, kind)
        .run();
    db.cached(
          "INSERT INTO rating_history (game_id, account_id, role, opponent_id, score,"
          " rating_before, deviation_before, volatility_before, rating_after, deviation_after,"
          " volatility_after, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
          " ?12)")
        ->bind(1, game_id)
        .bind(2, account)
        .bind(3, role)
        .bind(4, players[other].second)
        .bind_real(5, score)
        .bind_real(6, before[i].rating)
        .bind_real(7, before[i].deviation)
        .bind_real(8, before[i].volatility)
        .bind_real(9, after.rating)
        .bind_real(10, after.deviation)
        .bind_real(11, after.volatility)
        .bind(12, now)
        .run();
  }
}

std::vector<RatingRow> list_ratings(Store& store, std::string_view kind, std::size_t limit,
                                    std::size_t offset) {
  auto select = store.database().cached(
      std::string(kRatingColumns) +
      "WHERE r.kind = ?3 ORDER BY r.rating DESC, r.account_id LIMIT ?1 OFFSET ?2");
  select->bind(1, static_cast<std::int64_t>(limit))
      .bind(2, static_cast<std::int64_t>(offset))
      .bind(3, std::string(kind));
  std::vector<RatingRow> rows;
  while (select->step()) rows.push_back(read_rating(*select));
  return rows;
}

std::int64_t count_ratings(Store& store, std::string_view kind) {
  auto select = store.database().cached("SELECT count(*) FROM ratings WHERE kind = ?1");
  select->bind(1, std::string(kind));
  select->step();
  return select->column_int64(0);
}

std::vector<RatingRow> find_ratings(Store& store, std::int64_t account_id) {
  auto select = store.database().cached(std::string(kRatingColumns) +
                                        "WHERE r.account_id = ?1 ORDER BY r.kind");
  select->bind(1, account_id);
  std::vector<RatingRow> rows;
  while (select->step()) rows.push_back(read_rating(*select));
  return rows;
}

std::optional<RatingRow> find_rating(Store& store, std::int64_t account_id, std::string_view kind) {
  auto select = store.database().cached(std::string(kRatingColumns) +
                                        "WHERE r.account_id = ?1 AND r.kind = ?2");
  select->bind(1, account_id).bind(2, std::string(kind));
  if (!select->step()) return std::nullopt;
  return read_rating(*select);
}

std::vector<RatingChange> rating_history(Store& store, std::int64_t account_id) {
  auto select = store.database().cached(
      "SELECT h.id, h.game_id, g.visibility = 'public', h.account_id, h.role, h.opponent_id,"
      " o.username, h.score, h.rating_before, h.deviation_before, h.volatility_before,"
      " h.rating_after, h.deviation_after, h.volatility_after, h.created_at, g.kind"
      " FROM rating_history h JOIN games g ON g.id = h.game_id"
      " JOIN accounts o ON o.id = h.opponent_id"
      " WHERE ?1 = 0 OR h.account_id = ?1 ORDER BY h.id");
  select->bind(1, account_id);
  std::vector<RatingChange> rows;
  while (select->step()) {
    const auto& r = *select;
    rows.push_back({.id = r.column_int64(0),
                    .game_id = r.column_int64(1),
                    .public_game = r.column_int64(2) != 0,
                    .account_id = r.column_int64(3),
                    .role = r.column_text(4),
                    .opponent_id = r.column_int64(5),
                    .opponent = r.column_text(6),
                    .score = r.column_real(7),
                    .before = {r.column_real(8), r.column_real(9), r.column_real(10)},
                    .after = {r.column_real(11), r.column_real(12), r.column_real(13)},
                    .created_at = r.column_int64(14),
                    .kind = r.column_text(15)});
  }
  return rows;
}

}  // namespace blockfog::storage
