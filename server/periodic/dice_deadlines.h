#pragma once

// Cancels the games whose dice were not all revealed by their deadline (server/play/dice.h):
// a player who never reveals forfeits the start, and nothing is rated. A periodic sweep
// (server/periodic/periodic_sweep.h) over the games' stored deadlines, whose rooms are told
// once the cancellations are committed; one that passed while the server was down is found by
// the first sweep after it starts.

#include <chrono>

namespace blockfog::server {

class DbWorker;
class RoomRegistry;

inline constexpr std::chrono::seconds kDiceChecksEvery{2};

void start_dice_deadline_checks(DbWorker& db, RoomRegistry& rooms,
                                std::chrono::milliseconds every = kDiceChecksEvery);

}  // namespace blockfog::server
