#pragma once

// Starts the next round of each running tournament whose round has no game left to end
// (server/tournaments/tournaments.h, advance_tournament): by a periodic sweep every few seconds
// (server/periodic/periodic_sweep.h), so a round follows the end of its last game however that game
// ended. The rooms of the games started are told once the round is committed.

#include <chrono>

namespace blockfog::server {

class DbWorker;
class RoomRegistry;

inline constexpr std::chrono::seconds kTournamentChecksEvery{2};

void start_tournament_checks(DbWorker& db, RoomRegistry& rooms,
                             std::chrono::milliseconds every = kTournamentChecksEvery);

}  // namespace blockfog::server
