#include "server/play/dice.h"

#include <algorithm>

#include "rules/core/role.h"
#include "rules/core/shared_seed.h"
#include "server/clocks/game_clocks.h"
#include "server/clocks/time_control.h"
#include "server/crypto.h"
#include "server/notices/turn_notices.h"
#include "server/play/game_start.h"
#include "server/play/presence.h"
#include "server/seats.h"
#include "storage/computer_seats.h"
#include "storage/notice_store.h"

namespace blockfog::server {

using nlohmann::json;
using protocol::ErrorCode;

namespace {

const storage::DiceRow* find(const std::vector<storage::DiceRow>& dice, std::string_view role) {
  const auto it = std::find_if(dice.begin(), dice.end(),
                               [role](const storage::DiceRow& d) { return d.role == role; });
  return it == dice.end() ? nullptr : &*it;
}

DiceOutcome refused(int status, ErrorCode code, std::string message) {
  return {DiceRefusal{status, code, std::move(message)}, nullptr};
}

bool is_lower_hex_64(const std::string& text) {
  return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

}  // namespace

std::int64_t dice_window_ms(storage::Store& store, std::int64_t game_id) {
  const auto tc = load_time_control(store, game_id);
  switch (tc.kind) {
    case TimeControl::Kind::Live:
      return 10 * kMinuteMs;
    case TimeControl::Kind::Correspondence:
      return tc.days_per_turn * kDayMs;
    case TimeControl::Kind::None:
      break;
  }
  return kDayMs;
}

void await_dice(storage::Store& store, std::int64_t game_id, std::int64_t now, std::int64_t by,
                const Presence* presence) {
  storage::Transaction transaction(store.database());
  storage::set_dice_deadline(store, game_id, now + dice_window_ms(store, game_id));
  for (const auto& seat : storage::list_computer_seats(store, game_id)) {
    // The server's contribution, kept unrevealed until the player facing it commits.
    const auto contribution = random_hex(32);
    storage::commit_dice(store, game_id, seat.role, *core::dice_commitment(contribution),
                         contribution, now);
  }
  const auto seats = load_seats(store, game_id);
  for (const auto role : {core::Role::Scotland, core::Role::England}) {
    const auto& seat = seats.of(role);
    if (!seat || seat->computer || seat->account_id == by ||
        (presence && presence->present(game_id, seat->account_id))) {
      continue;
    }
    const auto name = core::role_name(role);
    storage::enqueue_notice(store, game_id, name, 0, seat->account_id,
                            dice_notice_content(game_id, name).dump(), now);
  }
  transaction.commit();
}

DiceOutcome take_dice_step(storage::Store& store, std::int64_t game_id, core::Role role,
                           std::int64_t account_id, const DiceStep& step, std::int64_t now,
                           const Presence* presence) {
  if (step.commitment.has_value() == step.contribution.has_value()) {
    return refused(400, ErrorCode::BadField, "give either a commitment or a contribution");
  }
  const auto row = store.find_game(game_id);
  if (!row) return refused(404, ErrorCode::NotFound, "no such game");
  if (row->status != storage::GameStatus::Open) {
    return refused(409, ErrorCode::Conflict, "the game's dice were rolled already");
  }
  // Past the deadline the game is cancelled (the next sweep writes it): no step counts.
  if (row->dice_deadline && now >= *row->dice_deadline) {
    return refused(409, ErrorCode::Conflict, "the dice were not revealed in time");
  }
  const std::string mine(core::role_name(role));
  const std::string theirs(core::role_name(core::other_side(role)));
  storage::Transaction transaction(store.database());
  auto dice = storage::list_dice(store, game_id);
  const auto* own = find(dice, mine);
  const auto* other = find(dice, theirs);
  if (step.commitment) {
    if (!is_lower_hex_64(*step.commitment)) {
      return refused(400, ErrorCode::BadField,
                     "a commitment is 64 lower-case hex digits: SHA-256 of the contribution");
    }
    if (own) return refused(409, ErrorCode::DiceOutOfOrder, "your seat has committed already");
    if (other && other->commitment == *step.commitment) {
      return refused(400, ErrorCode::BadField, "that commitment is the other seat's");
    }
    storage::commit_dice(store, game_id, mine, *step.commitment, std::nullopt, now);
    // A computer seat reveals as soon as the player facing it is bound to his contribution.
    if (other && other->by_server && !other->revealed_at) {
      storage::reveal_dice(store, game_id, theirs, *other->contribution, now);
    }
    transaction.commit();
    return {};
  }
  const auto& contribution = *step.contribution;
  if (!is_lower_hex_64(contribution)) {
    return refused(400, ErrorCode::BadField, "a contribution is 64 lower-case hex digits");
  }
  if (!own) return refused(409, ErrorCode::DiceOutOfOrder, "commit to a contribution first");
  if (own->revealed_at) {
    return refused(409, ErrorCode::DiceOutOfOrder, "your seat has revealed already");
  }
  if (!other) {
    return refused(409, ErrorCode::DiceOutOfOrder,
                   "the other seat has not committed yet: reveal once it has");
  }
  if (core::dice_commitment(contribution) != own->commitment) {
    return refused(400, ErrorCode::BadField, "the contribution does not match your commitment");
  }
  storage::reveal_dice(store, game_id, mine, contribution, now);
  DiceOutcome outcome;
  if (other->revealed_at) {
    const auto& scotland = role == core::Role::Scotland ? contribution : *other->contribution;
    const auto& england = role == core::Role::England ? contribution : *other->contribution;
    storage::set_play_seed(store, game_id, *core::shared_seed(row->seed_hex, scotland, england));
    outcome.started = start_in_store(store, game_id, account_id, now, presence);
  }
  transaction.commit();
  return outcome;
}

json dice_json(const storage::GameRow& row, const std::vector<storage::DiceRow>& dice) {
  if (row.status != storage::GameStatus::Open && !row.play_seed_hex) return nullptr;
  json out = {{"deadline", row.dice_deadline ? json(*row.dice_deadline) : json(nullptr)}};
  for (const char* role : {"scotland", "england"}) {
    const auto* d = find(dice, role);
    out[role] = {{"commitment", d ? json(d->commitment) : json(nullptr)},
                 {"contribution", d && d->revealed_at ? json(*d->contribution) : json(nullptr)}};
  }
  return out;
}

std::vector<std::int64_t> cancel_games_past_dice_deadline(storage::Store& store, std::int64_t now,
                                                          const MayWriteGame& may_write) {
  std::vector<std::int64_t> cancelled;
  for (const auto id : storage::list_games_past_dice_deadline(store, now)) {
    storage::Transaction transaction(store.database());
    if (may_write && !may_write(store, id)) continue;
    // Read again once allowed: its last die may have been revealed since the list was read.
    const auto row = store.find_game(id);
    if (!row || row->status != storage::GameStatus::Open || !row->dice_deadline ||
        *row->dice_deadline > now) {
      continue;
    }
    store.set_game_status(id, storage::GameStatus::Aborted, now);
    transaction.commit();
    cancelled.push_back(id);
  }
  return cancelled;
}

}  // namespace blockfog::server
