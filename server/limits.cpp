#include "server/limits.h"

#include <algorithm>

namespace blockfog::server {

RateLimiter::RateLimiter(double rate, double burst, Clock::time_point now)
    : rate_(rate), burst_(burst), tokens_(burst), last_(now) {}

bool RateLimiter::allow(Clock::time_point now) {
  const double elapsed = std::chrono::duration<double>(now - last_).count();
  last_ = now;
  tokens_ = std::min(burst_, tokens_ + std::max(0.0, elapsed) * rate_);
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

AddressRateLimiter::AddressRateLimiter(double rate, double burst, std::size_t max_addresses)
    : rate_(rate),
      burst_(burst),
      max_addresses_(std::max<std::size_t>(max_addresses, 1)),
      refill_(std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(burst / rate))) {}

bool AddressRateLimiter::allow(const std::string& address, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  evict_idle(now);
  auto it = index_.find(address);
  if (it == index_.end()) {
    if (recent_.size() >= max_addresses_) {
      index_.erase(recent_.back().address);
      recent_.pop_back();
    }
    recent_.push_front({address, RateLimiter(rate_, burst_, now), now});
    it = index_.emplace(address, recent_.begin()).first;
  } else {
    recent_.splice(recent_.begin(), recent_, it->second);
  }
  Bucket& bucket = *it->second;
  bucket.last_used = now;
  return bucket.limiter.allow(now);
}

std::size_t AddressRateLimiter::tracked() const {
  std::lock_guard lock(mutex_);
  return recent_.size();
}

// The least recently used buckets are at the back: drop them while they are full again.
void AddressRateLimiter::evict_idle(Clock::time_point now) {
  while (!recent_.empty() && now - recent_.back().last_used >= refill_) {
    index_.erase(recent_.back().address);
    recent_.pop_back();
  }
}

ConnectionLimiter::ConnectionLimiter(int per_address, int total)
    : per_address_(per_address), total_(total) {}

ConnectionLimiter::Slot::Slot(ConnectionLimiter& owner, std::string address)
    : owner_(owner), address_(std::move(address)) {}

ConnectionLimiter::Slot::~Slot() { owner_.release(address_); }

std::unique_ptr<ConnectionLimiter::Slot> ConnectionLimiter::acquire(const std::string& address,
                                                                    bool limit_per_address) {
  std::lock_guard lock(mutex_);
  int& count = counts_[address];
  if ((limit_per_address && count >= per_address_) || open_ >= total_) {
    if (count == 0) counts_.erase(address);
    return nullptr;
  }
  ++count;
  ++open_;
  return std::make_unique<Slot>(*this, address);
}

int ConnectionLimiter::open() const {
  std::lock_guard lock(mutex_);
  return open_;
}

void ConnectionLimiter::release(const std::string& address) {
  std::lock_guard lock(mutex_);
  if (--counts_[address] <= 0) counts_.erase(address);
  --open_;
}

}  // namespace blockfog::server
