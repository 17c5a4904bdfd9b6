#pragma once

// This node's heartbeat and its games' leases, when several nodes share one PostgreSQL database
// (docs/multi-node.md, section 2; the SQL is storage/game_leases.h). There is none on SQLite,
// whose file one process serves.
//
// The node registers under a new id at each start (its name, '/', random hex), then renews its
// heartbeat every second on the storage thread (DbWorker::every, which goes before queued
// tasks): a node whose storage thread is stuck should lose its games. A renewal that finds the
// heartbeat lapsed means any of its games may have been taken: the lapse handler lets go of
// every room, and the node registers anew. A renewal that fails for want of the database
// changes nothing (the leases last until the heartbeat's expiry, as the database judges it).
//
// Everything but name() and the constructor runs on the storage thread.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "protocol/messages.h"
#include "storage/game_leases.h"

namespace blockfog::server {

class DbWorker;

// Where a game another node holds lives (docs/protocol.md, `moved`).
struct Elsewhere {
  std::string name;           // the holder's: its path prefix /n/<name>/; empty with retry_ms
  std::int64_t retry_ms = 0;  // > 0: the holder looks dead; come back (to any node) after this
};

class NodeLeases {
 public:
  static constexpr std::chrono::milliseconds kRenewEvery{1000};
  // The holder whose heartbeat is older than this is probably dead: a client is told to come
  // back when its lease runs out rather than sent to it (docs/multi-node.md, section 3).
  static constexpr std::int64_t kStaleHeartbeatMs = 2000;

  // Registers the node (waiting for the storage thread) and starts its renewals. `name`: the
  // configured --node-name, or empty for the host's name.
  NodeLeases(DbWorker& db, std::string name);
  // Stops the storage thread (if it still runs: a start that failed), whose renewals use this.
  ~NodeLeases();
  NodeLeases(const NodeLeases&) = delete;
  NodeLeases& operator=(const NodeLeases&) = delete;

  const std::string& name() const { return name_; }
  // This start's id in the nodes table (storage thread).
  const std::string& node_id() const { return node_id_; }
  // Whether the last renewal (or registration) that reached the database was sent less than a
  // lease ago, by this node's monotonic clock: false while the database cannot be reached, or
  // the storage thread is stuck. Any thread.
  bool heartbeat_current() const;
  // Called on the storage thread after a renewal found the heartbeat lapsed, before the node
  // registers anew: let go of every room. Set before the server takes requests.
  void on_lapse(std::function<void()> handler) { on_lapse_ = std::move(handler); }

  // The game's lease for this node, if nobody else holds it: see storage::take_game_lease.
  std::optional<storage::GameLease> take(storage::Store& store, std::int64_t game_id);
  // Drain: ends the heartbeat once the storage thread reaches this (after what was queued
  // before), so that other nodes take this node's games at once; no renewal follows.
  void release(DbWorker& db);

 private:
  void register_anew(storage::Store& store);
  void renew(storage::Store& store);

  DbWorker& db_;
  const std::string name_;
  std::string node_id_;  // storage thread
  std::function<void()> on_lapse_;
  std::atomic<bool> released_{false};
  // When the last successful renewal or registration was sent (steady clock, ms).
  std::atomic<std::int64_t> renewed_at_ms_{0};
};

// Who holds the game, as a client should be told: the holder's name, or, when the holder's
// heartbeat is older than kStaleHeartbeatMs, how long until its lease runs out. None: nobody
// holds it. Any thread that owns `store`.
std::optional<Elsewhere> locate_game(storage::Store& store, std::int64_t game_id);

// The frame that sends a game's clients to `where`: the holder's path /n/<name>/ws/games/<id>,
// or retry_ms (0: at once, through any node, when the holder is unknown).
protocol::MovedMessage moved_message(std::int64_t game_id, const std::optional<Elsewhere>& where);

// The host's name as a node name (letters, digits, '-' and '_'), "node" if it has none.
std::string default_node_name();

}  // namespace blockfog::server
