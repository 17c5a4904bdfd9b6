#include "server/clock.h"

#include <fstream>

namespace blockfog::server {

std::int64_t FileClock::now_ms() const {
  std::ifstream in(path_);
  std::int64_t ms = 0;
  if (in >> ms) return ms;
  return clock_detail::system_clock().now_ms();
}

}  // namespace blockfog::server
