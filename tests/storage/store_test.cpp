#include "storage/store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tests/storage/now.h"
#include "tests/storage/temp_dir.h"
#include "tests/storage/test_store.h"

namespace blockfog::storage {
namespace {

using testing::kNow;
constexpr std::int64_t kMinute = 60'000;
const std::string kSeedSha = std::string(64, 'a');

class StoreTest : public ::testing::Test {
 protected:
  std::filesystem::path db_path() const { return dir_.file("blockfog.sqlite"); }

  std::int64_t account(const std::string& name) {
    return store().create_account(name, "kdf$" + name, kNow)->id;
  }

  NewGame new_game(std::int64_t creator) const {
    NewGame game;
    game.rules_version = "1";
    game.scenario = "braveheart";
    game.options_json = R"({"variant":"standard"})";
    game.seed_hex = "00ff";
    game.seed_sha256 = kSeedSha;
    game.created_by = creator;
    return game;
  }

  // A game with both seats taken and started: ready for actions. Players are named by
  // `players` (each name can hold one account only).
  std::int64_t active_game(const std::string& players = "") {
    const std::int64_t scot = account("scot" + players);
    const std::int64_t eng = account("eng" + players);
    NewGame game = new_game(scot);
    game.creator_role = "scotland";
    const std::int64_t id = store().create_game(game, kNow).id;
    EXPECT_EQ(store().take_seat(id, "england", eng, kNow), SeatOutcome::Seated);
    store().set_game_status(id, GameStatus::Active, kNow);
    return id;
  }

  std::int64_t append(std::int64_t game_id, std::int64_t seq,
                      std::optional<std::string_view> snapshot = std::nullopt) {
    return store().append_action(game_id, seq, seq % 2 == 1 ? "england" : "scotland",
                                 R"({"kind":"pass","n":)" + std::to_string(seq) + "}",
                                 "hash" + std::to_string(seq), kNow + seq, snapshot);
  }

  std::int64_t count_actions(std::int64_t game_id) {
    return static_cast<std::int64_t>(store().load_actions(game_id).size());
  }

  Store& store() { return *store_; }
  // Closes the connection, then opens the file again, as a restarted server would.
  void reopen(std::int64_t now) {
    store_.reset();
    store_ = testing::open_test_store(dir_, now, false);
  }

  testing::TempDir dir_;
  std::unique_ptr<Store> store_ = testing::open_test_store(dir_, kNow);
};

// --- accounts and sessions ----------------------------------------------------------------

TEST_F(StoreTest, UsernamesAreUniqueWhateverTheirCase) {
  const std::optional<AccountRow> bruce = store().create_account("Bruce", "kdf$1", kNow);
  ASSERT_TRUE(bruce.has_value());
  EXPECT_EQ(store().create_account("bruce", "kdf$2", kNow), std::nullopt);
  EXPECT_EQ(store().create_account("BRUCE", "kdf$3", kNow), std::nullopt);

  const std::optional<AccountRow> found = store().find_account_by_name("bRuCe");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->id, bruce->id);
  EXPECT_EQ(found->username, "Bruce");  // kept as registered
  EXPECT_EQ(found->password_hash, "kdf$1");
  EXPECT_EQ(store().find_account_by_id(bruce->id)->username, "Bruce");
  EXPECT_EQ(store().find_account_by_name("Wallace"), std::nullopt);
}

TEST_F(StoreTest, SessionsExpireAndCanBeExtended) {
  const std::int64_t id = account("wallace");
  store().create_session("tokenhash", id, kNow, kNow + 10 * kMinute);

  EXPECT_EQ(store().find_session("tokenhash", kNow + kMinute)->account_id, id);
  EXPECT_EQ(store().find_session("tokenhash", kNow + 10 * kMinute), std::nullopt);
  EXPECT_EQ(store().find_session("other", kNow), std::nullopt);

  EXPECT_TRUE(store().touch_session("tokenhash", kNow + 5 * kMinute, kNow + 20 * kMinute));
  const std::optional<SessionRow> touched = store().find_session("tokenhash", kNow + 15 * kMinute);
  ASSERT_TRUE(touched.has_value());
  EXPECT_EQ(touched->last_seen, kNow + 5 * kMinute);
  EXPECT_FALSE(store().touch_session("other", kNow, kNow));

  EXPECT_EQ(store().delete_expired_sessions(kNow + 20 * kMinute), 1);
  EXPECT_EQ(store().find_session("tokenhash", kNow), std::nullopt);
}

TEST_F(StoreTest, LogoutDeletesTheSession) {
  store().create_session("tokenhash", account("wallace"), kNow, kNow + kMinute);
  store().delete_session("tokenhash");
  EXPECT_EQ(store().find_session("tokenhash", kNow), std::nullopt);
}

// --- games and seats ----------------------------------------------------------------------

TEST_F(StoreTest, NewGameIsOpenWithItsSetupStored) {
  const std::int64_t creator = account("bruce");
  NewGame game = new_game(creator);
  game.creator_role = "scotland";
  const GameRow created = store().create_game(game, kNow);

  const std::optional<GameRow> found = store().find_game(created.id);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->kind, "hots");
  EXPECT_EQ(found->scenario, "braveheart");
  EXPECT_EQ(found->options_json, R"({"variant":"standard"})");
  EXPECT_EQ(found->seed_hex, "00ff");
  EXPECT_EQ(found->seed_sha256, kSeedSha);
  EXPECT_EQ(found->status, GameStatus::Open);
  EXPECT_EQ(found->next_seq, 1);
  EXPECT_EQ(found->started_at, std::nullopt);
  ASSERT_EQ(store().list_seats(created.id).size(), 1u);
  EXPECT_EQ(store().list_seats(created.id)[0].role, "scotland");
  EXPECT_EQ(store().list_seats(created.id)[0].account_id, creator);
}

