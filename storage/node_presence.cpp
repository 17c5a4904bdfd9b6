#include "storage/node_presence.h"

#include "storage/game_leases.h"

namespace blockfog::storage {

void write_online_players(Store& store, std::string_view node_id,
                          const std::vector<std::int64_t>& arrived,
                          const std::vector<std::int64_t>& departed, bool all) {
  auto& db = store.database();
  if (all) {
    db.prepare("DELETE FROM online_players WHERE node_id = ?1").bind(1, node_id).run();
    db.exec(
        "DELETE FROM online_players WHERE (node_id, account_id) IN ("
        " SELECT p.node_id, p.account_id FROM online_players AS p"
        " WHERE NOT EXISTS (SELECT 1 FROM nodes AS n"
        "                    WHERE n.node_id = p.node_id AND n.expires_at > db_now_ms())"
        " FOR UPDATE SKIP LOCKED)");
  } else {
    auto remove = db.cached("DELETE FROM online_players WHERE node_id = ?1 AND account_id = ?2");
    for (const auto account : departed) {
      remove->bind(1, node_id).bind(2, account);
      remove->run();
      remove->reset();
    }
  }
  auto insert = db.cached(
      "INSERT INTO online_players (node_id, account_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING");
  for (const auto account : arrived) {
    insert->bind(1, node_id).bind(2, account);
    insert->run();
    insert->reset();
  }
}

std::vector<std::int64_t> read_online_players(Store& store, std::string_view node_id) {
  auto select = store.database().cached(
      "SELECT DISTINCT p.account_id FROM online_players AS p"
      " JOIN nodes AS n ON n.node_id = p.node_id"
      " WHERE p.node_id <> ?1 AND n.expires_at > db_now_ms()");
  select->bind(1, node_id);
  std::vector<std::int64_t> accounts;
  while (select->step()) accounts.push_back(select->column_int64(0));
  return accounts;
}

void record_ended_sessions(Store& store, const std::vector<std::string>& token_hashes) {
  auto insert = store.database().cached(
      "INSERT INTO ended_sessions (token_hash, ended_at) VALUES (?1, db_now_ms())"
      " ON CONFLICT (token_hash) DO UPDATE SET ended_at = excluded.ended_at");
  for (const auto& hash : token_hashes) {
    insert->bind(1, hash);
    insert->run();
    insert->reset();
  }
}

EndedSessions read_ended_sessions(Store& store, std::int64_t since) {
  EndedSessions ended;
  ended.read_at = database_now_ms(store);
  auto select =
      store.database().cached("SELECT token_hash FROM ended_sessions WHERE ended_at >= ?1");
  select->bind(1, since);
  while (select->step()) ended.token_hashes.push_back(select->column_text(0));
  return ended;
}

void forget_ended_sessions(Store& store) {
  store.database()
      .prepare(
          "DELETE FROM ended_sessions WHERE token_hash IN ("
          " SELECT token_hash FROM ended_sessions WHERE ended_at < db_now_ms() - ?1"
          " FOR UPDATE SKIP LOCKED)")
      .bind(1, kEndedSessionKeptMs)
      .run();
}

}  // namespace blockfog::storage
