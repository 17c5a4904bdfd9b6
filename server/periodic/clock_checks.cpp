#include "server/periodic/clock_checks.h"

#include <memory>
#include <string>
#include <vector>

#include "server/clock.h"
#include "server/clocks/game_clocks.h"
#include "server/log.h"
#include "server/periodic/periodic_sweep.h"
#include "server/play/room_registry.h"

namespace blockfog::server {

void start_clock_checks(DbWorker& db, RoomRegistry& rooms, std::chrono::milliseconds every) {
  sweep_every(db, every, "clocks", [&rooms](storage::Store& store) -> SweepTell {
    auto ended = std::make_shared<std::vector<EndedGame>>(finish_expired_games(
        store, now_ms(),
        [&rooms](storage::Store& s, std::int64_t game_id) { return rooms.may_write(s, game_id); }));
    if (ended->empty()) return nullptr;
    return [&rooms, ended] {
      for (const auto& game : *ended) {
        if (game.stand_in) {
          log_info("game " + std::to_string(game.game_id) +
                   ": time ran out, the computer stands in");
          rooms.stand_in(game.game_id, game.stand_in->role, game.stand_in->seat);
          continue;
        }
        log_info("game " + std::to_string(game.game_id) + " ended: time ran out");
        rooms.end(game.game_id, storage::GameStatus::Finished, game.result_json);
      }
    };
  });
}

}  // namespace blockfog::server
