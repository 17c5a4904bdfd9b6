#include "rules/core/chacha20.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "rules/core/hex.h"

namespace blockfog::core {
namespace {

// Game states are plain values: copying the generator must be a memcpy, with no heap.
static_assert(std::is_trivially_copyable_v<ChaCha20Stream>);

Seed counting_key() {
  Seed key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(i);
  return key;
}

// The first `blocks` keystream blocks of a stream, as bytes (words little-endian).
std::string keystream_hex(ChaCha20Stream& rng, int blocks) {
  std::vector<std::uint8_t> bytes;
  for (int i = 0; i < blocks * 16; ++i) {
    const std::uint32_t word = rng.next_u32();
    for (int j = 0; j < 4; ++j) bytes.push_back(static_cast<std::uint8_t>(word >> (8 * j)));
  }
  return to_hex(bytes);
}

std::vector<std::uint32_t> draw(ChaCha20Stream& rng, int count) {
  std::vector<std::uint32_t> words;
  for (int i = 0; i < count; ++i) words.push_back(rng.next_u32());
  return words;
}

TEST(ChaCha20Block, MatchesRfc8439Section232) {
  const std::array<std::uint8_t, 12> nonce{0x00, 0x00, 0x00, 0x09, 0x00, 0x00,
                                           0x00, 0x4a, 0x00, 0x00, 0x00, 0x00};
  EXPECT_EQ(to_hex(chacha20_block(counting_key(), 1, nonce)),
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
            "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
}

TEST(ChaCha20Block, MatchesRfc8439AppendixA1ZeroKey) {
  EXPECT_EQ(to_hex(chacha20_block(Seed{}, 0, {})),
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
            "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586");
  EXPECT_EQ(to_hex(chacha20_block(Seed{}, 1, {})),
            "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
            "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f");
}

TEST(ChaCha20Stream, DefaultStreamIsTheZeroKeyKeystream) {
  // With counter and nonce zero both layouts coincide, so RFC 8439 A.1 applies directly.
  ChaCha20Stream rng;
  EXPECT_EQ(keystream_hex(rng, 2),
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
            "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
            "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
            "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f");
}

TEST(ChaCha20Stream, UsesStreamAsNonceAndA64BitBlockCounter) {
  // Block b of stream s is the RFC block with counter = low half of b and
  // nonce = high half of b, then s, little-endian.
  const Seed key = counting_key();
  const std::uint64_t stream = 0x0123456789abcdefULL;
  const std::uint64_t block = 0x0000000500000003ULL;
  std::array<std::uint8_t, 12> nonce{};
  for (int i = 0; i < 4; ++i) nonce[i] = static_cast<std::uint8_t>((block >> 32) >> (8 * i));
  for (int i = 0; i < 8; ++i) nonce[4 + i] = static_cast<std::uint8_t>(stream >> (8 * i));

  ChaCha20Stream rng = ChaCha20Stream::restore(key, stream, block, 16);
  EXPECT_EQ(keystream_hex(rng, 1),
            to_hex(chacha20_block(key, static_cast<std::uint32_t>(block), nonce)));
}

TEST(ChaCha20Stream, SameKeyGivesSameSequence) {
  ChaCha20Stream a(counting_key(), 7);
  ChaCha20Stream b(counting_key(), 7);
  EXPECT_EQ(draw(a, 100), draw(b, 100));
  EXPECT_EQ(a, b);
}

TEST(ChaCha20Stream, DifferentKeyOrStreamGivesDifferentSequence) {
  Seed other_key = counting_key();
  other_key[31] ^= 1;
  ChaCha20Stream base(counting_key(), 7);
  ChaCha20Stream other_key_rng(other_key, 7);
  ChaCha20Stream other_stream_rng(counting_key(), 8);
  const std::vector<std::uint32_t> expected = draw(base, 32);
  EXPECT_NE(draw(other_key_rng, 32), expected);
  EXPECT_NE(draw(other_stream_rng, 32), expected);
}

TEST(ChaCha20Stream, GettersReportThePosition) {
  ChaCha20Stream rng(counting_key(), 3);
  EXPECT_EQ(rng.key(), counting_key());
  EXPECT_EQ(rng.stream(), 3u);
  EXPECT_EQ(rng.block_counter(), 0u);
  EXPECT_EQ(rng.word_offset(), 0u);
  draw(rng, 16);
  EXPECT_EQ(rng.block_counter(), 1u);
  EXPECT_EQ(rng.word_offset(), 16u);
  draw(rng, 1);
  EXPECT_EQ(rng.block_counter(), 2u);
  EXPECT_EQ(rng.word_offset(), 1u);
}

TEST(ChaCha20Stream, RestoreContinuesExactly) {
  // Word counts reaching offsets 0 (fresh), 7, 16, and 7 or 16 after several blocks.
  for (const int consumed : {0, 7, 16, 5 * 16 + 7, 5 * 16}) {
    SCOPED_TRACE(consumed);
    ChaCha20Stream original(counting_key(), 42);
    draw(original, consumed);
    ChaCha20Stream restored = ChaCha20Stream::restore(
        original.key(), original.stream(), original.block_counter(), original.word_offset());
    EXPECT_EQ(restored, original);
    EXPECT_EQ(draw(restored, 50), draw(original, 50));
  }
}

TEST(ChaCha20Stream, RestoreAtOffsetZeroOfALaterBlock) {
  // (b, 0) and (b - 1, 16) are the same point of the keystream.
  ChaCha20Stream at_start = ChaCha20Stream::restore(counting_key(), 1, 4, 0);
  ChaCha20Stream at_end = ChaCha20Stream::restore(counting_key(), 1, 3, 16);
  EXPECT_EQ(draw(at_start, 16), draw(at_end, 16));
}

TEST(ChaCha20Stream, ValidPositions) {
  EXPECT_TRUE(ChaCha20Stream::is_valid_position(0, 0));
  EXPECT_FALSE(ChaCha20Stream::is_valid_position(0, 1));
  EXPECT_TRUE(ChaCha20Stream::is_valid_position(3, 0));
  EXPECT_TRUE(ChaCha20Stream::is_valid_position(3, 16));
  EXPECT_FALSE(ChaCha20Stream::is_valid_position(3, 17));
}

TEST(ChaCha20Stream, CopiesAreIndependentAndEqual) {
  ChaCha20Stream original(counting_key());
  draw(original, 9);
  ChaCha20Stream copy = original;
  EXPECT_EQ(copy, original);
  EXPECT_EQ(draw(copy, 20), draw(original, 20));
}

TEST(ChaCha20Stream, UniformStaysInRange) {
  ChaCha20Stream rng(counting_key());
  for (const std::uint32_t n : {1u, 2u, 3u, 6u, 7u, 100u, 0x80000001u, 0xffffffffu}) {
    for (int i = 0; i < 2000; ++i) ASSERT_LT(rng.uniform(n), n) << "n = " << n;
  }
}

TEST(ChaCha20Stream, UniformDieIsFair) {
  ChaCha20Stream rng(counting_key(), 1);
  std::array<int, 6> counts{};
  for (int i = 0; i < 60000; ++i) ++counts[rng.uniform(6)];
  // Expected 10000 each with a standard deviation of about 91; 500 is over 5 sigma.
  for (std::size_t face = 0; face < counts.size(); ++face) {
    EXPECT_NEAR(counts[face], 10000, 500) << "face " << face + 1;
  }
}

TEST(ChaCha20Stream, UniformRejectsTheBiasedTail) {
  // For n = 2^31 + 1 only words >= 2^31 - 1 are accepted; a plain modulo would return 0 or 1
  // for nearly half of all draws.
  const std::uint32_t n = 0x80000001u;
  ChaCha20Stream rng(counting_key(), 2);
  int small = 0;
  for (int i = 0; i < 4000; ++i) small += rng.uniform(n) < 2 ? 1 : 0;
  EXPECT_LT(small, 10);
}

}  // namespace
}  // namespace blockfog::core
