#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace blockfog::core {

using Digest = std::array<std::uint8_t, 32>;

// SHA-256 (FIPS 180-4), in the engine so that a game's seed commitment can be computed and
// verified without a crypto library.
class Sha256 {
 public:
  // `cpu_instructions`: use the processor's SHA instructions where it has them
  // (sha256_x86.h); false forces the portable code (tests compare the two).
  explicit Sha256(bool cpu_instructions = true);

  void update(std::string_view data);
  // The digest of everything passed to update(); the hasher is then reset to empty, ready
  // for a new message.
  Digest finish();

 private:
  void reset();
  void compress(const std::uint8_t* blocks, std::size_t count);
  void compress_portable(const std::uint8_t* block);

  std::array<std::uint32_t, 8> h_{};
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
  bool cpu_instructions_ = false;
};

Digest sha256(std::string_view data);

}  // namespace blockfog::core
