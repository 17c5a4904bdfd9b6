#include "storage/migrations.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "storage/play_by_web.h"
#include "storage/store.h"
#include "tests/storage/now.h"
#include "tests/storage/temp_dir.h"

namespace blockfog::storage {
namespace {

using testing::kNow;

bool has_table(Database& db, const std::string& name) {
  Statement statement =
      db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1");
  statement.bind(1, name);
  return statement.step();
}

const Migration kFirst{1, "first", "CREATE TABLE first (x INTEGER);"};
const Migration kSecond{2, "second", "CREATE TABLE second (y INTEGER);"};
const Migration kBroken{2, "broken",
                        "CREATE TABLE half (z INTEGER); INSERT INTO nowhere VALUES (1);"};

// `db` brought up to schema `version` (the first `version` built-in migrations), with account 1,
// as a database written by an older program.
void migrate_up_to(Database& db, std::size_t version) {
  const auto all = builtin_migrations();
  apply_migrations(db, std::vector<Migration>(all.begin(), all.begin() + version), kNow);
  db.exec("INSERT INTO accounts (id, username, password_hash, created_at) VALUES (1, 'a', 'k', 0)");
}

// An active game `id` of account 1, in any schema version.
void insert_active_game(Database& db, int id) {
  db.exec(
      "INSERT INTO games (id, rules_version, scenario, seed, seed_sha256, status, visibility,"
      " created_by, created_at) VALUES (" +
      std::to_string(id) + ", 'hots-1', 'braveheart', 'ab', '" + std::string(64, 'c') +
      "', 'active', 'public', 1, 0)");
}

TEST(Migrations, EmptyDatabaseGetsEveryMigration) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  EXPECT_EQ(schema_version(db), 0);

  const std::vector<int> applied = apply_migrations(db, builtin_migrations(), kNow);

  ASSERT_EQ(applied.size(), builtin_migrations().size());
  EXPECT_EQ(applied.front(), 1);
  EXPECT_EQ(schema_version(db), static_cast<int>(builtin_migrations().size()));
  for (const char* table : {"accounts", "sessions", "games", "seats", "actions", "snapshots",
                            "chat", "failed_logins"}) {
    EXPECT_TRUE(has_table(db, table)) << table;
  }
  Statement recorded = db.prepare("SELECT version, name, applied_at FROM schema_migrations");
  ASSERT_TRUE(recorded.step());
  EXPECT_EQ(recorded.column_int64(0), 1);
  EXPECT_EQ(recorded.column_text(1), "initial");
  EXPECT_EQ(recorded.column_int64(2), kNow);
}

TEST(Migrations, UpToDateDatabaseAppliesNothing) {
  testing::TempDir dir;
  { Store store(dir.file("db.sqlite"), kNow); }
  SqliteDatabase db(dir.file("db.sqlite"));
  EXPECT_TRUE(apply_migrations(db, builtin_migrations(), kNow + 1).empty());
  Statement count = db.prepare("SELECT count(*), max(applied_at) FROM schema_migrations");
  count.step();
  EXPECT_EQ(count.column_int64(0), static_cast<std::int64_t>(builtin_migrations().size()));
  EXPECT_EQ(count.column_int64(1), kNow);
}

TEST(Migrations, OnlyNewerMigrationsRun) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  const std::vector<Migration> v1{kFirst};
  const std::vector<Migration> v2{kFirst, kSecond};
  EXPECT_EQ(apply_migrations(db, v1, kNow), std::vector<int>{1});
  EXPECT_EQ(apply_migrations(db, v2, kNow), std::vector<int>{2});
  EXPECT_TRUE(has_table(db, "second"));
  EXPECT_EQ(schema_version(db), 2);
}

TEST(Migrations, FailedMigrationLeavesThePreviousVersion) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  const std::vector<Migration> v1{kFirst};
  const std::vector<Migration> broken{kFirst, kBroken};
  apply_migrations(db, v1, kNow);
  try {
    apply_migrations(db, broken, kNow);
    FAIL() << "broken migration applied";
  } catch (const StorageError& error) {
    EXPECT_NE(std::string(error.what()).find("migration 2 (broken) failed"), std::string::npos);
  }
  EXPECT_EQ(schema_version(db), 1);
  EXPECT_FALSE(has_table(db, "half"));  // its first statement was rolled back too
  EXPECT_FALSE(db.is_in_transaction());
}

