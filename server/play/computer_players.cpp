#include "server/play/computer_players.h"

#include "server/log.h"
#include "server/metrics.h"

namespace blockfog::server {

using nlohmann::json;

std::vector<json> SeatHistory::views() const {
  std::lock_guard lock(mutex_);
  return {views_.begin(), views_.end()};
}

void SeatHistory::add(json view) {
  std::lock_guard lock(mutex_);
  views_.push_back(std::move(view));
  while (views_.size() > kMaxHistory) views_.pop_front();
}

std::optional<json> think_with_ai(const Decision& decision) {
  json view = json::parse(decision.view_text);
  auto action = decision.choose_action(view, decision.history->views(), decision.level,
                                       decision.seed, nullptr, true);
  decision.history->add(std::move(view));
  return action;
}

ComputerPlayers::ComputerPlayers(int threads, Metrics& metrics, Think think)
    : metrics_(metrics), think_(std::move(think)) {
  for (int i = 0; i < std::max(threads, 1); ++i) threads_.emplace_back([this] { run(); });
}

ComputerPlayers::~ComputerPlayers() { stop(); }

void ComputerPlayers::submit(Decision decision) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    const auto account = decision.account;
    queue_.push(account, std::move(decision));
    ++metrics_.computer_decisions_waiting;
  }
  wake_.notify_one();
}

void ComputerPlayers::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    metrics_.computer_decisions_waiting -= static_cast<std::int64_t>(queue_.size());
    queue_.clear();
  }
  wake_.notify_all();
  for (auto& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
  threads_.clear();
}

void ComputerPlayers::run() {
  for (;;) {
    Decision decision;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      decision = std::move(*queue_.pop());
    }
    std::optional<json> action;
    if (!decision.cancelled->load()) {
      try {
        action = think_(decision);
        ++metrics_.computer_decisions;
      } catch (const std::exception& e) {
        log_error(std::string("computer decision: ") + e.what());
        action.reset();
      }
    }
    --metrics_.computer_decisions_waiting;
    if (!decision.cancelled->load()) decision.done(std::move(action));
  }
}

}  // namespace blockfog::server
