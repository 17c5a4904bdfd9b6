// blockfog-copy-to-pg (tools/blockfog-copy-to-pg/copy.h): an SQLite database with a finished
// game arrives whole in PostgreSQL, the counts agree, and the copy goes on working as a store.
// Runs in ctest's storage.postgres run; skipped in the SQLite one.

#include "tools/blockfog-copy-to-pg/copy.h"

#include <gtest/gtest.h>

#include <string>

#include "storage/postgres.h"
#include "tests/storage/now.h"
#include "tests/storage/temp_dir.h"
#include "tests/storage/test_store.h"

namespace blockfog::storage {
namespace {

using testing::kNow;

std::int64_t a_finished_game(Store& store) {
  const auto scot = store.create_account("Wallace", "kdf$1", kNow)->id;
  const auto eng = store.create_account("Edward", "kdf$2", kNow)->id;
  NewGame game;
  game.rules_version = "1";
  game.scenario = "braveheart";
  game.options_json = R"({"variant": "standard"})";
  game.seed_hex = "00ff";
  game.seed_sha256 = std::string(64, 'a');
  game.created_by = scot;
  game.creator_role = "scotland";
  game.rated = true;
  const auto id = store.create_game(game, kNow).id;
  store.take_seat(id, "england", eng, kNow);
  store.set_game_status(id, GameStatus::Active, kNow);
  store.save_snapshot(id, 0, std::string("\0state0", 7), "hash0", kNow);
  for (std::int64_t seq = 1; seq <= 3; ++seq) {
    store.append_action(
        id, seq, seq % 2 == 1 ? "england" : "scotland",
        R"({"kind": "pass",  "n": )" + std::to_string(seq) + "}", "hash" + std::to_string(seq),
        kNow + seq,
        seq == 3 ? std::optional<std::string_view>(std::string_view("\0s3", 3)) : std::nullopt);
  }
  store.append_chat(id, scot, "scotland", "good game", kNow + 4);
  store.set_game_status(id, GameStatus::Finished, kNow + 5, R"({"winner":"scotland"})");
  return id;
}

TEST(CopyToPg, EveryRowArrivesTheCountsAgreeAndTheCopyGoesOn) {
  const auto uri = testing::test_postgres_uri();
  if (!uri) GTEST_SKIP() << "not the PostgreSQL run (BLOCKFOG_TEST_PG_URI_FILE unset)";
  testing::TempDir dir;
  std::int64_t game = 0;
  {
    Store sqlite(dir.file("from.sqlite"), kNow);
    game = a_finished_game(sqlite);
  }
  testing::empty_postgres(*uri);
  Store postgres(std::make_unique<PgDatabase>(*uri), kNow);
  SqliteDatabase from(dir.file("from.sqlite"), OpenMode::ReadOnly);
  const auto counts = copy_to_pg::copy_database(from, postgres);
  ASSERT_EQ(counts.size(), copy_to_pg::tables_in_key_order().size());
  for (const auto& count : counts) EXPECT_EQ(count.sqlite, count.postgres) << count.table;

  const auto copied = postgres.find_game(game);
  ASSERT_TRUE(copied.has_value());
  EXPECT_EQ(copied->status, GameStatus::Finished);
  EXPECT_EQ(copied->options_json, R"({"variant": "standard"})");  // byte for byte
  const auto log = postgres.load_actions(game);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].action_json, R"({"kind": "pass",  "n": 1})");
  EXPECT_EQ(log[2].state_hash, "hash3");
  const auto snapshot = postgres.latest_snapshot(game);
  ASSERT_TRUE(snapshot.has_value());
  EXPECT_EQ(snapshot->seq, 3);
  EXPECT_EQ(snapshot->state, std::string("\0s3", 3));
  EXPECT_EQ(postgres.list_chat(game).at(0).text, "good game");
  // New rows take ids after the copied ones, and the copied names stay taken.
  EXPECT_EQ(postgres.create_account("wallace", "kdf$3", kNow), std::nullopt);
  EXPECT_GT(postgres.create_account("Bruce", "kdf$4", kNow)->id, 2);
}

TEST(CopyToPg, ANonEmptyTargetIsRefusedAndKeepsItsRows) {
  const auto uri = testing::test_postgres_uri();
  if (!uri) GTEST_SKIP() << "not the PostgreSQL run (BLOCKFOG_TEST_PG_URI_FILE unset)";
  testing::TempDir dir;
  {
    Store sqlite(dir.file("from.sqlite"), kNow);
    a_finished_game(sqlite);
  }
  testing::empty_postgres(*uri);
  Store postgres(std::make_unique<PgDatabase>(*uri), kNow);
  postgres.create_account("Moray", "kdf$5", kNow);
  SqliteDatabase from(dir.file("from.sqlite"), OpenMode::ReadOnly);
  EXPECT_THROW(copy_to_pg::copy_database(from, postgres), StorageError);
  EXPECT_TRUE(postgres.find_account_by_name("Moray").has_value());
  EXPECT_FALSE(postgres.find_account_by_name("Wallace").has_value());
}

}  // namespace
}  // namespace blockfog::storage
