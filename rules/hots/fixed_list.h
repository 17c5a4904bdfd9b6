#pragma once

// A short list of ids held in place, for the engine's helper queries (the blocks of a side in an
// area, the areas a block may retreat to): returned by value without touching the heap.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

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
  std::span<const T> items() const { return {items_.data(), size_}; }
  // Removes `value` (if there), keeping the order of the rest: a random pick from a pool is an
  // index into it, so the order decides what is drawn (RULES 1.9).
  void erase_value(T value) {
    T* const last = items_.data() + size_;
    T* const at = std::find(items_.data(), last, value);
    if (at == last) return;
    std::copy(at + 1, last, at);
    --size_;
  }

 private:
  std::array<T, N> items_{};
  std::size_t size_ = 0;
};

using BlockList = FixedList<BlockId, kBlocksPerSide>;  // blocks of one side

// The blocks of a bit set of one side's blocks (a bit per block id), in block order.
inline BlockList block_list(std::uint64_t bits) {
  BlockList out;
  for (; bits != 0; bits &= bits - 1) out.push_back(static_cast<BlockId>(std::countr_zero(bits)));
  return out;
}
using AreaList = FixedList<AreaId, kAreaCount>;  // map areas
// Items for Rng::pick (which takes ints): the blocks of one side's pool, the cards of the deck.
using PoolList = FixedList<int, kBlocksPerSide>;
using DeckList = FixedList<int, kCardCount>;

}  // namespace blockfog::hots
