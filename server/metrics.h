#pragma once

// Counters for GET /metrics, in the Prometheus text format. Updated from any thread.

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "protocol/errors.h"

namespace blockfog::server {

class Metrics {
 public:
  static constexpr std::array<double, 14> kLatencyBuckets = {
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5};

  std::atomic<std::int64_t> http_connections{0};
  std::atomic<std::int64_t> websocket_connections{0};
  std::atomic<std::int64_t> games_live{0};
  std::atomic<std::int64_t> rooms_loaded{0};  // games held in memory (finished ones leave)
  std::atomic<std::int64_t> actions_applied{0};
  // Computer decisions queued or being thought (server/play/computer_players.h).
  std::atomic<std::int64_t> computer_decisions_waiting{0};
  std::atomic<std::int64_t> computer_decisions{0};  // made, in total
  std::atomic<std::int64_t> http_requests{0};
  // Turn notice deliveries (one per channel): delivered, failed and retried, given up on.
  std::atomic<std::int64_t> notices_sent{0};
  std::atomic<std::int64_t> notices_retried{0};
  std::atomic<std::int64_t> notices_failed{0};
  // 1 while the store can write, 0 while it cannot (DbWorker::health); unset: not shown.
  std::function<bool()> storage_writable;
  // The database's last integrity check (IntegrityMonitor): 1 passed, 0 found damage, -1 none
  // yet (not shown).
  std::atomic<int> db_integrity_ok{-1};
  std::atomic<std::int64_t> db_integrity_checks{0};

  // Several nodes on one database (docs/multi-node.md). The node's name (set before the
  // server takes requests) and the games it plays (RoomRegistry::games_held; unset: not shown).
  std::string node_name;
  std::function<std::int64_t()> games_held;
  std::atomic<std::int64_t> leases_taken{0};    // game leases this node took (committed)
  std::atomic<std::int64_t> leases_lost{0};     // writes refused by the fence: another node took it
  std::atomic<std::int64_t> moved_sent{0};      // `moved` frames sent to WebSocket clients
  std::atomic<std::int64_t> redirects_sent{0};  // 307s sending a game-scoped request to its holder

  void count_error(protocol::ErrorCode code);
  // Seconds from an action's frame arriving to its views being handed to the sockets.
  void observe_action_latency(double seconds);

  std::string render() const;

 private:
  static constexpr std::size_t kErrorKinds =
      static_cast<std::size_t>(protocol::ErrorCode::Internal) + 1;
  std::array<std::atomic<std::int64_t>, kErrorKinds> errors_{};
  std::array<std::atomic<std::int64_t>, kLatencyBuckets.size() + 1> latency_counts_{};
  std::atomic<std::int64_t> latency_sum_ns_{0};
};

}  // namespace blockfog::server