TEST_F(StoreTest, LobbyListsOnlyOpenPublicGames) {
  const std::int64_t creator = account("bruce");
  const std::int64_t listed = store().create_game(new_game(creator), kNow).id;
  NewGame invite = new_game(creator);
  invite.visibility = Visibility::Invite;
  invite.invite_token_hash = "invitehash";
  const std::int64_t invited = store().create_game(invite, kNow + 1).id;
  const std::int64_t started = store().create_game(new_game(creator), kNow + 2).id;
  store().set_game_status(started, GameStatus::Active, kNow + 3);

  const std::vector<GameRow> lobby = store().list_open_public_games();
  ASSERT_EQ(lobby.size(), 1u);
  EXPECT_EQ(lobby[0].id, listed);
  EXPECT_EQ(store().find_game_by_invite("invitehash")->id, invited);
  EXPECT_EQ(store().list_games_of_account(creator).size(), 3u);
}

TEST_F(StoreTest, InviteGameNeedsAnInviteToken) {
  NewGame game = new_game(account("bruce"));
  game.visibility = Visibility::Invite;
  EXPECT_THROW(store().create_game(game, kNow), ConstraintError);
}

TEST_F(StoreTest, SeatsGoToOneAccountEachAndOnlyWhileOpen) {
  const std::int64_t bruce = account("bruce");
  const std::int64_t edward = account("edward");
  const std::int64_t other = account("other");
  const std::int64_t id = store().create_game(new_game(bruce), kNow).id;

  EXPECT_EQ(store().take_seat(id, "scotland", bruce, kNow), SeatOutcome::Seated);
  EXPECT_EQ(store().take_seat(id, "england", bruce, kNow), SeatOutcome::AlreadySeated);
  EXPECT_EQ(store().take_seat(id, "scotland", edward, kNow), SeatOutcome::RoleTaken);
  EXPECT_EQ(store().take_seat(id + 100, "england", edward, kNow), SeatOutcome::NoSuchGame);
  store().set_game_status(id, GameStatus::Active, kNow);
  EXPECT_EQ(store().take_seat(id, "england", other, kNow), SeatOutcome::GameNotOpen);
  EXPECT_EQ(store().list_seats(id).size(), 1u);
  EXPECT_EQ(store().list_games_of_account(bruce).size(), 1u);
  EXPECT_TRUE(store().list_games_of_account(edward).empty());
}

