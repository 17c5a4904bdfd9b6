#pragma once

// A client of one game under load when several nodes share one PostgreSQL database
// (docs/multi-node.md, section 5): both seats played by one thread that sends the next random
// legal action as soon as the last was answered, reconnecting (following `moved`) whenever a
// connection ends, and recording every answer. Then the check that the game's log holds every
// acknowledged action in its place and nothing no client sent.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/server/game_helpers.h"
#include "tests/server/node_clients.h"

namespace blockfog::server::testing {

// One action a client sent, and when.
struct SentAction {
  std::string role;
  nlohmann::json action;
  std::chrono::steady_clock::time_point sent;
  std::chrono::steady_clock::time_point answered;
};

class ActingClient {
 public:
  using Clock = std::chrono::steady_clock;
  // Connects first through `home_port`; when a reconnection there finds no view within its
  // attempt (the node is down), the next one goes to the next node of `nodes`, as a proxy's
  // round robin would.
  ActingClient(const NodePorts& nodes, int home_port, std::int64_t game_id, std::string scot_cookie,
               std::string eng_cookie, std::uint64_t seed);
  ~ActingClient() { finish(); }
  ActingClient(const ActingClient&) = delete;
  ActingClient& operator=(const ActingClient&) = delete;

  void begin();
  void finish();

  std::int64_t game_id() const { return game_id_; }
  std::vector<SentAction> acknowledged() const;
  // Answered storage_unavailable.
  std::vector<SentAction> refused() const;
  // Sent, and then the connection ended (or `moved` came) before the answer: stored or not.
  std::vector<SentAction> unanswered() const;
  std::vector<nlohmann::json> other_answers() const;
  bool over() const { return over_; }
  // Acknowledged actions, and refusals, of actions sent at or after `from`.
  std::size_t acknowledged_since(Clock::time_point from) const;
  std::size_t refused_since(Clock::time_point from) const;
  // Reconnections at or after `from` that a node refused with 503 (the database away): a client
  // whose connection had ended meets an outage there, not in an answer to an action.
  std::size_t refused_upgrades_since(Clock::time_point from) const;
  // Connections opened after the first two (one per seat), wherever they ended.
  std::size_t reconnections() const;
  // Each time a seat was shown an older view than one it had been shown before (a connection's
  // first view after a reconnection at another node included): what it saw. Empty when every
  // seat's view version only went forward.
  std::vector<std::string> versions_back() const;

 private:
  void step();
  void drop();
  void reconnect();
  // Notes the version of seat `i`'s view, and whether it went back.
  void saw_version(std::size_t i);

  const NodePorts nodes_;
  int port_;
  const std::int64_t game_id_;
  const std::string cookies_[2];  // scotland's, england's
  std::mt19937_64 rng_;
  std::unique_ptr<Connection> seats_[2];
  std::int64_t refs_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<bool> over_{false};
  mutable std::mutex mutex_;
  std::vector<SentAction> acknowledged_;
  std::vector<SentAction> refused_;
  std::vector<SentAction> unanswered_;
  std::vector<Clock::time_point> refused_upgrades_;
  std::vector<nlohmann::json> other_answers_;
  std::size_t opened_ = 0;
  std::int64_t seen_version_[2] = {-1, -1};
  std::vector<std::string> versions_back_;
  std::thread thread_;
};

using ActingClients = std::vector<std::unique_ptr<ActingClient>>;

// Opens `count` games, the i-th at `ports[i % ports.size()]` (the node a game is first opened at
// takes it, so each node holds its share) with players named `prefix` and i, and a client acting
// on it from seed `seed` + i; begins them all, and waits (up to `limit`) until each has had
// `actions` acknowledged. Empty, after a test failure, when that did not happen.
ActingClients start_acting_clients(const NodePorts& nodes, const std::vector<int>& ports,
                                   std::size_t count, const std::string& prefix, std::uint64_t seed,
                                   std::size_t actions, std::chrono::seconds limit);

// Whether `holds` holds for every client.
template <typename Predicate>
bool every_client(const ActingClients& clients, Predicate&& holds) {
  for (const auto& c : clients) {
    if (!holds(*c)) return false;
  }
  return true;
}

// Checks (with gtest's EXPECTs) the game's log in the database at `uri` against what the
// client was told: the acknowledged actions in their order, and between them only actions whose
// answer never came or that were refused while their COMMIT's outcome was unknown; the record
// replays to the log's last hash. Returns how many actions are stored without an
// acknowledgement.
std::size_t expect_log_keeps_acknowledged(const ActingClient& client, const std::string& uri);

// Polls `done` every 20 ms until it holds or `limit` passes: whether it held.
template <typename Predicate>
bool wait_for(Predicate done, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

inline double seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace blockfog::server::testing
