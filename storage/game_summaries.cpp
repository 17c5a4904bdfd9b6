#include "storage/game_summaries.h"

namespace blockfog::storage {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ",") + name;
  return out;
}

std::vector<std::string> split(std::string_view text) {
  std::vector<std::string> names;
  while (!text.empty()) {
    const auto comma = text.find(',');
    names.emplace_back(text.substr(0, comma));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return names;
}

}  // namespace

void write_game_summaries(Store& store, std::string_view node_id,
                          const std::vector<GameSummaryRow>& rows, bool all) {
  if (all) {
    store.database()
        .prepare("DELETE FROM game_summaries WHERE node_id = ?1")
        .bind(1, node_id)
        .run();
    store.database().exec(
        "DELETE FROM game_summaries WHERE (game_id, node_id) IN ("
        " SELECT s.game_id, s.node_id FROM game_summaries AS s"
        " WHERE NOT EXISTS (SELECT 1 FROM nodes AS n"
        "                    WHERE n.node_id = s.node_id AND n.expires_at > db_now_ms())"
        " FOR UPDATE SKIP LOCKED)");
  }
  auto upsert = store.database().cached(
      "INSERT INTO game_summaries AS s (game_id, node_id, status, awaiting, v_scotland,"
      " v_england, v_observer, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, db_now_ms())"
      " ON CONFLICT (game_id, node_id) DO UPDATE SET status = excluded.status,"
      " awaiting = excluded.awaiting, v_scotland = excluded.v_scotland,"
      " v_england = excluded.v_england, v_observer = excluded.v_observer,"
      " updated_at = excluded.updated_at");
  for (const auto& row : rows) {
    upsert->bind(1, row.game_id)
        .bind(2, node_id)
        .bind(3, status_name(row.status))
        .bind(4, joined(row.awaiting))
        .bind(5, row.versions.scotland)
        .bind(6, row.versions.england)
        .bind(7, row.versions.observer);
    upsert->run();
    upsert->reset();
  }
}

std::vector<GameSummaryRow> read_game_summaries(Store& store, std::string_view node_id) {
  auto select = store.database().cached(
      "SELECT s.game_id, s.status, s.awaiting, s.v_scotland, s.v_england, s.v_observer"
      " FROM game_summaries AS s"
      " JOIN game_leases AS l ON l.game_id = s.game_id AND l.node_id = s.node_id"
      " JOIN nodes AS n ON n.node_id = s.node_id"
      " WHERE s.node_id <> ?1 AND l.expires_at IS NULL AND n.expires_at > db_now_ms()");
  select->bind(1, node_id);
  std::vector<GameSummaryRow> rows;
  while (select->step()) {
    GameSummaryRow row;
    row.game_id = select->column_int64(0);
    row.status = parse_status(select->column_text(1));
    row.awaiting = split(select->column_text(2));
    row.versions = {select->column_int64(3), select->column_int64(4), select->column_int64(5)};
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace blockfog::storage