TEST_F(StoreTest, StatusMovesForwardAndFinishedGamesAreFrozen) {
  const std::int64_t id = active_game();
  EXPECT_EQ(store().find_game(id)->started_at, kNow);
  EXPECT_THROW(store().set_game_status(id, GameStatus::Open, kNow), ConstraintError);

  store().set_game_status(id, GameStatus::Finished, kNow + kMinute, R"({"winner":"england"})");
  const GameRow finished = *store().find_game(id);
  EXPECT_EQ(finished.status, GameStatus::Finished);
  EXPECT_EQ(finished.finished_at, kNow + kMinute);
  EXPECT_EQ(finished.result_json, R"({"winner":"england"})");

  EXPECT_THROW(store().set_game_status(id, GameStatus::Aborted, kNow), ConstraintError);
  EXPECT_THROW(store().database().exec("UPDATE games SET seed = '11'"), ConstraintError);
  EXPECT_THROW(append(id, 1), ConstraintError);  // no actions after the end
}

TEST_F(StoreTest, UnfinishedGamesAreWhatARestartResumes) {
  const std::int64_t active = active_game();
  const std::int64_t open = store().create_game(new_game(account("x")), kNow).id;
  const std::int64_t done = store().create_game(new_game(account("y")), kNow).id;
  store().set_game_status(done, GameStatus::Aborted, kNow);

  std::vector<std::int64_t> ids;
  for (const GameRow& game : store().list_unfinished_games()) ids.push_back(game.id);
  EXPECT_EQ(ids, (std::vector<std::int64_t>{active, open}));
}

// --- the action log -----------------------------------------------------------------------

TEST_F(StoreTest, ActionsLoadInSequenceOrder) {
  const std::int64_t id = active_game();
  for (std::int64_t seq = 1; seq <= 5; ++seq) EXPECT_EQ(append(id, seq), seq);

  const std::vector<ActionRow> all = store().load_actions(id);
  ASSERT_EQ(all.size(), 5u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].seq, static_cast<std::int64_t>(i) + 1);
    EXPECT_EQ(all[i].state_hash, "hash" + std::to_string(i + 1));
  }
  EXPECT_EQ(all[0].role, "england");
  EXPECT_EQ(all[0].action_json, R"({"kind":"pass","n":1})");
  EXPECT_EQ(all[0].applied_at, kNow + 1);

  const std::vector<ActionRow> tail = store().load_actions(id, 4);
  ASSERT_EQ(tail.size(), 2u);
  EXPECT_EQ(tail[0].seq, 4);
  EXPECT_EQ(tail[1].seq, 5);
  EXPECT_EQ(store().find_game(id)->next_seq, 6);
}

TEST_F(StoreTest, StaleSequenceIsRefusedAndWritesNothing) {
  const std::int64_t id = active_game();
  append(id, 1);
  append(id, 2);

  for (std::int64_t stale : {std::int64_t{1}, std::int64_t{2}, std::int64_t{4}}) {
    try {
      store().append_action(id, stale, "england", "{}", "h", kNow, std::string_view("{}"));
      FAIL() << "seq " << stale << " accepted";
    } catch (const SequenceConflict& conflict) {
      EXPECT_EQ(conflict.expected_seq(), stale);
      EXPECT_EQ(conflict.next_seq(), 3);
    }
  }
  EXPECT_EQ(count_actions(id), 2);
  EXPECT_EQ(store().find_game(id)->next_seq, 3);
  EXPECT_EQ(store().latest_snapshot(id), std::nullopt);
  EXPECT_FALSE(store().database().is_in_transaction());
  EXPECT_EQ(append(id, 3), 3);
}

TEST_F(StoreTest, ActionsCannotBeUpdatedOrDeleted) {
  const std::int64_t id = active_game();
  append(id, 1);
  Database& db = store().database();
  try {
    db.exec("UPDATE actions SET action = '{\"kind\":\"cheat\"}'");
    FAIL() << "an action was rewritten";
  } catch (const ConstraintError& error) {
    EXPECT_EQ(error.code(), SQLITE_CONSTRAINT_TRIGGER);
    EXPECT_NE(std::string(error.what()).find("append-only"), std::string::npos);
  }
  try {
    db.exec("DELETE FROM actions");
    FAIL() << "an action was deleted";
  } catch (const ConstraintError& error) {
    EXPECT_EQ(error.code(), SQLITE_CONSTRAINT_TRIGGER);
    EXPECT_NE(std::string(error.what()).find("append-only"), std::string::npos);
  }
  EXPECT_THROW(db.exec("DELETE FROM games"), ConstraintError);  // the log keeps its game
  EXPECT_EQ(store().load_actions(id).at(0).action_json, R"({"kind":"pass","n":1})");
}

