#pragma once

// Ends the games whose clock ran out (result `timeout`) even when nobody acts in them: on the
// storage thread every few seconds, each timed active game's clocks are recomputed from the
// store (server/game_clocks.h, finish_expired_games), and the rooms of the games it ended tell
// their clients.

#include <chrono>

namespace blockfog::server {

class DbWorker;
class RoomRegistry;

inline constexpr std::chrono::seconds kClockChecksEvery{2};

void start_clock_checks(DbWorker& db, RoomRegistry& rooms,
                        std::chrono::milliseconds every = kClockChecksEvery);

}  // namespace blockfog::server
