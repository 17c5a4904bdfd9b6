// The tournament rows' writes that several writers may attempt at once
// (storage/tournament_store.h): every node's tournament sweep reads the running tournaments
// and advances those whose round ended, so the start of a round and the finish are claimed
// by exactly one writer.

#include "storage/tournament_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <thread>

#include "storage/postgres.h"
#include "storage/store.h"
#include "tests/storage/now.h"
#include "tests/storage/temp_dir.h"
#include "tests/storage/test_store.h"

namespace blockfog::storage {
namespace {

using testing::kNow;

constexpr std::int64_t kRoundMs = 24LL * 3600 * 1000;

class TournamentStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto organiser = store_->create_account("org", "kdf$org", kNow);
    ASSERT_TRUE(organiser);
    NewTournament t;
    t.name = "Claim Cup";
    t.organiser = organiser->id;
    t.scenario = "braveheart";
    t.format = "swiss";
    t.rounds = 3;
    t.sides = "lot";
    t.round_deadline_ms = kRoundMs;
    t.registration_opens_at = kNow;
    t.registration_closes_at = kNow + 1000;
    t.max_players = 8;
    id_ = create_tournament(*store_, t, kNow).id;
    set_tournament_started(*store_, id_, 3, kNow);
  }

  std::int64_t current_round() { return find_tournament(*store_, id_)->current_round; }

  testing::TempDir dir_;
  std::unique_ptr<Store> store_ = testing::open_test_store(dir_, kNow);
  std::int64_t id_ = 0;
};

TEST_F(TournamentStoreTest, OfTwoWritersThatReadTheSameRoundOverOnlyOneStartsTheNext) {
  auto other = testing::open_test_store(dir_, kNow, false);
  ASSERT_TRUE(claim_tournament_round(*store_, id_, 1, kNow + kRoundMs));
  EXPECT_FALSE(claim_tournament_round(*other, id_, 1, kNow + kRoundMs))
      << "round 1 was started by the first writer";
  EXPECT_FALSE(claim_tournament_round(*other, id_, 3, kNow + kRoundMs))
      << "a round is never skipped";
  EXPECT_EQ(current_round(), 1);
  EXPECT_TRUE(claim_tournament_round(*other, id_, 2, kNow + 2 * kRoundMs));
  EXPECT_EQ(current_round(), 2);
  EXPECT_EQ(find_tournament(*store_, id_)->deadline_at, kNow + 2 * kRoundMs);
}

TEST_F(TournamentStoreTest, ATournamentIsFinishedOnceAndItsRoundsStopThere) {
  ASSERT_TRUE(claim_tournament_round(*store_, id_, 1, kNow + kRoundMs));
  EXPECT_TRUE(set_tournament_finished(*store_, id_, kNow + 5));
  EXPECT_FALSE(set_tournament_finished(*store_, id_, kNow + 6)) << "finished already";
  const auto row = find_tournament(*store_, id_);
  EXPECT_EQ(row->status, "finished");
  EXPECT_EQ(row->finished_at, kNow + 5);
  EXPECT_FALSE(claim_tournament_round(*store_, id_, 2, kNow + kRoundMs))
      << "no round starts in a finished tournament";
}

// On PostgreSQL two nodes' sweeps really run at once: the second claim waits for the first
// writer's COMMIT (the row is locked by its UPDATE) and then finds the round moved on.
TEST_F(TournamentStoreTest, ASecondClaimWaitsForTheFirstsCommitAndThenFails) {
  const auto uri = testing::test_postgres_uri();
  if (!uri) GTEST_SKIP() << "SQLite has one writer at a time: no claim runs beside another";
  // A lock wait longer than any pause of this thread, so that the wait ends with the COMMIT.
  PgDatabase::Settings patient;
  patient.lock_timeout = std::chrono::seconds(60);
  Store other(std::make_unique<PgDatabase>(*uri, patient), kNow);
  std::future<bool> second;
  {
    Transaction transaction(store_->database());
    ASSERT_TRUE(claim_tournament_round(*store_, id_, 1, kNow + kRoundMs));
    second = std::async(std::launch::async,
                        [&] { return claim_tournament_round(other, id_, 1, kNow + kRoundMs); });
    // Whether or not the second claim reached the lock yet, it must not succeed.
    EXPECT_EQ(second.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout)
        << "the second claim did not wait for the first writer's transaction";
    transaction.commit();
  }
  EXPECT_FALSE(second.get());
  EXPECT_EQ(current_round(), 1);
}

}  // namespace
}  // namespace blockfog::storage
