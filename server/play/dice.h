#pragma once

// Dice nobody can choose (docs/records.md, "Dice"): the exchange that gives a game its seed.
// The server commits to its secret when it creates the game (seed_sha256). Each seat then
// commits to a random contribution, and reveals it only once the other seat has committed; the
// game starts when both are revealed, set up from core::shared_seed of the three. A computer
// seat's contribution is drawn and committed by the server when both seats are taken, and
// revealed as soon as the player facing it has committed. Contributions not all revealed by
// the game's dice deadline cancel it (nothing rated).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/errors.h"
#include "rules/core/game.h"
#include "server/clocks/game_clocks.h"
#include "storage/game_dice.h"
#include "storage/store.h"

namespace blockfog::server {

class Presence;

// How long the players have to reveal once both seats are taken, by the game's time control:
// a live game ten minutes, a correspondence game one turn's days, an untimed game a day.
std::int64_t dice_window_ms(storage::Store& store, std::int64_t game_id);

// Both seats of the open game are taken: its dice deadline is set, each computer seat commits
// the server's contribution for it, and each player away is told (a turn notice, seq 0): not
// `by` (whose request took the last seat, 0 for none) nor one at the game as `presence` says
// (null: nobody can be, the game was created in this transaction).
void await_dice(storage::Store& store, std::int64_t game_id, std::int64_t now, std::int64_t by,
                const Presence* presence);

// One step of a seat's exchange: exactly one of the two.
struct DiceStep {
  std::optional<std::string> commitment;    // 64 hex: SHA-256 of the contribution's 32 bytes
  std::optional<std::string> contribution;  // 64 hex
};

struct DiceRefusal {
  int status = 409;
  protocol::ErrorCode code = protocol::ErrorCode::DiceOutOfOrder;
  std::string message;
};

struct DiceOutcome {
  std::optional<DiceRefusal> refusal;  // set: nothing was stored
  // Set when this step revealed the last contribution: the game as set up, now active.
  std::shared_ptr<core::Game> started;
};

// Applies `step` of `role`'s player (account `account_id`) in one transaction: a commitment
// is taken once, from a seat of an open game; a contribution once the seat has committed and
// the other seat has too, and only if it hashes to the seat's commitment. The last reveal
// writes the play seed and starts the game (start_in_store, with `presence`).
DiceOutcome take_dice_step(storage::Store& store, std::int64_t game_id, core::Role role,
                           std::int64_t account_id, const DiceStep& step, std::int64_t now,
                           const Presence* presence);

// What anybody who may see the game may know of its dice: {"deadline": ms or null,
// "scotland": {"commitment", "contribution"}, "england": ...}, each null until made (a
// contribution until it is revealed); null for a game started before shared dice.
nlohmann::json dice_json(const storage::GameRow& row, const std::vector<storage::DiceRow>& dice);

// Cancels the open games whose dice deadline is at or before `now`, each in a transaction of
// its own; their ids. `may_write` as for finish_expired_games: a game this node may not write
// (another node holds it) is left to its holder.
std::vector<std::int64_t> cancel_games_past_dice_deadline(storage::Store& store, std::int64_t now,
                                                          const MayWriteGame& may_write = {});

}  // namespace blockfog::server
