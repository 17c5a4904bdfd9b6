#pragma once

// Starting a game in the store: the one transaction that takes an open game with both seats
// taken to active (docs/storage.md), used by joins, rematches and tournament rounds alike.

#include <cstdint>
#include <memory>

#include "rules/core/game.h"
#include "storage/store.h"

namespace blockfog::server {

class Presence;

// Sets an open game with both seats taken going (in one transaction): status active, the
// snapshot after setup, the clocks, and a turn notice (seq 0) for each awaited seat whose
// player is away: neither `started_by` (the player whose join or acceptance started it, who is
// at the game) nor connected to the game's room as `presence` says at the moment of this
// transaction (the same record a room reads before an action; null for a game no room can
// hold yet: created and started in the caller's transaction). Returns the game as set up.
std::shared_ptr<core::Game> start_in_store(storage::Store& store, std::int64_t game_id,
                                           std::int64_t started_by, std::int64_t now,
                                           const Presence* presence = nullptr);

}  // namespace blockfog::server