TEST(Migrations, NewerDatabaseIsRefused) {
  testing::TempDir dir;
  {
    SqliteDatabase db(dir.file("db.sqlite"));
    const std::vector<Migration> v2{kFirst, kSecond};
    apply_migrations(db, v2, kNow);
  }
  SqliteDatabase db(dir.file("db.sqlite"));
  const std::vector<Migration> v1{kFirst};
  try {
    apply_migrations(db, v1, kNow);
    FAIL() << "a database from a newer program was accepted";
  } catch (const SchemaTooNew& error) {
    EXPECT_EQ(error.database_version(), 2);
    EXPECT_EQ(error.program_version(), 1);
    EXPECT_NE(std::string(error.what()).find("newer than this program"), std::string::npos);
  }
  EXPECT_EQ(schema_version(db), 2);
}

TEST(Migrations, StoreRefusesADatabaseFromTheFuture) {
  testing::TempDir dir;
  { Store store(dir.file("db.sqlite"), kNow); }
  {
    SqliteDatabase db(dir.file("db.sqlite"));
    db.exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)");
  }
  EXPECT_THROW(Store(dir.file("db.sqlite"), kNow), SchemaTooNew);
}

// Migration 4 moved the sequence check from a counter in the games row to the log itself: a
// game stored before it goes on at the same seq, and the log still refuses gaps.
TEST(Migrations, ALogWrittenBeforeMigration4GoesOnAfterIt) {
  testing::TempDir dir;
  const auto path = dir.file("db.sqlite");
  std::int64_t game = 0;
  {
    SqliteDatabase db(path);
    migrate_up_to(db, 3);
    insert_active_game(db, 7);
    for (int seq = 1; seq <= 3; ++seq) {
      db.exec(
          "INSERT INTO actions (game_id, seq, role, action, applied_at, state_hash) VALUES"
          " (7, " +
          std::to_string(seq) +
          ", 'scotland', '{}', 0, 'h');"
          "UPDATE games SET next_seq = next_seq + 1 WHERE id = 7;");
    }
    game = 7;
  }
  Store store(path, kNow);
  EXPECT_EQ(schema_version(store.database()), static_cast<int>(builtin_migrations().size()));
  EXPECT_EQ(store.find_game(game)->next_seq, 4);
  EXPECT_THROW(store.append_action(game, 5, "england", "{}", "h5", 1), SequenceConflict);
  EXPECT_EQ(store.append_action(game, 4, "england", "{}", "h4", 1), 4);
  EXPECT_EQ(store.load_actions(game).size(), 4U);
  EXPECT_EQ(store.find_game(game)->next_seq, 5);
}

// Migration 5 made snapshots binary (core::Game::write_snapshot). The JSON ones stored before
// are dropped (a cache: the log is the truth); the game goes on, and its next snapshot is a
// blob that must still agree with the log.
TEST(Migrations, JsonSnapshotsStoredBeforeMigration5AreDroppedAndTheGameGoesOn) {
  testing::TempDir dir;
  const auto path = dir.file("db.sqlite");
  {
    SqliteDatabase db(path);
    migrate_up_to(db, 4);
    insert_active_game(db, 7);
    db.exec(
        "INSERT INTO actions (game_id, seq, role, action, applied_at, state_hash) VALUES"
        " (7, 1, 'scotland', '{}', 0, 'h1');"
        "INSERT INTO snapshots (game_id, seq, state, state_hash, created_at) VALUES"
        " (7, 1, '{\"turn\":1}', 'h1', 0);");
  }
  Store store(path, kNow);
  EXPECT_EQ(schema_version(store.database()), static_cast<int>(builtin_migrations().size()));
  EXPECT_EQ(store.latest_snapshot(7), std::nullopt);
  const std::string bytes("hots-bin-1\0\x01\xff", 13);
  EXPECT_EQ(store.append_action(7, 2, "england", "{}", "h2", 1, bytes), 2);
  ASSERT_TRUE(store.latest_snapshot(7));
  EXPECT_EQ(store.latest_snapshot(7)->state, bytes);  // bytes, NUL and 0xff included
  EXPECT_THROW(store.save_snapshot(7, 2, bytes, "not h2", kNow), ConstraintError);
  // STRICT: a snapshot written as text is refused.
  EXPECT_THROW(store.database().exec("INSERT INTO snapshots (game_id, seq, state, state_hash,"
                                     " created_at) VALUES (7, 1, '{}', 'h1', 0)"),
               ConstraintError);
}

