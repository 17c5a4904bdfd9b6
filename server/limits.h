#pragma once

// Limits on what one client may use: open connections per address, messages per second per
// connection, HTTP requests per second per address. Plain classes, so they are tested without
// sockets.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace blockfog::server {

// A token bucket: `rate` tokens per second, at most `burst` saved up.
class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  RateLimiter(double rate, double burst, Clock::time_point now = Clock::now());
  // Takes a token if there is one.
  bool allow(Clock::time_point now = Clock::now());

 private:
  double rate_;
  double burst_;
  double tokens_;
  Clock::time_point last_;
};

// A token bucket per client address, for requests that come over many connections (the HTTP
// API). Thread-safe. Memory stays bounded: a bucket idle long enough to be full again is the
// same as a new one, so it is dropped; past `max_addresses` the least recently used goes too
// (which can only make the limiter more lenient, never refuse anyone wrongly).
class AddressRateLimiter {
 public:
  using Clock = RateLimiter::Clock;
  // `rate` > 0 tokens per second (callers that want no limit make no limiter), `burst` >= 1.
  AddressRateLimiter(double rate, double burst, std::size_t max_addresses = 100000);

  // Takes a token from `address`'s bucket if there is one.
  bool allow(const std::string& address, Clock::time_point now = Clock::now());
  // Buckets held: for tests.
  std::size_t tracked() const;

 private:
  struct Bucket {
    std::string address;
    RateLimiter limiter;
    Clock::time_point last_used;
  };
  void evict_idle(Clock::time_point now);

  const double rate_;
  const double burst_;
  const std::size_t max_addresses_;
  const Clock::duration refill_;  // time for an empty bucket to fill up
  mutable std::mutex mutex_;
  std::list<Bucket> recent_;  // most recently used first
  std::unordered_map<std::string, std::list<Bucket>::iterator> index_;
};

// Counts open connections per remote address and in all.
class ConnectionLimiter {
 public:
  ConnectionLimiter(int per_address, int total);

  // Held by a connection while it is open; releases its count when destroyed.
  class Slot {
   public:
    Slot(ConnectionLimiter& owner, std::string address);
    ~Slot();
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;

   private:
    ConnectionLimiter& owner_;
    std::string address_;
  };

  // A slot, or null when the address or the server is at its limit. Without
  // `limit_per_address` only the total applies (a trusted proxy's connections).
  std::unique_ptr<Slot> acquire(const std::string& address, bool limit_per_address = true);
  int open() const;

 private:
  void release(const std::string& address);

  const int per_address_;
  const int total_;
  mutable std::mutex mutex_;
  std::map<std::string, int> counts_;
  int open_ = 0;
};

}  // namespace blockfog::server
