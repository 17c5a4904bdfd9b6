// Which files the store opens (storage/identity.h), how it serves read-only, and what its
// integrity checks find (storage/integrity.h): docs/storage.md, Identity and Integrity.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "storage/identity.h"
#include "storage/integrity.h"
#include "storage/migrations.h"
#include "storage/store.h"
#include "tests/storage/damage.h"
#include "tests/storage/folder_state.h"
#include "tests/storage/now.h"
#include "tests/storage/temp_dir.h"

namespace blockfog::storage {
namespace {

using testing::kNow;

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Every file in `dir` and its bytes, the -shm's included: a reader must not rebuild it.
std::map<std::string, std::string> directory(const std::filesystem::path& dir) {
  return testing::folder_state(dir);
}

// A raw connection of "another program", which knows nothing of Blockfog.
struct Foreign {
  sqlite3* db = nullptr;
  explicit Foreign(const std::filesystem::path& path) {
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  }
  ~Foreign() { sqlite3_close(db); }
  void exec(const std::string& sql) const {
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sql;
  }
};

std::int64_t application_id(const std::filesystem::path& path) {
  SqliteDatabase db(path, OpenMode::ReadOnly);
  auto pragma = db.prepare("PRAGMA application_id");
  EXPECT_TRUE(pragma.step());
  return pragma.column_int64(0);
}

// A database as a Blockfog without the application id left it: migrated, with one account.
void make_legacy(const std::filesystem::path& path) {
  SqliteDatabase db(path);
  apply_migrations(db, builtin_migrations(), kNow);
  db.exec("INSERT INTO accounts (username, password_hash, created_at) VALUES ('wallace', 'h', 1)");
}

TEST(Identity, ANewDatabaseCarriesBlockfogsApplicationIdInItsHeader) {
  testing::TempDir dir;
  const auto path = dir.file("new.db");
  EXPECT_EQ(identify_database(path), FileIdentity::Absent);
  { Store store(path, kNow); }
  // Bytes 68-71 of the header: what `file` and any SQLite tool read, Blockfog not running.
  EXPECT_EQ(read_bytes(path).substr(68, 4), "BlFg");
  EXPECT_EQ(identify_database(path), FileIdentity::Blockfog);
  EXPECT_FALSE(std::filesystem::exists(dir.file("new.db.new")));
}

TEST(Identity, AnEmptyFileBecomesANewDatabase) {
  testing::TempDir dir;
  const auto path = dir.file("empty.db");
  write_bytes(path, "");
  EXPECT_EQ(identify_database(path), FileIdentity::Absent);
  Store store(path, kNow);
  EXPECT_TRUE(store.create_account("bruce", "h", kNow));
  EXPECT_EQ(application_id(path), kApplicationId);
}

TEST(Identity, ADatabaseOfAnEarlierBlockfogIsAdoptedWithItsData) {
  testing::TempDir dir;
  const auto path = dir.file("legacy.db");
  make_legacy(path);
  EXPECT_EQ(application_id(path), 0);
  EXPECT_EQ(identify_database(path), FileIdentity::LegacyBlockfog);
  {
    Store store(path, kNow);
    EXPECT_TRUE(store.find_account_by_name("wallace"));
  }
  EXPECT_EQ(identify_database(path), FileIdentity::Blockfog);
  EXPECT_EQ(application_id(path), kApplicationId);
}

// Each foreign file is refused, and the directory holds exactly the bytes it held before.
void expect_refused_untouched(const std::filesystem::path& dir, const std::filesystem::path& path,
                              const std::string& says) {
  const auto before = directory(dir);
  try {
    Store store(path, kNow);
    ADD_FAILURE() << path << " was opened";
  } catch (const ForeignDatabase& e) {
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("left it untouched"), std::string::npos) << e.what();
  }
  EXPECT_EQ(directory(dir), before);
}

TEST(Identity, AnotherProgramsDatabaseIsRefusedAndLeftByteIdentical) {
  testing::TempDir dir;
  const auto path = dir.file("notes.db");
  {
    Foreign other(path);
    other.exec("PRAGMA journal_mode = WAL");
    other.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello')");
  }
  // Closed cleanly: no -wal beside it, so none may appear (a plain read-only open would make one).
  ASSERT_FALSE(std::filesystem::exists(dir.file("notes.db-wal")));
  expect_refused_untouched(dir.path(), path, "tables: notes");
}

TEST(Identity, ADatabaseWithClashingTablesIsRefusedWhileItsOwnerWritesToIt) {
  testing::TempDir dir;
  const auto path = dir.file("clash.db");
  // What it writes stays in its WAL, and it keeps the -shm's index mapped.
  const testing::OwnerProcess other(path,
                                    "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
                                    "CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT);"
                                    "CREATE TABLE schema_migrations (version INTEGER, name TEXT);"
                                    "INSERT INTO schema_migrations VALUES (1, 'init')");
  ASSERT_TRUE(other.ready());
  ASSERT_GT(std::filesystem::file_size(dir.file("clash.db-wal")), 0U);
  expect_refused_untouched(dir.path(), path, "tables: games, schema_migrations");
}

// Copied while its owner had it open, as a backup tool or a careless operator copies: a -wal
// and a -shm lie beside it and nobody holds them. Its tables are in the WAL only.
TEST(Identity, AnotherProgramsDatabaseCopiedWhileOpenIsRefusedWithItsWalAndShmByteIdentical) {
  testing::TempDir source;
  testing::TempDir dir;
  const auto path = dir.file("copied.db");
  {
    Foreign other(source.file("live.db"));
    other.exec("PRAGMA journal_mode = WAL");
    other.exec("PRAGMA wal_autocheckpoint = 0");
    other.exec("CREATE TABLE ledger (entry TEXT); INSERT INTO ledger VALUES ('rent')");
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::filesystem::copy_file(source.file(std::string("live.db") + suffix),
                                 dir.file(std::string("copied.db") + suffix));
    }
  }
  expect_refused_untouched(dir.path(), path, "tables: ledger");
  std::filesystem::remove(dir.file("copied.db-shm"));
  expect_refused_untouched(dir.path(), path, "tables: ledger");
}

