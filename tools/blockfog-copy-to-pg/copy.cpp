#include "tools/blockfog-copy-to-pg/copy.h"

#include <sqlite3.h>

#include <optional>
#include <span>
#include <utility>

#include "storage/migrations.h"

namespace blockfog::copy_to_pg {
namespace {

using storage::ErrorKind;
using storage::StorageError;

std::int64_t count_rows(storage::Database& db, const std::string& table) {
  auto statement = db.prepare("SELECT count(*) FROM " + table);
  statement.step();
  return statement.column_int64(0);
}

std::vector<std::string> columns_of(storage::SqliteDatabase& db, const std::string& table) {
  auto info = db.prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid");
  info.bind(1, table);
  std::vector<std::string> names;
  while (info.step()) names.push_back(info.column_text(0));
  return names;
}

// Binds column `column` of SQLite's current row to parameter `column + 1`, by its stored type.
void bind_cell(sqlite3_stmt* row, int column, storage::Statement& insert) {
  const int parameter = column + 1;
  switch (sqlite3_column_type(row, column)) {
    case SQLITE_INTEGER:
      insert.bind(parameter, static_cast<std::int64_t>(sqlite3_column_int64(row, column)));
      break;
    case SQLITE_FLOAT:
      insert.bind_real(parameter, sqlite3_column_double(row, column));
      break;
    case SQLITE_TEXT: {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(row, column));
      insert.bind(
          parameter,
          std::string_view(text, static_cast<std::size_t>(sqlite3_column_bytes(row, column))));
      break;
    }
    case SQLITE_BLOB: {
      const auto* data = static_cast<const std::byte*>(sqlite3_column_blob(row, column));
      insert.bind(parameter,
                  std::span<const std::byte>(
                      data, static_cast<std::size_t>(sqlite3_column_bytes(row, column))));
      break;
    }
    default:
      insert.bind(parameter, nullptr);
  }
}

// Copies `table`'s rows in the order of `order_by`; `status_column`, if given, is the index of
// games.status, written as 'active' for a game that ended (its end is written after its log).
void copy_table(storage::SqliteDatabase& from, storage::Database& to, const std::string& table,
                const std::string& order_by, std::optional<int> status_column = std::nullopt) {
  const auto columns = columns_of(from, table);
  std::string names;
  std::string placeholders;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) {
      names += ", ";
      placeholders += ", ";
    }
    names += "\"" + columns[i] + "\"";
    placeholders += "?" + std::to_string(i + 1);
  }
  sqlite3_stmt* raw = nullptr;
  const std::string select_sql = "SELECT " + names + " FROM " + table + " ORDER BY " + order_by;
  if (sqlite3_prepare_v2(from.handle(), select_sql.c_str(), -1, &raw, nullptr) != SQLITE_OK) {
    throw StorageError(ErrorKind::Other,
                       "cannot read " + table + ": " + sqlite3_errmsg(from.handle()));
  }
  auto insert =
      to.prepare("INSERT INTO " + table + " (" + names + ") VALUES (" + placeholders + ")");
  int rc = SQLITE_OK;
  while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
    for (int column = 0; column < static_cast<int>(columns.size()); ++column) {
      if (status_column && column == *status_column) {
        const std::string status(reinterpret_cast<const char*>(sqlite3_column_text(raw, column)));
        insert.bind(column + 1, status == "finished" || status == "aborted"
                                    ? std::string_view("active")
                                    : std::string_view(status));
      } else {
        bind_cell(raw, column, insert);
      }
    }
    insert.run();
    insert.reset();
  }
  sqlite3_finalize(raw);
  if (rc != SQLITE_DONE) throw StorageError(rc, "cannot read " + table);
}

int index_of(const std::vector<std::string>& columns, const std::string& name) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return static_cast<int>(i);
  }
  throw StorageError(ErrorKind::Other, "no column " + name);
}

}  // namespace

const std::vector<std::string>& tables_in_key_order() {
  static const std::vector<std::string> tables{"accounts",
                                               "sessions",
                                               "failed_logins",
                                               "games",
                                               "seats",
                                               "chat",
                                               "actions",
                                               "snapshots",
                                               "notice_settings",
                                               "notices",
                                               "notice_deliveries",
                                               "game_clocks",
                                               "vacations",
                                               "rematches",
                                               "tournaments",
                                               "tournament_players",
                                               "tournament_games",
                                               "tournament_byes",
                                               "tournament_log",
                                               "computer_seats",
                                               "stand_in_consents",
                                               "ratings",
                                               "rating_history",
                                               "server_secrets",
                                               "signing_keys",
                                               "game_dice",
                                               "game_notes"};
  return tables;
}

std::vector<TableCount> copy_database(storage::SqliteDatabase& from, storage::Store& to,
                                      const CopyCheck& check) {
  auto& target = to.database();
  const int from_version = storage::schema_version(from);
  const int to_version = storage::schema_version(target);
  if (from_version != to_version) {
    throw StorageError(ErrorKind::Other,
                       "the SQLite database is at schema version " + std::to_string(from_version) +
                           " and the PostgreSQL one at " + std::to_string(to_version) +
                           ": open the SQLite one with this program's server first");
  }
  for (const auto& table : tables_in_key_order()) {
    if (count_rows(target, table) > 0) {
      throw StorageError(ErrorKind::Other, "the PostgreSQL database is not empty: " + table +
                                               " has rows; nothing was copied");
    }
  }
  {
    storage::Transaction transaction(target);
    for (const auto& table : tables_in_key_order()) {
      if (table == "games") {
        copy_table(from, target, table, "id", index_of(columns_of(from, "games"), "status"));
      } else if (table == "actions") {
        copy_table(from, target, table, "game_id, seq");
      } else {
        copy_table(from, target, table, "1");
      }
      if (table == "snapshots") {
        // The games that ended, ended now that their log is there (the triggers allow only
        // active -> finished or aborted, and no action for a game that is not active).
        auto ended = from.prepare(
            "SELECT id, status FROM games WHERE status IN ('finished', 'aborted') ORDER BY id");
        auto end = target.prepare("UPDATE games SET status = ?2 WHERE id = ?1");
        while (ended.step()) {
          end.bind(1, ended.column_int64(0)).bind(2, ended.column_text(1)).run();
          end.reset();
        }
      }
    }
    // Identities continue after the copied ids.
    auto identities = target.prepare(
        "SELECT table_name, pg_get_serial_sequence(quote_ident(table_name), column_name)"
        " FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES'");
    std::vector<std::pair<std::string, std::string>> sequences;
    while (identities.step()) {
      sequences.emplace_back(identities.column_text(0), identities.column_text(1));
    }
    for (const auto& [table, sequence] : sequences) {
      target.exec("SELECT setval('" + sequence + "', coalesce((SELECT max(id) FROM " + table +
                  "), 0) + 1, false)");
    }
    if (check) check(to);
    transaction.commit();
  }
  std::vector<TableCount> counts;
  for (const auto& table : tables_in_key_order()) {
    counts.push_back({table, count_rows(from, table), count_rows(target, table)});
  }
  return counts;
}

}  // namespace blockfog::copy_to_pg