TEST_F(StoreTest, TheLogHasNoGapsEvenForRawSql) {
  const std::int64_t id = active_game();
  Database& db = store().database();
  EXPECT_THROW(db.exec("INSERT INTO actions (game_id, seq, role, action, applied_at, state_hash)"
                       " VALUES (" +
                       std::to_string(id) + ", 5, 'england', '{}', 0, 'h')"),
               ConstraintError);
  EXPECT_EQ(count_actions(id), 0);
  // Past the first action: neither a gap nor the same seq again.
  store().append_action(id, 1, "scotland", R"({"kind":"pass"})", "h1", 1);
  for (int seq : {3, 1}) {
    EXPECT_THROW(
        db.exec("INSERT INTO actions (game_id, seq, role, action, applied_at, state_hash)"
                " VALUES (" +
                std::to_string(id) + ", " + std::to_string(seq) + ", 'england', '{}', 0, 'h')"),
        ConstraintError)
        << seq;
  }
  EXPECT_EQ(count_actions(id), 1);
  EXPECT_EQ(store().find_game(id)->next_seq, 2);
}

TEST_F(StoreTest, EachActionKeepsTheViewVersionsItLeft) {
  const std::int64_t id = active_game();
  store().append_action(id, 1, "scotland", R"({"kind":"pass"})", "h1", 10, std::nullopt,
                        ViewVersions{1, 0, 1});
  store().append_action(id, 2, "england", R"({"kind":"pass"})", "h2", 11);
  const auto actions = store().load_actions(id);
  ASSERT_EQ(actions.size(), 2U);
  EXPECT_EQ(actions[0].view_versions, (ViewVersions{1, 0, 1}));
  EXPECT_TRUE(actions[1].view_versions.none());  // as for actions stored before versions existed
}

TEST_F(StoreTest, SnapshotIsWrittenWithItsAction) {
  const std::int64_t id = active_game();
  store().save_snapshot(id, 0, R"({"turn":0})", "setuphash", kNow);
  append(id, 1);
  append(id, 2, R"({"turn":2})");
  append(id, 3);

  const std::optional<SnapshotRow> latest = store().latest_snapshot(id);
  ASSERT_TRUE(latest.has_value());
  EXPECT_EQ(latest->seq, 2);
  EXPECT_EQ(latest->state, R"({"turn":2})");
  EXPECT_EQ(latest->state_hash, "hash2");
  // A restart resumes from the snapshot and replays the rest.
  EXPECT_EQ(store().load_actions(id, latest->seq + 1).size(), 1u);
}

// Only the latest snapshot is read, and each holds the game's log so far: the older ones of a
// game are deleted as a new one is stored (migration 7), and other games keep theirs.
TEST_F(StoreTest, EachGameKeepsOnlyItsLatestSnapshot) {
  const std::int64_t id = active_game();
  const std::int64_t other = active_game("2");
  store().save_snapshot(id, 0, "setup", "setuphash", kNow);
  store().save_snapshot(other, 0, "other setup", "setuphash", kNow);
  append(other, 1, "other 1");
  append(id, 1);
  append(id, 2, "turn 2");
  append(id, 3);
  append(id, 4, "turn 4");

  const auto snapshots_of = [this](std::int64_t game) {
    auto count = store().database().prepare("SELECT count(*) FROM snapshots WHERE game_id = ?1");
    count.bind(1, game).step();
    return count.column_int64(0);
  };
  EXPECT_EQ(snapshots_of(id), 1);
  EXPECT_EQ(store().latest_snapshot(id)->seq, 4);
  EXPECT_EQ(store().latest_snapshot(id)->state, "turn 4");
  EXPECT_EQ(snapshots_of(other), 1);
  EXPECT_EQ(store().latest_snapshot(other)->seq, 1);
  EXPECT_EQ(store().latest_snapshot(other)->state, "other 1");
  // A snapshot refused by the log deletes nothing.
  EXPECT_THROW(store().save_snapshot(id, 3, "{}", "not hash3", kNow), ConstraintError);
  EXPECT_EQ(store().latest_snapshot(id)->state, "turn 4");
}

