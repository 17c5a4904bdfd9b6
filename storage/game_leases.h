#pragma once

// The tables of PostgreSQL's migration 22: nodes and their game leases with a fencing number
// (docs/multi-node.md, section 2). Several server processes share one PostgreSQL database;
// each game has one writer, the node that holds its lease, and every write of a game's action
// checks the lease's fence in its own transaction. Leases are judged by the database's clock
// (db_now_ms()), the only clock all nodes share: this file is the one part of the store that
// reads a clock, on purpose.
//
// PostgreSQL only: an SQLite database is served by one process and has no leases (its
// migration 22 adds only actions.fence). Free functions over the Store's connection, like the
// other repositories; each runs inside whatever transaction the caller holds.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "storage/store.h"

namespace blockfog::storage {

// How long a node's heartbeat keeps its leases after each renewal.
inline constexpr std::int64_t kLeaseMs = 3000;

// Which node holds a game and under which fence.
struct GameLease {
  std::string node_id;
  std::int64_t fence = 0;
  friend bool operator==(const GameLease&, const GameLease&) = default;
};

// A write of a game whose lease this node no longer holds: another node took it (or this
// node's heartbeat lapsed and it registered anew). Nothing of the write may stand.
class LeaseLost : public std::runtime_error {
 public:
  LeaseLost(std::int64_t game_id, std::int64_t fence);
  std::int64_t game_id() const noexcept { return game_id_; }

 private:
  std::int64_t game_id_;
};

// The database's clock, in milliseconds since the Unix epoch.
std::int64_t database_now_ms(Store& store);

// Starts the heartbeat of a node: `node_id` must be new (a name and a random part made at each
// start), `name` is the node's configured name (its path prefix /n/<name>/).
void register_node(Store& store, std::string_view node_id, std::string_view name,
                   std::int64_t lease_ms = kLeaseMs);
// Renews the node's heartbeat for `lease_ms`. False when it had lapsed (or was released):
// any of its games may have been taken, so the node must let go of every game and register
// under a new id; the row is left as it is.
bool renew_node(Store& store, std::string_view node_id, std::int64_t lease_ms = kLeaseMs);
// Ends the node's heartbeat now (drain): every game it holds is free at once.
void release_node(Store& store, std::string_view node_id);

// Takes the game's lease for `node_id` when nobody else holds it (no lease row, a released
// one, or one whose holder's heartbeat lapsed; or the node holds it already): the new fence,
// larger than any before. None when another node's heartbeat still keeps it. The caller
// commits before loading the game, so that it reads every write of the previous holder. The
// game must exist. Waits (up to the session's lock_timeout, then throws StorageError of kind
// Busy) while a write of the holder checked the lease and has not committed yet.
std::optional<std::int64_t> take_game_lease(Store& store, std::int64_t game_id,
                                            std::string_view node_id);

// Who holds a game now, as the lease table says.
struct LeaseHolder {
  std::string node_id;
  std::string name;  // the holder's path prefix /n/<name>/
  std::int64_t fence = 0;
  std::int64_t heartbeat_age_ms = 0;  // since the holder last renewed its heartbeat
  std::int64_t expires_in_ms = 0;     // until the lease runs out unless renewed
};
// None when nobody holds the game (no row, released, or its node's heartbeat lapsed).
std::optional<LeaseHolder> game_lease_holder(Store& store, std::int64_t game_id,
                                             std::int64_t lease_ms = kLeaseMs);

// Lets the game go (its room was let go): another node may take it at once. Only the lease
// `lease` names: a newer take (by any node) is left alone.
void release_game_lease(Store& store, std::int64_t game_id, const GameLease& lease);

// The fenced write: throws LeaseLost unless `lease` still holds the game. It locks the lease
// row FOR SHARE until the caller's transaction ends, so that a take (an UPDATE of that row)
// waits for the writes made under the old fence to commit or roll back, and every write after
// a take fails here. The first statement of every task that writes a game's action.
void check_game_lease(Store& store, std::int64_t game_id, const GameLease& lease);

}  // namespace blockfog::storage
