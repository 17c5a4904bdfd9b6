#pragma once

// A bound on the password hashing (scrypt, ~80 ms of a core each) the server does at once.
// Logins and registrations hash on a pool of their own, so that a flood of them cannot delay
// other requests, WebSocket upgrades or games; this budget bounds what waits for that pool:
// at most `total` hashings admitted at once (running or queued), at most `per_address` of them
// from one client address. Beyond it a request is refused at once (429) instead of queued.
// Thread-safe.

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace blockfog::server {

class KdfBudget {
 public:
  KdfBudget(std::size_t total, std::size_t per_address);

  // Held while one admitted hashing waits or runs; gives its place back when destroyed.
  class Ticket {
   public:
    Ticket(KdfBudget& owner, std::string address);
    ~Ticket();
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;

   private:
    KdfBudget& owner_;
    std::string address_;
  };

  // A ticket when `address` may start one more hashing now, else null.
  std::unique_ptr<Ticket> admit(const std::string& address);
  std::size_t in_use() const;

 private:
  void release(const std::string& address);

  const std::size_t total_;
  const std::size_t per_address_;
  mutable std::mutex mutex_;
  std::size_t in_use_ = 0;
  std::unordered_map<std::string, std::size_t> by_address_;
};

}  // namespace blockfog::server