TEST_F(StoreTest, FailedSnapshotTakesItsActionWithIt) {
  const std::int64_t id = active_game();
  append(id, 1);
  EXPECT_THROW(append(id, 2, ""), ConstraintError);  // a snapshot is never empty
  EXPECT_EQ(count_actions(id), 1);
  EXPECT_EQ(store().find_game(id)->next_seq, 2);
  EXPECT_EQ(append(id, 2), 2);
}

TEST_F(StoreTest, SnapshotMustAgreeWithTheLog) {
  const std::int64_t id = active_game();
  append(id, 1);
  EXPECT_THROW(store().save_snapshot(id, 1, "{}", "otherhash", kNow), ConstraintError);
  EXPECT_THROW(store().save_snapshot(id, 2, "{}", "hash2", kNow), ConstraintError);
  store().save_snapshot(id, 1, "{}", "hash1", kNow);
  EXPECT_EQ(store().latest_snapshot(id)->seq, 1);
}

TEST_F(StoreTest, CommittedGameSurvivesReopening) {
  const std::int64_t id = active_game();
  append(id, 1);
  append(id, 2, "{}");
  store().append_chat(id, std::nullopt, "system", "game started", kNow);
  reopen(kNow + kMinute);

  Store& reopened = store();
  const std::optional<GameRow> game = reopened.find_game(id);
  ASSERT_TRUE(game.has_value());
  EXPECT_EQ(game->status, GameStatus::Active);
  EXPECT_EQ(game->next_seq, 3);
  EXPECT_EQ(reopened.load_actions(id).size(), 2u);
  EXPECT_EQ(reopened.latest_snapshot(id)->seq, 2);
  EXPECT_EQ(reopened.list_seats(id).size(), 2u);
  EXPECT_EQ(reopened.list_chat(id).size(), 1u);
  EXPECT_EQ(reopened.find_account_by_name("SCOT")->username, "scot");
}

// --- chat ---------------------------------------------------------------------------------

TEST_F(StoreTest, ChatSinceIdReturnsOnlyNewerMessagesOfThatGame) {
  const std::int64_t id = active_game();
  const std::int64_t scot = store().find_account_by_name("scot")->id;
  const std::int64_t other = store().create_game(new_game(scot), kNow).id;

  const ChatRow first = store().append_chat(id, scot, "scotland", "For Scotland!", kNow);
  store().append_chat(other, scot, "scotland", "elsewhere", kNow);
  const ChatRow second = store().append_chat(id, std::nullopt, "system", "England moves", kNow + 1);
  const ChatRow third = store().append_chat(id, scot, "scotland", "Hold the line", kNow + 2);

  const std::vector<ChatRow> all = store().list_chat(id);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].text, "For Scotland!");
  EXPECT_EQ(all[1].account_id, std::nullopt);

  const std::vector<ChatRow> newer = store().list_chat(id, first.id);
  ASSERT_EQ(newer.size(), 2u);
  EXPECT_EQ(newer[0].id, second.id);
  EXPECT_EQ(newer[1].id, third.id);
  EXPECT_TRUE(store().list_chat(id, third.id).empty());
  EXPECT_EQ(store().list_chat(id, 0, 1).size(), 1u);
}

TEST_F(StoreTest, ChatRefusesEmptyOrOversizedText) {
  const std::int64_t id = active_game();
  EXPECT_THROW(store().append_chat(id, std::nullopt, "system", "", kNow), ConstraintError);
  EXPECT_THROW(store().append_chat(id, std::nullopt, "system", std::string(2001, 'x'), kNow),
               ConstraintError);
}

// --- login throttling ---------------------------------------------------------------------

