#include "storage/computer_seats.h"

#include <sqlite3.h>

namespace blockfog::storage {

std::int64_t computer_account(Store& store, std::int64_t now) {
  if (const auto account = store.find_account_by_name(kComputerUsername)) return account->id;
  // "!" is no KDF string: every password check against it fails.
  const auto created = store.create_account(kComputerUsername, "!", now);
  if (!created) throw StorageError(SQLITE_ERROR, "computer_account: cannot create the account");
  return created->id;
}

void add_computer_seat(Store& store, std::int64_t game_id, const ComputerSeatRow& seat) {
  store.database()
      .prepare(
          "INSERT INTO computer_seats (game_id, role, level, stand_in, since) "
          "VALUES (?1, ?2, ?3, ?4, ?5)")
      .bind(1, game_id)
      .bind(2, seat.role)
      .bind(3, seat.level)
      .bind(4, std::int64_t{seat.stand_in ? 1 : 0})
      .bind(5, seat.since)
      .run();
}

std::vector<ComputerSeatRow> list_computer_seats(Store& store, std::int64_t game_id) {
  auto select = store.database().cached(
      "SELECT role, level, stand_in, since FROM computer_seats WHERE game_id = ?1 ORDER BY role");
  select->bind(1, game_id);
  std::vector<ComputerSeatRow> seats;
  while (select->step()) {
    seats.push_back({select->column_text(0), select->column_text(1), select->column_int64(2) != 0,
                     select->column_int64(3)});
  }
  return seats;
}

void add_stand_in_consent(Store& store, std::int64_t game_id, std::string_view role) {
  store.database()
      .prepare(
          "INSERT INTO stand_in_consents (game_id, role) VALUES (?1, ?2)"
          " ON CONFLICT DO NOTHING")
      .bind(1, game_id)
      .bind(2, role)
      .run();
}

std::vector<std::string> stand_in_consents(Store& store, std::int64_t game_id) {
  auto select = store.database().cached(
      "SELECT role FROM stand_in_consents WHERE game_id = ?1 ORDER BY role");
  select->bind(1, game_id);
  std::vector<std::string> roles;
  while (select->step()) roles.push_back(select->column_text(0));
  return roles;
}

bool stand_in_allowed(Store& store, std::int64_t game_id) {
  // Consents exist in casual games only: the API refuses one for a rated game.
  auto select =
      store.database().cached("SELECT count(*) FROM stand_in_consents WHERE game_id = ?1");
  select->bind(1, game_id);
  return select->step() && select->column_int64(0) == 2;
}

}  // namespace blockfog::storage
