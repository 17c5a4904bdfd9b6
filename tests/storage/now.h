#pragma once

#include <cstdint>

namespace blockfog::storage::testing {

// The wall-clock time (ms since the epoch) the storage tests give the store as "now".
inline constexpr std::int64_t kNow = 1'700'000'000'000;

}  // namespace blockfog::storage::testing
