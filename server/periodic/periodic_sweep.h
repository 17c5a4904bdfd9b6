#pragma once

// The one mechanism of the server's periodic checks (clocks: server/periodic/clock_checks.h,
// tournaments: server/periodic/tournament_checks.h). On the storage thread, every `every`, `look`
// reads and writes the store (its writes go in the group of its task) and returns what to tell the
// rooms, or nothing; what it returns runs only once those writes are committed, so a client
// never hears of a change that a crash could still undo. A `look` that throws is logged under
// `topic` (throttled) and tells nothing (its transactions roll back what they had not
// committed); the next sweep tries again.

#include <chrono>
#include <functional>
#include <string>

namespace blockfog::storage {
class Store;
}

namespace blockfog::server {

class DbWorker;

using SweepTell = std::function<void()>;
using SweepLook = std::function<SweepTell(storage::Store& store)>;

void sweep_every(DbWorker& db, std::chrono::milliseconds every, std::string topic, SweepLook look);

}  // namespace blockfog::server
