#pragma once

#include <chrono>
#include <cstdint>

namespace blockfog::server {

// Milliseconds since the Unix epoch: the time unit of the store (docs/storage.md).
inline std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace blockfog::server