TEST(Identity, BlockfogsTablesUnderAnotherApplicationIdAreRefused) {
  testing::TempDir dir;
  const auto path = dir.file("other-id.db");
  make_legacy(path);
  { SqliteDatabase(path).exec("PRAGMA application_id = 7"); }
  expect_refused_untouched(dir.path(), path, "application id 0x00000007");
}

TEST(Identity, AFileThatIsNotSqliteIsRefusedUntouched) {
  testing::TempDir dir;
  const auto path = dir.file("readme.txt");
  std::string text;
  for (int i = 0; i < 200; ++i) text += "Scotland the brave. ";
  write_bytes(path, text);
  expect_refused_untouched(dir.path(), path, "not an SQLite database");
}

TEST(ReadOnlyStore, ReadsButWritesNothing) {
  testing::TempDir dir;
  const auto path = dir.file("ro.db");
  {
    Store store(path, kNow);
    store.create_account("moray", "h", kNow);
  }
  const auto bytes = read_bytes(path);
  {
    Store store(path, Store::ReadOnly{});
    EXPECT_TRUE(store.find_account_by_name("moray"));
    try {
      store.create_account("comyn", "h", kNow);
      ADD_FAILURE() << "a read-only store wrote";
    } catch (const StorageError& e) {
      EXPECT_EQ(e.primary_code(), SQLITE_READONLY) << e.what();
    }
  }
  EXPECT_EQ(read_bytes(path), bytes);
}

