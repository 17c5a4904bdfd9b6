#include "server/periodic/periodic_sweep.h"

#include <exception>

#include "server/db_worker.h"
#include "server/log.h"

namespace blockfog::server {

void sweep_every(DbWorker& db, std::chrono::milliseconds every, std::string topic, SweepLook look) {
  db.every(every, [&db, topic = std::move(topic), look = std::move(look)](storage::Store& store) {
    SweepTell tell;
    try {
      tell = look(store);
    } catch (const std::exception& e) {
      log_error_throttled(topic, topic + " check: " + e.what());
      return;
    }
    if (!tell) return;
    // A task posted now is told after the commit of the group holding this one's writes.
    db.post([](storage::Store&) {},
            [tell = std::move(tell)](bool committed) {
              if (committed) tell();
            });
  });
}

}  // namespace blockfog::server
