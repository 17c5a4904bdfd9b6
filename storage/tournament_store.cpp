#include "storage/tournament_store.h"

#include <sqlite3.h>

namespace blockfog::storage {
namespace {

constexpr const char* kColumns =
    "id, name, description, organiser, scenario, options, format, rounds, sides,"
    " round_deadline_ms, rated, registration_opens_at, registration_closes_at, max_players,"
    " status, current_round, deadline_at, created_at, started_at, finished_at, time_control,"
    " vacation, rounds_by_hand, kind";

TournamentRow read_row(Statement& s) {
  TournamentRow r;
  r.id = s.column_int64(0);
  r.name = s.column_text(1);
  r.description = s.column_text(2);
  r.organiser = s.column_int64(3);
  r.scenario = s.column_text(4);
  r.options_json = s.column_text(5);
  r.format = s.column_text(6);
  r.rounds = s.column_int64(7);
  r.sides = s.column_text(8);
  r.round_deadline_ms = s.column_int64(9);
  r.rated = s.column_int64(10) != 0;
  r.registration_opens_at = s.column_int64(11);
  r.registration_closes_at = s.column_int64(12);
  r.max_players = s.column_int64(13);
  r.status = s.column_text(14);
  r.current_round = s.column_int64(15);
  r.deadline_at = s.column_optional_int64(16);
  r.created_at = s.column_int64(17);
  r.started_at = s.column_optional_int64(18);
  r.finished_at = s.column_optional_int64(19);
  r.time_control_json = s.column_optional_text(20);
  r.vacation = s.column_int64(21) != 0;
  r.rounds_by_hand = s.column_int64(22) != 0;
  r.kind = s.column_text(23);
  return r;
}

void expect_one_change(Store& store, std::string_view what, std::int64_t id) {
  if (store.database().changes() != 1) {
    throw StorageError(SQLITE_ERROR, std::string(what) + ": no tournament " + std::to_string(id));
  }
}

}  // namespace

TournamentRow create_tournament(Store& store, const NewTournament& t, std::int64_t now) {
  auto insert = store.database().prepare(
      "INSERT INTO tournaments (name, description, organiser, scenario, options, format,"
      " rounds, sides, round_deadline_ms, rated, registration_opens_at,"
      " registration_closes_at, max_players, created_at, time_control, vacation,"
      " rounds_by_hand, kind)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)"
      " RETURNING id");
  insert.bind(1, t.name)
      .bind(2, t.description)
      .bind(3, t.organiser)
      .bind(4, t.scenario)
      .bind(5, t.options_json)
      .bind(6, t.format)
      .bind(7, t.rounds)
      .bind(8, t.sides)
      .bind(9, t.round_deadline_ms)
      .bind(10, std::int64_t{t.rated ? 1 : 0})
      .bind(11, t.registration_opens_at)
      .bind(12, t.registration_closes_at)
      .bind(13, t.max_players)
      .bind(14, now)
      .bind(16, std::int64_t{t.vacation ? 1 : 0})
      .bind(17, std::int64_t{t.rounds_by_hand ? 1 : 0})
      .bind(18, t.kind);
  if (t.time_control_json) {
    insert.bind(15, *t.time_control_json);
  } else {
    insert.bind(15, nullptr);
  }
  return *find_tournament(store, insert.run_returning_id().value());
}

std::optional<TournamentRow> find_tournament(Store& store, std::int64_t id) {
  auto s = store.database().prepare(std::string("SELECT ") + kColumns +
                                    " FROM tournaments WHERE id = ?1");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_row(s);
}

std::vector<TournamentRow> list_tournaments(Store& store, std::size_t limit) {
  auto s = store.database().prepare(std::string("SELECT ") + kColumns +
                                    " FROM tournaments ORDER BY id DESC LIMIT ?1");
  s.bind(1, static_cast<std::int64_t>(limit));
  std::vector<TournamentRow> rows;
  while (s.step()) rows.push_back(read_row(s));
  return rows;
}

std::vector<std::int64_t> list_running_tournaments(Store& store) {
  auto s =
      store.database().cached("SELECT id FROM tournaments WHERE status = 'running' ORDER BY id");
  std::vector<std::int64_t> ids;
  while (s->step()) ids.push_back(s->column_int64(0));
  return ids;
}

std::vector<TournamentPlayerRow> list_tournament_players(Store& store, std::int64_t id) {
  auto s = store.database().prepare(
      "SELECT p.account_id, a.username, p.registered_at, p.seed, p.removed_at"
      " FROM tournament_players p JOIN accounts a ON a.id = p.account_id"
      " WHERE p.tournament_id = ?1 ORDER BY p.seed, p.registered_at, p.account_id");
  s.bind(1, id);
  std::vector<TournamentPlayerRow> rows;
  while (s.step()) {
    rows.push_back({s.column_int64(0), s.column_text(1), s.column_int64(2),
                    s.column_optional_int64(3), s.column_optional_int64(4)});
  }
  return rows;
}

bool add_tournament_player(Store& store, std::int64_t id, std::int64_t account_id,
                           std::int64_t now) {
  store.database()
      .prepare(
          "INSERT INTO tournament_players (tournament_id, account_id, registered_at)"
          " VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING")
      .bind(1, id)
      .bind(2, account_id)
      .bind(3, now)
      .run();
  return store.database().changes() == 1;
}

bool delete_tournament_player(Store& store, std::int64_t id, std::int64_t account_id) {
  store.database()
      .prepare("DELETE FROM tournament_players WHERE tournament_id = ?1 AND account_id = ?2")
      .bind(1, id)
      .bind(2, account_id)
      .run();
  return store.database().changes() == 1;
}

void set_tournament_seed(Store& store, std::int64_t id, std::int64_t account_id,
                         std::int64_t seed) {
  store.database()
      .prepare(
          "UPDATE tournament_players SET seed = ?3 WHERE tournament_id = ?1 AND account_id = ?2")
      .bind(1, id)
      .bind(2, account_id)
      .bind(3, seed)
      .run();
  expect_one_change(store, "set_tournament_seed", id);
}

void mark_tournament_player_removed(Store& store, std::int64_t id, std::int64_t account_id,
                                    std::int64_t now) {
  store.database()
      .prepare(
          "UPDATE tournament_players SET removed_at = ?3"
          " WHERE tournament_id = ?1 AND account_id = ?2")
      .bind(1, id)
      .bind(2, account_id)
      .bind(3, now)
      .run();
  expect_one_change(store, "mark_tournament_player_removed", id);
}

void set_tournament_started(Store& store, std::int64_t id, std::int64_t rounds, std::int64_t now) {
  store.database()
      .prepare(
          "UPDATE tournaments SET status = 'running', rounds = ?2, started_at = ?3"
          " WHERE id = ?1 AND status = 'registering'")
      .bind(1, id)
      .bind(2, rounds)
      .bind(3, now)
      .run();
  expect_one_change(store, "set_tournament_started", id);
}

bool claim_tournament_round(Store& store, std::int64_t id, std::int64_t round,
                            std::int64_t deadline_at) {
  store.database()
      .prepare(
          "UPDATE tournaments SET current_round = ?2, deadline_at = ?3"
          " WHERE id = ?1 AND status = 'running' AND current_round = ?2 - 1")
      .bind(1, id)
      .bind(2, round)
      .bind(3, deadline_at)
      .run();
  return store.database().changes() == 1;
}

void set_tournament_deadline(Store& store, std::int64_t id, std::int64_t deadline_at) {
  store.database()
      .prepare("UPDATE tournaments SET deadline_at = ?2 WHERE id = ?1")
      .bind(1, id)
      .bind(2, deadline_at)
      .run();
  expect_one_change(store, "set_tournament_deadline", id);
}

bool set_tournament_finished(Store& store, std::int64_t id, std::int64_t now) {
  store.database()
      .prepare(
          "UPDATE tournaments SET status = 'finished', finished_at = ?2, deadline_at = NULL"
          " WHERE id = ?1 AND status = 'running'")
      .bind(1, id)
      .bind(2, now)
      .run();
  return store.database().changes() == 1;
}

void add_tournament_game(Store& store, std::int64_t id, std::int64_t round, std::int64_t game_id,
                         const std::optional<std::string>& lot) {
  auto s = store.database().prepare(
      "INSERT INTO tournament_games (game_id, tournament_id, round, lot) VALUES (?1, ?2, ?3, ?4)");
  s.bind(1, game_id).bind(2, id).bind(3, round);
  if (lot) {
    s.bind(4, *lot);
  } else {
    s.bind(4, nullptr);
  }
  s.run();
}

std::vector<TournamentGameRow> list_tournament_games(Store& store, std::int64_t id) {
  auto s = store.database().prepare(
      "SELECT game_id, round, lot FROM tournament_games WHERE tournament_id = ?1"
      " ORDER BY round, game_id");
  s.bind(1, id);
  std::vector<TournamentGameRow> rows;
  while (s.step())
    rows.push_back({s.column_int64(0), s.column_int64(1), s.column_optional_text(2)});
  return rows;
}

std::optional<std::int64_t> tournament_of_game(Store& store, std::int64_t game_id) {
  auto s = store.database().cached("SELECT tournament_id FROM tournament_games WHERE game_id = ?1");
  s->bind(1, game_id);
  if (!s->step()) return std::nullopt;
  return s->column_int64(0);
}

void add_tournament_bye(Store& store, std::int64_t id, std::int64_t round,
                        std::int64_t account_id) {
  store.database()
      .prepare("INSERT INTO tournament_byes (tournament_id, round, account_id) VALUES (?1, ?2, ?3)")
      .bind(1, id)
      .bind(2, round)
      .bind(3, account_id)
      .run();
}

std::vector<TournamentByeRow> list_tournament_byes(Store& store, std::int64_t id) {
  auto s = store.database().prepare(
      "SELECT round, account_id FROM tournament_byes WHERE tournament_id = ?1 ORDER BY round");
  s.bind(1, id);
  std::vector<TournamentByeRow> rows;
  while (s.step()) rows.push_back({s.column_int64(0), s.column_int64(1)});
  return rows;
}

void log_tournament(Store& store, std::int64_t id, std::optional<std::int64_t> author,
                    std::string_view action, std::string_view detail, std::int64_t now) {
  auto s = store.database().prepare(
      "INSERT INTO tournament_log (tournament_id, author, action, detail, created_at)"
      " VALUES (?1, ?2, ?3, ?4, ?5)");
  s.bind(1, id);
  if (author) {
    s.bind(2, *author);
  } else {
    s.bind(2, nullptr);
  }
  s.bind(3, action).bind(4, detail).bind(5, now).run();
}

std::vector<TournamentLogRow> list_tournament_log(Store& store, std::int64_t id) {
  auto s = store.database().prepare(
      "SELECT l.id, a.username, l.action, l.detail, l.created_at FROM tournament_log l"
      " LEFT JOIN accounts a ON a.id = l.author WHERE l.tournament_id = ?1 ORDER BY l.id");
  s.bind(1, id);
  std::vector<TournamentLogRow> rows;
  while (s.step()) {
    rows.push_back({s.column_int64(0), s.column_optional_text(1), s.column_text(2),
                    s.column_text(3), s.column_int64(4)});
  }
  return rows;
}

}  // namespace blockfog::storage