// Migration 6 stores the log in arrival order (a rowid table with a unique index on the game
// and seq): every action stored before it is still there, field for field, each game's in seq
// order; the games go on at the next seq; the log is still append-only, without gaps, and
// snapshots are still checked against it.
TEST(Migrations, ALogStoredBeforeMigration6IsKeptWholeAndGoesOn) {
  testing::TempDir dir;
  const auto path = dir.file("db.sqlite");
  {
    SqliteDatabase db(path);
    migrate_up_to(db, 5);
    insert_active_game(db, 7);
    insert_active_game(db, 8);
    // The two games' actions interleaved, as two live games store them.
    for (int seq = 1; seq <= 3; ++seq) {
      for (int game : {8, 7}) {
        const auto n = std::to_string(seq);
        const auto g = std::to_string(game);
        db.exec(
            "INSERT INTO actions (game_id, seq, role, action, applied_at, state_hash,"
            " v_scotland, v_england, v_observer) VALUES (" +
            g + ", " + n + ", 'scotland', '{\"n\":" + n + "}', " + n + g + ", 'h" + g + "-" + n +
            "', " + n + ", NULL, 9)");
      }
    }
    db.exec(
        "INSERT INTO snapshots (game_id, seq, state, state_hash, created_at) VALUES"
        " (7, 2, X'01', 'h7-2', 0)");
  }
  Store store(path, kNow);
  EXPECT_EQ(schema_version(store.database()), static_cast<int>(builtin_migrations().size()));
  for (int game : {7, 8}) {
    const auto g = std::to_string(game);
    const auto log = store.load_actions(game);
    ASSERT_EQ(log.size(), 3U);
    for (int seq = 1; seq <= 3; ++seq) {
      const auto& row = log[seq - 1];
      const auto n = std::to_string(seq);
      EXPECT_EQ(row.game_id, game);
      EXPECT_EQ(row.seq, seq);
      EXPECT_EQ(row.role, "scotland");
      EXPECT_EQ(row.action_json, "{\"n\":" + n + "}");
      EXPECT_EQ(row.applied_at, std::stoll(n + g));
      EXPECT_EQ(row.state_hash, "h" + g + "-" + n);
      EXPECT_EQ(row.view_versions.scotland, seq);
      EXPECT_EQ(row.view_versions.england, std::nullopt);
      EXPECT_EQ(row.view_versions.observer, 9);
    }
    EXPECT_EQ(store.find_game(game)->next_seq, 4);
  }
  EXPECT_EQ(store.latest_snapshot(7)->seq, 2);
  EXPECT_EQ(store.load_actions(7, 3).size(), 1U);

  EXPECT_THROW(store.append_action(7, 3, "england", "{}", "h", 1), SequenceConflict);
  EXPECT_THROW(store.append_action(7, 5, "england", "{}", "h", 1), SequenceConflict);
  EXPECT_EQ(store.append_action(7, 4, "england", "{}", "h7-4", 1), 4);
  EXPECT_EQ(store.load_actions(7).size(), 4U);
  EXPECT_EQ(store.load_actions(8).size(), 3U);
  auto& db = store.database();
  EXPECT_THROW(db.exec("UPDATE actions SET action = '{}' WHERE game_id = 8"), ConstraintError);
  EXPECT_THROW(db.exec("DELETE FROM actions WHERE game_id = 8"), ConstraintError);
  EXPECT_THROW(db.exec("INSERT INTO actions (game_id, seq, role, action, applied_at, state_hash)"
                       " VALUES (8, 3, 'england', '{}', 0, 'h')"),
               ConstraintError);
  EXPECT_THROW(store.save_snapshot(8, 3, std::string(1, '\x01'), "not h8-3", kNow),
               ConstraintError);
  store.save_snapshot(8, 3, std::string(1, '\x01'), "h8-3", kNow);
  EXPECT_EQ(store.latest_snapshot(8)->seq, 3);
}

