#include "storage/game_dice.h"

namespace blockfog::storage {

std::vector<DiceRow> list_dice(Store& store, std::int64_t game_id) {
  auto select = store.database().cached(
      "SELECT role, commitment, contribution, committed_at, revealed_at, by_server"
      " FROM game_dice WHERE game_id = ?1 ORDER BY role");
  select->bind(1, game_id);
  std::vector<DiceRow> rows;
  while (select->step()) {
    rows.push_back({.role = select->column_text(0),
                    .commitment = select->column_text(1),
                    .contribution = select->column_optional_text(2),
                    .committed_at = select->column_int64(3),
                    .revealed_at = select->column_optional_int64(4),
                    .by_server = select->column_int64(5) != 0});
  }
  return rows;
}

void commit_dice(Store& store, std::int64_t game_id, std::string_view role,
                 std::string_view commitment, const std::optional<std::string>& held,
                 std::int64_t now) {
  auto insert = store.database().cached(
      "INSERT INTO game_dice (game_id, role, commitment, contribution, committed_at, by_server)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  insert->bind(1, game_id).bind(2, role).bind(3, commitment);
  if (held) {
    insert->bind(4, *held);
  } else {
    insert->bind(4, nullptr);
  }
  insert->bind(5, now).bind(6, std::int64_t{held ? 1 : 0}).run();
}

void reveal_dice(Store& store, std::int64_t game_id, std::string_view role,
                 std::string_view contribution, std::int64_t now) {
  store.database()
      .cached(
          "UPDATE game_dice SET contribution = ?3, revealed_at = ?4"
          " WHERE game_id = ?1 AND role = ?2")
      ->bind(1, game_id)
      .bind(2, role)
      .bind(3, contribution)
      .bind(4, now)
      .run();
}

void set_dice_deadline(Store& store, std::int64_t game_id, std::int64_t deadline) {
  store.database()
      .cached("UPDATE games SET dice_deadline = ?2 WHERE id = ?1")
      ->bind(1, game_id)
      .bind(2, deadline)
      .run();
}

void set_play_seed(Store& store, std::int64_t game_id, std::string_view play_seed_hex) {
  store.database()
      .cached("UPDATE games SET play_seed = ?2 WHERE id = ?1")
      ->bind(1, game_id)
      .bind(2, play_seed_hex)
      .run();
}

std::vector<std::int64_t> list_games_past_dice_deadline(Store& store, std::int64_t now) {
  auto select = store.database().cached(
      "SELECT id FROM games WHERE status = 'open' AND dice_deadline <= ?1 ORDER BY id");
  select->bind(1, now);
  std::vector<std::int64_t> ids;
  while (select->step()) ids.push_back(select->column_int64(0));
  return ids;
}

}  // namespace blockfog::storage
