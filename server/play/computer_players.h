#pragma once

// The computer opponent's thinking in the server (docs/ai.md, "In the product"): a small pool
// of worker threads of its own with a queue of decisions, so that a search (up to 2 s at hard
// level, ai/player.h) never runs on a network, room or storage thread. A decision takes only
// the seat's view as the engine's one view writer wrote it (Game::write_view for the seat's
// role: what the server would send that seat) and the views the seat was given before; the
// chosen action goes back to the room, which checks and commits it as a player's.
//
// The queue is shared fairly between the accounts the computer plays against (fair_queue.h):
// accounts take turns, one decision each, so a decision waits behind at most one decision of
// each other account with decisions waiting (plus those being thought), however many games
// those accounts drive at once.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "ai/player.h"
#include "games/registry.h"
#include "server/play/fair_queue.h"

namespace blockfog::server {

class Metrics;

// The views one computer seat was given before (ai::choose_action's history), oldest first,
// the last kMaxHistory only. Written by the one decision of the seat in flight.
class SeatHistory {
 public:
  static constexpr std::size_t kMaxHistory = 24;
  std::vector<nlohmann::json> views() const;
  void add(nlohmann::json view);

 private:
  mutable std::mutex mutex_;
  std::deque<nlohmann::json> views_;
};

struct Decision {
  // The account the decision is thought for (the player the computer plays against): the
  // queue takes turns between accounts.
  std::int64_t account = 0;
  // Set by the room when the decision is no longer wanted (the game ended, the seat's view
  // moved on): a queued decision is then dropped unthought.
  std::shared_ptr<std::atomic<bool>> cancelled;
  std::string view_text;  // Game::write_view of the seat's role
  // The computer opponent of the game's kind (games::GameKind::choose_action), never null.
  games::ChooseAction choose_action = nullptr;
  std::shared_ptr<SeatHistory> history;
  ai::Level level = ai::Level::Normal;
  std::uint64_t seed = 0;
  // Called on the worker thread with the chosen action, or nothing when the view could not be
  // read or offered no action. Not called for a cancelled decision.
  std::function<void(std::optional<nlohmann::json> action)> done;
};

// The decision's chooser on its view and history, then the view added to the history.
// Throws when the view cannot be read or offers no choice.
std::optional<nlohmann::json> think_with_ai(const Decision& decision);

class ComputerPlayers {
 public:
  // How a decision is made on a worker thread: think_with_ai, or a test's own. An exception
  // is logged and answered with no action.
  using Think = std::function<std::optional<nlohmann::json>(const Decision&)>;

  ComputerPlayers(int threads, Metrics& metrics, Think think = think_with_ai);
  ~ComputerPlayers();  // stop()
  ComputerPlayers(const ComputerPlayers&) = delete;
  ComputerPlayers& operator=(const ComputerPlayers&) = delete;

  // Queues the decision behind its account's earlier ones; accounts take turns. Ignored once
  // stopped.
  void submit(Decision decision);
  // Drops the queued decisions, waits for those being thought (their `done` still runs) and
  // joins the threads.
  void stop();

 private:
  void run();

  Metrics& metrics_;
  const Think think_;
  std::mutex mutex_;
  std::condition_variable wake_;
  FairQueue<Decision> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace blockfog::server
