#include "server/play/game_start.h"

#include <stdexcept>
#include <string>

#include "server/clocks/game_clocks.h"
#include "server/notices/turn_notices.h"
#include "server/play/game_loader.h"
#include "server/play/presence.h"
#include "server/seats.h"
#include "storage/notice_store.h"

namespace blockfog::server {

std::shared_ptr<core::Game> start_in_store(storage::Store& store, std::int64_t game_id,
                                           std::int64_t started_by, std::int64_t now,
                                           const Presence* presence) {
  const auto row = store.find_game(game_id);
  if (!row) throw std::runtime_error("no game " + std::to_string(game_id));
  auto loaded = setup_game(*row);
  if (!loaded.game) throw std::runtime_error(loaded.error);
  // Seq 0 is the state right after setup; the game's log starts after it.
  storage::Transaction transaction(store.database());
  store.set_game_status(game_id, storage::GameStatus::Active, now);
  std::string snapshot;
  loaded.game->write_snapshot(snapshot);  // as the room writes the later ones
  store.save_snapshot(game_id, 0, snapshot, loaded.game->state_hash(), now);
  start_clocks(store, game_id, load_time_control(store, game_id), public_awaiting(*loaded.game),
               now);
  // The start's turn notices, in the same transaction (never lost, as an action's), to the
  // players away at this very moment: one connected now is never told.
  storage::forget_start_notices(store, game_id);
  const auto at_game = [game_id, started_by, presence](std::int64_t account) {
    return account == started_by || (presence && presence->present(game_id, account));
  };
  for (const auto& notice :
       turn_notices(game_id, nullptr, *loaded.game, load_seats(store, game_id), {}, at_game)) {
    storage::enqueue_notice(store, game_id, notice.role, 0, notice.account_id, notice.content_json,
                            now);
  }
  transaction.commit();
  return std::move(loaded.game);
}

}  // namespace blockfog::server
