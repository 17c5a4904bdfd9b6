#include "server/auth/login_throttle.h"

#include <algorithm>
#include <cctype>

namespace blockfog::server {
namespace {

std::string pair_key(const std::string& username, const std::string& address) {
  std::string key;
  key.reserve(username.size() + address.size() + 1);
  for (unsigned char c : username) key += static_cast<char>(std::tolower(c));
  key += '\n';
  key += address;
  return key;
}

}  // namespace

LoginThrottle::LoginThrottle(Limits limits) : limits_(limits) {}

std::optional<std::chrono::seconds> LoginThrottle::wait(const std::string& username,
                                                        const std::string& address,
                                                        Clock::time_point now) {
  std::lock_guard lock(mutex_);
  Clock::time_point until = now;
  if (const auto it = pairs_.find(pair_key(username, address)); it != pairs_.end()) {
    until = std::max(until, it->second.allowed_at);
  }
  if (const auto it = addresses_.find(address); it != addresses_.end()) {
    until = std::max(until, it->second.allowed_at);
  }
  if (until <= now) return std::nullopt;
  // Rounded up: a client that waits what it is told is let in.
  return std::chrono::ceil<std::chrono::seconds>(until - now);
}

void LoginThrottle::note_failure(Entry& entry, int free_failures, std::chrono::seconds max_delay,
                                 Clock::time_point now) const {
  if (entry.failures > 0 && now - entry.last_failure > limits_.forget_after) entry = Entry{};
  ++entry.failures;
  entry.last_failure = now;
  const int over = entry.failures - free_failures;
  if (over <= 0) return;
  // first_delay * 2^(over-1), without overflowing the shift.
  const auto doubled = limits_.first_delay * (std::int64_t{1} << std::min(over - 1, 30));
  entry.allowed_at = now + std::min<std::chrono::seconds>(doubled, max_delay);
}

void LoginThrottle::failed(const std::string& username, const std::string& address,
                           Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (pairs_.size() + addresses_.size() >= limits_.max_entries) prune(now);
  note_failure(pairs_[pair_key(username, address)], limits_.free_pair_failures,
               limits_.max_pair_delay, now);
  note_failure(addresses_[address], limits_.free_address_failures, limits_.max_address_delay, now);
}

void LoginThrottle::succeeded(const std::string& username, const std::string& address) {
  std::lock_guard lock(mutex_);
  pairs_.erase(pair_key(username, address));
}

void LoginThrottle::prune(Clock::time_point now) {
  auto idle = [&](const auto& item) {
    return now - item.second.last_failure > limits_.forget_after && item.second.allowed_at <= now;
  };
  std::erase_if(pairs_, idle);
  std::erase_if(addresses_, idle);
  // Still full (a flood of fresh failures): forget everything rather than grow without bound.
  if (pairs_.size() + addresses_.size() >= limits_.max_entries) {
    pairs_.clear();
    addresses_.clear();
  }
}

}  // namespace blockfog::server
