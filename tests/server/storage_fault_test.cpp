// Storage faults through the real server (docs/storage.md, Faults), injected with an LD_PRELOAD
// library (fault_shim/storage_fault_shim.cpp) that fails the database's system calls while a
// trigger file exists: a full disk is answered `storage_unavailable` and reported until writes
// succeed again; a failed sync stops the server, and what the client was told agrees with the
// log recovery finds; a database that cannot be written is refused at start.

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <thread>

#include "tests/server/db_peek.h"
#include "tests/server/game_helpers.h"
#include "tests/server/restricted_process.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

class StorageFault : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_.path() / "web");
    std::filesystem::create_directories(faults());
  }
  std::filesystem::path faults() const { return dir_.path() / "faults"; }
  void arm(const std::string& trigger) { std::ofstream(faults() / trigger) << "on"; }
  void disarm(const std::string& trigger) { std::filesystem::remove(faults() / trigger); }
  std::unique_ptr<ServerProcess> start(std::vector<std::string> flags = {}) {
    const auto db = dir_.path() / "var" / "blockfog.db";
    return std::make_unique<ServerProcess>(
        dir_.path(), std::move(flags),
        std::vector<std::pair<std::string, std::string>>{
            {"LD_PRELOAD", BLOCKFOG_FAULT_SHIM},
            // The sanitizer runtime is not the first library when another one is preloaded.
            {"ASAN_OPTIONS", "verify_asan_link_order=0"},
            {"BLOCKFOG_FAULT_DIR", faults().string()},
            {"BLOCKFOG_FAULT_PATH", db.string()}});
  }
  // Sends the first legal action of whichever seat may act; its answer is then in `last`.
  static Connection& act(Table& table, const std::string& ref) {
    Connection& actor =
        table.scotland->view["legal_actions"].empty() ? *table.england : *table.scotland;
    actor.send_action(actor.view["legal_actions"][0], actor.seq, ref);
    return actor;
  }
  static std::string health(int port) { return HttpClient(port).get("/healthz").body; }

  TempDir dir_;
};

TEST_F(StorageFault, AFullDiskIsAnsweredStorageUnavailableAndReportedUntilWritesSucceed) {
  auto server = start();
  Table table(server->port(), "full");
  std::mt19937_64 rng(39);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(table.play_random(rng));
  const auto stored = logged_actions(server->db_path(), table.game_id).size();

  arm("enospc");
  Connection& actor = act(table, "full-1");
  ASSERT_TRUE(actor.read_answer("full-1"));
  ASSERT_EQ(actor.last["type"], "error") << actor.last.dump();
  EXPECT_EQ(actor.last["code"], "storage_unavailable") << actor.last.dump();
  EXPECT_NE(actor.last["message"].get<std::string>().find("try again later"), std::string::npos);
  EXPECT_EQ(HttpClient(server->port()).get("/healthz").status, 503);
  EXPECT_NE(health(server->port()).find("degraded"), std::string::npos);
  const auto metrics = metrics_text(server->port());
  EXPECT_NE(metrics.find("\nblockfog_storage_writable 0"), std::string::npos);
  EXPECT_EQ(metrics.find("\nblockfog_storage_unavailable_total 0\n"), std::string::npos);
  // A flood of refused actions is one line in the log, and the next one counts the rest.
  for (int i = 0; i < 30; ++i) {
    act(table, "again");
    ASSERT_TRUE(actor.read_answer("again"));
    EXPECT_EQ(actor.last["code"], "storage_unavailable");
  }
  auto count = [](const std::string& text, const std::string& what) {
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(server->log(), "game " + std::to_string(table.game_id) + " action"), 1)
      << server->log();
  std::this_thread::sleep_for(std::chrono::milliseconds(10200));
  act(table, "later");
  ASSERT_TRUE(actor.read_answer("later"));
  EXPECT_NE(server->log().find("(and 30 more like it"), std::string::npos) << server->log();

  // Space again: the probe notices within seconds, and the same action is applied.
  disarm("enospc");
  int status = 503;
  for (int i = 0; i < 100 && status != 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    status = HttpClient(server->port()).get("/healthz").status;
  }
  EXPECT_EQ(status, 200);
  EXPECT_NE(metrics_text(server->port()).find("\nblockfog_storage_writable 1"), std::string::npos);
  EXPECT_EQ(logged_actions(server->db_path(), table.game_id).size(), stored);
  act(table, "retry");
  ASSERT_TRUE(actor.read_answer("retry"));
  EXPECT_NE(actor.last["type"], "error") << actor.last.dump();
  EXPECT_EQ(logged_actions(server->db_path(), table.game_id).size(), stored + 1);
}

