#include "server/play/presence.h"

#include "server/clock.h"

namespace blockfog::server {

void Presence::arrive(std::int64_t game_id, std::int64_t account_id) {
  const std::lock_guard lock(mutex_);
  ++connections_[{game_id, account_id}];
  if (++online_[account_id] == 1 && tracking_) changed_.insert(account_id);
}

void Presence::depart(std::int64_t game_id, std::int64_t account_id) {
  const std::lock_guard lock(mutex_);
  const auto it = connections_.find({game_id, account_id});
  if (it == connections_.end()) return;
  if (--it->second <= 0) connections_.erase(it);
  if (const auto any = online_.find(account_id); any != online_.end() && --any->second <= 0) {
    online_.erase(any);
    if (tracking_) changed_.insert(account_id);
    left_at_[account_id] = now_ms();
  }
}

bool Presence::online(std::int64_t account_id) const {
  const std::lock_guard lock(mutex_);
  return online_.contains(account_id) || online_elsewhere_.contains(account_id);
}

std::optional<std::int64_t> Presence::last_left(std::int64_t account_id) const {
  const std::lock_guard lock(mutex_);
  const auto it = left_at_.find(account_id);
  if (it == left_at_.end()) return std::nullopt;
  return it->second;
}

bool Presence::present(std::int64_t game_id, std::int64_t account_id) const {
  const std::lock_guard lock(mutex_);
  return connections_.contains({game_id, account_id});
}

void Presence::track_changes() {
  const std::lock_guard lock(mutex_);
  tracking_ = true;
}

Presence::Changes Presence::take_changes() {
  const std::lock_guard lock(mutex_);
  Changes changes;
  for (const auto account : changed_) {
    (online_.contains(account) ? changes.arrived : changes.departed).push_back(account);
  }
  changed_.clear();
  return changes;
}

std::vector<std::int64_t> Presence::online_here() const {
  const std::lock_guard lock(mutex_);
  std::vector<std::int64_t> accounts;
  accounts.reserve(online_.size());
  for (const auto& [account, n] : online_) accounts.push_back(account);
  return accounts;
}

void Presence::set_online_elsewhere(std::unordered_set<std::int64_t> accounts) {
  const std::lock_guard lock(mutex_);
  online_elsewhere_ = std::move(accounts);
}

}  // namespace blockfog::server
