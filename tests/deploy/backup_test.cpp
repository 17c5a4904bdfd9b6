// deploy/backup.sh against a running server: a backup taken in the middle of a game, restored
// into a fresh server, resumes the game where the backup saw it, and the actions the original
// server went on to play give the same state hashes there. Backups taken while a game is being
// played hold a consistent prefix of its log. N generations are kept, and a failed backup
// exits non-zero and leaves nothing behind. A stopped server's database folder is left as it
// was, byte for byte.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <regex>
#include <thread>

#include "tests/deploy/match.h"
#include "tests/deploy/shell.h"
#include "tests/deploy/web_client.h"
#include "tests/server/db_peek.h"
#include "tests/server/server_process.h"
#include "tests/storage/folder_state.h"

namespace blockfog::server::testing {
namespace {

namespace fs = std::filesystem;

CommandResult backup(const fs::path& db, const fs::path& dest, const std::string& keep = "3") {
  return run_command("bash " + shell_quote(source_path("deploy/backup.sh").string()) + " --db " +
                     shell_quote(db.string()) + " --dest " + shell_quote(dest.string()) +
                     " --keep " + keep);
}

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  if (!fs::exists(dir)) return names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(Backup, AMidGameBackupRestoresIntoAServerThatContinuesTheGame) {
  TempDir live;
  ServerProcess original(live.path());
  const Endpoint endpoint{original.port(), false, "127.0.0.1"};
  Agent scot(endpoint);
  Agent eng(endpoint);
  ASSERT_EQ(scot.post("/api/register", {{"username", "bruce"}, {"password", "pw-123456"}}).status,
            201);
  ASSERT_EQ(eng.post("/api/register", {{"username", "valence"}, {"password", "pw-123456"}}).status,
            201);
  const auto game_id = start_game(scot, eng);
  ASSERT_GT(game_id, 0);
  Match match(endpoint, game_id, scot.cookie(), eng.cookie());
  ASSERT_TRUE(match.connect());
  std::mt19937_64 rng(1314);
  for (int i = 0; i < 40; ++i) ASSERT_TRUE(match.play_random(rng)) << "at action " << i;

  // The backup, taken while the server runs with both seats connected.
  const auto at_backup = logged_actions(original.db_path(), game_id);
  ASSERT_EQ(at_backup.size(), 40u);
  const auto scot_view = match.seat("scotland").view;
  const auto eng_view = match.seat("england").view;
  const auto backups = live.path() / "backups";
  const auto taken = backup(original.db_path(), backups);
  ASSERT_EQ(taken.status, 0) << taken.output;
  const auto names = files_in(backups);
  ASSERT_EQ(names.size(), 1u);
  EXPECT_TRUE(std::regex_match(names[0], std::regex(R"(blockfog-\d{8}T\d{6}\.\d{9}Z\.db)")))
      << names[0];

  // The original plays on.
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(match.play_random(rng)) << "at action " << 40 + i;
  const auto later = logged_actions(original.db_path(), game_id);
  ASSERT_EQ(later.size(), 70u);

  // Restore (deploy/README.md): the copy becomes the database of a fresh server.
  TempDir restored_dir;
  fs::create_directories(restored_dir.path() / "var");
  fs::copy_file(backups / names[0], restored_dir.path() / "var" / "blockfog.db");
  ServerProcess restored(restored_dir.path());
  const auto restored_log = logged_actions(restored.db_path(), game_id);
  ASSERT_EQ(restored_log.size(), at_backup.size());
  for (std::size_t i = 0; i < at_backup.size(); ++i) {
    EXPECT_EQ(restored_log[i].state_hash, at_backup[i].state_hash) << "action " << i + 1;
  }

  // The sessions came along: the same players take their seats and see what they saw.
  const Endpoint restored_endpoint{restored.port(), false, "127.0.0.1"};
  Match resumed(restored_endpoint, game_id, scot.cookie(), eng.cookie());
  ASSERT_TRUE(resumed.connect());
  EXPECT_EQ(resumed.seat("scotland").view, scot_view);
  EXPECT_EQ(resumed.seat("england").view, eng_view);

  // The actions the original played after the backup, played again: the same states.
  for (std::size_t i = at_backup.size(); i < later.size(); ++i) {
    ASSERT_TRUE(resumed.play(later[i].role, later[i].action)) << "action " << i + 1;
  }
  const auto replayed = logged_actions(restored.db_path(), game_id);
  ASSERT_EQ(replayed.size(), later.size());
  for (std::size_t i = 0; i < later.size(); ++i) {
    EXPECT_EQ(replayed[i].state_hash, later[i].state_hash) << "action " << i + 1;
  }
  const auto verified = replay_record(stored_record(restored.db_path(), game_id));
  ASSERT_TRUE(verified);
  EXPECT_EQ(verified->state_hash(), later.back().state_hash);

  EXPECT_EQ(restored.terminate(), 0);
  EXPECT_EQ(original.terminate(), 0);
}

TEST(Backup, BackupsTakenWhileAGameIsPlayedAreConsistent) {
  TempDir dir;
  ServerProcess server(dir.path());
  const Endpoint endpoint{server.port(), false, "127.0.0.1"};
  Agent scot(endpoint);
  Agent eng(endpoint);
  ASSERT_EQ(scot.post("/api/register", {{"username", "douglas"}, {"password", "pw-123456"}}).status,
            201);
  ASSERT_EQ(eng.post("/api/register", {{"username", "clifford"}, {"password", "pw-123456"}}).status,
            201);
  const auto game_id = start_game(scot, eng);
  ASSERT_GT(game_id, 0);
  Match match(endpoint, game_id, scot.cookie(), eng.cookie());
  ASSERT_TRUE(match.connect());

  // The game is played on another thread while the backups are taken.
  std::atomic<bool> stop{false};
  std::atomic<int> played{0};
  std::thread player([&] {
    std::mt19937_64 rng(1297);
    while (!stop && played < 400 && match.play_random(rng)) ++played;
  });
  const auto dest = dir.path() / "backups";
  std::vector<CommandResult> results;
  for (int i = 0; i < 3; ++i) results.push_back(backup(server.db_path(), dest, "5"));
  stop = true;
  player.join();
  for (const auto& r : results) EXPECT_EQ(r.status, 0) << r.output;
  ASSERT_GT(played, 0);

  // Each copy holds a prefix of the live log that replays to its own last state hash: no
  // action half-written, none missing before the last one it has.
  const auto live = logged_actions(server.db_path(), game_id);
  const auto names = files_in(dest);
  ASSERT_EQ(names.size(), 3u);
  for (const auto& name : names) {
    const auto copy = logged_actions(dest / name, game_id);
    ASSERT_LE(copy.size(), live.size()) << name;
    for (std::size_t i = 0; i < copy.size(); ++i) {
      ASSERT_EQ(copy[i].state_hash, live[i].state_hash) << name << " action " << i + 1;
    }
    const auto replayed = replay_record(stored_record(dest / name, game_id));
    ASSERT_TRUE(replayed) << name;
    if (!copy.empty()) {
      EXPECT_EQ(replayed->state_hash(), copy.back().state_hash) << name;
    }
  }
  EXPECT_EQ(server.terminate(), 0);
}

TEST(Backup, KeepsTheNewestGenerationsAndFailsWithoutLeavingFiles) {
  TempDir dir;
  ServerProcess server(dir.path());
  Agent agent({server.port(), false, "127.0.0.1"});
  ASSERT_EQ(agent.post("/api/register", {{"username", "moray"}, {"password", "pw-123456"}}).status,
            201);
  const auto dest = dir.path() / "backups";
  fs::create_directories(dest);
  write_file(dest / "blockfog-by-hand.db", "an operator's own file");
  std::vector<std::string> made;
  for (int i = 0; i < 4; ++i) {
    const auto before = files_in(dest);
    const auto r = backup(server.db_path(), dest, "2");
    ASSERT_EQ(r.status, 0) << r.output;
    for (const auto& name : files_in(dest)) {
      if (std::find(before.begin(), before.end(), name) == before.end()) made.push_back(name);
    }
  }
  ASSERT_EQ(made.size(), 4u);
  std::vector<std::string> expected = {"blockfog-by-hand.db", made[2], made[3]};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(files_in(dest), expected) << "the two newest, and files it did not make";
  const auto check = run_command("sqlite3 " + shell_quote((dest / made[3]).string()) +
                                 " 'PRAGMA integrity_check;'");
  EXPECT_EQ(check.output, "ok\n");

  // Failures: non-zero, and no partial copy left in the destination.
  const auto before = files_in(dest);
  EXPECT_NE(backup(dir.path() / "no-such.db", dest).status, 0);
  write_file(dir.path() / "garbage.db", std::string(8192, 'x'));
  const auto garbage = backup(dir.path() / "garbage.db", dest);
  EXPECT_NE(garbage.status, 0) << garbage.output;
  EXPECT_NE(backup(server.db_path(), dest, "0").status, 0);
  EXPECT_EQ(files_in(dest), before);
  write_file(dir.path() / "a-file", "");
  EXPECT_NE(backup(server.db_path(), dir.path() / "a-file" / "backups").status, 0);
  EXPECT_EQ(server.terminate(), 0);
}

TEST(Backup, AStoppedServersDatabaseFolderIsLeftAsItWas) {
  TempDir dir;
  std::filesystem::path db;
  {
    ServerProcess server(dir.path());
    db = server.db_path();
    Agent agent({server.port(), false, "127.0.0.1"});
    ASSERT_EQ(
        agent.post("/api/register", {{"username", "lamberton"}, {"password", "pw-123456"}}).status,
        201);
    ASSERT_EQ(server.terminate(), 0);
  }
  const auto folder = db.parent_path();
  const auto before = storage::testing::folder_state(folder);
  ASSERT_EQ(before.count(db.filename().string() + "-wal"), 0u) << "a stopped server keeps no WAL";
  const auto r = backup(db, dir.path() / "backups");
  ASSERT_EQ(r.status, 0) << r.output;
  // A plain read-only reader would have left a -wal and a -shm beside the database.
  EXPECT_EQ(storage::testing::folder_state(folder), before);
  ASSERT_EQ(files_in(dir.path() / "backups").size(), 1u);
}

}  // namespace
}  // namespace blockfog::server::testing
