// Games played through three nodes at once, with the fog of war checked on every frame
// (docs/multi-node.md, section 5; ctest's server.multinode_fog, on the PostgreSQL cluster of
// the storage_pg fixture; skipped without it). Each game is held by the node it was first
// opened at; its two players and its observer connect through the other nodes, are sent to the
// holder (`moved`) and play there. Every frame each connection receives is checked as the
// single-node fog tests check it (tests/server/game_helpers.h: no hidden fact of the other
// side, honest view versions, log increments and patches that add up); at the end every
// acknowledged action is in the log at its place and each game's record replays to the log's
// last hash.

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/game_helpers.h"
#include "tests/server/node_clients.h"
#include "tests/server/pg_peek.h"
#include "tests/server/server_process.h"
#include "tests/storage/test_store.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

constexpr std::array<const char*, 3> kFogNodeNames = {"a", "b", "c"};

class ThreeNodeFog : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto cluster = storage::testing::test_postgres_uri();
    if (!cluster) GTEST_SKIP() << "needs the PostgreSQL cluster (ctest -R server.multinode_fog)";
    uri_ = fresh_pg_database(*cluster, "blockfog_three_node_fog");
    for (std::size_t i = 0; i < kFogNodeNames.size(); ++i) {
      nodes_[i] = std::make_unique<ServerProcess>(
          dirs_[i].path(), std::vector<std::string>{"--db", uri_, "--node-name", kFogNodeNames[i]});
      ports_[kFogNodeNames[i]] = nodes_[i]->port();
    }
  }

  std::string uri_;
  std::array<TempDir, 3> dirs_;
  std::array<std::unique_ptr<ServerProcess>, 3> nodes_;
  NodePorts ports_;
};

TEST_F(ThreeNodeFog, PlayersAtOtherNodesAreSentToTheHolderAndNoFrameShowsAHiddenFact) {
  constexpr std::size_t kGames = 3;
  constexpr int kActionsEach = 120;
  std::vector<std::unique_ptr<Table>> tables;
  for (std::size_t i = 0; i < kGames; ++i) {
    // Made and first opened at node i, which takes its lease.
    tables.push_back(std::make_unique<Table>(nodes_[i]->port(), "fog3n" + std::to_string(i)));
    ASSERT_FALSE(HasFailure());
  }

  // Each seat and the observer come again through the other nodes.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (std::size_t i = 0; i < kGames; ++i) {
    Table& table = *tables[i];
    const std::string holder = kFogNodeNames[i];
    const auto through = [&](std::size_t offset) {
      return nodes_[(i + offset) % kFogNodeNames.size()]->port();
    };
    struct Opened {
      std::unique_ptr<Connection>& slot;
      int port;
      std::string cookie;
      std::string query;
    };
    for (Opened o :
         {Opened{table.scotland, through(1), table.scot_http.session_cookie(), "?patches=1"},
          Opened{table.england, through(2), table.eng_http.session_cookie(), ""},
          Opened{table.observer, through(1), "", "?patches=1"}}) {
      std::vector<json> moves;
      o.slot =
          open_following_moves(ports_, o.port, table.game_id, o.cookie, o.query, deadline, &moves);
      ASSERT_TRUE(o.slot) << "game " << table.game_id << " was not served";
      ASSERT_FALSE(moves.empty()) << "a node that does not hold game " << table.game_id
                                  << " served it";
      for (const auto& moved : moves) EXPECT_EQ(moved_node(moved), holder) << moved;
    }
    EXPECT_EQ(table.scotland->role, "scotland");
    EXPECT_EQ(table.england->role, "england");
    EXPECT_EQ(table.observer->role, "observer");
  }

  // The games are played at the same time, one thread each.
  std::vector<std::thread> players;
  for (std::size_t i = 0; i < kGames; ++i) {
    players.emplace_back([&table = *tables[i], i] {
      std::mt19937_64 rng(70 + i);
      for (int n = 0; n < kActionsEach && table.play_random(rng); ++n) {
      }
    });
  }
  for (auto& p : players) p.join();
  ASSERT_FALSE(HasFailure());

  for (const auto& table : tables) {
    SCOPED_TRACE("game " + std::to_string(table->game_id));
    EXPECT_GE(table->actions, 20) << "too short a game to say much";
    const auto log = logged_actions(uri_, table->game_id);
    ASSERT_EQ(static_cast<std::int64_t>(log.size()), table->actions);
    for (const auto& ack : table->acknowledged) {
      const auto& logged = log.at(static_cast<std::size_t>(ack.seq - 1));
      bool found = false;
      for (const auto& [role, action] : ack.candidates) {
        found = found || (logged.role == role && logged.action == action);
      }
      EXPECT_TRUE(found) << "acknowledged seq " << ack.seq << " differs in the log";
    }
    const auto replayed = replay_record(stored_record(uri_, table->game_id));
    ASSERT_TRUE(replayed);
    EXPECT_EQ(replayed->state_hash(), log.back().state_hash);
  }
}

}  // namespace
}  // namespace blockfog::server::testing
