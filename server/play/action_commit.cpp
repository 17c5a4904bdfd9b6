#include "server/play/action_commit.h"

#include <exception>

#include "storage/faults.h"
#include "storage/notice_store.h"

namespace blockfog::server {

using core::Role;

namespace {

ActionCommitResult commit_in_transaction(storage::Store& store, const ActionCommitRequest& request,
                                         std::int64_t now) {
  ActionCommitResult result;
  const auto id = request.game_id;
  const auto role = core::role_name(request.actor);
  Seats seats = request.seats;
  const auto tc = load_time_control(store, id);
  storage::Transaction transaction(store.database());
  // The fenced write (docs/multi-node.md, section 2): first, so that nothing below is written
  // by a node that lost the game, and the lease row stays locked until the group commits.
  if (request.lease) storage::check_game_lease(store, id, *request.lease);
  // An action that comes after its side's time ran out ends the game by time instead.
  if (const auto loser = expired_role(store, id, tc, seats, now)) {
    if (auto taken = take_over_timed_out(store, id, *loser, now)) {
      // Both allowed a stand-in: the computer takes the seat. The action of the side whose
      // time ran out is refused; the other side's goes on below.
      result.stand_in = StandIn{*loser, *taken};
      auto& player = *loser == Role::Scotland ? seats.scotland : seats.england;
      if (player) player->computer = *taken;
      if (*loser == request.actor) {
        transaction.commit();
        result.outcome = CommitOutcome::StandIn;
        return result;
      }
    }
  }
  if (const auto loser = expired_role(store, id, tc, seats, now)) {
    stop_clocks(store, id, tc, seats, now);
    const auto ended = result_against(*loser, "timeout");
    store.set_game_status(id, storage::GameStatus::Finished, now, ended);
    transaction.commit();
    result.outcome = CommitOutcome::TimedOut;
    result.timed_out_result = ended;
    return result;
  }
  std::optional<std::string_view> snapshot;
  if (request.snapshot) snapshot = *request.snapshot;
  try {
    store.append_action(id, request.seq, role, request.action_json, request.state_hash, now,
                        snapshot, request.versions,
                        request.lease ? std::optional(request.lease->fence) : std::nullopt);
  } catch (const storage::ConstraintError&) {
    // The game ended (resigned, cancelled, out of time) while the action was on its way.
    const auto row = store.find_game(id);
    if (row && row->status != storage::GameStatus::Active) {
      result.outcome = CommitOutcome::GameOver;
      result.stand_in.reset();  // rolled back with the transaction
      return result;
    }
    throw;
  }
  // The role acted: its notices still undelivered are not needed any more.
  storage::drop_pending_notices(store, id, role, now);
  for (const auto& notice : request.notices) {
    storage::enqueue_notice(store, id, notice.role, request.seq, notice.account_id,
                            notice.content_json, now);
  }
  if (request.result_json) {
    for (const char* side : {"scotland", "england"}) {
      storage::drop_pending_notices(store, id, side, now);
    }
    store.set_game_status(id, storage::GameStatus::Finished, now, *request.result_json);
    stop_clocks(store, id, tc, seats, now);
  } else {
    pass_turn(store, id, tc, seats, request.actor, request.awaiting_before, request.awaiting_after,
              now);
  }
  // A clock changes only where `awaiting` does (or at the end), and every role's view shows
  // `awaiting` (RULES 13.1.4).
  if (request.result_json || request.awaiting_before != request.awaiting_after) {
    result.clocks = clocks_json(store, id, tc, seats, now);
  }
  transaction.commit();
  result.outcome = CommitOutcome::Stored;
  return result;
}

ActionCommitResult unstored_result(CommitOutcome outcome, std::string error) {
  ActionCommitResult result;
  result.outcome = outcome;
  result.error = std::move(error);
  return result;
}

}  // namespace

ActionCommitResult commit_action(storage::Store& store, const ActionCommitRequest& request,
                                 std::int64_t now) {
  try {
    return commit_in_transaction(store, request, now);
  } catch (const storage::SequenceConflict& e) {
    // The log is the truth (docs/architecture.md): a room behind it must not go on from its own
    // state, whose next seq is taken, so it is loaded again from the log (docs/multi-node.md,
    // section 1: a COMMIT whose outcome is unknown).
    return unstored_result(
        e.next_seq() > request.seq ? CommitOutcome::Reload : CommitOutcome::Failed, e.what());
  } catch (const storage::LeaseLost& e) {
    ActionCommitResult result = unstored_result(CommitOutcome::Moved, e.what());
    try {
      result.moved_to = locate_game(store, request.game_id);
    } catch (const std::exception&) {
      // Unknown: the client comes back through any node, which finds the holder.
    }
    return result;
  } catch (const storage::StorageError& e) {
    return unstored_result(storage::is_unavailable(e.kind()) ? CommitOutcome::StorageUnavailable
                                                             : CommitOutcome::Failed,
                           e.what());
  } catch (const std::exception& e) {
    return unstored_result(CommitOutcome::Failed, e.what());
  }
}

void unstored_by_group_commit(ActionCommitResult& result) {
  switch (result.outcome) {
    case CommitOutcome::Stored:
    case CommitOutcome::TimedOut:
    case CommitOutcome::StandIn:
      result = unstored_result(CommitOutcome::StorageUnavailable,
                               "the group commit holding the action failed");
      return;
    case CommitOutcome::GameOver:
    case CommitOutcome::Moved:
    case CommitOutcome::Reload:
    case CommitOutcome::StorageUnavailable:
    case CommitOutcome::Failed:
      return;
  }
}

}  // namespace blockfog::server
