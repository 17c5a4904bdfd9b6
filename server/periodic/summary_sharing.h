#pragma once

// Several nodes on one database (docs/multi-node.md, section 4): every second each node writes
// the lobby summaries of the games it holds that changed, and reads the other nodes', so that a
// lobby served by any node says whose turn it is in every game (RoomRegistry::share_summaries).
// Every tenth pass writes all of them: PostgreSQL empties the unlogged table when it crashes,
// and a failed write is made good. Started only with leases.

#include <chrono>

namespace blockfog::server {

class DbWorker;
class RoomRegistry;

inline constexpr std::chrono::seconds kSummarySharingEvery{1};
inline constexpr int kSummaryFullPassEvery = 10;

void start_summary_sharing(DbWorker& db, RoomRegistry& rooms,
                           std::chrono::milliseconds every = kSummarySharingEvery);

}  // namespace blockfog::server
