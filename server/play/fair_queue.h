#pragma once

// A queue shared fairly between accounts: each account's items wait in an order of their own
// (first come, first served within the account), and the accounts with items waiting take
// turns, one item each. So an item waits behind at most one item of each other account with
// items waiting, however many those accounts queued. Not thread-safe: its owner locks.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>
#include <utility>

namespace blockfog::server {

template <typename T>
class FairQueue {
 public:
  void push(std::int64_t account, T item) {
    auto& queue = waiting_[account];
    if (queue.empty()) turns_.push_back(account);
    queue.push_back(std::move(item));
    ++size_;
  }

  // The front item of the account whose turn it is; that account's next item, if any, waits
  // for its next turn, after every other account with items waiting.
  std::optional<T> pop() {
    if (turns_.empty()) return std::nullopt;
    const auto account = turns_.front();
    turns_.pop_front();
    const auto found = waiting_.find(account);
    T item = std::move(found->second.front());
    found->second.pop_front();
    if (found->second.empty()) {
      waiting_.erase(found);
    } else {
      turns_.push_back(account);
    }
    --size_;
    return item;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() {
    waiting_.clear();
    turns_.clear();
    size_ = 0;
  }

 private:
  std::unordered_map<std::int64_t, std::deque<T>> waiting_;  // accounts with items only
  std::deque<std::int64_t> turns_;                           // each such account once
  std::size_t size_ = 0;
};

}  // namespace blockfog::server
