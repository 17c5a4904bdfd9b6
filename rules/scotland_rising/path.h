#pragma once

// The hexes of a move, in order, stored inline: offering and applying moves allocates nothing
// for their paths.

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>

namespace blockfog::scotland_rising {

class Path {
 public:
  // More than any allowance (the loader keeps movement at 9; events add 1), and the longest path
  // an action's JSON may carry.
  static constexpr std::size_t kMax = 16;

  void push_back(int hex) {
    assert(size_ < kMax);
    hexes_[size_++] = static_cast<std::int16_t>(hex);
  }
  void pop_back() { --size_; }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  int operator[](std::size_t i) const { return hexes_[i]; }
  std::int16_t& back() { return hexes_[size_ - 1]; }
  int back() const { return hexes_[size_ - 1]; }
  const std::int16_t* begin() const { return hexes_.data(); }
  const std::int16_t* end() const { return hexes_.data() + size_; }

  bool operator==(const Path& other) const {
    for (std::size_t i = 0; i < size_ && size_ == other.size_; ++i) {
      if (hexes_[i] != other.hexes_[i]) return false;
    }
    return size_ == other.size_;
  }

 private:
  std::array<std::int16_t, kMax> hexes_{};
  std::uint8_t size_ = 0;
};

}  // namespace blockfog::scotland_rising