// Migration 7 keeps only each game's latest snapshot (the only one ever read): the older ones
// stored before it are deleted, each game's latest stays as it was, and from then on a new
// snapshot deletes the ones before it.
TEST(Migrations, OnlyTheLatestSnapshotOfEachGameSurvivesMigration7) {
  testing::TempDir dir;
  const auto path = dir.file("db.sqlite");
  {
    SqliteDatabase db(path);
    migrate_up_to(db, 6);
    for (int game : {7, 8}) {
      insert_active_game(db, game);
      const auto g = std::to_string(game);
      for (int seq = 1; seq <= 3; ++seq) {
        const auto n = std::to_string(seq);
        db.exec(
            "INSERT INTO actions (game_id, seq, role, action, applied_at, state_hash) VALUES"
            " (" +
            g + ", " + n + ", 'scotland', '{}', 0, 'h" + g + "-" + n + "')");
      }
    }
    db.exec(
        "INSERT INTO snapshots (game_id, seq, state, state_hash, created_at) VALUES"
        " (7, 0, X'00', 'setup', 0), (7, 1, X'01', 'h7-1', 0), (7, 3, X'03', 'h7-3', 0),"
        " (8, 2, X'02', 'h8-2', 0)");
  }
  Store store(path, kNow);
  EXPECT_EQ(schema_version(store.database()), static_cast<int>(builtin_migrations().size()));
  auto count = store.database().prepare("SELECT game_id, count(*) FROM snapshots GROUP BY game_id");
  std::vector<std::pair<std::int64_t, std::int64_t>> counts;
  while (count.step()) counts.emplace_back(count.column_int64(0), count.column_int64(1));
  EXPECT_EQ(counts, (std::vector<std::pair<std::int64_t, std::int64_t>>{{7, 1}, {8, 1}}));
  EXPECT_EQ(store.latest_snapshot(7)->seq, 3);
  EXPECT_EQ(store.latest_snapshot(7)->state, std::string(1, '\x03'));
  EXPECT_EQ(store.latest_snapshot(8)->seq, 2);

  EXPECT_EQ(store.append_action(8, 4, "england", "{}", "h8-4", 1, std::string(1, '\x04')), 4);
  EXPECT_EQ(store.latest_snapshot(8)->seq, 4);
  EXPECT_EQ(store.latest_snapshot(8)->state, std::string(1, '\x04'));
  auto left = store.database().prepare("SELECT count(*) FROM snapshots WHERE game_id = 8");
  left.step();
  EXPECT_EQ(left.column_int64(0), 1);
  EXPECT_EQ(store.latest_snapshot(7)->seq, 3);  // another game's is untouched
}

