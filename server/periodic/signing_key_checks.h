#pragma once

// Each node reads the stored current signing key every few seconds (server/records/signing.h),
// so that a rotation by --rotate-signing-key, run against the database while nodes serve it,
// reaches every node without a restart (docs/multi-node.md, section 4). One row: reading it
// often is cheap, and a rotated (perhaps leaked) key stops signing everywhere within seconds.

#include <chrono>

namespace blockfog::server {

class CurrentSigningKey;
class DbWorker;

inline constexpr std::chrono::seconds kSigningKeyChecksEvery{5};

// A store that has no current key (a --read-only server of a database that never had one)
// changes nothing.
void start_signing_key_checks(DbWorker& db, CurrentSigningKey& key,
                              std::chrono::milliseconds every = kSigningKeyChecksEvery);

}  // namespace blockfog::server
