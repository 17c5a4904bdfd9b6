#include "server/periodic/signing_key_checks.h"

#include "server/log.h"
#include "server/periodic/periodic_sweep.h"
#include "server/records/signing.h"
#include "storage/signing_keys.h"

namespace blockfog::server {

void start_signing_key_checks(DbWorker& db, CurrentSigningKey& key,
                              std::chrono::milliseconds every) {
  sweep_every(db, every, "signing key", [&key](storage::Store& store) -> SweepTell {
    for (const auto& row : storage::list_signing_keys(store)) {
      if (row.retired_at) continue;
      if (key.set({row.key_id, row.public_key, row.private_key})) {
        log_info("signing with key " + row.key_id + " from now on");
      }
    }
    return nullptr;
  });
}

}  // namespace blockfog::server
