#include "storage/signing_keys.h"

#include <sqlite3.h>

namespace blockfog::storage {
namespace {

constexpr const char* kColumns = "key_id, public_key, private_key, created_at, retired_at";

SigningKeyRow read_row(Statement& statement) {
  SigningKeyRow row;
  row.key_id = statement.column_text(0);
  row.public_key = statement.column_text(1);
  row.private_key = statement.column_text(2);
  row.created_at = statement.column_int64(3);
  if (!statement.is_null(4)) row.retired_at = statement.column_int64(4);
  return row;
}

std::optional<SigningKeyRow> find_current(Store& store) {
  auto select = store.database().prepare(std::string("SELECT ") + kColumns +
                                         " FROM signing_keys WHERE retired_at IS NULL");
  if (!select.step()) return std::nullopt;
  return read_row(select);
}

void insert(Store& store, SigningKeyRow row, std::int64_t now) {
  // DO NOTHING on the one-current index: should another connection have made one meanwhile,
  // that one stays and wins.
  store.database()
      .prepare(
          "INSERT INTO signing_keys (key_id, public_key, private_key, created_at) "
          "VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING")
      .bind(1, row.key_id)
      .bind(2, row.public_key)
      .bind(3, row.private_key)
      .bind(4, now)
      .run();
}

}  // namespace

SigningKeyRow current_signing_key(Store& store, const std::function<SigningKeyRow()>& make,
                                  std::int64_t now) {
  if (auto current = find_current(store)) return *current;
  insert(store, make(), now);
  auto current = find_current(store);
  if (!current) throw StorageError(SQLITE_ERROR, "current_signing_key: not stored");
  return *current;
}

SigningKeyRow rotate_signing_key(Store& store, const std::function<SigningKeyRow()>& make,
                                 std::int64_t now) {
  Transaction transaction(store.database());
  store.database()
      .prepare("UPDATE signing_keys SET retired_at = ?1 WHERE retired_at IS NULL")
      .bind(1, now)
      .run();
  insert(store, make(), now);
  auto current = find_current(store);
  if (!current) throw StorageError(SQLITE_ERROR, "rotate_signing_key: not stored");
  transaction.commit();
  return *current;
}

std::vector<SigningKeyRow> list_signing_keys(Store& store) {
  auto select =
      store.database().prepare(std::string("SELECT ") + kColumns +
                               " FROM signing_keys"
                               " ORDER BY created_at, retired_at IS NULL, retired_at, key_id");
  std::vector<SigningKeyRow> keys;
  while (select.step()) keys.push_back(read_row(select));
  return keys;
}

}  // namespace blockfog::storage
