#include "storage/play_by_web.h"

#include <algorithm>

#include <sqlite3.h>

namespace blockfog::storage {

std::string_view rematch_state_name(RematchState state) {
  switch (state) {
    case RematchState::Offered:
      return "offered";
    case RematchState::Accepted:
      return "accepted";
    case RematchState::Declined:
      return "declined";
  }
  return "offered";
}

namespace {

RematchState rematch_state_from(std::string_view name) {
  if (name == "accepted") return RematchState::Accepted;
  if (name == "declined") return RematchState::Declined;
  return RematchState::Offered;
}

}  // namespace

void set_time_control(Store& store, std::int64_t game_id, std::string_view time_control_json) {
  auto update = store.database().prepare("UPDATE games SET time_control = ?2 WHERE id = ?1");
  update.bind(1, game_id).bind(2, time_control_json).run();
  if (store.database().changes() == 0) {
    throw StorageError(SQLITE_ERROR, "set_time_control: no game " + std::to_string(game_id));
  }
}

std::optional<std::string> time_control(Store& store, std::int64_t game_id) {
  auto select = store.database().cached("SELECT time_control FROM games WHERE id = ?1");
  select->bind(1, game_id);
  if (!select->step()) return std::nullopt;
  return select->column_optional_text(0);
}

std::vector<std::int64_t> list_games_with_clocks_to_check(Store& store, std::int64_t now) {
  // INDEXED BY (SQLite's): without statistics its planner would rather walk the primary key
  // for an ORDER BY game_id, reading every clock; the range of the index is what is due.
  // PostgreSQL has no such clause and plans from its own statistics. (Sorted and made distinct
  // here: a game has two clocks.)
  auto& db = store.database();
  auto select = db.cached(
      db.backend() == Backend::Sqlite
          ? "SELECT game_id FROM game_clocks INDEXED BY game_clocks_to_check WHERE check_at <= ?1"
          : "SELECT game_id FROM game_clocks WHERE check_at <= ?1");
  select->bind(1, now);
  std::vector<std::int64_t> ids;
  while (select->step()) ids.push_back(select->column_int64(0));
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::vector<ClockRow> load_clocks(Store& store, std::int64_t game_id) {
  auto select = store.database().cached(
      "SELECT role, bank_ms, running_since, check_at, paused_since, paused_bank_ms"
      " FROM game_clocks WHERE game_id = ?1 ORDER BY role DESC");
  select->bind(1, game_id);
  std::vector<ClockRow> rows;
  while (select->step()) {
    rows.push_back({select->column_text(0), select->column_int64(1),
                    select->column_optional_int64(2), select->column_optional_int64(3),
                    select->column_optional_int64(4), select->column_optional_int64(5)});
  }
  return rows;
}

void save_clock(Store& store, std::int64_t game_id, const ClockRow& clock) {
  auto upsert = store.database().cached(
      "INSERT INTO game_clocks"
      " (game_id, role, bank_ms, running_since, check_at, paused_since, paused_bank_ms)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
      " ON CONFLICT (game_id, role) DO UPDATE SET bank_ms = excluded.bank_ms,"
      " running_since = excluded.running_since, check_at = excluded.check_at,"
      " paused_since = excluded.paused_since, paused_bank_ms = excluded.paused_bank_ms");
  upsert->bind(1, game_id).bind(2, clock.role).bind(3, clock.bank_ms);
  const std::optional<std::int64_t>* nullable[] = {&clock.running_since, &clock.check_at,
                                                   &clock.paused_since, &clock.paused_bank_ms};
  int index = 4;
  for (const auto* value : nullable) {
    if (*value) {
      upsert->bind(index, **value);
    } else {
      upsert->bind(index, nullptr);
    }
    ++index;
  }
  upsert->run();
}

std::vector<VacationRow> list_vacations(Store& store, std::int64_t account_id, std::int64_t from) {
  auto select = store.database().cached(
      "SELECT id, account_id, starts_at, ends_at, automatic FROM vacations"
      " WHERE account_id = ?1 AND ends_at > ?2 ORDER BY starts_at, id");
  select->bind(1, account_id).bind(2, from);
  std::vector<VacationRow> rows;
  while (select->step()) {
    rows.push_back({select->column_int64(0), select->column_int64(1), select->column_int64(2),
                    select->column_int64(3), select->column_int64(4) != 0});
  }
  return rows;
}

VacationRow add_vacation(Store& store, std::int64_t account_id, std::int64_t starts_at,
                         std::int64_t ends_at, bool automatic, std::int64_t now) {
  auto insert = store.database().prepare(
      "INSERT INTO vacations (account_id, starts_at, ends_at, automatic, created_at)"
      " VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id");
  insert.bind(1, account_id)
      .bind(2, starts_at)
      .bind(3, ends_at)
      .bind(4, std::int64_t{automatic ? 1 : 0})
      .bind(5, now);
  return {insert.run_returning_id().value(), account_id, starts_at, ends_at, automatic};
}

std::int64_t vacation_ms_starting_within(Store& store, std::int64_t account_id, std::int64_t from,
                                         std::int64_t to) {
  auto select = store.database().prepare(
      "SELECT coalesce(sum(ends_at - starts_at), 0) FROM vacations"
      " WHERE account_id = ?1 AND starts_at >= ?2 AND starts_at < ?3");
  select.bind(1, account_id).bind(2, from).bind(3, to);
  select.step();
  return select.column_int64(0);
}

std::optional<RematchRow> find_rematch(Store& store, std::int64_t game_id) {
  auto select = store.database().prepare(
      "SELECT game_id, offered_by, state, new_game_id, created_at FROM rematches"
      " WHERE game_id = ?1");
  select.bind(1, game_id);
  if (!select.step()) return std::nullopt;
  return RematchRow{select.column_int64(0), select.column_int64(1),
                    rematch_state_from(select.column_text(2)), select.column_optional_int64(3),
                    select.column_int64(4)};
}

bool offer_rematch(Store& store, std::int64_t game_id, std::int64_t offered_by, std::int64_t now) {
  auto insert = store.database().prepare(
      "INSERT INTO rematches (game_id, offered_by, state, created_at)"
      " VALUES (?1, ?2, 'offered', ?3) ON CONFLICT DO NOTHING");
  insert.bind(1, game_id).bind(2, offered_by).bind(3, now).run();
  return store.database().changes() == 1;
}

void settle_rematch(Store& store, std::int64_t game_id, RematchState state,
                    std::optional<std::int64_t> new_game_id) {
  auto update = store.database().prepare(
      "UPDATE rematches SET state = ?2, new_game_id = ?3 WHERE game_id = ?1");
  update.bind(1, game_id).bind(2, rematch_state_name(state));
  if (new_game_id) {
    update.bind(3, *new_game_id);
  } else {
    update.bind(3, nullptr);
  }
  update.run();
}

std::optional<std::int64_t> last_activity(Store& store, std::int64_t account_id) {
  auto select =
      store.database().cached("SELECT max(last_seen) FROM sessions WHERE account_id = ?1");
  select->bind(1, account_id);
  select->step();
  return select->column_optional_int64(0);
}

}  // namespace blockfog::storage
