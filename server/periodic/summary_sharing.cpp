#include "server/periodic/summary_sharing.h"

#include "server/periodic/periodic_sweep.h"
#include "server/play/room_registry.h"

namespace blockfog::server {

void start_summary_sharing(DbWorker& db, RoomRegistry& rooms, std::chrono::milliseconds every) {
  sweep_every(db, every, "summaries",
              [&rooms, pass = 0](storage::Store& store) mutable -> SweepTell {
                rooms.share_summaries(store, pass++ % kSummaryFullPassEvery == 0);
                return nullptr;
              });
}

}  // namespace blockfog::server
