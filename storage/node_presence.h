#pragma once

// The tables of PostgreSQL's migration 24 (docs/multi-node.md, section 4): which accounts have
// a client at each node, and the login sessions a node ended, so that every node's lobby says
// who is online and every node closes the WebSockets of a session ended elsewhere. PostgreSQL
// only, like storage/game_leases.h: one SQLite process knows both already.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "storage/store.h"

namespace blockfog::storage {

// Records that `node_id`'s clients of these accounts arrived (a first connection at the node)
// or departed (its last one closed). `all`: `arrived` is every account online at the node now;
// its other rows are deleted first, and so are the rows of nodes whose heartbeat lapsed,
// skipping any row a transaction still holds (nothing here waits for another node).
void write_online_players(Store& store, std::string_view node_id,
                          const std::vector<std::int64_t>& arrived,
                          const std::vector<std::int64_t>& departed, bool all);

// The accounts with a client at a live node other than `node_id`, each once.
std::vector<std::int64_t> read_online_players(Store& store, std::string_view node_id);

// How long an ended session is remembered: far longer than any node's pass.
inline constexpr std::int64_t kEndedSessionKeptMs = 60'000;

// Records the ended login sessions (their token hashes), in the caller's transaction.
void record_ended_sessions(Store& store, const std::vector<std::string>& token_hashes);

struct EndedSessions {
  std::vector<std::string> token_hashes;
  std::int64_t read_at = 0;  // the database's clock when read: the next call's `since`
};
// The sessions recorded as ended at or after `since` (database time, ms; 0 for all kept). A
// session ended by a transaction that committed late may have an earlier time than a read that
// missed it: callers read again from a few seconds before the last read_at.
EndedSessions read_ended_sessions(Store& store, std::int64_t since);

// Forgets sessions ended more than kEndedSessionKeptMs ago, skipping rows others hold.
void forget_ended_sessions(Store& store);

}  // namespace blockfog::storage
