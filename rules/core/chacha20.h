#pragma once

#include <array>
#include <cstdint>

namespace blockfog::core {

// A 256-bit game seed; it is used directly as the ChaCha20 key.
using Seed = std::array<std::uint8_t, 32>;

// The ChaCha20 block function exactly as RFC 8439 §2.3 lays it out (32-bit block counter,
// 96-bit nonce): the 64 keystream bytes of block `counter`.
std::array<std::uint8_t, 64> chacha20_block(const Seed& key, std::uint32_t counter,
                                            const std::array<std::uint8_t, 12>& nonce);

// The deterministic random source of a game. It is the ChaCha20 keystream in the original
// layout (64-bit block counter in state words 12-13, the 64-bit `stream` as the nonce in words
// 14-15), so a seed yields an unpredictable but exactly reproducible sequence. The whole
// position is (key, stream, block_counter, word_offset), which is what a snapshot stores.
// Trivially copyable and heap-free so that game states holding it stay plain values.
class ChaCha20Stream {
 public:
  static constexpr std::uint32_t kWordsPerBlock = 16;

  ChaCha20Stream();  // all-zero key, stream 0
  explicit ChaCha20Stream(const Seed& key, std::uint64_t stream = 0);

  // The next 4 keystream bytes, read little-endian.
  std::uint32_t next_u32();
  // An unbiased integer in [0, n) for n >= 1, by rejection sampling (no modulo bias).
  // Consumes at least one word, even for n == 1, so call sites never change the sequence
  // depending on n alone.
  std::uint32_t uniform(std::uint32_t n);

  const Seed& key() const { return key_; }
  std::uint64_t stream() const { return stream_; }
  // 64-byte blocks generated so far; the current block is block_counter() - 1.
  std::uint64_t block_counter() const { return block_counter_; }
  // Words (0..16) already consumed from the current block; 0 while no block is generated.
  std::uint32_t word_offset() const { return word_offset_; }

  // True when (block_counter, word_offset) is a position restore() accepts: a stored
  // snapshot is untrusted input and should be checked with this first.
  static bool is_valid_position(std::uint64_t block_counter, std::uint32_t word_offset);
  // The stream at exactly the given position, equal (==) to the stream the getters came from.
  // Precondition: is_valid_position(block_counter, word_offset); an invalid position is
  // asserted in debug builds and in release yields a stream that is safe but unspecified.
  static ChaCha20Stream restore(const Seed& key, std::uint64_t stream, std::uint64_t block_counter,
                                std::uint32_t word_offset);

  bool operator==(const ChaCha20Stream&) const = default;

 private:
  void generate_block(std::uint64_t index);

  Seed key_{};
  std::uint64_t stream_ = 0;
  std::uint64_t block_counter_ = 0;
  std::uint32_t word_offset_ = 0;
  // Keystream words of block block_counter_ - 1; all zero before the first block, so that
  // equality follows from the position alone.
  std::array<std::uint32_t, kWordsPerBlock> block_{};
};

}  // namespace blockfog::core