// 64-bit FNV-1a: enough to notice an edit.
std::uint64_t fingerprint(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

// Databases in the field already ran the landed migrations; editing one would leave them with
// a schema the code no longer describes. If this fails, revert the edit and add a migration.
// The migration that gave clocks their `check_at` (the clock sweep reads only clocks whose
// `check_at` has passed): a clock running before it is looked at by the first sweep after it,
// so a deadline that passed while an older server was down is still found; a stopped clock
// never is.
TEST(Migrations, AClockRunningBeforeCheckAtExistedIsLookedAtFirst) {
  std::size_t version = 0;
  for (const auto& m : builtin_migrations()) {
    if (m.name == "clock_checks") version = static_cast<std::size_t>(m.version);
  }
  ASSERT_GT(version, 1U);
  testing::TempDir dir;
  const auto path = dir.file("db.sqlite");
  {
    SqliteDatabase db(path);
    migrate_up_to(db, version - 1);
    insert_active_game(db, 7);
    db.exec(
        "INSERT INTO game_clocks (game_id, role, bank_ms, running_since) VALUES"
        " (7, 'scotland', 5000, 1000), (7, 'england', 5000, NULL)");
  }
  Store store(path, kNow);
  EXPECT_TRUE(list_games_with_clocks_to_check(store, 999).empty());
  EXPECT_EQ(list_games_with_clocks_to_check(store, 1000), std::vector<std::int64_t>{7});
  const auto clocks = load_clocks(store, 7);
  ASSERT_EQ(clocks.size(), 2U);
  for (const auto& clock : clocks) {
    if (clock.role == "scotland") {
      EXPECT_EQ(clock.check_at, std::optional<std::int64_t>(1000));
    } else {
      EXPECT_EQ(clock.check_at, std::nullopt);
    }
  }
}

// Migration 21: ratings are kept per game; those earned before it were earned in Hammer of the
// Scots, the only game then served, and so were the tournaments' games.
TEST(Migrations, RatingsAndTournamentsBeforeMigration21AreHammerOfTheScots) {
  testing::TempDir dir;
  const auto path = dir.file("db.sqlite");
  {
    SqliteDatabase db(path);
    migrate_up_to(db, 20);
    db.exec(
        "INSERT INTO ratings (account_id, rating, deviation, volatility, games, updated_at)"
        " VALUES (1, 1620.5, 80, 0.06, 3, 500)");
    db.exec(
        "INSERT INTO tournaments (name, description, organiser, scenario, options, format,"
        " rounds, sides, round_deadline_ms, rated, registration_opens_at,"
        " registration_closes_at, max_players, created_at) VALUES ('Spring', '', 1,"
        " 'braveheart', '{}', 'swiss', 3, 'lot', 60000, 0, 0, 1000, 8, 0)");
  }
  Store store(path, kNow);
  EXPECT_EQ(schema_version(store.database()), static_cast<int>(builtin_migrations().size()));
  auto rating = store.database().prepare(
      "SELECT kind, rating, deviation, volatility, games, updated_at FROM ratings"
      " WHERE account_id = 1");
  ASSERT_TRUE(rating.step());
  EXPECT_EQ(rating.column_text(0), "hots");
  EXPECT_EQ(rating.column_real(1), 1620.5);
  EXPECT_EQ(rating.column_real(2), 80);
  EXPECT_EQ(rating.column_int64(4), 3);
  EXPECT_EQ(rating.column_int64(5), 500);
  EXPECT_FALSE(rating.step());
  // A rating in another game is a second row of the same account.
  store.database().exec(
      "INSERT INTO ratings (account_id, kind, rating, deviation, volatility, games, updated_at)"
      " VALUES (1, 'scotland_rising', 1500, 350, 0.06, 1, 600)");
  auto kinds = store.database().prepare("SELECT kind FROM tournaments");
  ASSERT_TRUE(kinds.step());
  EXPECT_EQ(kinds.column_text(0), "hots");
}

TEST(Migrations, LandedMigrationsAreNeverEdited) {
  const std::vector<std::uint64_t> landed{
      0xb634e511ab3a8808ull,  // 0001_initial.sql
      0x7cd6f60f420f7896ull,  // 0002_view_versions.sql
      0xad938f6db4b3837bull,  // 0003_observer_chat.sql
      0x3e297ba87c33e9ddull,  // 0004_sequence_from_log.sql
      0xa1d2f20cd01585b0ull,  // 0005_binary_snapshots.sql
      0xe800ffb7b230a637ull,  // 0006_actions_in_arrival_order.sql
      0xd04e049f04f0fcd7ull,  // 0007_latest_snapshot_only.sql
      0x63d5ee19f2681b75ull,  // 0008_turn_notices.sql
      0xa95d0b0b267acac0ull,  // 0009_clocks.sql
      0x0a9b4e44ad39f743ull,  // 0010_tournaments.sql
      0xd5310471ae8787bfull,  // 0011_computer_seats.sql
      0x785f36d6a9afe4f8ull,  // 0012_ratings.sql
      0x605fc87a3c1c1eb3ull,  // 0013_clock_checks.sql
      0x2ced1340bc7a755aull,  // 0014_server_secrets.sql
      0x29ad166f614fdc17ull,  // 0015_tournament_settings.sql
      0x27f8c57d9fd64798ull,  // 0016_resumable_waits.sql
      0x69a92993001d6c4dull,  // 0017_signing_keys.sql
      0x82ae7702fa32d7b3ull,  // 0018_shared_dice.sql
      0x95c336ea6a48d2daull,  // 0019_game_notes.sql
      0x338ceac177b55cdbull,  // 0020_notice_ids_never_reused.sql
      0x9da5bee4855df52eull,  // 0021_ratings_per_game.sql
      0x924cf85c13ebc704ull,  // 0022_game_leases.sql
      0xdd3d04a1050a8e97ull,  // 0023_game_summaries.sql
      0x161b44fc80b36004ull,  // 0024_node_presence.sql
  };
  const auto migrations = builtin_migrations();
  ASSERT_GE(migrations.size(), landed.size());
  for (std::size_t i = 0; i < landed.size(); ++i) {
    EXPECT_EQ(fingerprint(migrations[i].sql), landed[i])
        << "migration " << migrations[i].version << " (" << migrations[i].name
        << ") was edited after it landed; revert it and add a new migration instead";
  }
}

}  // namespace
}  // namespace blockfog::storage
