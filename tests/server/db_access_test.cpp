// Databases the server may not write, through the real binary (docs/storage.md, "Reading
// without writing" and "Refused starts"): --check-db and --read-only read a healthy file that
// its user may not write beside, or that lies on a read-only mount, and say "ok" for it;
// "damaged" only ever means damage. A start that is refused, for whatever reason, leaves the
// database, its -wal and -shm and its folder's listing as they were, compared by SHA-256; and
// says what it could not do with which path, in plain words.
//
// The tests that run the server as another user (nobody) or mount a folder read-only need
// root, as in CI; without it they skip, saying why.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <random>

#include "tests/server/game_helpers.h"
#include "tests/server/restricted_process.h"
#include "tests/server/server_process.h"
#include "tests/storage/damage.h"

namespace blockfog::server::testing {
namespace {

namespace fs = std::filesystem;

std::string shown(const std::map<std::string, std::string>& listing) {
  std::string text;
  for (const auto& [name, sha] : listing) text += name + " " + sha + "\n";
  return text;
}

class DbFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_.path() / "web");
    fs::create_directories(var());
  }

  fs::path var() const { return dir_.path() / "var"; }
  fs::path db() const { return var() / "blockfog.db"; }
  fs::path beside(const char* suffix) const { return fs::path(db().string() + suffix); }

  // A game of a few actions stored by a server that then stopped: cleanly (nothing beside the
  // file) or killed (its -wal, holding the game, and -shm left beside it). Returns the game.
  std::int64_t stored_game(bool killed) {
    ServerProcess server(dir_.path());
    Table table(server.port(), "kept");
    std::mt19937_64 rng(56);
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(table.play_random(rng));
    if (killed) {
      server.kill9();
    } else {
      EXPECT_EQ(server.terminate(), 0);
    }
    return table.game_id;
  }

  // What the server is given for a start that is expected to end at once.
  std::vector<std::string> start_args() const {
    return {"--listen",    "127.0.0.1:0", "--db",
            db().string(), "--web-root",  (dir_.path() / "web").string()};
  }

  // Lets other users through the test's folder (mkdtemp made it 0700), and write in it when
  // `writable` (a server writes its port file there).
  void open_folder_to_others(bool writable) const {
    fs::permissions(dir_.path(), writable ? fs::perms::all
                                          : fs::perms::owner_all | fs::perms::group_read |
                                                fs::perms::group_exec | fs::perms::others_read |
                                                fs::perms::others_exec);
  }

  TempDir dir_;
  // The ids of `nobody`, or why this process cannot take them (then the tests that need them
  // skip).
  std::string why_no_nobody_;
  std::optional<UserIds> nobody_ = unprivileged_user(why_no_nobody_);
};

class RefusedStart : public DbFolder {};
class ReadOnlyAccess : public DbFolder {};

// Another program's WAL database, as found closed, or copied while that program had it open
// (so a -wal and a -shm lie beside it, nobody holding them; the tables are in the WAL only).
enum class Beside { Nothing, WalOnly, WalAndShm };

