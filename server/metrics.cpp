#include "server/metrics.h"

#include <sstream>

#include "storage/faults.h"

namespace blockfog::server {

void Metrics::count_error(protocol::ErrorCode code) {
  const auto index = static_cast<std::size_t>(code);
  if (index < errors_.size()) errors_[index].fetch_add(1, std::memory_order_relaxed);
}

void Metrics::observe_action_latency(double seconds) {
  std::size_t bucket = 0;
  while (bucket < kLatencyBuckets.size() && seconds > kLatencyBuckets[bucket]) ++bucket;
  latency_counts_[bucket].fetch_add(1, std::memory_order_relaxed);
  latency_sum_ns_.fetch_add(static_cast<std::int64_t>(seconds * 1e9), std::memory_order_relaxed);
}

std::string Metrics::render() const {
  std::ostringstream out;
  out << "# HELP blockfog_connections Open connections by kind.\n"
      << "# TYPE blockfog_connections gauge\n"
      << "blockfog_connections{kind=\"http\"} " << http_connections.load() << "\n"
      << "blockfog_connections{kind=\"websocket\"} " << websocket_connections.load() << "\n"
      << "# HELP blockfog_games_live Games being played (active, loaded in a room).\n"
      << "# TYPE blockfog_games_live gauge\n"
      << "blockfog_games_live " << games_live.load() << "\n"
      << "# HELP blockfog_rooms_loaded Games held in memory: open, active, and finished ones "
         "being watched.\n"
      << "# TYPE blockfog_rooms_loaded gauge\n"
      << "blockfog_rooms_loaded " << rooms_loaded.load() << "\n"
      << "# HELP blockfog_computer_decisions_waiting Computer decisions queued or being "
         "thought.\n"
      << "# TYPE blockfog_computer_decisions_waiting gauge\n"
      << "blockfog_computer_decisions_waiting " << computer_decisions_waiting.load() << "\n"
      << "# HELP blockfog_computer_decisions_total Computer decisions made.\n"
      << "# TYPE blockfog_computer_decisions_total counter\n"
      << "blockfog_computer_decisions_total " << computer_decisions.load() << "\n"
      << "# HELP blockfog_actions_applied_total Actions applied and committed.\n"
      << "# TYPE blockfog_actions_applied_total counter\n"
      << "blockfog_actions_applied_total " << actions_applied.load() << "\n"
      << "# HELP blockfog_notices_sent_total Turn notice deliveries (e-mail, webhook) accepted.\n"
      << "# TYPE blockfog_notices_sent_total counter\n"
      << "blockfog_notices_sent_total " << notices_sent.load() << "\n"
      << "# HELP blockfog_notices_retried_total Turn notice attempts that failed and are retried.\n"
      << "# TYPE blockfog_notices_retried_total counter\n"
      << "blockfog_notices_retried_total " << notices_retried.load() << "\n"
      << "# HELP blockfog_notices_failed_total Turn notice deliveries given up on.\n"
      << "# TYPE blockfog_notices_failed_total counter\n"
      << "blockfog_notices_failed_total " << notices_failed.load() << "\n"
      << "# HELP blockfog_http_requests_total HTTP requests answered.\n"
      << "# TYPE blockfog_http_requests_total counter\n"
      << "blockfog_http_requests_total " << http_requests.load() << "\n"
      << "# HELP blockfog_storage_unavailable_total Statements the store refused for want of "
         "space, permission or a lock (nothing was written).\n"
      << "# TYPE blockfog_storage_unavailable_total counter\n"
      << "blockfog_storage_unavailable_total " << storage::fault_counts().unavailable << "\n"
      << "# HELP blockfog_storage_lost_writes_total Failed syncs and writes: after the first the "
         "server stores nothing more and restarts.\n"
      << "# TYPE blockfog_storage_lost_writes_total counter\n"
      << "blockfog_storage_lost_writes_total " << storage::fault_counts().lost_writes << "\n";
  out << "# HELP blockfog_db_integrity_checks_total Integrity checks of the database run "
         "(at start and while serving).\n"
      << "# TYPE blockfog_db_integrity_checks_total counter\n"
      << "blockfog_db_integrity_checks_total " << db_integrity_checks.load() << "\n";
  if (const int ok = db_integrity_ok.load(); ok >= 0) {
    out << "# HELP blockfog_db_integrity_ok 1 if the last integrity check passed, 0 if it found "
           "damage.\n"
        << "# TYPE blockfog_db_integrity_ok gauge\n"
        << "blockfog_db_integrity_ok " << ok << "\n";
  }
  if (storage_writable) {
    out << "# HELP blockfog_storage_writable 1 while the store can write, 0 while it cannot.\n"
        << "# TYPE blockfog_storage_writable gauge\n"
        << "blockfog_storage_writable " << (storage_writable() ? 1 : 0) << "\n";
  }
  if (!node_name.empty()) {
    // A label value escapes '\\', '"' and newlines (Prometheus text format); node names
    // have none of them, but a configured one is not trusted to.
    std::string label;
    for (const char ch : node_name) {
      if (ch == '\\' || ch == '"') label += '\\';
      if (ch == '\n') {
        label += "\\n";
      } else {
        label += ch;
      }
    }
    out << "# HELP blockfog_node_info The node that serves these figures (--node-name).\n"
        << "# TYPE blockfog_node_info gauge\n"
        << "blockfog_node_info{node=\"" << label << "\"} 1\n";
  }
  if (games_held) {
    out << "# HELP blockfog_games_held Games this node plays: under its leases on PostgreSQL, "
           "its rooms on SQLite.\n"
        << "# TYPE blockfog_games_held gauge\n"
        << "blockfog_games_held " << games_held() << "\n";
  }
  out << "# HELP blockfog_leases_taken_total Game leases this node took.\n"
      << "# TYPE blockfog_leases_taken_total counter\n"
      << "blockfog_leases_taken_total " << leases_taken.load() << "\n"
      << "# HELP blockfog_leases_lost_total Writes refused by the lease's fence: another node "
         "had taken the game.\n"
      << "# TYPE blockfog_leases_lost_total counter\n"
      << "blockfog_leases_lost_total " << leases_lost.load() << "\n"
      << "# HELP blockfog_moved_sent_total WebSocket clients told the game is on another node "
         "(moved).\n"
      << "# TYPE blockfog_moved_sent_total counter\n"
      << "blockfog_moved_sent_total " << moved_sent.load() << "\n"
      << "# HELP blockfog_redirects_sent_total Game-scoped HTTP requests sent to the node "
         "holding the game (307).\n"
      << "# TYPE blockfog_redirects_sent_total counter\n"
      << "blockfog_redirects_sent_total " << redirects_sent.load() << "\n";
  out << "# HELP blockfog_errors_total Errors sent to clients, by kind.\n"
      << "# TYPE blockfog_errors_total counter\n";
  for (std::size_t i = 0; i < errors_.size(); ++i) {
    out << "blockfog_errors_total{kind=\""
        << protocol::error_code_name(static_cast<protocol::ErrorCode>(i)) << "\"} "
        << errors_[i].load() << "\n";
  }
  out << "# HELP blockfog_action_latency_seconds From an action's arrival to its views' "
         "publication (after the commit).\n"
      << "# TYPE blockfog_action_latency_seconds histogram\n";
  std::int64_t cumulative = 0;
  for (std::size_t i = 0; i < kLatencyBuckets.size(); ++i) {
    cumulative += latency_counts_[i].load();
    out << "blockfog_action_latency_seconds_bucket{le=\"" << kLatencyBuckets[i] << "\"} "
        << cumulative << "\n";
  }
  cumulative += latency_counts_.back().load();
  out << "blockfog_action_latency_seconds_bucket{le=\"+Inf\"} " << cumulative << "\n"
      << "blockfog_action_latency_seconds_sum " << static_cast<double>(latency_sum_ns_.load()) / 1e9
      << "\n"
      << "blockfog_action_latency_seconds_count " << cumulative << "\n";
  return out.str();
}

}  // namespace blockfog::server
