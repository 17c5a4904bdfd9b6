#include "storage/server_secrets.h"

#include <sqlite3.h>

namespace blockfog::storage {

std::string server_secret(Store& store, std::string_view name,
                          const std::function<std::string()>& make, std::int64_t now) {
  auto select = store.database().cached("SELECT value FROM server_secrets WHERE name = ?1");
  select->bind(1, name);
  if (select->step()) return select->column_text(0);
  select->reset();
  // DO NOTHING: should another connection have stored one meanwhile, that one stays and wins.
  store.database()
      .prepare(
          "INSERT INTO server_secrets (name, value, created_at) VALUES (?1, ?2, ?3)"
          " ON CONFLICT DO NOTHING")
      .bind(1, name)
      .bind(2, make())
      .bind(3, now)
      .run();
  select->bind(1, name);
  if (!select->step()) throw StorageError(SQLITE_ERROR, "server_secret: not stored");
  return select->column_text(0);
}

void set_invite_token_hash(Store& store, std::int64_t game_id, std::string_view hash) {
  store.database()
      .prepare("UPDATE games SET invite_token_hash = ?2 WHERE id = ?1 AND visibility = 'invite'")
      .bind(1, game_id)
      .bind(2, hash)
      .run();
}

}  // namespace blockfog::storage
