#include "server/periodic/presence_sharing.h"

#include <cstdint>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "server/auth/session_sockets.h"
#include "server/cluster/node_leases.h"
#include "server/periodic/periodic_sweep.h"
#include "server/play/presence.h"
#include "storage/node_presence.h"

namespace blockfog::server {

void start_presence_sharing(DbWorker& db, NodeLeases& leases, Presence& presence,
                            SessionSockets& sockets, std::chrono::milliseconds every) {
  presence.track_changes();
  sweep_every(db, every, "presence",
              [&leases, &presence, &sockets, pass = 0,
               since = std::int64_t{0}](storage::Store& store) mutable -> SweepTell {
                const bool all = pass++ % kSummaryFullPassEvery == 0;
                const auto& node = leases.node_id();
                // Taken before the full list is read, so that nothing changed between is missed; a
                // change whose write fails is written again by the next full pass.
                auto changes = presence.take_changes();
                if (all) changes = {presence.online_here(), {}};
                storage::write_online_players(store, node, changes.arrived, changes.departed, all);
                const auto elsewhere = storage::read_online_players(store, node);
                presence.set_online_elsewhere({elsewhere.begin(), elsewhere.end()});

                if (all) storage::forget_ended_sessions(store);
                auto ended = storage::read_ended_sessions(
                    store, since == 0 ? 0 : since - kEndedSessionsOverlapMs);
                since = ended.read_at;
                if (ended.token_hashes.empty()) return nullptr;
                // Closed once the pass committed; a session read twice (the overlap) has no sockets
                // left the second time.
                return [&sockets, hashes = std::move(ended.token_hashes)] {
                  for (const auto& hash : hashes) sockets.close_all(hash);
                };
              });
}

}  // namespace blockfog::server
