// The PostgreSQL backend itself (storage/postgres.h): placeholders, types, transactions, what
// its failures mean to the server (kind()), and how a PostgreSQL store opens. Those that need a
// cluster run in ctest's storage.postgres run and are skipped in the SQLite one.

#include "storage/postgres.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "storage/identity.h"
#include "storage/integrity.h"
#include "storage/migrations.h"
#include "storage/store.h"
#include "tests/storage/now.h"
#include "tests/storage/test_store.h"

namespace blockfog::storage {
namespace {

using testing::kNow;

TEST(PostgresPlaceholders, NumberedParametersBecomeDollarsOutsideQuotesAndComments) {
  int parameters = 0;
  EXPECT_EQ(to_postgres_placeholders(
                "SELECT '?1', \"a?2\", ?1 -- ?9\n, ?12 /* ?7 */ FROM t WHERE x = ?3", parameters),
            "SELECT '?1', \"a?2\", $1 -- ?9\n, $12 /* ?7 */ FROM t WHERE x = $3");
  EXPECT_EQ(parameters, 12);
  EXPECT_EQ(to_postgres_placeholders("SELECT 'it''s ?1', ?2", parameters), "SELECT 'it''s ?1', $2");
  EXPECT_EQ(parameters, 2);
  EXPECT_THROW(to_postgres_placeholders("SELECT ?", parameters), StorageError);
}

TEST(PostgresPlaceholders, UrisArePostgresAndTheirPasswordsAreHidden) {
  EXPECT_TRUE(is_postgres_uri("postgresql://u@h/db"));
  EXPECT_TRUE(is_postgres_uri("postgres://u@h/db"));
  EXPECT_FALSE(is_postgres_uri("./var/blockfog.db"));
  EXPECT_EQ(redacted_uri("postgresql://u:secret@h:5432/db"), "postgresql://u:***@h:5432/db");
  EXPECT_EQ(redacted_uri("postgresql://u@h:5432/db"), "postgresql://u@h:5432/db");
}

class PgDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto uri = testing::test_postgres_uri();
    if (!uri) GTEST_SKIP() << "not the PostgreSQL run (BLOCKFOG_TEST_PG_URI_FILE unset)";
    uri_ = *uri;
    testing::empty_postgres(uri_);
    db_ = std::make_unique<PgDatabase>(uri_);
  }

  std::int64_t count(const std::string& table) {
    auto statement = db_->prepare("SELECT count(*) FROM " + table);
    statement.step();
    return statement.column_int64(0);
  }

  std::string uri_;
  std::unique_ptr<PgDatabase> db_;
};

