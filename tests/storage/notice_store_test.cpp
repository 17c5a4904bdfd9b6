// The turn notice outbox and settings (storage/notice_store.h, migration 8).

#include "storage/notice_store.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "storage/store.h"
#include "tests/storage/now.h"
#include "tests/storage/temp_dir.h"
#include "tests/storage/test_store.h"

namespace blockfog::storage {
namespace {

using testing::kNow;

class NoticeStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scot_ = store_->create_account("scot", "kdf$scot", kNow)->id;
    eng_ = store_->create_account("eng", "kdf$eng", kNow)->id;
    NewGame game;
    game.rules_version = "1";
    game.scenario = "braveheart";
    game.seed_hex = "00ff";
    game.seed_sha256 = std::string(64, 'a');
    game.created_by = scot_;
    game.creator_role = "scotland";
    game_ = store_->create_game(game, kNow).id;
    store_->take_seat(game_, "england", eng_, kNow);
    store_->set_game_status(game_, GameStatus::Active, kNow);
  }

  // Scotland with a confirmed address and a webhook, both on.
  void subscribe_scot() {
    set_pending_email(*store_, scot_, "scot@example.org", "tokenhash", kNow, kNow + 1000);
    ASSERT_EQ(confirm_notice_email(*store_, "tokenhash", "unsub", kNow), scot_);
    save_notice_preferences(*store_, scot_, "https://hooks.example.org/x", true, true, 0);
  }

  testing::TempDir dir_;
  std::unique_ptr<Store> store_ = testing::open_test_store(dir_, kNow);
  std::int64_t scot_ = 0;
  std::int64_t eng_ = 0;
  std::int64_t game_ = 0;
};

TEST_F(NoticeStoreTest, NothingIsQueuedForAnAccountWithNoChannelOn) {
  EXPECT_FALSE(enqueue_notice(*store_, game_, "england", 1, eng_, R"({"game":1})", kNow));
  EXPECT_TRUE(due_notice_deliveries(*store_, kNow, 10).empty());
}

TEST_F(NoticeStoreTest, OneNoticePerAwaitedTurnWithADeliveryPerChannel) {
  subscribe_scot();
  EXPECT_TRUE(enqueue_notice(*store_, game_, "scotland", 3, scot_, R"({"game":1})", kNow));
  EXPECT_FALSE(enqueue_notice(*store_, game_, "scotland", 3, scot_, R"({"game":1})", kNow))
      << "the same awaited turn is noticed once";
  const auto due = due_notice_deliveries(*store_, kNow, 10);
  ASSERT_EQ(due.size(), 2u);
  EXPECT_EQ(due[0].channel, "email");
  EXPECT_EQ(due[1].channel, "webhook");
  EXPECT_EQ(due[0].content_json, R"({"game":1})");
}

TEST_F(NoticeStoreTest, ActingDropsTheRolesUndeliveredNotices) {
  subscribe_scot();
  enqueue_notice(*store_, game_, "scotland", 3, scot_, "{}", kNow);
  drop_pending_notices(*store_, game_, "england", kNow);
  EXPECT_EQ(due_notice_deliveries(*store_, kNow, 10).size(), 2u);
  drop_pending_notices(*store_, game_, "scotland", kNow);
  EXPECT_TRUE(due_notice_deliveries(*store_, kNow, 10).empty());
  EXPECT_EQ(notice_delivery_state(*store_, 1, "webhook"), "dropped");
}

// The start's notice replaces the newest notice, the one telling Scotland to roll the dice,
// while a sender may still be delivering that one: the start's gets an id of its own, which
// the sender's late "sent" does not touch and a receiver does not take for a repeat.
TEST_F(NoticeStoreTest, TheStartsNoticeNeverReusesTheIdOfTheNoticeItReplaces) {
  subscribe_scot();
  ASSERT_TRUE(enqueue_notice(*store_, game_, "scotland", 0, scot_, R"({"dice":true})", kNow));
  const auto dice = due_notice_deliveries(*store_, kNow, 10);
  ASSERT_EQ(dice.size(), 2u);
  ASSERT_TRUE(claim_notice_delivery(*store_, dice[1].notice_id, "webhook", 0, kNow + 5000));

  forget_start_notices(*store_, game_);
  ASSERT_TRUE(enqueue_notice(*store_, game_, "scotland", 0, scot_, R"({"turn":1})", kNow + 1));
  mark_notice_sent(*store_, dice[1].notice_id, "webhook", kNow + 2);  // the delivery in flight ends

  const auto start = due_notice_deliveries(*store_, kNow + 2, 10);
  ASSERT_EQ(start.size(), 2u);
  EXPECT_NE(start[1].notice_id, dice[1].notice_id);
  EXPECT_EQ(start[1].content_json, R"({"turn":1})");
  EXPECT_EQ(notice_delivery_state(*store_, start[1].notice_id, "webhook"), "pending");
}

