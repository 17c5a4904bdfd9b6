// What the nodes sharing one PostgreSQL database tell each other of their players and login
// sessions (storage/node_presence.h; docs/multi-node.md, section 4), on PostgreSQL only: two
// nodes are two connections to one database. A node dies when its heartbeat's expiry passes.

#include "storage/node_presence.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "storage/game_leases.h"
#include "tests/storage/now.h"
#include "tests/storage/test_store.h"

namespace blockfog::storage {
namespace {

using testing::kNow;

class NodePresenceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto uri = testing::test_postgres_uri();
    if (!uri) GTEST_SKIP() << "shared presence is PostgreSQL's (BLOCKFOG_TEST_PG_URI_FILE unset)";
    testing::empty_postgres(*uri);
    a_ = std::make_unique<Store>(std::make_unique<PgDatabase>(*uri), kNow);
    b_ = std::make_unique<Store>(std::make_unique<PgDatabase>(*uri), kNow);
    register_node(*a_, "a/1", "a");
    register_node(*b_, "b/1", "b");
  }

  static std::vector<std::int64_t> sorted(std::vector<std::int64_t> v) {
    std::sort(v.begin(), v.end());
    return v;
  }

  std::unique_ptr<Store> a_;
  std::unique_ptr<Store> b_;
};

TEST_F(NodePresenceTest, EachNodeSeesThePlayersOnlineAtTheOthersButNotItsOwn) {
  write_online_players(*a_, "a/1", {7, 8}, {}, false);
  write_online_players(*b_, "b/1", {8, 9}, {}, false);
  EXPECT_EQ(sorted(read_online_players(*b_, "b/1")), (std::vector<std::int64_t>{7, 8}));
  EXPECT_EQ(sorted(read_online_players(*a_, "a/1")), (std::vector<std::int64_t>{8, 9}));
  // 8 left a but is still at b: b no longer sees it elsewhere, and a still does.
  write_online_players(*a_, "a/1", {}, {8}, false);
  EXPECT_EQ(sorted(read_online_players(*b_, "b/1")), (std::vector<std::int64_t>{7}));
  EXPECT_EQ(sorted(read_online_players(*a_, "a/1")), (std::vector<std::int64_t>{8, 9}));
}

TEST_F(NodePresenceTest, AFullPassReplacesTheNodesRowsAndTheDeadNodesPlayersCountNoMore) {
  write_online_players(*a_, "a/1", {7, 8}, {}, false);
  write_online_players(*a_, "a/1", {9}, {}, true);
  EXPECT_EQ(sorted(read_online_players(*b_, "b/1")), (std::vector<std::int64_t>{9}));
  // a's heartbeat lapses: its rows no longer count at once, and b's next full pass deletes them.
  a_->database().exec("UPDATE nodes SET expires_at = db_now_ms() - 1 WHERE node_id = 'a/1'");
  EXPECT_TRUE(read_online_players(*b_, "b/1").empty());
  write_online_players(*b_, "b/1", {}, {}, true);
  auto rows = b_->database().prepare("SELECT count(*) FROM online_players");
  ASSERT_TRUE(rows.step());
  EXPECT_EQ(rows.column_int64(0), 0);
}

TEST_F(NodePresenceTest, EndedSessionsAreReadFromAGivenTimeAndForgottenAfterAMinute) {
  const auto before = read_ended_sessions(*b_, 0);
  EXPECT_TRUE(before.token_hashes.empty());
  {
    Transaction transaction(a_->database());
    record_ended_sessions(*a_, {"h1", "h2"});
    transaction.commit();
  }
  auto ended = read_ended_sessions(*b_, before.read_at - 1000);
  std::sort(ended.token_hashes.begin(), ended.token_hashes.end());
  EXPECT_EQ(ended.token_hashes, (std::vector<std::string>{"h1", "h2"}));
  // Nothing ended after the last read.
  EXPECT_TRUE(read_ended_sessions(*b_, ended.read_at + 1).token_hashes.empty());
  // A minute later (moved back in time here) they are forgotten; a newer one is kept.
  a_->database().exec("UPDATE ended_sessions SET ended_at = ended_at - " +
                      std::to_string(kEndedSessionKeptMs + 1000) + " WHERE token_hash = 'h1'");
  forget_ended_sessions(*b_);
  EXPECT_EQ(read_ended_sessions(*b_, 0).token_hashes, (std::vector<std::string>{"h2"}));
}

}  // namespace
}  // namespace blockfog::storage
