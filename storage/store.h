#pragma once

// The typed repository over the SQLite schema (docs/storage.md). Storage reads no clock: every
// time is milliseconds since the Unix epoch passed in as `now`. Roles are the rule engine's
// names ("scotland", "england"; chat also "observer", "system").
//
// Errors: lookups return std::optional, and outcomes a user can cause (a taken name, a taken
// seat) come back as values; infrastructure failures and broken invariants throw StorageError.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/identity.h"
#include "storage/sqlite.h"

namespace blockfog::storage {

enum class GameStatus { Open, Active, Finished, Aborted };
enum class Visibility { Public, Invite };

std::string_view status_name(GameStatus status);          // "open", "active", "finished", "aborted"
GameStatus parse_status(std::string_view name);           // status_name's inverse; else Open
std::string_view visibility_name(Visibility visibility);  // "public", "invite"

struct AccountRow {
  std::int64_t id = 0;
  std::string username;  // as registered; lookups ignore ASCII case
  std::string password_hash;
  std::int64_t created_at = 0;
};

struct SessionRow {
  std::string token_hash;
  std::int64_t account_id = 0;
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
  std::int64_t last_seen = 0;
};

struct NewGame {
  std::string kind = "hots";
  std::string rules_version;
  std::string scenario;
  std::string options_json = "{}";
  std::string seed_hex;     // secret until the game ends
  std::string seed_sha256;  // public from the start
  Visibility visibility = Visibility::Public;
  std::optional<std::string> invite_token_hash;  // set exactly when visibility is Invite
  std::int64_t created_by = 0;
  std::optional<std::string> creator_role;  // seats the creator in the same transaction
  bool observer_chat = false;               // observers may write in the chat (migration 3)
  bool rated = false;  // its end changes its players' ratings (docs/ratings.md)
};

// Holds the secret seed: the server must not send a GameRow to clients as it is.
struct GameRow {
  std::int64_t id = 0;
  std::string kind;
  std::string rules_version;
  std::string scenario;
  std::string options_json;
  std::string seed_hex;
  std::string seed_sha256;
  GameStatus status = GameStatus::Open;
  Visibility visibility = Visibility::Public;
  std::optional<std::string> invite_token_hash;
  std::int64_t created_by = 0;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> started_at;
  std::optional<std::int64_t> finished_at;
  std::optional<std::string> result_json;
  // The seq the next appended action must carry: one past the game's last action (actions are
  // numbered from 1), read from the log itself.
  std::int64_t next_seq = 1;
  bool observer_chat = false;
  bool rated = false;
  // The seed the game is set up from once both seats' dice contributions are revealed
  // (storage/game_dice.h); null before, and in games started before shared dice, whose seed is
  // `seed_hex` alone.
  std::optional<std::string> play_seed_hex;
  // Set when both seats are taken: the game is cancelled unless its dice are revealed by then.
  std::optional<std::int64_t> dice_deadline;
};

struct SeatRow {
  std::int64_t game_id = 0;
  std::string role;
  std::int64_t account_id = 0;
  std::int64_t joined_at = 0;
};

enum class SeatOutcome { Seated, NoSuchGame, GameNotOpen, RoleTaken, AlreadySeated };

// How many times each role's view has changed since setup (docs/protocol.md, `seq`).
struct ViewVersions {
  std::int64_t scotland = 0;
  std::int64_t england = 0;
  std::int64_t observer = 0;
  friend bool operator==(const ViewVersions&, const ViewVersions&) = default;
};

// The view versions stored with one action. A role's is absent when its view was not written
// after that action: nobody of that role was connected (the server then writes it no more until
// somebody is, docs/storage.md), or the action was stored before versions were (migration 2:
// all three absent).
struct StoredVersions {
  std::optional<std::int64_t> scotland;
  std::optional<std::int64_t> england;
  std::optional<std::int64_t> observer;

