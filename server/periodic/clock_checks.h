#pragma once

// Ends the games whose clock ran out (result `timeout`) even when nobody acts in them, and
// lets the computer stand in where both players allowed it (server/clocks/game_clocks.h,
// finish_expired_games), by a periodic sweep (server/periodic/periodic_sweep.h) whose rooms are
// told once the endings are committed.
//
// The sweep is driven by deadlines kept in the store, not by a scan of the timed games: each
// running clock has an indexed `check_at` (migration 13) that is never later than its deadline,
// and a sweep reads only the clocks whose `check_at` has passed. The store rather than an
// in-memory schedule, because a deadline is a function of stored facts (the clock's wait, its
// bank, the player's vacations) that change in the transactions that already write the clock:
// written there, it can neither drift from them nor be lost by a restart, and a deadline that
// passed while the server was down is found by the first sweep after it starts, with no
// rebuilding of a schedule from every game at start-up. An idle server with any number of
// correspondence games reads one index range every few seconds and does no per-game work.

#include <chrono>

namespace blockfog::server {

class DbWorker;
class RoomRegistry;

inline constexpr std::chrono::seconds kClockChecksEvery{2};

void start_clock_checks(DbWorker& db, RoomRegistry& rooms,
                        std::chrono::milliseconds every = kClockChecksEvery);

}  // namespace blockfog::server
