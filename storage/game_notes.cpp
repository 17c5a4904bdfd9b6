#include "storage/game_notes.h"

namespace blockfog::storage {

std::optional<GameNotes> find_game_notes(Store& store, std::int64_t game_id,
                                         std::string_view role) {
  auto select = store.database().prepare(
      "SELECT text, updated_at FROM game_notes WHERE game_id = ?1 AND role = ?2");
  select.bind(1, game_id).bind(2, role);
  if (!select.step()) return std::nullopt;
  return GameNotes{select.column_text(0), select.column_int64(1)};
}

void save_game_notes(Store& store, std::int64_t game_id, std::string_view role,
                     std::string_view text, std::int64_t now) {
  store.database()
      .prepare(
          "INSERT INTO game_notes (game_id, role, text, updated_at) VALUES (?1, ?2, ?3, ?4) "
          "ON CONFLICT (game_id, role) DO UPDATE SET text = excluded.text, "
          "updated_at = excluded.updated_at")
      .bind(1, game_id)
      .bind(2, role)
      .bind(3, text)
      .bind(4, now)
      .run();
}

}  // namespace blockfog::storage