  StoredVersions() = default;
  // Every role's (implicit: an action whose views were all written).
  StoredVersions(const ViewVersions& v)  // NOLINT(google-explicit-constructor)
      : scotland(v.scotland), england(v.england), observer(v.observer) {}
  bool none() const { return !scotland && !england && !observer; }
  friend bool operator==(const StoredVersions&, const StoredVersions&) = default;
};

struct ActionRow {
  std::int64_t game_id = 0;
  std::int64_t seq = 0;
  std::string role;
  std::string action_json;
  std::int64_t applied_at = 0;
  std::string state_hash;        // of the state after this action
  StoredVersions view_versions;  // after this action
};

struct SnapshotRow {
  std::int64_t game_id = 0;
  std::int64_t seq = 0;  // the state after action seq; 0 is the state right after setup
  std::string state;     // as core::Game::write_snapshot wrote it (bytes, not text)
  std::string state_hash;
  std::int64_t created_at = 0;
};

struct ChatRow {
  std::int64_t id = 0;
  std::int64_t game_id = 0;
  std::optional<std::int64_t> account_id;  // none for system messages
  std::string role;
  std::string text;
  std::int64_t created_at = 0;
};

// What purge_stale deleted.
struct Purged {
  std::int64_t sessions = 0;
  std::int64_t failed_logins = 0;
  friend bool operator==(const Purged&, const Purged&) = default;
};

// append_action was given a seq other than the game's next_seq: the caller's view of the game
// is stale (or another writer got there first). Nothing was written.
class SequenceConflict : public StorageError {
 public:
  SequenceConflict(std::int64_t game_id, std::int64_t expected_seq, std::int64_t next_seq);

  std::int64_t expected_seq() const noexcept { return expected_seq_; }
  std::int64_t next_seq() const noexcept { return next_seq_; }

 private:
  std::int64_t expected_seq_;
  std::int64_t next_seq_;
};

// Not for concurrent use from several threads: open one Store per thread (WAL lets them read
// in parallel; writers queue on the busy timeout).
class Store {
 public:
  // Opens (creating if needed) and migrates the database; see apply_migrations for errors.
  // Only Blockfog's own database is opened (storage/identity.h): any other file throws
  // ForeignDatabase and is left untouched. So is a file this process may not write
  // (storage/file_access.h), a damaged one (SQLITE_CORRUPT) and one of a newer schema
  // (SchemaTooNew): all are found before the file is opened for writing.
  Store(const std::filesystem::path& path, std::int64_t now, Sync sync = Sync::Full);

  // Opens Blockfog's database without writing anything to it (the server's --read-only): no
  // migration, no WAL switch. Every write throws StorageError (SQLITE_READONLY). The schema
  // must be this program's: an older one (not yet migrated) or a newer one throws.
  struct ReadOnly {};
  Store(const std::filesystem::path& path, ReadOnly);

  // The store in a database already connected (PostgreSQL: storage/postgres.h), migrated to
  // this program's schema. A database with tables but no schema_migrations is somebody else's
  // and throws ForeignDatabase, untouched; one of a newer schema throws SchemaTooNew.
  Store(std::unique_ptr<Database> db, std::int64_t now);

  Database& database() { return *db_; }

  // --- accounts and sessions ---
  // None if the name is taken, whatever its case.
  std::optional<AccountRow> create_account(std::string_view username,
                                           std::string_view password_hash, std::int64_t now);
  std::optional<AccountRow> find_account_by_name(std::string_view username);
  std::optional<AccountRow> find_account_by_id(std::int64_t account_id);

  SessionRow create_session(std::string_view token_hash, std::int64_t account_id, std::int64_t now,
                            std::int64_t expires_at);
  // None if unknown or expired at `now`.
  std::optional<SessionRow> find_session(std::string_view token_hash, std::int64_t now);
  // Records activity and moves the expiry; false if the session is unknown.
  bool touch_session(std::string_view token_hash, std::int64_t now, std::int64_t expires_at);
  void delete_session(std::string_view token_hash);
  // Ends all but the `keep` newest sessions of an account, never `current`; returns the token
  // hashes of those it ended (their sockets are closed too).
  std::vector<std::string> keep_newest_sessions(std::int64_t account_id, int keep,
                                                std::string_view current);
  std::int64_t delete_expired_sessions(std::int64_t now);  // returns how many

