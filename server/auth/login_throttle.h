#pragma once

// Slows down password guessing without letting anybody lock an account's owner out. Failed
// logins are counted per (account, address) pair: past a few, each further attempt from that
// pair waits a delay that doubles with every failure, up to a cap. An address that fails
// against many accounts (spraying) is slowed the same way past a much higher count. Nothing is
// ever locked for the owner at another address, and a success clears its pair. Thread-safe;
// memory stays bounded (idle entries are dropped). The counts are kept in memory: a restart
// forgets them, which costs an attacker no more than a restart of the server gives anyway.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace blockfog::server {

class LoginThrottle {
 public:
  using Clock = std::chrono::steady_clock;

  struct Limits {
    int free_pair_failures = 5;  // failures of one pair before any delay
    int free_address_failures = 100;
    std::chrono::seconds first_delay{1};
    std::chrono::seconds max_pair_delay{15 * 60};
    std::chrono::seconds max_address_delay{5 * 60};
    std::chrono::seconds forget_after{60 * 60};  // an entry idle this long starts over
    std::size_t max_entries = 200000;
  };

  LoginThrottle() : LoginThrottle(Limits{}) {}
  explicit LoginThrottle(Limits limits);

  // How long `address` must still wait before it may try `username` again, or nothing.
  std::optional<std::chrono::seconds> wait(const std::string& username, const std::string& address,
                                           Clock::time_point now = Clock::now());
  void failed(const std::string& username, const std::string& address,
              Clock::time_point now = Clock::now());
  void succeeded(const std::string& username, const std::string& address);

 private:
  struct Entry {
    int failures = 0;
    Clock::time_point last_failure;
    Clock::time_point allowed_at;
  };
  void note_failure(Entry& entry, int free_failures, std::chrono::seconds max_delay,
                    Clock::time_point now) const;
  void prune(Clock::time_point now);

  const Limits limits_;
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> pairs_;      // key: lower-case name '\n' address
  std::unordered_map<std::string, Entry> addresses_;  // key: address
};

}  // namespace blockfog::server
