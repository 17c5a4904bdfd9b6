#pragma once

// The table of PostgreSQL's migration 23: the lobby summaries of the games each node holds
// (docs/multi-node.md, section 4). Whose turn it is and the view versions live in the room of
// the node that holds a game; the other nodes' lobbies read them here. PostgreSQL only, like
// storage/game_leases.h.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "storage/store.h"

namespace blockfog::storage {

struct GameSummaryRow {
  std::int64_t game_id = 0;
  GameStatus status = GameStatus::Open;
  std::vector<std::string> awaiting;  // role names, in the room's order
  ViewVersions versions;
};

// Writes (or overwrites) summaries of games `node_id` holds, one statement per row. `all`:
// `rows` are all of them; the node's other rows are deleted first, and so are the rows of nodes
// whose heartbeat lapsed, skipping any row a transaction still holds (nothing here waits for
// another node).
void write_game_summaries(Store& store, std::string_view node_id,
                          const std::vector<GameSummaryRow>& rows, bool all);

// Every summary whose writer holds its game's lease now, with a live heartbeat, other than
// `node_id`'s own: a summary of a node that let the game go or died counts no more.
std::vector<GameSummaryRow> read_game_summaries(Store& store, std::string_view node_id);

}  // namespace blockfog::storage