  // --- games and seats ---
  GameRow create_game(const NewGame& game, std::int64_t now);
  std::optional<GameRow> find_game(std::int64_t game_id);
  std::optional<GameRow> find_game_by_invite(std::string_view invite_token_hash);
  // Public games waiting for an opponent (a seat free, no dice deadline yet), newest first.
  std::vector<GameRow> list_open_public_games(std::size_t limit = 100);
  // Public games under way (both seats taken, not finished), most recently started first.
  std::vector<GameRow> list_live_public_games(std::size_t limit = 100);
  // Games where the account holds a seat or that it created; newest first.
  std::vector<GameRow> list_games_of_account(std::int64_t account_id, std::size_t limit = 100);
  // Games `account_id` created that still wait for an opponent (not those whose dice are
  // being rolled).
  std::int64_t count_open_games_created_by(std::int64_t account_id);
  // Open and active games, oldest first: what a restarted server resumes.
  std::vector<GameRow> list_unfinished_games();
  std::vector<SeatRow> list_seats(std::int64_t game_id);
  SeatOutcome take_seat(std::int64_t game_id, std::string_view role, std::int64_t account_id,
                        std::int64_t now);
  // Moves open -> active (sets started_at) -> finished (sets finished_at), or to aborted; any
  // other move, or a change to a finished game, throws ConstraintError. Finishing a rated
  // game updates its players' ratings in the same transaction (storage/ratings.h).
  void set_game_status(std::int64_t game_id, GameStatus status, std::int64_t now,
                       std::optional<std::string_view> result_json = std::nullopt);

  // --- the action log ---
  // In one transaction: appends the action if expected_seq follows the game's last action
  // (else throws SequenceConflict and writes nothing) and, if given, stores the state after the
  // action as a snapshot, which deletes the game's older ones (migration 7: only the latest is
  // ever read). Returns the new action's seq. The game must be active. `fence`: the game
  // lease's fencing number it is written under (storage/game_leases.h), PostgreSQL's
  // multi-node store only; kept in actions.fence and never read by the server.
  std::int64_t append_action(std::int64_t game_id, std::int64_t expected_seq, std::string_view role,
                             std::string_view action_json, std::string_view state_hash,
                             std::int64_t now,
                             std::optional<std::string_view> snapshot = std::nullopt,
                             const StoredVersions& view_versions = {},
                             std::optional<std::int64_t> fence = std::nullopt);
  std::vector<ActionRow> load_actions(std::int64_t game_id, std::int64_t from_seq = 1);
  // Caches a state already in the log (seq 0: after setup); replaces an existing one and
  // deletes the game's older ones. A snapshot is stored as a blob, as core::Game::write_snapshot
  // wrote it.
  void save_snapshot(std::int64_t game_id, std::int64_t seq, std::string_view state,
                     std::string_view state_hash, std::int64_t now);
  std::optional<SnapshotRow> latest_snapshot(std::int64_t game_id);

  // --- chat ---
  ChatRow append_chat(std::int64_t game_id, std::optional<std::int64_t> account_id,
                      std::string_view role, std::string_view text, std::int64_t now);
  // Messages with id > since_id, oldest first, at most `limit`.
  std::int64_t count_chat(std::int64_t game_id);
  std::vector<ChatRow> list_chat(std::int64_t game_id, std::int64_t since_id = 0,
                                 std::size_t limit = 200);

  // --- login throttling ---
  // Counts a failure for `key`; a window opens at the first failure and lasts window_ms.
  // Returns the failures in the current window, this one included.
  std::int64_t record_failed_login(std::string_view key, std::int64_t now, std::int64_t window_ms);
  std::int64_t failed_login_count(std::string_view key, std::int64_t now, std::int64_t window_ms);
  void reset_failed_logins(std::string_view key);
  std::int64_t prune_failed_logins(std::int64_t now, std::int64_t window_ms);  // returns how many

  // --- housekeeping ---
  // In one transaction: deletes the sessions expired at `now` and the failed-login windows
  // that opened `failed_login_age_ms` or more ago (pass the longest window any caller uses,
  // or a throttle would forget failures early). Rows neither find_session nor the counts see.
  Purged purge_stale(std::int64_t now, std::int64_t failed_login_age_ms);

 private:
  // Decided before db_ opens the file: opening it for writing alone would switch it to WAL.
  FileIdentity identity_;
  std::unique_ptr<Database> db_;
};

// The store at `location` (the server's --db): a postgresql:// URI opens PostgreSQL
// (storage/postgres.h), anything else is an SQLite file path. Sync::Normal is refused for
// PostgreSQL, whose commits always wait for its WAL (docs/multi-node.md, "Durability").
std::unique_ptr<Store> open_store(const std::string& location, std::int64_t now,
                                  Sync sync = Sync::Full);

}  // namespace blockfog::storage
