#include "storage/game_leases.h"

namespace blockfog::storage {

LeaseLost::LeaseLost(std::int64_t game_id, std::int64_t fence)
    : std::runtime_error("the lease of game " + std::to_string(game_id) + " under fence " +
                         std::to_string(fence) + " was taken by another node"),
      game_id_(game_id) {}

std::int64_t database_now_ms(Store& store) {
  auto now = store.database().cached("SELECT db_now_ms()");
  now->step();
  return now->column_int64(0);
}

void register_node(Store& store, std::string_view node_id, std::string_view name,
                   std::int64_t lease_ms) {
  store.database()
      .prepare(
          "INSERT INTO nodes (node_id, name, started_at, expires_at)"
          " VALUES (?1, ?2, db_now_ms(), db_now_ms() + ?3)")
      .bind(1, node_id)
      .bind(2, name)
      .bind(3, lease_ms)
      .run();
}

bool renew_node(Store& store, std::string_view node_id, std::int64_t lease_ms) {
  auto renew = store.database().cached(
      "UPDATE nodes SET expires_at = db_now_ms() + ?2"
      " WHERE node_id = ?1 AND expires_at > db_now_ms() RETURNING expires_at");
  renew->bind(1, node_id).bind(2, lease_ms);
  return renew->step();
}

void release_node(Store& store, std::string_view node_id) {
  store.database()
      .prepare("UPDATE nodes SET expires_at = 0 WHERE node_id = ?1")
      .bind(1, node_id)
      .run();
}

std::optional<std::int64_t> take_game_lease(Store& store, std::int64_t game_id,
                                            std::string_view node_id) {
  // FOR SHARE on the holder's heartbeat orders a take and a renewal that race: whichever
  // commits second sees the other's row (docs/multi-node.md, section 2). The node that holds
  // the game already takes it again (a room of its own that was dropped): the new fence ends
  // whatever an older room of it would still write.
  auto take = store.database().cached(
      "INSERT INTO game_leases AS l (game_id, node_id, fence, expires_at)"
      " VALUES (?1, ?2, nextval('game_lease_fence'), NULL)"
      " ON CONFLICT (game_id) DO UPDATE"
      " SET node_id = excluded.node_id, fence = excluded.fence, expires_at = NULL"
      " WHERE l.node_id = excluded.node_id"
      "    OR coalesce(l.expires_at,"
      "                (SELECT n.expires_at FROM nodes AS n WHERE n.node_id = l.node_id FOR SHARE),"
      "                0) <= db_now_ms()"
      " RETURNING fence");
  take->bind(1, game_id).bind(2, node_id);
  if (!take->step()) return std::nullopt;
  return take->column_int64(0);
}

std::optional<LeaseHolder> game_lease_holder(Store& store, std::int64_t game_id,
                                             std::int64_t lease_ms) {
  auto read = store.database().cached(
      "SELECT l.node_id, n.name, l.fence, db_now_ms() - (n.expires_at - ?2),"
      "       coalesce(l.expires_at, n.expires_at) - db_now_ms()"
      " FROM game_leases AS l JOIN nodes AS n ON n.node_id = l.node_id"
      " WHERE l.game_id = ?1 AND coalesce(l.expires_at, n.expires_at) > db_now_ms()");
  read->bind(1, game_id).bind(2, lease_ms);
  if (!read->step()) return std::nullopt;
  return LeaseHolder{read->column_text(0), read->column_text(1), read->column_int64(2),
                     read->column_int64(3), read->column_int64(4)};
}

void release_game_lease(Store& store, std::int64_t game_id, const GameLease& lease) {
  auto release = store.database().cached(
      "UPDATE game_leases SET expires_at = 0 WHERE game_id = ?1 AND node_id = ?2 AND fence = ?3");
  release->bind(1, game_id).bind(2, lease.node_id).bind(3, lease.fence);
  release->run();
}

void check_game_lease(Store& store, std::int64_t game_id, const GameLease& lease) {
  // FOR SHARE, not FOR KEY SHARE: a take leaves the key alone and must still wait for this.
  auto check = store.database().cached(
      "SELECT 1 FROM game_leases WHERE game_id = ?1 AND node_id = ?2 AND fence = ?3 FOR SHARE");
  check->bind(1, game_id).bind(2, lease.node_id).bind(3, lease.fence);
  if (!check->step()) throw LeaseLost(game_id, lease.fence);
}

}  // namespace blockfog::storage