TEST(ReadOnlyStore, RefusesADatabaseItWouldHaveToMigrate) {
  testing::TempDir dir;
  const auto path = dir.file("old.db");
  {
    SqliteDatabase db(path);
    apply_migrations(db, builtin_migrations().first(3), kNow);
  }
  const auto bytes = read_bytes(path);
  try {
    Store store(path, Store::ReadOnly{});
    ADD_FAILURE() << "an unmigrated database was opened read-only";
  } catch (const StorageError& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 3"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_bytes(path), bytes);
}

// A database of a newer Blockfog, as its server left it when killed (its last migration in the
// WAL): refused before it is opened for writing, which would copy the WAL into the file.
TEST(Identity, ADatabaseOfANewerSchemaIsRefusedAndLeftAsItWas) {
  testing::TempDir source;
  testing::TempDir dir;
  const auto path = dir.file("newer.db");
  {
    Store store(source.file("live.db"), kNow);
    store.database().exec("PRAGMA wal_autocheckpoint = 0");
    store.database().exec(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 1)");
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::filesystem::copy_file(source.file(std::string("live.db") + suffix),
                                 dir.file(std::string("newer.db") + suffix));
    }
  }
  const auto before = directory(dir.path());
  EXPECT_THROW(Store store(path, kNow), SchemaTooNew);
  EXPECT_EQ(directory(dir.path()), before);
}

// A finished game's log on disk, then one page of it overwritten, as a failing disk would.
class Damaged : public ::testing::Test {
 protected:
  void SetUp() override {
    {
      Store store(path_, kNow);
      game_id_ = testing::create_active_game(store, kNow);
      for (int seq = 1; seq <= 5; ++seq) {
        store.append_action(game_id_, seq, "scotland", R"({"kind":"pass"})",
                            "hash" + std::to_string(seq), kNow + seq, std::nullopt);
      }
    }  // closing checkpoints the WAL into the file
    ASSERT_NO_FATAL_FAILURE(testing::overwrite_log_leaf_page(path_));
  }

  testing::TempDir dir_;
  std::filesystem::path path_ = dir_.file("damaged.db");
  std::int64_t game_id_ = 0;
};

TEST_F(Damaged, BothChecksFindAnOverwrittenLeafPageOfTheLog) {
  SqliteDatabase db(path_, OpenMode::ReadOnly);
  for (const auto depth : {IntegrityDepth::Quick, IntegrityDepth::Full}) {
    const auto report = check_integrity(db, depth);
    EXPECT_FALSE(report.ok);
    ASSERT_FALSE(report.problems.empty());
    EXPECT_NE(report.text(), "ok");
  }
}

TEST_F(Damaged, TheStoreRefusesToWriteOnTopOfItButServesItReadOnly) {
  // Left empty beside it by a stopped server: opened for writing, they would be removed.
  write_bytes(dir_.file("damaged.db-wal"), "");
  write_bytes(dir_.file("damaged.db-shm"), "");
  const auto before = directory(dir_.path());
  try {
    Store store(path_, kNow);
    ADD_FAILURE() << "a damaged database was opened for writing";
  } catch (const StorageError& e) {
    EXPECT_EQ(e.primary_code(), SQLITE_CORRUPT);
    EXPECT_NE(std::string(e.what()).find("quick_check"), std::string::npos) << e.what();
  }
  EXPECT_EQ(directory(dir_.path()), before);
  // Read-only, what is intact can still be read; the damaged log says so when read.
  Store store(path_, Store::ReadOnly{});
  EXPECT_TRUE(store.find_account_by_name("scot"));
  EXPECT_TRUE(store.find_game(game_id_));
  EXPECT_THROW(store.load_actions(game_id_), StorageError);
}

TEST(Integrity, AHealthyDatabasePassesBothChecks) {
  testing::TempDir dir;
  const auto path = dir.file("healthy.db");
  { Store store(path, kNow); }
  SqliteDatabase db(path, OpenMode::ReadOnly);
  EXPECT_TRUE(check_integrity(db, IntegrityDepth::Quick).ok);
  const auto full = check_integrity(db, IntegrityDepth::Full);
  EXPECT_TRUE(full.ok);
  EXPECT_EQ(full.text(), "ok");
}

}  // namespace
}  // namespace blockfog::storage