TEST_F(PgDatabaseTest, BindsAndReadsEveryTypeAndBlobsKeepEveryByte) {
  db_->exec("CREATE TABLE t (i bigint, r double precision, s text, b bytea, n text)");
  const std::vector<std::byte> blob{std::byte{0}, std::byte{0xff}, std::byte{'\\'}, std::byte{'x'},
                                    std::byte{0}};
  db_->prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5)")
      .bind(1, std::int64_t{-9'000'000'000})
      .bind_real(2, 0.1)
      .bind(3, std::string_view("h\xc3\xa9llo 'quoted' ?1"))
      .bind(4, std::span<const std::byte>(blob))
      .bind(5, nullptr)
      .run();
  EXPECT_EQ(db_->changes(), 1);
  auto read = db_->prepare("SELECT i, r, s, b, n FROM t");
  ASSERT_TRUE(read.step());
  EXPECT_EQ(read.column_int64(0), -9'000'000'000);
  EXPECT_EQ(read.column_real(1), 0.1);
  EXPECT_EQ(read.column_text(2), "h\xc3\xa9llo 'quoted' ?1");
  EXPECT_EQ(read.column_blob(3), blob);
  EXPECT_TRUE(read.is_null(4));
  EXPECT_EQ(read.column_optional_text(4), std::nullopt);
  EXPECT_FALSE(read.step());
}

TEST_F(PgDatabaseTest, ACachedStatementRunsAgainWithFreshBindings) {
  db_->exec("CREATE TABLE t (k bigint PRIMARY KEY, v text)");
  for (std::int64_t k = 1; k <= 3; ++k) {
    db_->cached("INSERT INTO t (k, v) VALUES (?1, ?2)")->bind(1, k).bind(2, "v").run();
  }
  for (std::int64_t k = 1; k <= 3; ++k) {
    auto select = db_->cached("SELECT v FROM t WHERE k = ?1");
    select->bind(1, k);
    ASSERT_TRUE(select->step());
    EXPECT_EQ(select->column_text(0), "v");
  }
  EXPECT_EQ(count("t"), 3);
}

TEST_F(PgDatabaseTest, NestedTransactionsAreSavepointsAndAFailureTakesBackOnlyItsOwn) {
  db_->exec("CREATE TABLE t (k bigint PRIMARY KEY)");
  {
    Transaction outer(*db_);
    db_->exec("INSERT INTO t VALUES (1)");
    {
      Transaction inner(*db_);
      db_->exec("INSERT INTO t VALUES (2)");
      EXPECT_THROW(db_->exec("INSERT INTO t VALUES (1)"), ConstraintError);
    }  // rolled back to its savepoint: the outer transaction goes on
    db_->exec("INSERT INTO t VALUES (3)");
    outer.commit();
  }
  auto rows = db_->prepare("SELECT k FROM t ORDER BY k");
  std::vector<std::int64_t> keys;
  while (rows.step()) keys.push_back(rows.column_int64(0));
  EXPECT_EQ(keys, (std::vector<std::int64_t>{1, 3}));
}

TEST_F(PgDatabaseTest, ConstraintViolationsAreOfKindConstraint) {
  db_->exec("CREATE TABLE t (k bigint PRIMARY KEY, v text NOT NULL CHECK (length(v) > 0))");
  db_->exec("INSERT INTO t VALUES (1, 'a')");
  for (const char* refused : {"INSERT INTO t VALUES (1, 'b')", "INSERT INTO t VALUES (2, '')",
                              "INSERT INTO t VALUES (3, NULL)"}) {
    try {
      db_->exec(refused);
      ADD_FAILURE() << refused << " was not refused";
    } catch (const ConstraintError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Constraint) << refused;
      EXPECT_FALSE(is_unavailable(e.kind()));
    }
  }
  EXPECT_EQ(count("t"), 1);
}

// amcheck is what checks a PostgreSQL store's pages: without it nothing is checked and the
// error says how to install it (never a verdict of damage); with it, a sound store's indexes
// pass, the quick check and the full one (every row has its index entries).
TEST_F(PgDatabaseTest, TheIntegrityCheckNeedsAmcheckAndPassesASoundStore) {
  db_->exec("CREATE TABLE t (k bigint PRIMARY KEY, v text)");
  db_->exec("CREATE INDEX t_by_v ON t (v)");
  db_->exec("INSERT INTO t SELECT g, md5(g::text) FROM generate_series(1, 2000) AS g");
  try {
    check_integrity(*db_, IntegrityDepth::Quick);
    ADD_FAILURE() << "checked without amcheck";
  } catch (const StorageError& e) {
    EXPECT_NE(std::string(e.what()).find("CREATE EXTENSION amcheck"), std::string::npos)
        << e.what();
  }
  db_->exec("CREATE EXTENSION amcheck");
  for (const auto depth : {IntegrityDepth::Quick, IntegrityDepth::Full}) {
    const auto report = check_integrity(*db_, depth);
    EXPECT_TRUE(report.ok) << report.text();
    EXPECT_EQ(report.text(), "ok");
  }
}

TEST_F(PgDatabaseTest, ALostConnectionIsUnavailableAndTheNextStatementConnectsAgain) {
  db_->exec("CREATE TABLE t (k bigint)");
  const int pid = db_->backend_pid();
  ASSERT_GT(pid, 0);
  {
    PgDatabase other(uri_);
    auto kill = other.prepare("SELECT pg_terminate_backend(CAST(?1 AS integer))");
    kill.bind(1, std::int64_t{pid});
    ASSERT_TRUE(kill.step());
  }
  try {
    db_->exec("INSERT INTO t VALUES (1)");
    FAIL() << "a statement on a terminated connection succeeded";
  } catch (const ConstraintError&) {
    FAIL() << "a lost connection was taken for a refused write";
  } catch (const StorageError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unavailable) << e.what();
    EXPECT_TRUE(is_unavailable(e.kind()));
  }
  EXPECT_FALSE(db_->is_in_transaction());
  db_->exec("INSERT INTO t VALUES (2)");  // connected again
  EXPECT_NE(db_->backend_pid(), pid);
  EXPECT_EQ(count("t"), 1);
}