TEST_F(NoticeStoreTest, AClaimedDeliveryWaitsForItsRetryTimeAcrossAReopen) {
  subscribe_scot();
  enqueue_notice(*store_, game_, "scotland", 3, scot_, "{}", kNow);
  ASSERT_TRUE(claim_notice_delivery(*store_, 1, "webhook", 0, kNow + 5000));
  store_.reset();  // as a server killed during the attempt
  store_ = testing::open_test_store(dir_, kNow, false);
  EXPECT_EQ(due_notice_deliveries(*store_, kNow + 4999, 10).size(), 1u);  // the e-mail only
  const auto later = due_notice_deliveries(*store_, kNow + 5000, 10);
  ASSERT_EQ(later.size(), 2u);
  EXPECT_EQ(later[1].attempts, 1);
  mark_notice_sent(*store_, 1, "webhook", kNow + 5000);
  EXPECT_EQ(due_notice_deliveries(*store_, kNow + 10'000, 10).size(), 1u);
}

// Several nodes run a sender each on one database: two that read the same delivery due both
// try to claim it, through connections of their own, and exactly one gets it; a delivery
// dropped meanwhile (its role acted) is claimed by none.
TEST_F(NoticeStoreTest, OfTwoSendersThatReadADeliveryDueOnlyOneClaimsIt) {
  subscribe_scot();
  enqueue_notice(*store_, game_, "scotland", 3, scot_, "{}", kNow);
  auto other = testing::open_test_store(dir_, kNow, false);
  const auto seen_here = due_notice_deliveries(*store_, kNow, 10);
  const auto seen_there = due_notice_deliveries(*other, kNow, 10);
  ASSERT_EQ(seen_here.size(), 2u);
  ASSERT_EQ(seen_there.size(), 2u);
  const auto& webhook = seen_here[1];
  EXPECT_TRUE(
      claim_notice_delivery(*store_, webhook.notice_id, "webhook", webhook.attempts, kNow + 5000));
  EXPECT_FALSE(claim_notice_delivery(*other, seen_there[1].notice_id, "webhook",
                                     seen_there[1].attempts, kNow + 5000));
  // Once retried (attempts 1), the next claim is again one sender's.
  const auto retried = due_notice_deliveries(*other, kNow + 5000, 10);
  ASSERT_EQ(retried.size(), 2u);
  EXPECT_EQ(retried[1].attempts, 1);
  EXPECT_TRUE(claim_notice_delivery(*other, retried[1].notice_id, "webhook", 1, kNow + 9000));
  EXPECT_FALSE(claim_notice_delivery(*store_, retried[1].notice_id, "webhook", 1, kNow + 9000));

  drop_pending_notices(*store_, game_, "scotland", kNow);
  EXPECT_FALSE(claim_notice_delivery(*other, seen_there[0].notice_id, "email",
                                     seen_there[0].attempts, kNow + 5000));
}

TEST_F(NoticeStoreTest, AConfirmationTokenIsSingleUseAndExpires) {
  set_pending_email(*store_, scot_, "scot@example.org", "h1", kNow, kNow + 1000);
  EXPECT_EQ(confirm_notice_email(*store_, "h1", "u1", kNow + 1000), std::nullopt) << "expired";
  set_pending_email(*store_, scot_, "scot@example.org", "h2", kNow, kNow + 1000);
  EXPECT_EQ(confirm_notice_email(*store_, "h1", "u1", kNow), std::nullopt) << "replaced";
  EXPECT_EQ(confirm_notice_email(*store_, "h2", "u1", kNow), scot_);
  EXPECT_EQ(confirm_notice_email(*store_, "h2", "u1", kNow), std::nullopt) << "used";
  const auto s = notice_settings(*store_, scot_);
  EXPECT_EQ(s.email, "scot@example.org");
  EXPECT_TRUE(s.email_on);
  EXPECT_EQ(s.email_pending, std::nullopt);
}

TEST_F(NoticeStoreTest, UnsubscribeTurnsEmailOffAndDropsItsPendingNotices) {
  subscribe_scot();
  enqueue_notice(*store_, game_, "scotland", 3, scot_, "{}", kNow);
  EXPECT_EQ(unsubscribe_notice_emails(*store_, "unknown"), std::nullopt);
  EXPECT_EQ(unsubscribe_notice_emails(*store_, "unsub"), scot_);
  EXPECT_FALSE(notice_settings(*store_, scot_).email_on);
  const auto due = due_notice_deliveries(*store_, kNow, 10);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].channel, "webhook");
}

TEST_F(NoticeStoreTest, ANoticeCommitsOrRollsBackWithTheActionsTransaction) {
  subscribe_scot();
  {
    Transaction transaction(store_->database());
    store_->append_action(game_, 1, "england", R"({"kind":"pass"})", "h1", kNow);
    enqueue_notice(*store_, game_, "scotland", 1, scot_, "{}", kNow);
    // Not committed: as a server killed before the COMMIT.
  }
  EXPECT_TRUE(due_notice_deliveries(*store_, kNow, 10).empty());
  EXPECT_TRUE(store_->load_actions(game_).empty());
}

}  // namespace
}  // namespace blockfog::storage
