// Game leases with a fencing number (storage/game_leases.h; docs/multi-node.md, section 2), on
// PostgreSQL only: two nodes are two connections to one database, as two server processes
// would be. A node's heartbeat is made to lapse by moving its expiry into the past, which is
// what the database's clock would do three seconds after its last renewal.

#include "storage/game_leases.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "tests/storage/now.h"
#include "tests/storage/test_store.h"

namespace blockfog::storage {
namespace {

using testing::kNow;

class GameLeaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto uri = testing::test_postgres_uri();
    if (!uri) GTEST_SKIP() << "leases are PostgreSQL's (BLOCKFOG_TEST_PG_URI_FILE unset)";
    testing::empty_postgres(*uri);
    PgDatabase::Settings quick;
    quick.lock_timeout = std::chrono::milliseconds(300);  // a blocked take gives up soon
    a_ = std::make_unique<Store>(std::make_unique<PgDatabase>(*uri, quick), kNow);
    b_ = std::make_unique<Store>(std::make_unique<PgDatabase>(*uri, quick), kNow);
    register_node(*a_, "a/1", "a");
    register_node(*b_, "b/1", "b");
    game_ = active_game();
  }

  std::int64_t active_game() {
    const auto scot = a_->create_account("scot", "kdf$scot", kNow)->id;
    const auto eng = a_->create_account("eng", "kdf$eng", kNow)->id;
    NewGame game;
    game.rules_version = "1";
    game.scenario = "braveheart";
    game.options_json = R"({"variant":"standard"})";
    game.seed_hex = "00ff";
    game.seed_sha256 = std::string(64, 'a');
    game.created_by = scot;
    game.creator_role = "scotland";
    const auto id = a_->create_game(game, kNow).id;
    EXPECT_EQ(a_->take_seat(id, "england", eng, kNow), SeatOutcome::Seated);
    a_->set_game_status(id, GameStatus::Active, kNow);
    return id;
  }

  // The fenced write of one action, as the server's commit unit makes it.
  void write_action(Store& store, const GameLease& lease, std::int64_t seq) {
    Transaction transaction(store.database());
    check_game_lease(store, game_, lease);
    store.append_action(game_, seq, seq % 2 == 1 ? "england" : "scotland", R"({"kind":"pass"})",
                        "hash" + std::to_string(seq), kNow + seq, std::nullopt, {}, lease.fence);
    transaction.commit();
  }

  void lapse(const std::string& node_id) {
    a_->database()
        .prepare("UPDATE nodes SET expires_at = db_now_ms() - 1 WHERE node_id = ?1")
        .bind(1, node_id)
        .run();
  }

  std::int64_t count(const std::string& sql) {
    auto statement = a_->database().prepare(sql);
    statement.step();
    return statement.column_int64(0);
  }

  std::unique_ptr<Store> a_;
  std::unique_ptr<Store> b_;
  std::int64_t game_ = 0;
};

TEST_F(GameLeaseTest, ATakeWhileTheHoldersHeartbeatLivesFailsAndAfterItLapsesGetsALargerFence) {
  const auto first = take_game_lease(*a_, game_, "a/1");
  ASSERT_TRUE(first);
  EXPECT_EQ(take_game_lease(*b_, game_, "b/1"), std::nullopt);
  const auto holder = game_lease_holder(*b_, game_);
  ASSERT_TRUE(holder);
  EXPECT_EQ(holder->node_id, "a/1");
  EXPECT_EQ(holder->name, "a");
  EXPECT_EQ(holder->fence, *first);
  EXPECT_GT(holder->expires_in_ms, 0);
  EXPECT_LE(holder->expires_in_ms, kLeaseMs);

  // A renewal keeps it; a lapsed heartbeat frees it, and the new holder's fence is larger.
  EXPECT_TRUE(renew_node(*a_, "a/1"));
  EXPECT_EQ(take_game_lease(*b_, game_, "b/1"), std::nullopt);
  lapse("a/1");
  EXPECT_EQ(game_lease_holder(*b_, game_), std::nullopt);
  const auto second = take_game_lease(*b_, game_, "b/1");
  ASSERT_TRUE(second);
  EXPECT_GT(*second, *first);
  EXPECT_EQ(game_lease_holder(*a_, game_)->node_id, "b/1");
  // The lapsed node learns it at its next renewal, and cannot take the game back while b lives.
  EXPECT_FALSE(renew_node(*a_, "a/1"));
  EXPECT_EQ(take_game_lease(*a_, game_, "a/1"), std::nullopt);
}

TEST_F(GameLeaseTest, AWriteUnderAnOldFenceIsRefusedAndWritesNothing) {
  const GameLease old{"a/1", *take_game_lease(*a_, game_, "a/1")};
  write_action(*a_, old, 1);
  lapse("a/1");
  const GameLease taken{"b/1", *take_game_lease(*b_, game_, "b/1")};

  EXPECT_THROW(write_action(*a_, old, 2), LeaseLost);
  EXPECT_FALSE(a_->database().is_in_transaction());
  EXPECT_EQ(count("SELECT count(*) FROM actions"), 1);

  // The new holder goes on from the log, and each action records the fence it was written under.
  write_action(*b_, taken, 2);
  EXPECT_EQ(count("SELECT fence FROM actions WHERE seq = 1"), old.fence);
  EXPECT_EQ(count("SELECT fence FROM actions WHERE seq = 2"), taken.fence);
}

TEST_F(GameLeaseTest, ATakeWaitsForTheHoldersOpenWriteToEnd) {
  const GameLease held{"a/1", *take_game_lease(*a_, game_, "a/1")};
  lapse("a/1");
  {
    // The holder checked its lease and wrote, and has not committed yet: the take must not
    // overtake it, or the taker could load the game without that write.
    Transaction transaction(a_->database());
    check_game_lease(*a_, game_, held);
    a_->append_action(game_, 1, "england", R"({"kind":"pass"})", "hash1", kNow, std::nullopt, {},
                      held.fence);
    try {
      take_game_lease(*b_, game_, "b/1");
      FAIL() << "the take went past an open fenced write";
    } catch (const StorageError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Busy) << e.what();
    }
    transaction.commit();
  }
  const auto fence = take_game_lease(*b_, game_, "b/1");
  ASSERT_TRUE(fence);
  EXPECT_EQ(b_->load_actions(game_).size(), 1u);
}

TEST_F(GameLeaseTest, AReleasedGameOrNodeIsFreeAtOnce) {
  const GameLease held{"a/1", *take_game_lease(*a_, game_, "a/1")};
  // A release names its fence: an older lease of the node does not let go of a newer take.
  release_game_lease(*a_, game_, GameLease{"a/1", held.fence - 1});
  EXPECT_EQ(take_game_lease(*b_, game_, "b/1"), std::nullopt);
  release_game_lease(*a_, game_, held);
  EXPECT_EQ(game_lease_holder(*b_, game_), std::nullopt);
  const auto by_b = take_game_lease(*b_, game_, "b/1");
  ASSERT_TRUE(by_b);

  release_node(*b_, "b/1");
  EXPECT_FALSE(renew_node(*b_, "b/1"));
  EXPECT_TRUE(take_game_lease(*a_, game_, "a/1"));
}

}  // namespace
}  // namespace blockfog::storage