TEST_F(PgDatabaseTest, AnUnreachableServerIsUnavailable) {
  try {
    PgDatabase nowhere("postgresql://blockfog@127.0.0.1:1/blockfog");
    FAIL() << "connected to port 1";
  } catch (const StorageError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unavailable) << e.what();
  }
}

TEST_F(PgDatabaseTest, SessionsCommitSynchronouslyInUtc) {
  auto setting = db_->prepare(
      "SELECT current_setting('synchronous_commit'),"
      " current_setting('TimeZone'),"
      " current_setting('idle_in_transaction_session_timeout'),"
      " current_setting('lock_timeout')");
  ASSERT_TRUE(setting.step());
  EXPECT_EQ(setting.column_text(0), "on");
  EXPECT_EQ(setting.column_text(1), "UTC");
  EXPECT_EQ(setting.column_text(2), "2s");
  EXPECT_EQ(setting.column_text(3), "2s");
}

TEST_F(PgDatabaseTest, ANewDatabaseIsMigratedAndRecordsEverySqliteVersion) {
  Store store(std::move(db_), kNow);
  EXPECT_EQ(schema_version(store.database()), latest_version(store.database()));
  auto names = store.database().prepare("SELECT version, name FROM schema_migrations ORDER BY 1");
  int version = 0;
  while (names.step()) {
    ++version;
    EXPECT_EQ(names.column_int64(0), version);
    EXPECT_EQ(names.column_text(1),
              builtin_migrations()[static_cast<std::size_t>(version - 1)].name);
  }
  EXPECT_EQ(version, postgres_migrations().back().version);
}

TEST_F(PgDatabaseTest, BothBackendsKnowTheSameNewestSchemaVersion) {
  // A SQLite migration lands with its PostgreSQL twin (storage/migrations/postgres/).
  EXPECT_EQ(postgres_migrations().back().version, static_cast<int>(builtin_migrations().size()));
}

TEST_F(PgDatabaseTest, AnotherProgramsDatabaseIsRefusedAndLeftAlone) {
  db_->exec("CREATE TABLE invoices (id bigint PRIMARY KEY); INSERT INTO invoices VALUES (7)");
  EXPECT_THROW(Store(std::make_unique<PgDatabase>(uri_), kNow), ForeignDatabase);
  EXPECT_EQ(count("invoices"), 1);
  auto tables =
      db_->prepare("SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()");
  tables.step();
  EXPECT_EQ(tables.column_int64(0), 1);
}

TEST_F(PgDatabaseTest, ADatabaseOfANewerSchemaIsRefused) {
  { Store store(std::make_unique<PgDatabase>(uri_), kNow); }
  db_->exec("INSERT INTO schema_migrations VALUES (999, 'future', 0)");
  EXPECT_THROW(Store(std::make_unique<PgDatabase>(uri_), kNow), SchemaTooNew);
}

TEST_F(PgDatabaseTest, SyncNormalIsRefusedForPostgres) {
  try {
    open_store(uri_, kNow, Sync::Normal);
    FAIL() << "--sync normal was accepted for PostgreSQL";
  } catch (const StorageError& e) {
    EXPECT_NE(std::string(e.what()).find("--sync normal"), std::string::npos) << e.what();
  }
  EXPECT_NE(open_store(uri_, kNow, Sync::Full), nullptr);
}

}  // namespace
}  // namespace blockfog::storage