TEST_F(StoreTest, FailedLoginsCountPerKeyWithinTheWindow) {
  const std::int64_t window = 15 * kMinute;
  EXPECT_EQ(store().record_failed_login("user:bruce", kNow, window), 1);
  EXPECT_EQ(store().record_failed_login("user:bruce", kNow + 1, window), 2);
  EXPECT_EQ(store().record_failed_login("USER:Bruce", kNow + 2, window), 3);  // names fold case
  EXPECT_EQ(store().record_failed_login("ip:192.0.2.1", kNow + 3, window), 1);

  EXPECT_EQ(store().failed_login_count("user:bruce", kNow + window - 1, window), 3);
  EXPECT_EQ(store().failed_login_count("ip:192.0.2.1", kNow + 4, window), 1);
  EXPECT_EQ(store().failed_login_count("user:edward", kNow, window), 0);

  // The window has closed: the count starts over.
  EXPECT_EQ(store().failed_login_count("user:bruce", kNow + window, window), 0);
  EXPECT_EQ(store().record_failed_login("user:bruce", kNow + window, window), 1);

  store().reset_failed_logins("user:bruce");
  EXPECT_EQ(store().failed_login_count("user:bruce", kNow + window, window), 0);
  EXPECT_EQ(store().prune_failed_logins(kNow + 3 + window, window), 1);  // the address's
}

TEST_F(StoreTest, ObserverChatIsChosenAtCreationAndNeverChanges) {
  const std::int64_t creator = account("wallace");
  const std::int64_t plain = store().create_game(new_game(creator), kNow).id;
  NewGame chatty = new_game(creator);
  chatty.observer_chat = true;
  const std::int64_t open_chat = store().create_game(chatty, kNow).id;
  EXPECT_FALSE(store().find_game(plain)->observer_chat);
  EXPECT_TRUE(store().find_game(open_chat)->observer_chat);
  EXPECT_TRUE(store().list_open_public_games().front().observer_chat);
  EXPECT_THROW(store().database().exec("UPDATE games SET observer_chat = 1 WHERE id = " +
                                       std::to_string(plain)),
               ConstraintError);
  EXPECT_FALSE(store().find_game(plain)->observer_chat);
}

// --- housekeeping -------------------------------------------------------------------------

TEST_F(StoreTest, PurgeDeletesExpiredSessionsAndOldLoginFailuresOnly) {
  const std::int64_t id = account("wallace");
  const std::int64_t hour = 60 * kMinute;
  store().create_session("expired", id, kNow - hour, kNow - kMinute);
  store().create_session("expires-now", id, kNow - hour, kNow);
  store().create_session("alive", id, kNow - hour, kNow + 20 * kMinute);
  store().record_failed_login("user:old", kNow - hour, hour);  // its window opened an hour ago
  store().record_failed_login("register:192.0.2.1", kNow - hour + 1, hour);
  store().record_failed_login("ip:192.0.2.2", kNow, 15 * kMinute);

  EXPECT_EQ(store().purge_stale(kNow, hour), (Purged{2, 1}));
  EXPECT_EQ(store().find_session("alive", kNow)->account_id, id);
  // Gone, not merely outside the window: a longer window no longer counts it.
  EXPECT_EQ(store().failed_login_count("user:old", kNow, 10 * hour), 0);
  EXPECT_EQ(store().failed_login_count("register:192.0.2.1", kNow, hour), 1);
  EXPECT_EQ(store().failed_login_count("ip:192.0.2.2", kNow, hour), 1);
  EXPECT_EQ(store().purge_stale(kNow, hour), (Purged{0, 0}));  // nothing left to do

  EXPECT_EQ(store().purge_stale(kNow + 1, hour), (Purged{0, 1}));
  EXPECT_EQ(store().failed_login_count("register:192.0.2.1", kNow + 1, 10 * hour), 0);
  EXPECT_EQ(store().purge_stale(kNow + hour, hour), (Purged{1, 1}));
  EXPECT_EQ(store().find_session("alive", kNow), std::nullopt);
  EXPECT_EQ(store().failed_login_count("ip:192.0.2.2", kNow + hour, 10 * hour), 0);
}

}  // namespace
}  // namespace blockfog::storage
