#pragma once

// The commit of one action (docs/architecture.md, "One action, end to end"): on the storage
// thread, in one transaction, the action with its snapshot and view versions, the turn notices
// it causes, and the clocks it moves; or, when a clock ran out first, the end of the game on
// time or the computer standing in. The room decided everything the engine decides (the action
// is legal, the seq is the seat's current version) before; this unit decides only what the
// store and the clocks say, and returns it as one outcome that the room turns into messages.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/game.h"
#include "server/clocks/game_clocks.h"
#include "server/cluster/node_leases.h"
#include "server/notices/turn_notices.h"
#include "server/seats.h"
#include "storage/store.h"

namespace blockfog::server {

// An action applied on a copy of the game, ready to be stored.
struct ActionCommitRequest {
  std::int64_t game_id = 0;
  std::int64_t seq = 0;  // the game's next seq: the action's place in the log
  core::Role actor = core::Role::Observer;
  std::string action_json;
  std::string state_hash;                  // of the state after the action
  std::optional<std::string> snapshot;     // core::Game::write_snapshot's bytes, when due
  std::optional<std::string> result_json;  // set when the action ends the game
  storage::StoredVersions versions;        // every role's view version after the action
  std::vector<TurnNotice> notices;         // the notices the action causes (the outbox)
  Seats seats;
  // The roles awaited before and after the action, as every view shows them: the clocks run
  // for those (server/clocks/game_clocks.h).
  std::vector<core::Role> awaiting_before;
  std::vector<core::Role> awaiting_after;
  // The game's lease the room was loaded under (several nodes on one PostgreSQL database:
  // server/cluster/node_leases.h); none on SQLite. Every write below is fenced by it.
  std::optional<storage::GameLease> lease;
};

enum class CommitOutcome {
  Stored,    // the action is in the log (and the game may have ended with it)
  TimedOut,  // the actor's time had run out: the game ended on time, action dropped
  StandIn,   // the actor's time had run out: the computer took the seat, action dropped
  GameOver,  // the game ended (resigned, cancelled, out of time) while it was on its way
  Moved,     // nothing stored: another node took the game's lease (`moved_to`)
  // Nothing stored: the log already has an action at this seq, so the room is behind the log
  // (an earlier commit whose answer was lost, the connection to PostgreSQL dropping during
  // its COMMIT, was stored after all). The room lets go; its clients load the game again.
  Reload,
  StorageUnavailable,  // nothing stored for want of storage (storage/faults.h); may succeed later
  Failed,              // nothing stored for any other reason (`error` says which)
};

struct ActionCommitResult {
  // Until commit_action sets it: a commit that the store never ran (the connection was lost
  // before its group's transaction or its savepoint opened) stored nothing for want of storage.
  CommitOutcome outcome = CommitOutcome::StorageUnavailable;
  // The computer took a seat whose time ran out: the actor's (StandIn), or the other side's
  // (Stored, the action kept).
  std::optional<StandIn> stand_in;
  std::optional<std::string> timed_out_result;  // TimedOut: the game's stored result
  // The clocks after the action, only when it changed `awaiting` or ended the game (null
  // otherwise and without a time control): a clock frame after any other action would tell the
  // other seat and the observers that a hidden decision was made, and when (RULES 13.1.4).
  nlohmann::json clocks;
  std::string error;  // StorageUnavailable, Failed
  // Moved: where the game lives now (none when nobody holds it any more: come back at once).
  std::optional<Elsewhere> moved_to;
};

// Runs the commit of `request` at `now` in one transaction of `store`: every write of an
// outcome stands or falls together. Never throws; the caller hears of the outcome only after the
// group's COMMIT (DbWorker), and a failed COMMIT turns it into StorageUnavailable
// (unstored_by_group_commit).
ActionCommitResult commit_action(storage::Store& store, const ActionCommitRequest& request,
                                 std::int64_t now);

// What a result becomes when the group commit that held its transaction failed: whatever it
// wrote is gone, so an outcome that wrote something is StorageUnavailable.
void unstored_by_group_commit(ActionCommitResult& result);

}  // namespace blockfog::server
