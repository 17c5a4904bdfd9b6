#include "storage/store.h"

#include <sqlite3.h>

#include <algorithm>
#include <limits>
#include <span>
#include <string>

#include "storage/file_access.h"
#include "storage/identity.h"
#include "storage/integrity.h"
#include "storage/migrations.h"
#include "storage/postgres.h"
#include "storage/ratings.h"

namespace blockfog::storage {
namespace {

constexpr std::string_view kGameColumns =
    "SELECT id, kind, rules_version, scenario, options, seed, seed_sha256, status, visibility,"
    " invite_token_hash, created_by, created_at, started_at, finished_at, result,"
    " (SELECT coalesce(max(seq), 0) + 1 FROM actions WHERE game_id = games.id),"
    " observer_chat, rated, play_seed, dice_deadline FROM games ";

std::int64_t to_limit(std::size_t limit) {
  constexpr auto kMax = static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
  return static_cast<std::int64_t>(std::min(limit, kMax));
}

void bind_optional(Statement& statement, int index, const std::optional<std::string>& text) {
  if (text) {
    statement.bind(index, std::string_view(*text));
  } else {
    statement.bind(index, nullptr);
  }
}

Visibility parse_visibility(std::string_view name) {
  return name == "invite" ? Visibility::Invite : Visibility::Public;
}

AccountRow read_account(const Statement& row) {
  return {.id = row.column_int64(0),
          .username = row.column_text(1),
          .password_hash = row.column_text(2),
          .created_at = row.column_int64(3)};
}

SessionRow read_session(const Statement& row) {
  return {.token_hash = row.column_text(0),
          .account_id = row.column_int64(1),
          .created_at = row.column_int64(2),
          .expires_at = row.column_int64(3),
          .last_seen = row.column_int64(4)};
}

GameRow read_game(const Statement& row) {
  return {.id = row.column_int64(0),
          .kind = row.column_text(1),
          .rules_version = row.column_text(2),
          .scenario = row.column_text(3),
          .options_json = row.column_text(4),
          .seed_hex = row.column_text(5),
          .seed_sha256 = row.column_text(6),
          .status = parse_status(row.column_text(7)),
          .visibility = parse_visibility(row.column_text(8)),
          .invite_token_hash = row.column_optional_text(9),
          .created_by = row.column_int64(10),
          .created_at = row.column_int64(11),
          .started_at = row.column_optional_int64(12),
          .finished_at = row.column_optional_int64(13),
          .result_json = row.column_optional_text(14),
          .next_seq = row.column_int64(15),
          .observer_chat = row.column_int64(16) != 0,
          .rated = row.column_int64(17) != 0,
          .play_seed_hex = row.column_optional_text(18),
          .dice_deadline = row.column_optional_int64(19)};
}

SeatRow read_seat(const Statement& row) {
  return {.game_id = row.column_int64(0),
          .role = row.column_text(1),
          .account_id = row.column_int64(2),
          .joined_at = row.column_int64(3)};
}

// Columns v_scotland, v_england, v_observer from `first` on.
StoredVersions read_versions(const Statement& row, int first) {
  StoredVersions v;
  v.scotland = row.column_optional_int64(first);
  v.england = row.column_optional_int64(first + 1);
  v.observer = row.column_optional_int64(first + 2);
  return v;
}

ActionRow read_action(const Statement& row) {
  return {.game_id = row.column_int64(0),
          .seq = row.column_int64(1),
          .role = row.column_text(2),
          .action_json = row.column_text(3),
          .applied_at = row.column_int64(4),
          .state_hash = row.column_text(5),
          .view_versions = read_versions(row, 6)};
}

// A blob column's bytes as a string (a snapshot is handed to the engine as a string_view).
std::string blob_text(const Statement& row, int column) {
  const auto bytes = row.column_blob(column);
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

SnapshotRow read_snapshot(const Statement& row) {
  return {.game_id = row.column_int64(0),
          .seq = row.column_int64(1),
          .state = blob_text(row, 2),
          .state_hash = row.column_text(3),
          .created_at = row.column_int64(4)};
}

ChatRow read_chat(const Statement& row) {
  return {.id = row.column_int64(0),
          .game_id = row.column_int64(1),
          .account_id = row.column_optional_int64(2),
          .role = row.column_text(3),
          .text = row.column_text(4),
          .created_at = row.column_int64(5)};
}

template <typename Row, typename Reader>
std::vector<Row> collect(Statement& statement, Reader read) {
  std::vector<Row> rows;
  while (statement.step()) rows.push_back(read(statement));
  return rows;
}

template <typename Row, typename Reader>
std::optional<Row> first(Statement& statement, Reader read) {
  if (!statement.step()) return std::nullopt;
  return read(statement);
}

std::optional<std::string> status_of(Database& db, std::int64_t game_id) {
  auto statement = db.cached("SELECT status FROM games WHERE id = ?1");
  statement->bind(1, game_id);
  if (!statement->step()) return std::nullopt;
  return statement->column_text(0);
}

bool is_account_seated(Database& db, std::int64_t game_id, std::int64_t account_id) {
  auto statement = db.cached("SELECT 1 FROM seats WHERE game_id = ?1 AND account_id = ?2");
  statement->bind(1, game_id).bind(2, account_id);
  return statement->step();
}

bool is_role_taken(Database& db, std::int64_t game_id, std::string_view role) {
  auto statement = db.cached("SELECT 1 FROM seats WHERE game_id = ?1 AND role = ?2");
  statement->bind(1, game_id).bind(2, role);
  return statement->step();
}

void insert_seat(Database& db, std::int64_t game_id, std::string_view role, std::int64_t account_id,
                 std::int64_t now) {
  db.cached("INSERT INTO seats (game_id, role, account_id, joined_at) VALUES (?1, ?2, ?3, ?4)")
      ->bind(1, game_id)
      .bind(2, role)
      .bind(3, account_id)
      .bind(4, now)
      .run();
}

void insert_snapshot(Database& db, std::int64_t game_id, std::int64_t seq, std::string_view state,
                     std::string_view state_hash, std::int64_t now, bool replace) {
  // Cached: an action that passes the turn stores one (parsing it, with the snapshots table's
  // triggers, cost more than the insert).
  auto insert =
      db.cached(replace ? "INSERT INTO snapshots (game_id, seq, state, state_hash, created_at)"
                          " VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (game_id, seq) DO UPDATE SET"
                          " state = excluded.state, state_hash = excluded.state_hash,"
                          " created_at = excluded.created_at"
                        : "INSERT INTO snapshots (game_id, seq, state, state_hash, created_at)"
                          " VALUES (?1, ?2, ?3, ?4, ?5)");
  insert->bind(1, game_id)
      .bind(2, seq)
      .bind(3, std::as_bytes(std::span(state.data(), state.size())))
      .bind(4, state_hash)
      .bind(5, now)
      .run();
}

// Steps a statement with RETURNING to its end (which is when an autocommit write commits) and
// returns the integer of its single row.
std::int64_t returned_int64(Statement& statement) {
  statement.step();
  const std::int64_t value = statement.column_int64(0);
  while (statement.step()) {
  }
  return value;
}

}  // namespace

// The schema's CHECK constraints keep status columns within the names of status_name.
GameStatus parse_status(std::string_view name) {
  if (name == "active") return GameStatus::Active;
  if (name == "finished") return GameStatus::Finished;
  if (name == "aborted") return GameStatus::Aborted;
  return GameStatus::Open;
}

std::string_view status_name(GameStatus status) {
  switch (status) {
    case GameStatus::Open:
      return "open";
    case GameStatus::Active:
      return "active";
    case GameStatus::Finished:
      return "finished";
    case GameStatus::Aborted:
      return "aborted";
  }
  return "open";
}

std::string_view visibility_name(Visibility visibility) {
  return visibility == Visibility::Invite ? "invite" : "public";
}

SequenceConflict::SequenceConflict(std::int64_t game_id, std::int64_t expected_seq,
                                   std::int64_t next_seq)
    : StorageError(SQLITE_CONSTRAINT, "game " + std::to_string(game_id) + ": action seq " +
                                          std::to_string(expected_seq) + " is stale; next is " +
                                          std::to_string(next_seq)),
      expected_seq_(expected_seq),
      next_seq_(next_seq) {}

namespace {

// Everything a start decides before it opens `path` for writing, read without writing a byte to
// the file or beside it: whose file it is, whether this process may write it, whether it is
// damaged, whether a newer program wrote it. So a start refused for any of these leaves the
// file, its -wal and -shm and its folder exactly as they were (docs/storage.md, "Refused
// starts"); opened for writing, SQLite would make a -wal and a -shm, rebuild the -shm, and at
// close copy the WAL into the file and remove both.
FileIdentity checked_before_writing(const std::filesystem::path& path) {
  const auto identity = identify_database(path);
  if (path.empty() || path == ":memory:") return identity;
  check_writable(path);
  if (identity == FileIdentity::Absent) return identity;
  SqliteDatabase reader(path, OpenMode::ReadOnly);
  const auto report = check_integrity(reader, IntegrityDepth::Quick);
  if (!report.ok) {
    throw StorageError(SQLITE_CORRUPT, "database " + path.string() +
                                           " failed its integrity check (PRAGMA quick_check); "
                                           "nothing was written to it:\n" +
                                           report.text());
  }
  const int have = schema_version(reader);
  const int want = static_cast<int>(builtin_migrations().size());
  if (have > want) throw SchemaTooNew(have, want);
  return identity;
}

// `path`, where an empty Blockfog database is made first if there is none.
const std::filesystem::path& created_if_absent(const std::filesystem::path& path,
                                               FileIdentity identity) {
  if (identity == FileIdentity::Absent && !path.empty() && path != ":memory:") {
    create_database(path);
  }
  return path;
}

}  // namespace

Store::Store(const std::filesystem::path& path, std::int64_t now, Sync sync)
    : identity_(checked_before_writing(path)),
      db_(std::make_unique<SqliteDatabase>(created_if_absent(path, identity_),
                                           OpenMode::ReadWriteCreate, std::chrono::seconds(5),
                                           sync)) {
  apply_migrations(*db_, builtin_migrations(), now);
  if (identity_ == FileIdentity::LegacyBlockfog) stamp_application_id(*db_);
}

Store::Store(const std::filesystem::path& path, ReadOnly)
    : identity_(identify_database(path)),
      db_(std::make_unique<SqliteDatabase>(path, OpenMode::ReadOnly)) {
  if (identity_ == FileIdentity::Absent) {
    throw StorageError(SQLITE_CANTOPEN,
                       "cannot open database " + path.string() + " read-only: it does not exist");
  }
  const int have = schema_version(*db_);
  const int want = static_cast<int>(builtin_migrations().size());
  if (have > want) throw SchemaTooNew(have, want);
  if (have < want) {
    throw StorageError(
        SQLITE_READONLY,
        "database " + path.string() + " is at schema version " + std::to_string(have) +
            " and this program needs " + std::to_string(want) +
            "; opened read-only it cannot be migrated: open it once for writing first");
  }
}

namespace {

// A PostgreSQL database is Blockfog's when it has schema_migrations; one with other tables and
// none is refused before anything is written to it; an empty one is migrated.
void check_postgres_identity(Database& db, const std::string& where) {
  if (schema_version(db) > 0) return;
  Statement tables =
      db.prepare("SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()");
  tables.step();
  if (tables.column_int64(0) > 0) {
    throw ForeignDatabase(where +
                          " has tables but no schema_migrations: it is not Blockfog's "
                          "database, and nothing was written to it");
  }
}

}  // namespace

Store::Store(std::unique_ptr<Database> db, std::int64_t now)
    : identity_(FileIdentity::Blockfog), db_(std::move(db)) {
  if (db_->backend() == Backend::Postgres) {
    check_postgres_identity(*db_, redacted_uri(static_cast<PgDatabase&>(*db_).uri()));
  }
  apply_migrations(*db_, migrations_for(*db_), now);
}

std::unique_ptr<Store> open_store(const std::string& location, std::int64_t now, Sync sync) {
  if (!is_postgres_uri(location)) return std::make_unique<Store>(location, now, sync);
  if (sync == Sync::Normal) {
    throw StorageError(ErrorKind::Other,
                       "--sync normal is for SQLite only: a PostgreSQL store always commits with "
                       "synchronous_commit = on");
  }
  return std::make_unique<Store>(std::make_unique<PgDatabase>(location), now);
}

// --- accounts and sessions ----------------------------------------------------------------

std::optional<AccountRow> Store::create_account(std::string_view username,
                                                std::string_view password_hash, std::int64_t now) {
  const auto id = db_->prepare(
                         "INSERT INTO accounts (username, password_hash, created_at)"
                         " VALUES (?1, ?2, ?3) ON CONFLICT (username) DO NOTHING RETURNING id")
                      .bind(1, username)
                      .bind(2, password_hash)
                      .bind(3, now)
                      .run_returning_id();
  if (!id) return std::nullopt;
  return AccountRow{.id = *id,
                    .username = std::string(username),
                    .password_hash = std::string(password_hash),
                    .created_at = now};
}

std::optional<AccountRow> Store::find_account_by_name(std::string_view username) {
  Statement statement = db_->prepare(
      "SELECT id, username, password_hash, created_at FROM accounts WHERE username = ?1");
  statement.bind(1, username);
  return first<AccountRow>(statement, read_account);
}

std::optional<AccountRow> Store::find_account_by_id(std::int64_t account_id) {
  auto statement =
      db_->cached("SELECT id, username, password_hash, created_at FROM accounts WHERE id = ?1");
  statement->bind(1, account_id);
  return first<AccountRow>(*statement, read_account);
}

SessionRow Store::create_session(std::string_view token_hash, std::int64_t account_id,
                                 std::int64_t now, std::int64_t expires_at) {
  db_->prepare(
         "INSERT INTO sessions (token_hash, account_id, created_at, expires_at, last_seen)"
         " VALUES (?1, ?2, ?3, ?4, ?3)")
      .bind(1, token_hash)
      .bind(2, account_id)
      .bind(3, now)
      .bind(4, expires_at)
      .run();
  return SessionRow{.token_hash = std::string(token_hash),
                    .account_id = account_id,
                    .created_at = now,
                    .expires_at = expires_at,
                    .last_seen = now};
}

std::optional<SessionRow> Store::find_session(std::string_view token_hash, std::int64_t now) {
  auto statement = db_->cached(
      "SELECT token_hash, account_id, created_at, expires_at, last_seen FROM sessions"
      " WHERE token_hash = ?1 AND expires_at > ?2");
  statement->bind(1, token_hash).bind(2, now);
  return first<SessionRow>(*statement, read_session);
}

bool Store::touch_session(std::string_view token_hash, std::int64_t now, std::int64_t expires_at) {
  db_->cached("UPDATE sessions SET last_seen = ?2, expires_at = ?3 WHERE token_hash = ?1")
      ->bind(1, token_hash)
      .bind(2, now)
      .bind(3, expires_at)
      .run();
  return db_->changes() > 0;
}

void Store::delete_session(std::string_view token_hash) {
  db_->prepare("DELETE FROM sessions WHERE token_hash = ?1").bind(1, token_hash).run();
}

std::vector<std::string> Store::keep_newest_sessions(std::int64_t account_id, int keep,
                                                     std::string_view current) {
  Statement statement = db_->prepare(
      "DELETE FROM sessions WHERE account_id = ?1 AND token_hash NOT IN ("
      " SELECT token_hash FROM sessions WHERE account_id = ?1"
      " ORDER BY token_hash = ?3 DESC, created_at DESC, token_hash LIMIT ?2)"
      " RETURNING token_hash");
  statement.bind(1, account_id).bind(2, static_cast<std::int64_t>(keep)).bind(3, current);
  std::vector<std::string> ended;
  while (statement.step()) ended.push_back(statement.column_text(0));
  return ended;
}

std::int64_t Store::delete_expired_sessions(std::int64_t now) {
  db_->prepare("DELETE FROM sessions WHERE expires_at <= ?1").bind(1, now).run();
  return db_->changes();
}

// --- games and seats ----------------------------------------------------------------------

GameRow Store::create_game(const NewGame& game, std::int64_t now) {
  Transaction transaction(*db_);
  auto insert = db_->cached(
      "INSERT INTO games (kind, rules_version, scenario, options, seed, seed_sha256, visibility,"
      " invite_token_hash, created_by, created_at, observer_chat, rated) VALUES (?1, ?2, ?3, ?4,"
      " ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) RETURNING id");
  insert->bind(1, game.kind)
      .bind(2, game.rules_version)
      .bind(3, game.scenario)
      .bind(4, game.options_json)
      .bind(5, game.seed_hex)
      .bind(6, game.seed_sha256)
      .bind(7, visibility_name(game.visibility));
  bind_optional(*insert, 8, game.invite_token_hash);
  insert->bind(9, game.created_by)
      .bind(10, now)
      .bind(11, std::int64_t{game.observer_chat ? 1 : 0})
      .bind(12, std::int64_t{game.rated ? 1 : 0});
  const std::int64_t id = insert->run_returning_id().value();
  if (game.creator_role) insert_seat(*db_, id, *game.creator_role, game.created_by, now);
  std::optional<GameRow> row = find_game(id);
  transaction.commit();
  return *row;
}

std::optional<GameRow> Store::find_game(std::int64_t game_id) {
  auto statement = db_->cached(std::string(kGameColumns) + "WHERE id = ?1");
  statement->bind(1, game_id);
  return first<GameRow>(*statement, read_game);
}

std::optional<GameRow> Store::find_game_by_invite(std::string_view invite_token_hash) {
  Statement statement = db_->prepare(std::string(kGameColumns) + "WHERE invite_token_hash = ?1");
  statement.bind(1, invite_token_hash);
  return first<GameRow>(statement, read_game);
}

std::vector<GameRow> Store::list_open_public_games(std::size_t limit) {
  Statement statement =
      db_->prepare(std::string(kGameColumns) +
                   "WHERE status = 'open' AND visibility = 'public' AND dice_deadline IS NULL"
                   " ORDER BY created_at DESC, id DESC"
                   " LIMIT ?1");
  statement.bind(1, to_limit(limit));
  return collect<GameRow>(statement, read_game);
}

std::vector<GameRow> Store::list_live_public_games(std::size_t limit) {
  Statement statement = db_->prepare(
      std::string(kGameColumns) +
      "WHERE status = 'active' AND visibility = 'public' ORDER BY started_at DESC, id DESC"
      " LIMIT ?1");
  statement.bind(1, to_limit(limit));
  return collect<GameRow>(statement, read_game);
}

std::int64_t Store::count_open_games_created_by(std::int64_t account_id) {
  Statement statement = db_->prepare(
      "SELECT count(*) FROM games WHERE created_by = ?1 AND status = 'open'"
      " AND dice_deadline IS NULL");
  statement.bind(1, account_id);
  return statement.step() ? statement.column_int64(0) : 0;
}

std::vector<GameRow> Store::list_games_of_account(std::int64_t account_id, std::size_t limit) {
  Statement statement = db_->prepare(
      std::string(kGameColumns) +
      "WHERE created_by = ?1 OR id IN (SELECT game_id FROM seats WHERE account_id = ?1)"
      " ORDER BY id DESC LIMIT ?2");
  statement.bind(1, account_id).bind(2, to_limit(limit));
  return collect<GameRow>(statement, read_game);
}

std::vector<GameRow> Store::list_unfinished_games() {
  Statement statement =
      db_->prepare(std::string(kGameColumns) + "WHERE status IN ('open', 'active') ORDER BY id");
  return collect<GameRow>(statement, read_game);
}

std::vector<SeatRow> Store::list_seats(std::int64_t game_id) {
  auto statement = db_->cached(
      "SELECT game_id, role, account_id, joined_at FROM seats WHERE game_id = ?1 ORDER BY role");
  statement->bind(1, game_id);
  return collect<SeatRow>(*statement, read_seat);
}

SeatOutcome Store::take_seat(std::int64_t game_id, std::string_view role, std::int64_t account_id,
                             std::int64_t now) {
  // One transaction, so two players racing for the last seat cannot both get it.
  Transaction transaction(*db_);
  const std::optional<std::string> status = status_of(*db_, game_id);
  if (!status) return SeatOutcome::NoSuchGame;
  if (*status != "open") return SeatOutcome::GameNotOpen;
  if (is_account_seated(*db_, game_id, account_id)) return SeatOutcome::AlreadySeated;
  if (is_role_taken(*db_, game_id, role)) return SeatOutcome::RoleTaken;
  insert_seat(*db_, game_id, role, account_id, now);
  transaction.commit();
  return SeatOutcome::Seated;
}

void Store::set_game_status(std::int64_t game_id, GameStatus status, std::int64_t now,
                            std::optional<std::string_view> result_json) {
  // The end and the ratings it changes stand or fall together.
  Transaction transaction(*db_);
  auto update = db_->cached(
      "UPDATE games SET status = ?1,"
      " started_at = CASE WHEN ?1 = 'active' THEN ?2 ELSE started_at END,"
      " finished_at = CASE WHEN ?1 IN ('finished', 'aborted') THEN ?2 ELSE finished_at END,"
      " result = coalesce(?3, result)"
      " WHERE id = ?4");
  update->bind(1, status_name(status)).bind(2, now).bind(4, game_id);
  if (result_json) {
    update->bind(3, *result_json);
  } else {
    update->bind(3, nullptr);
  }
  update->run();
  if (db_->changes() == 0) {
    throw StorageError(SQLITE_ERROR, "set_game_status: no game " + std::to_string(game_id));
  }
  if (status == GameStatus::Finished) rate_finished_game(*this, game_id, now);
  transaction.commit();
}

// --- the action log -----------------------------------------------------------------------

std::int64_t Store::append_action(std::int64_t game_id, std::int64_t expected_seq,
                                  std::string_view role, std::string_view action_json,
                                  std::string_view state_hash, std::int64_t now,
                                  std::optional<std::string_view> snapshot,
                                  const StoredVersions& view_versions,
                                  std::optional<std::int64_t> fence) {
  // With a snapshot there are two inserts, which stand or fall together. Alone, the action's
  // insert is atomic by itself on SQLite (a refused statement is rolled back, and the
  // transaction around it, the server's group commit, goes on), so it needs no savepoint: two
  // statements fewer on the storage thread for nearly every action. On PostgreSQL a refused
  // statement fails the whole transaction around it, so it always has its savepoint.
  // The insert trigger actions_in_sequence refuses an action for a game that is not active or
  // not right after the game's last action (migration 4), so nothing is read first; a refusal
  // is explained afterwards, once its savepoint is rolled back.
  const bool alone_is_atomic = db_->backend() == Backend::Sqlite;
  bool action_inserted = false;
  try {
    std::optional<Transaction> transaction;
    if (snapshot || !alone_is_atomic) transaction.emplace(*db_);
    auto insert = db_->cached(
        "INSERT INTO actions (game_id, seq, role, action, applied_at, state_hash, v_scotland,"
        " v_england, v_observer, fence) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    insert->bind(1, game_id)
        .bind(2, expected_seq)
        .bind(3, role)
        .bind(4, action_json)
        .bind(5, now)
        .bind(6, state_hash);
    int column = 7;
    for (const auto& version :
         {view_versions.scotland, view_versions.england, view_versions.observer}) {
      if (version) {
        insert->bind(column++, *version);
      } else {
        insert->bind(column++, nullptr);
      }
    }
    if (fence) {
      insert->bind(10, *fence);
    } else {
      insert->bind(10, nullptr);
    }
    insert->run();
    action_inserted = true;
    if (snapshot) insert_snapshot(*db_, game_id, expected_seq, *snapshot, state_hash, now, false);
    if (transaction) transaction->commit();
  } catch (const ConstraintError&) {
    if (action_inserted) throw;  // the snapshot's refusal, not the action's
    const auto game = find_game(game_id);
    if (!game) {
      throw StorageError(SQLITE_ERROR, "append_action: no game " + std::to_string(game_id));
    }
    if (game->next_seq != expected_seq) {
      throw SequenceConflict(game_id, expected_seq, game->next_seq);
    }
    throw;
  }
  return expected_seq;
}

std::vector<ActionRow> Store::load_actions(std::int64_t game_id, std::int64_t from_seq) {
  Statement statement = db_->prepare(
      "SELECT game_id, seq, role, action, applied_at, state_hash, v_scotland, v_england,"
      " v_observer FROM actions WHERE game_id = ?1 AND seq >= ?2 ORDER BY seq");
  statement.bind(1, game_id).bind(2, from_seq);
  return collect<ActionRow>(statement, read_action);
}

void Store::save_snapshot(std::int64_t game_id, std::int64_t seq, std::string_view state,
                          std::string_view state_hash, std::int64_t now) {
  insert_snapshot(*db_, game_id, seq, state, state_hash, now, true);
}

std::optional<SnapshotRow> Store::latest_snapshot(std::int64_t game_id) {
  Statement statement = db_->prepare(
      "SELECT game_id, seq, state, state_hash, created_at FROM snapshots WHERE game_id = ?1"
      " ORDER BY seq DESC LIMIT 1");
  statement.bind(1, game_id);
  return first<SnapshotRow>(statement, read_snapshot);
}

// --- chat ---------------------------------------------------------------------------------

ChatRow Store::append_chat(std::int64_t game_id, std::optional<std::int64_t> account_id,
                           std::string_view role, std::string_view text, std::int64_t now) {
  Statement insert = db_->prepare(
      "INSERT INTO chat (game_id, account_id, role, text, created_at) VALUES (?1, ?2, ?3, ?4, ?5)"
      " RETURNING id");
  insert.bind(1, game_id);
  if (account_id) {
    insert.bind(2, *account_id);
  } else {
    insert.bind(2, nullptr);
  }
  insert.bind(3, role).bind(4, text).bind(5, now);
  return ChatRow{.id = insert.run_returning_id().value(),
                 .game_id = game_id,
                 .account_id = account_id,
                 .role = std::string(role),
                 .text = std::string(text),
                 .created_at = now};
}

std::int64_t Store::count_chat(std::int64_t game_id) {
  Statement statement = db_->prepare("SELECT COUNT(*) FROM chat WHERE game_id = ?1");
  statement.bind(1, game_id);
  statement.step();
  return statement.column_int64(0);
}

std::vector<ChatRow> Store::list_chat(std::int64_t game_id, std::int64_t since_id,
                                      std::size_t limit) {
  Statement statement = db_->prepare(
      "SELECT id, game_id, account_id, role, text, created_at FROM chat"
      " WHERE game_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3");
  statement.bind(1, game_id).bind(2, since_id).bind(3, to_limit(limit));
  return collect<ChatRow>(statement, read_chat);
}

// --- login throttling ---------------------------------------------------------------------

std::int64_t Store::record_failed_login(std::string_view key, std::int64_t now,
                                        std::int64_t window_ms) {
  // A window is open while window_start > now - window_ms; an expired one starts over.
  Statement upsert = db_->prepare(
      "INSERT INTO failed_logins (key, window_start, count) VALUES (?1, ?2, 1)"
      " ON CONFLICT (key) DO UPDATE SET"
      "  count = CASE WHEN failed_logins.window_start > ?2 - ?3"
      "   THEN failed_logins.count + 1 ELSE 1 END,"
      "  window_start = CASE WHEN failed_logins.window_start > ?2 - ?3"
      "   THEN failed_logins.window_start ELSE ?2 END"
      " RETURNING count");
  upsert.bind(1, key).bind(2, now).bind(3, window_ms);
  return returned_int64(upsert);
}

std::int64_t Store::failed_login_count(std::string_view key, std::int64_t now,
                                       std::int64_t window_ms) {
  Statement statement = db_->prepare(
      "SELECT count FROM failed_logins WHERE key = ?1 AND window_start > CAST(?2 AS BIGINT) - ?3");
  statement.bind(1, key).bind(2, now).bind(3, window_ms);
  return statement.step() ? statement.column_int64(0) : 0;
}

void Store::reset_failed_logins(std::string_view key) {
  db_->prepare("DELETE FROM failed_logins WHERE key = ?1").bind(1, key).run();
}

std::int64_t Store::prune_failed_logins(std::int64_t now, std::int64_t window_ms) {
  db_->prepare("DELETE FROM failed_logins WHERE window_start <= CAST(?1 AS BIGINT) - ?2")
      .bind(1, now)
      .bind(2, window_ms)
      .run();
  return db_->changes();
}

// --- housekeeping -------------------------------------------------------------------------

Purged Store::purge_stale(std::int64_t now, std::int64_t failed_login_age_ms) {
  Transaction transaction(*db_);
  Purged purged;
  purged.sessions = delete_expired_sessions(now);
  purged.failed_logins = prune_failed_logins(now, failed_login_age_ms);
  transaction.commit();
  return purged;
}

}  // namespace blockfog::storage
