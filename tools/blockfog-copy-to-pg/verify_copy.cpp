#include "tools/blockfog-copy-to-pg/verify_copy.h"

#include <cstdint>
#include <string>

#include "server/records/game_record.h"

namespace blockfog::copy_to_pg {

std::vector<tools::GameVerdict> verify_finished_games(storage::Store& store) {
  std::vector<std::int64_t> ids;
  auto finished =
      store.database().prepare("SELECT id FROM games WHERE status = 'finished' ORDER BY id");
  while (finished.step()) ids.push_back(finished.column_int64(0));
  std::vector<tools::GameVerdict> verdicts;
  for (const auto id : ids) {
    const auto row = store.find_game(id);
    const auto name = std::to_string(id);
    if (!row) {
      tools::GameVerdict unread;
      unread.game_id = name;
      unread.reason = "the game's row cannot be read back";
      verdicts.push_back(unread);
      continue;
    }
    // Unsigned: the copy is checked against its own rows; a signature would add nothing here.
    const auto record =
        server::game_record(*row, store.load_actions(id), server::load_record_context(store, *row));
    verdicts.push_back(tools::verify_record(record, name));
  }
  return verdicts;
}

}  // namespace blockfog::copy_to_pg
