#include "server/periodic/tournament_checks.h"

#include <memory>
#include <string>

#include "server/clock.h"
#include "server/db_worker.h"
#include "server/periodic/periodic_sweep.h"
#include "server/play/room_registry.h"
#include "server/tournaments/tournaments.h"
#include "storage/tournament_store.h"

namespace blockfog::server {

void start_tournament_checks(DbWorker& db, RoomRegistry& rooms, std::chrono::milliseconds every) {
  sweep_every(db, every, "tournaments", [&rooms](storage::Store& store) -> SweepTell {
    auto round = std::make_shared<RoundStart>();
    for (const auto id : storage::list_running_tournaments(store)) {
      auto more = advance_tournament(store, id, now_ms());
      for (auto& g : more.ended) round->ended.push_back(std::move(g));
    }
    if (round->ended.empty()) return nullptr;
    // The rooms of ended games are told; a created game's room loads when a player opens it.
    return [&rooms, round] {
      for (const auto& g : round->ended) {
        rooms.end(g.game_id, storage::GameStatus::Finished, g.result_json);
      }
    };
  });
}

}  // namespace blockfog::server