void make_foreign(const fs::path& db, Beside beside) {
  const auto folder = db.parent_path();
  const auto other = folder / "other.db";
  sqlite3* handle = nullptr;
  ASSERT_EQ(sqlite3_open(other.c_str(), &handle), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(handle,
                         "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
                         "CREATE TABLE games (title TEXT); INSERT INTO games VALUES ('Go')",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  if (beside != Beside::Nothing) {
    for (const char* suffix : {"", "-wal", "-shm"}) {
      fs::copy_file(other.string() + suffix, db.string() + suffix);
    }
  }
  sqlite3_close(handle);
  if (beside == Beside::Nothing) {
    fs::rename(other, db);
  } else {
    fs::remove(other);
  }
  if (beside == Beside::WalOnly) fs::remove(db.string() + "-shm");
}

TEST_F(RefusedStart, AnotherProgramsDatabaseIsLeftByteIdenticalWithOrWithoutItsWalAndShm) {
  for (const auto beside : {Beside::Nothing, Beside::WalOnly, Beside::WalAndShm}) {
    SCOPED_TRACE(beside == Beside::Nothing   ? "closed"
                 : beside == Beside::WalOnly ? "-wal only"
                                             : "-wal, -shm");
    fs::remove_all(var());
    fs::create_directories(var());
    ASSERT_NO_FATAL_FAILURE(make_foreign(db(), beside));
    const auto before = sha256_listing(var());
    const auto [status, output] = run_binary(start_args());
    EXPECT_EQ(status, 1) << output;
    EXPECT_NE(output.find("Blockfog did not make"), std::string::npos) << output;
    // Read through its WAL where it has one: the table is only there.
    EXPECT_NE(output.find("tables: games"), std::string::npos) << output;
    EXPECT_EQ(shown(sha256_listing(var())), shown(before));
  }
}

// Found damaged with an empty -wal and -shm beside it, as a stopped server may leave them: the
// start is refused before the file is opened for writing, which would have removed them.
TEST_F(RefusedStart, ADamagedDatabaseIsLeftAsItWasWithTheFilesBesideIt) {
  stored_game(/*killed=*/false);
  ASSERT_NO_FATAL_FAILURE(storage::testing::overwrite_log_leaf_page(db()));
  std::ofstream(beside("-wal")).flush();
  std::ofstream(beside("-shm")).flush();
  const auto before = sha256_listing(var());
  const auto [status, output] = run_binary(start_args());
  EXPECT_EQ(status, 1) << output;
  EXPECT_NE(output.find("failed its integrity check"), std::string::npos) << output;
  EXPECT_EQ(shown(sha256_listing(var())), shown(before));
}

TEST_F(RefusedStart, AFileItsUserMayNotWriteIsRefusedAndNothingIsMadeBesideIt) {
  if (!nobody_) GTEST_SKIP() << why_no_nobody_;
  const UserIds user = *nobody_;
  stored_game(/*killed=*/false);
  open_folder_to_others(/*writable=*/false);
  fs::permissions(var(), fs::perms::all);  // the folder is writable; the file is root's, 0644
  const auto before = sha256_listing(var());
  const auto [status, output] = run_binary(start_args(), [&] { return become(user); });
  EXPECT_EQ(status, 1) << output;
  EXPECT_NE(output.find("cannot write the database " + db().string() + ": " + db().string() +
                        " is not writable by user nobody"),
            std::string::npos)
      << output;
  EXPECT_EQ(shown(sha256_listing(var())), shown(before));
}

TEST_F(RefusedStart, AFolderItsUserMayNotSearchIsNamedInPlainWords) {
  if (!nobody_) GTEST_SKIP() << why_no_nobody_;
  const UserIds user = *nobody_;
  stored_game(/*killed=*/false);
  open_folder_to_others(/*writable=*/false);
  fs::permissions(var(), fs::perms::none);
  const auto before = sha256_listing(var());  // root reads it all the same
  const std::string said = "the folder " + var().string() + " cannot be searched by user nobody";
  const auto [status, output] = run_binary(start_args(), [&] { return become(user); });
  EXPECT_EQ(status, 1) << output;
  EXPECT_NE(output.find("cannot open the database " + db().string()), std::string::npos) << output;
  EXPECT_NE(output.find(said), std::string::npos) << output;
  EXPECT_EQ(output.find("filesystem error"), std::string::npos) << output;
  const auto [check_status, report] =
      run_binary({"--check-db", "--db", db().string()}, [&] { return become(user); });
  EXPECT_EQ(check_status, 2) << report;
  EXPECT_NE(report.find("cannot check it"), std::string::npos) << report;
  EXPECT_NE(report.find(said), std::string::npos) << report;
  EXPECT_EQ(report.find("damaged"), std::string::npos) << report;
  EXPECT_EQ(shown(sha256_listing(var())), shown(before));
}

// The server's user owns the file in a folder of root's (0755): it cannot make a -wal or -shm
// there. --check-db reads the file as it is (a -wal and -shm of root's beside it, a -wal alone,
// nothing beside it) and finds it healthy, writing nothing.
TEST_F(ReadOnlyAccess, CheckDbSaysOkForAHealthyFileItsUserMayNotWriteBeside) {
  if (!nobody_) GTEST_SKIP() << why_no_nobody_;
  const UserIds user = *nobody_;
  stored_game(/*killed=*/true);
  open_folder_to_others(/*writable=*/false);
  ASSERT_EQ(chown(db().c_str(), user.uid, user.gid), 0);
  const auto check = [&](const std::string& state) {
    SCOPED_TRACE(state);
    const auto before = sha256_listing(var());
    const auto [status, report] =
        run_binary({"--check-db", "--db", db().string()}, [&] { return become(user); });
    EXPECT_EQ(status, 0) << report;
    EXPECT_EQ(report, db().string() + ": ok\n");
    EXPECT_EQ(shown(sha256_listing(var())), shown(before));
  };
  ASSERT_TRUE(fs::exists(beside("-wal")) && fs::exists(beside("-shm")));
  check("killed: -wal and -shm");
  fs::remove(beside("-shm"));
  check("-wal only");
  ServerProcess(dir_.path()).terminate();  // stopped cleanly: nothing beside the file
  ASSERT_FALSE(fs::exists(beside("-wal")));
  check("nothing beside it");
}

TEST_F(ReadOnlyAccess, ReadOnlyServesAsAnotherUserFromAFolderItMayNotWrite) {
  if (!nobody_) GTEST_SKIP() << why_no_nobody_;
  const UserIds user = *nobody_;
  const auto game_id = stored_game(/*killed=*/false);
  open_folder_to_others(/*writable=*/true);  // for the port file
  const auto before = sha256_listing(var());
  ServerProcess server(dir_.path(), {"--read-only"}, {}, [&] { return become(user); });
  HttpClient visitor(server.port());
  const auto health = visitor.get("/healthz");
  EXPECT_EQ(health.status, 503);
  EXPECT_NE(health.body.find("read_only"), std::string::npos) << health.body;
  EXPECT_EQ(visitor.get("/api/games/" + std::to_string(game_id)).status, 200);
  EXPECT_EQ(server.terminate(), 0) << server.log();
  EXPECT_NE(server.log().find("quick check at start of " + db().string() + ": ok"),
            std::string::npos)
      << server.log();
  EXPECT_EQ(shown(sha256_listing(var())), shown(before));
}

// On a read-only mount even root cannot write: --check-db and --read-only read the files a
// killed server left there, a start for writing is refused saying why, and nothing changes.
TEST_F(ReadOnlyAccess, CheckDbAndReadOnlyWorkOnAReadOnlyMount) {
  if (const auto why_not = read_only_mount_unavailable(var()); !why_not.empty()) {
    GTEST_SKIP() << why_not;
  }
  const auto game_id = stored_game(/*killed=*/true);
  const auto before = sha256_listing(var());
  const std::string folder = var().string();
  const auto read_only_mount = [&] { return mount_read_only(folder.c_str()); };

  const auto [status, report] = run_binary({"--check-db", "--db", db().string()}, read_only_mount);
  EXPECT_EQ(status, 0) << report;
  EXPECT_EQ(report, db().string() + ": ok\n");

  const auto [start_status, output] = run_binary(start_args(), read_only_mount);
  EXPECT_EQ(start_status, 1) << output;
  EXPECT_NE(output.find("cannot write the database " + db().string()), std::string::npos) << output;
  EXPECT_NE(output.find("read-only file system"), std::string::npos) << output;

  ServerProcess server(dir_.path(), {"--read-only"}, {}, read_only_mount);
  HttpClient visitor(server.port());
  EXPECT_NE(visitor.get("/healthz").body.find("read_only"), std::string::npos);
  EXPECT_EQ(visitor.get("/api/games/" + std::to_string(game_id)).status, 200);
  EXPECT_EQ(server.terminate(), 0) << server.log();
  EXPECT_EQ(shown(sha256_listing(var())), shown(before));
}

// A -shm this user may not read keeps the check from running: that is said, and is not damage.
TEST_F(ReadOnlyAccess, CheckDbSaysItCannotCheckWhatItMayNotRead) {
  if (!nobody_) GTEST_SKIP() << why_no_nobody_;
  const UserIds user = *nobody_;
  stored_game(/*killed=*/true);
  open_folder_to_others(/*writable=*/false);
  fs::permissions(beside("-shm"), fs::perms::owner_read | fs::perms::owner_write);
  const auto before = sha256_listing(var());
  const auto [status, report] =
      run_binary({"--check-db", "--db", db().string()}, [&] { return become(user); });
  EXPECT_EQ(status, 2) << report;
  EXPECT_NE(report.find(db().string() + ": cannot check it"), std::string::npos) << report;
  EXPECT_NE(report.find(db().string() + "-shm is not readable by user nobody"), std::string::npos)
      << report;
  EXPECT_EQ(report.find("damaged"), std::string::npos) << report;
  EXPECT_EQ(shown(sha256_listing(var())), shown(before));
}

}  // namespace
}  // namespace blockfog::server::testing
