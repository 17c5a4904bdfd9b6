#include "storage/sqlite.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/storage/temp_dir.h"

namespace blockfog::storage {
namespace {

std::int64_t count_rows(Database& db, const std::string& table) {
  Statement statement = db.prepare("SELECT count(*) FROM " + table);
  statement.step();
  return statement.column_int64(0);
}

std::string pragma(Database& db, const std::string& name) {
  Statement statement = db.prepare("PRAGMA " + name);
  statement.step();
  return statement.column_text(0);
}

TEST(Database, OpensDurably) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  EXPECT_EQ(pragma(db, "journal_mode"), "wal");
  EXPECT_EQ(pragma(db, "synchronous"), "2");  // FULL
  EXPECT_EQ(pragma(db, "foreign_keys"), "1");
  EXPECT_EQ(pragma(db, "busy_timeout"), "5000");
}

TEST(Database, SyncNormalSkipsTheFsyncPerCommitButKeepsWal) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"), OpenMode::ReadWriteCreate, std::chrono::seconds(5),
                    Sync::Normal);
  EXPECT_EQ(pragma(db, "journal_mode"), "wal");
  EXPECT_EQ(pragma(db, "synchronous"), "1");  // NORMAL
}

TEST(Database, MissingFileIsAnErrorUnlessCreating) {
  testing::TempDir dir;
  try {
    SqliteDatabase db(dir.file("missing.sqlite"), OpenMode::ReadWrite);
    FAIL() << "opened a missing file";
  } catch (const StorageError& error) {
    EXPECT_EQ(error.primary_code(), SQLITE_CANTOPEN);
    EXPECT_NE(std::string(error.what()).find("missing.sqlite"), std::string::npos);
  }
}

TEST(Database, ReadOnlyConnectionRefusesWrites) {
  testing::TempDir dir;
  SqliteDatabase(dir.file("db.sqlite")).exec("CREATE TABLE t (x INTEGER)");
  SqliteDatabase reader(dir.file("db.sqlite"), OpenMode::ReadOnly);
  EXPECT_EQ(count_rows(reader, "t"), 0);
  try {
    reader.exec("INSERT INTO t VALUES (1)");
    FAIL() << "wrote through a read-only connection";
  } catch (const StorageError& error) {
    EXPECT_EQ(error.primary_code(), SQLITE_READONLY);
  }
}

TEST(CachedStatement, IsReusedWithFreshBindingsAndEndsItsReadWhenReturned) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  db.exec(
      "CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b')");
  const std::string select = "SELECT count(*), max(v), ?1 FROM t";
  {
    auto first = db.cached(select);
    first->bind(1, "bound");
    ASSERT_TRUE(first->step());  // left unfinished: the lease must end the read
    EXPECT_EQ(first->column_int64(0), 2);
    EXPECT_EQ(first->column_text(2), "bound");
  }
  SqliteDatabase other(dir.file("db.sqlite"));
  other.exec("INSERT INTO t VALUES (3, 'c')");
  auto again = db.cached(select);
  ASSERT_TRUE(again->step()) << "the cached statement was not reset";
  EXPECT_EQ(again->column_int64(0), 3) << "an old read transaction was still open";
  EXPECT_EQ(again->column_text(1), "c");
  EXPECT_TRUE(again->is_null(2)) << "bindings of the previous lease survived";
}

TEST(Statement, BindsAndReadsEveryType) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  db.exec("CREATE TABLE t (i INTEGER, s TEXT, b BLOB, n TEXT)");
  const std::array<std::byte, 3> blob{std::byte{0}, std::byte{0xff}, std::byte{7}};
  db.prepare("INSERT INTO t VALUES (:i, :s, :b, :n)")
      .bind(":i", std::int64_t{-9'000'000'000})
      .bind(":s", std::string_view("h\xc3\xa9llo\0x", 8))
      .bind(":b", std::span<const std::byte>(blob))
      .bind(":n", nullptr)
      .run();

  Statement select = db.prepare("SELECT i, s, b, n FROM t");
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_int64(0), -9'000'000'000);
  EXPECT_EQ(select.column_text(1), std::string("h\xc3\xa9llo\0x", 8));
  EXPECT_EQ(select.column_blob(2), std::vector<std::byte>(blob.begin(), blob.end()));
  EXPECT_TRUE(select.is_null(3));
  EXPECT_EQ(select.column_optional_text(3), std::nullopt);
  EXPECT_FALSE(select.step());
}

TEST(Statement, ResetAllowsRunningAgain) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  db.exec("CREATE TABLE t (x INTEGER)");
  Statement insert = db.prepare("INSERT INTO t VALUES (?1)");
  for (std::int64_t x = 1; x <= 3; ++x) {
    insert.bind(1, x).run();
    insert.reset();
  }
  EXPECT_EQ(count_rows(db, "t"), 3);
}

TEST(Statement, UnknownParameterNameThrows) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  Statement statement = db.prepare("SELECT :a");
  EXPECT_THROW(statement.bind(":b", std::int64_t{1}), StorageError);
}