TEST_F(StorageFault, AFailedSyncStopsTheServerAndTheClientIsNeverToldOtherThanTheLog) {
  auto server = start({"--sync", "full"});
  Table table(server->port(), "eio");
  std::mt19937_64 rng(32);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(table.play_random(rng));
  const auto before = logged_actions(server->db_path(), table.game_id).size();
  const std::string actor_role =
      table.scotland->view["legal_actions"].empty() ? "england" : "scotland";
  const json sent = table.seat(actor_role).view["legal_actions"][0];

  arm("eio-sync");
  Connection& actor = act(table, "lost");
  // Neither "applied" nor "not stored": whether it reached the disk is for recovery to say.
  bool answered = false;
  while (!answered && actor.read_one()) {
    if (actor.last.value("ref", "") != "lost") continue;
    answered = true;
    ASSERT_EQ(actor.last["type"], "error") << "a lost write was acknowledged";
    EXPECT_EQ(actor.last["code"], "storage_unavailable");
    EXPECT_NE(actor.last["message"].get<std::string>().find("reconnect"), std::string::npos);
  }
  // The server stops by itself, with status 1 for its supervisor to restart it.
  EXPECT_EQ(server->wait_for_exit(std::chrono::seconds(30)), 1) << server->log();
  EXPECT_NE(server->log().find("storage failed"), std::string::npos) << server->log();
  disarm("eio-sync");

  server = start({"--sync", "full"});
  const auto log = logged_actions(server->db_path(), table.game_id);
  ASSERT_TRUE(log.size() == before || log.size() == before + 1) << log.size();
  if (log.size() == before + 1) {
    EXPECT_EQ(log.back().action, sent);
  }
  const auto replayed = replay_record(stored_record(server->db_path(), table.game_id));
  ASSERT_TRUE(replayed);
  EXPECT_EQ(replayed->state_hash(), log.back().state_hash);
  // The seats, reconnected, go on from what the log holds: a lost action is sent again.
  table.port = server->port();
  table.connect_all();
  if (log.size() == before) {
    act(table, "retry");
    ASSERT_TRUE(table.seat(actor_role).read_answer("retry"));
    EXPECT_NE(table.seat(actor_role).last["type"], "error");
    EXPECT_EQ(logged_actions(server->db_path(), table.game_id).size(), before + 1);
  }
  EXPECT_TRUE(table.play_random(rng));
}

// Refused before the file is opened for writing, which would rebuild the -shm a killed server
// left, and at close copy its WAL into the file and remove both: everything stays as it was.
TEST_F(StorageFault, ADatabaseThatCannotBeWrittenIsRefusedAtStart) {
  for (const bool killed : {true, false}) {
    SCOPED_TRACE(killed ? "killed: -wal and -shm beside it" : "stopped: nothing beside it");
    {
      auto server = start();
      Table table(server->port(), killed ? "killed" : "stopped");  // stored in the WAL
      if (killed) {
        server->kill9();
      } else {
        EXPECT_EQ(server->terminate(), 0);
      }
    }
    const auto var = dir_.path() / "var";
    const auto before = sha256_listing(var);
    arm("enospc");
    try {
      start();
      ADD_FAILURE() << "the server started on a database it cannot write";
    } catch (const std::exception& e) {
      const std::string why = e.what();
      EXPECT_NE(why.find("(status 1)"), std::string::npos) << why;
      EXPECT_NE(why.find("cannot write the database"), std::string::npos) << why;
      EXPECT_NE(why.find("is full"), std::string::npos) << why;
    }
    disarm("enospc");
    EXPECT_EQ(sha256_listing(var), before);
  }
}

}  // namespace
}  // namespace blockfog::server::testing
