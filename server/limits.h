#pragma once

// Limits on what one client may use: open connections per address, messages per second per
// connection. Plain classes, so they are tested without sockets.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

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
