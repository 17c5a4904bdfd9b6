#include "server/clock_checks.h"

#include <memory>
#include <string>
#include <vector>

#include "server/clock.h"
#include "server/db_worker.h"
#include "server/game_clocks.h"
#include "server/log.h"
#include "server/room_registry.h"

namespace blockfog::server {

void start_clock_checks(DbWorker& db, RoomRegistry& rooms, std::chrono::milliseconds every) {
  db.every(every, [&db, &rooms](storage::Store& store) {
    std::vector<EndedGame> ended;
    try {
      ended = finish_expired_games(store, now_ms());
    } catch (const std::exception& e) {
      log_error_throttled("clocks", std::string("clock check: ") + e.what());
      return;
    }
    if (ended.empty()) return;
    // The rooms hear of it once the group holding the endings is committed: a task posted now
    // is told after that commit.
    auto games = std::make_shared<std::vector<EndedGame>>(std::move(ended));
    db.post([](storage::Store&) {},
            [&rooms, games](bool committed) {
              if (!committed) return;
              for (const auto& game : *games) {
                if (game.stand_in) {
                  log_info("game " + std::to_string(game.game_id) +
                           ": time ran out, the computer stands in");
                  rooms.stand_in(game.game_id, game.stand_in->role, game.stand_in->seat);
                  continue;
                }
                log_info("game " + std::to_string(game.game_id) + " ended: time ran out");
                rooms.end(game.game_id, storage::GameStatus::Finished, game.result_json);
              }
            });
  });
}

}  // namespace blockfog::server