TEST(Statement, SyntaxErrorNamesTheStatement) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  try {
    db.prepare("SELEC 1");
    FAIL() << "prepared invalid SQL";
  } catch (const StorageError& error) {
    EXPECT_EQ(error.code(), SQLITE_ERROR);
    EXPECT_NE(std::string(error.what()).find("SELEC 1"), std::string::npos);
  }
}

TEST(Errors, ConstraintViolationIsItsOwnType) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  db.exec("CREATE TABLE t (x INTEGER PRIMARY KEY, y TEXT UNIQUE)");
  db.exec("INSERT INTO t VALUES (1, 'a')");
  try {
    db.exec("INSERT INTO t VALUES (2, 'a')");
    FAIL() << "duplicate accepted";
  } catch (const ConstraintError& error) {
    EXPECT_EQ(error.code(), SQLITE_CONSTRAINT_UNIQUE);
    EXPECT_EQ(error.primary_code(), SQLITE_CONSTRAINT);
  }
}

TEST(Transaction, CommitPersistsAcrossReopen) {
  testing::TempDir dir;
  {
    SqliteDatabase db(dir.file("db.sqlite"));
    db.exec("CREATE TABLE t (x INTEGER)");
    Transaction transaction(db);
    db.exec("INSERT INTO t VALUES (1), (2)");
    transaction.commit();
  }
  SqliteDatabase reopened(dir.file("db.sqlite"));
  EXPECT_EQ(count_rows(reopened, "t"), 2);
}

TEST(Transaction, AnExceptionRollsEverythingBack) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  db.exec("CREATE TABLE t (x INTEGER)");
  try {
    Transaction transaction(db);
    db.exec("INSERT INTO t VALUES (1)");
    db.exec("INSERT INTO t VALUES (2)");
    throw std::runtime_error("the caller failed half-way");
  } catch (const std::runtime_error&) {
  }
  EXPECT_FALSE(db.is_in_transaction());
  EXPECT_EQ(count_rows(db, "t"), 0);

  // The connection is usable afterwards.
  Transaction transaction(db);
  db.exec("INSERT INTO t VALUES (3)");
  transaction.commit();
  EXPECT_EQ(count_rows(db, "t"), 1);
}

TEST(Transaction, FailedStatementInsideRollsBackEarlierWrites) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  db.exec("CREATE TABLE t (x INTEGER NOT NULL)");
  EXPECT_THROW(
      {
        Transaction transaction(db);
        db.exec("INSERT INTO t VALUES (1)");
        db.exec("INSERT INTO t VALUES (NULL)");
        transaction.commit();
      },
      ConstraintError);
  EXPECT_EQ(count_rows(db, "t"), 0);
}

// Inside an open transaction (a group commit) a Transaction is a savepoint: a failing one
// takes back only its own writes, a committed one stays until the outer transaction decides.
TEST(Transaction, NestedOnesRollBackOnlyThemselves) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  db.exec("CREATE TABLE t (x INTEGER NOT NULL)");
  Transaction outer(db);
  {
    Transaction first(db);
    db.exec("INSERT INTO t VALUES (1)");
    first.commit();
  }
  EXPECT_THROW(
      {
        Transaction second(db);
        db.exec("INSERT INTO t VALUES (2)");
        db.exec("INSERT INTO t VALUES (NULL)");
        second.commit();
      },
      ConstraintError);
  {
    Transaction third(db);
    db.exec("INSERT INTO t VALUES (3)");
    {
      Transaction inner(db);  // left without commit: only its row goes
      db.exec("INSERT INTO t VALUES (4)");
    }
    third.commit();
  }
  EXPECT_TRUE(db.is_in_transaction()) << "a nested transaction ended the outer one";
  outer.commit();
  Statement rows = db.prepare("SELECT group_concat(x) FROM (SELECT x FROM t ORDER BY x)");
  ASSERT_TRUE(rows.step());
  EXPECT_EQ(rows.column_text(0), "1,3");
}

TEST(Transaction, NestedWritesGoWhenTheOuterTransactionRollsBack) {
  testing::TempDir dir;
  SqliteDatabase db(dir.file("db.sqlite"));
  db.exec("CREATE TABLE t (x INTEGER)");
  {
    Transaction outer(db);
    Transaction inner(db);
    db.exec("INSERT INTO t VALUES (1)");
    inner.commit();
  }
  EXPECT_FALSE(db.is_in_transaction());
  EXPECT_EQ(count_rows(db, "t"), 0);
}

TEST(Transaction, SecondWriterWaitsThenGivesUp) {
  testing::TempDir dir;
  SqliteDatabase first(dir.file("db.sqlite"));
  first.exec("CREATE TABLE t (x INTEGER)");
  SqliteDatabase second(dir.file("db.sqlite"), OpenMode::ReadWrite, std::chrono::milliseconds(10));
  Transaction holding(first);
  try {
    Transaction blocked(second);
    FAIL() << "two writers at once";
  } catch (const StorageError& error) {
    EXPECT_EQ(error.primary_code(), SQLITE_BUSY);
  }
  // Readers are not blocked by the writer (WAL).
  EXPECT_EQ(count_rows(second, "t"), 0);
}

}  // namespace
}  // namespace blockfog::storage
