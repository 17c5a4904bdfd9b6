// The database the real server is given at start (docs/storage.md, Identity and Integrity):
// another program's file is refused and left byte-identical; a damaged one is refused unless
// served --read-only, --check-db reports it, and damage while serving is reported by the next
// integrity check in the log and /metrics.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <random>
#include <thread>

#include "storage/sqlite.h"
#include "tests/server/command.h"
#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"
#include "tests/storage/damage.h"

namespace blockfog::server::testing {
namespace {

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> files_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

class DbAtStart : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_.path() / "web");
    std::filesystem::create_directories(dir_.path() / "var");
  }
  std::filesystem::path db() const { return dir_.path() / "var" / "blockfog.db"; }

  // Starts the server expecting it to refuse: what it said.
  std::string refused_start(std::vector<std::string> flags = {}) {
    try {
      ServerProcess server(dir_.path(), std::move(flags));
      ADD_FAILURE() << "the server started";
      return "";
    } catch (const std::exception& e) {
      const std::string why = e.what();
      EXPECT_NE(why.find("(status 1)"), std::string::npos) << why;
      return why;
    }
  }

  // A game of a few actions in the log, stored by a server that then stopped cleanly (its WAL
  // checkpointed into the file); returns the game's id.
  std::int64_t stored_game() {
    ServerProcess server(dir_.path());
    Table table(server.port(), "kept");
    std::mt19937_64 rng(39);
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(table.play_random(rng));
    const auto id = table.game_id;
    EXPECT_EQ(server.terminate(), 0);
    return id;
  }

  // Overwrites the page that holds the action log's rows, as a failing disk would.
  void damage_the_log() const { storage::testing::overwrite_log_leaf_page(db()); }

  TempDir dir_;
};

TEST_F(DbAtStart, AnotherProgramsDatabaseIsRefusedAndLeftByteIdentical) {
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(db().c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other,
                         "PRAGMA journal_mode = WAL;"
                         "CREATE TABLE games (title TEXT); INSERT INTO games VALUES ('Go')",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(other);
  const auto bytes = read_bytes(db());
  const auto files = files_in(db().parent_path());
  const auto why = refused_start();
  EXPECT_NE(why.find("Blockfog did not make"), std::string::npos) << why;
  EXPECT_EQ(read_bytes(db()), bytes);
  EXPECT_EQ(files_in(db().parent_path()), files);  // no -wal, -shm or anything else beside it
}

TEST_F(DbAtStart, ADamagedDatabaseIsRefusedAndCanBeCheckedOrServedReadOnly) {
  const auto game_id = stored_game();
  const auto healthy = run_program(BLOCKFOG_SERVER_BIN, {"--check-db", "--db", db().string()});
  EXPECT_EQ(healthy.status, 0) << healthy.output;
  EXPECT_NE(healthy.output.find(": ok"), std::string::npos) << healthy.output;

  ASSERT_NO_FATAL_FAILURE(damage_the_log());
  const auto bytes = read_bytes(db());
  const auto report = run_program(BLOCKFOG_SERVER_BIN, {"--check-db", "--db", db().string()});
  EXPECT_EQ(report.status, 1) << report.output;
  EXPECT_NE(report.output.find("damaged"), std::string::npos) << report.output;

  const auto why = refused_start();
  EXPECT_NE(why.find("failed its integrity check"), std::string::npos) << why;
  EXPECT_NE(why.find("--read-only"), std::string::npos) << why;
  EXPECT_EQ(read_bytes(db()), bytes);

  ServerProcess server(dir_.path(), {"--read-only"});
  HttpClient visitor(server.port());
  const auto health = visitor.get("/healthz");
  EXPECT_EQ(health.status, 503);
  EXPECT_NE(health.body.find("read_only"), std::string::npos) << health.body;
  // What is intact is served; nothing is written.
  const auto game = visitor.get("/api/games/" + std::to_string(game_id));
  EXPECT_EQ(game.status, 200) << game.body;
  const auto registered =
      visitor.post("/api/register",
                   {{"username", "newcomer"}, {"password", "thistle-and-rose-1314-bannockburn"}});
  EXPECT_EQ(registered.status, 503) << registered.body;
  EXPECT_EQ(registered.error_code(), "storage_unavailable");
  const auto metrics = metrics_text(server.port());
  EXPECT_NE(metrics.find("\nblockfog_db_integrity_ok 0\n"), std::string::npos) << metrics;
  EXPECT_NE(server.log().find("found damage"), std::string::npos) << server.log();
  EXPECT_EQ(server.terminate(), 0);
  EXPECT_EQ(read_bytes(db()), bytes);
}

TEST_F(DbAtStart, DamageWhileServingIsReportedByTheNextIntegrityCheck) {
  stored_game();
  ServerProcess server(dir_.path(), {"--integrity-check-every", "1"});
  const auto wait_for = [&](const std::string& line) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      if (metrics_text(server.port()).find(line) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  };
  EXPECT_TRUE(wait_for("\nblockfog_db_integrity_checks_total 2\n"));
  EXPECT_NE(metrics_text(server.port()).find("\nblockfog_db_integrity_ok 1\n"), std::string::npos);
  // Nothing is written to the log's page while nobody plays: the damage stays on disk.
  ASSERT_NO_FATAL_FAILURE(damage_the_log());
  EXPECT_TRUE(wait_for("\nblockfog_db_integrity_ok 0\n")) << metrics_text(server.port());
  EXPECT_NE(server.log().find("found damage"), std::string::npos) << server.log();
}

}  // namespace
}  // namespace blockfog::server::testing
