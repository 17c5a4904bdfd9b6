#pragma once

// A short list of ids held in place, for the engine's helper queries (the blocks of a side in an
// area, the areas a block may retreat to): returned by value without touching the heap.

#include <array>
#include <cstddef>
#include <cstdint>

#include "rules/hots/data.h"

namespace blockfog::hots {

template <typename T, std::size_t N>
class FixedList {
 public:
  // Callers never exceed N: the lists hold distinct blocks of one side, or distinct areas.
  void push_back(T value) { items_[size_++] = value; }
  void clear() { size_ = 0; }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  T operator[](std::size_t i) const { return items_[i]; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }

 private:
  std::array<T, N> items_{};
  std::size_t size_ = 0;
};

using BlockList = FixedList<BlockId, kBlocksPerSide>;  // blocks of one side
using AreaList = FixedList<AreaId, kAreaCount>;        // map areas

}  // namespace blockfog::hots
