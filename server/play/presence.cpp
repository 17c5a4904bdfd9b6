#include "server/play/presence.h"

namespace blockfog::server {

void Presence::arrive(std::int64_t game_id, std::int64_t account_id) {
  const std::lock_guard lock(mutex_);
  ++connections_[{game_id, account_id}];
}

void Presence::depart(std::int64_t game_id, std::int64_t account_id) {
  const std::lock_guard lock(mutex_);
  const auto it = connections_.find({game_id, account_id});
  if (it == connections_.end()) return;
  if (--it->second <= 0) connections_.erase(it);
}

bool Presence::present(std::int64_t game_id, std::int64_t account_id) const {
  const std::lock_guard lock(mutex_);
  return connections_.contains({game_id, account_id});
}

}  // namespace blockfog::server
