#include "server/periodic/housekeeping.h"

#include <string>

#include "server/clock.h"
#include "server/db_worker.h"
#include "server/log.h"

namespace blockfog::server {

void start_housekeeping(DbWorker& db, std::chrono::milliseconds every) {
  const auto purge = [](storage::Store& store) {
    const auto purged = store.purge_stale(now_ms(), kFailedLoginRetentionMs);
    if (purged.sessions > 0 || purged.failed_logins > 0) {
      log_info("housekeeping: deleted " + std::to_string(purged.sessions) +
               " expired sessions and " + std::to_string(purged.failed_logins) +
               " old failed-login windows");
    }
  };
  db.post(purge);
  db.every(every, purge);
}

}  // namespace blockfog::server
