#pragma once

// Rows that nothing reads again (expired sessions, closed failed-login windows) are deleted on
// the storage thread at start and then every few minutes, so the tables stay small whatever
// the traffic (docs/storage.md, "Housekeeping").

#include <chrono>
#include <cstdint>

namespace blockfog::server {

class DbWorker;

inline constexpr std::chrono::minutes kHousekeepingEvery{5};
// How long a failed-login window is kept: at least the longest throttle window (api.cpp
// checks), or a purge would reset a throttle early.
inline constexpr std::int64_t kFailedLoginRetentionMs = 3600 * 1000;

// Purges once now (queued behind the tasks already posted), then every `every`.
void start_housekeeping(DbWorker& db, std::chrono::milliseconds every = kHousekeepingEvery);

}  // namespace blockfog::server
