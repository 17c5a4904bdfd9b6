#include "server/periodic/dice_deadlines.h"

#include <memory>
#include <string>
#include <vector>

#include "server/clock.h"
#include "server/log.h"
#include "server/periodic/periodic_sweep.h"
#include "server/play/dice.h"
#include "server/play/room_registry.h"

namespace blockfog::server {

void start_dice_deadline_checks(DbWorker& db, RoomRegistry& rooms,
                                std::chrono::milliseconds every) {
  sweep_every(db, every, "dice", [&rooms](storage::Store& store) -> SweepTell {
    auto cancelled = std::make_shared<std::vector<std::int64_t>>(cancel_games_past_dice_deadline(
        store, now_ms(),
        [&rooms](storage::Store& s, std::int64_t id) { return rooms.may_write(s, id); }));
    if (cancelled->empty()) return nullptr;
    return [&rooms, cancelled] {
      for (const auto id : *cancelled) {
        log_info("game " + std::to_string(id) + " cancelled: its dice were not revealed in time");
        rooms.end(id, storage::GameStatus::Aborted, std::nullopt);
      }
    };
  });
}

}  // namespace blockfog::server
