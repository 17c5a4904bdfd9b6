#include "rules/core/chacha20.h"

#include <bit>
#include <cassert>
#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace blockfog::core {
namespace {

using Words = std::array<std::uint32_t, ChaCha20Stream::kWordsPerBlock>;

std::uint32_t load_le32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

// RFC 8439 §2.3: words 0-3 are the constant, 4-11 the key; the caller fills words 12-15.
Words initial_state(const Seed& key) {
  Words state{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  for (std::size_t i = 0; i < 8; ++i) state[4 + i] = load_le32(key.data() + 4 * i);
  return state;
}

#if defined(__SSE2__)

// The same 20 rounds with the state's four rows in four SSE2 registers (SSE2 is part of every
// x86-64 CPU): a column round is one quarter round on all four columns at once; the diagonal
// round first turns rows 1-3 so that the diagonals line up as columns, then turns them back.
// The keystream is identical to the scalar version below; a game's dice and the playouts'
// choices are drawn from it, and the chacha20 tests check it against RFC 8439.
__m128i rotl_epi32(__m128i x, int n) {
  return _mm_or_si128(_mm_slli_epi32(x, n), _mm_srli_epi32(x, 32 - n));
}
__m128i rotl16_epi32(__m128i x) {  // swapping the 16-bit halves of each word
  return _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xb1), 0xb1);
}

void quarter_round_rows(__m128i& a, __m128i& b, __m128i& c, __m128i& d) {
  a = _mm_add_epi32(a, b);
  d = rotl16_epi32(_mm_xor_si128(d, a));
  c = _mm_add_epi32(c, d);
  b = rotl_epi32(_mm_xor_si128(b, c), 12);
  a = _mm_add_epi32(a, b);
  d = rotl_epi32(_mm_xor_si128(d, a), 8);
  c = _mm_add_epi32(c, d);
  b = rotl_epi32(_mm_xor_si128(b, c), 7);
}

Words block_words(const Words& input) {
  const auto* in = reinterpret_cast<const __m128i*>(input.data());
  const __m128i a0 = _mm_loadu_si128(in);
  const __m128i b0 = _mm_loadu_si128(in + 1);
  const __m128i c0 = _mm_loadu_si128(in + 2);
  const __m128i d0 = _mm_loadu_si128(in + 3);
  __m128i a = a0;
  __m128i b = b0;
  __m128i c = c0;
  __m128i d = d0;
  for (int i = 0; i < 10; ++i) {
    quarter_round_rows(a, b, c, d);  // columns (0, 4, 8, 12) ... (3, 7, 11, 15)
    b = _mm_shuffle_epi32(b, 0x39);  // lanes 1 2 3 0
    c = _mm_shuffle_epi32(c, 0x4e);  // lanes 2 3 0 1
    d = _mm_shuffle_epi32(d, 0x93);  // lanes 3 0 1 2
    quarter_round_rows(a, b, c, d);  // diagonals (0, 5, 10, 15) ... (3, 4, 9, 14)
    b = _mm_shuffle_epi32(b, 0x93);
    c = _mm_shuffle_epi32(c, 0x4e);
    d = _mm_shuffle_epi32(d, 0x39);
  }
  Words x;
  auto* out = reinterpret_cast<__m128i*>(x.data());
  _mm_storeu_si128(out, _mm_add_epi32(a, a0));
  _mm_storeu_si128(out + 1, _mm_add_epi32(b, b0));
  _mm_storeu_si128(out + 2, _mm_add_epi32(c, c0));
  _mm_storeu_si128(out + 3, _mm_add_epi32(d, d0));
  return x;
}

#else

void quarter_round(Words& x, std::size_t a, std::size_t b, std::size_t c, std::size_t d) {
  x[a] += x[b];
  x[d] = std::rotl(x[d] ^ x[a], 16);
  x[c] += x[d];
  x[b] = std::rotl(x[b] ^ x[c], 12);
  x[a] += x[b];
  x[d] = std::rotl(x[d] ^ x[a], 8);
  x[c] += x[d];
  x[b] = std::rotl(x[b] ^ x[c], 7);
}

// 20 rounds (10 column + diagonal double rounds), then the input is added back (§2.3).
Words block_words(const Words& input) {
  Words x = input;
  for (int i = 0; i < 10; ++i) {
    quarter_round(x, 0, 4, 8, 12);
    quarter_round(x, 1, 5, 9, 13);
    quarter_round(x, 2, 6, 10, 14);
    quarter_round(x, 3, 7, 11, 15);
    quarter_round(x, 0, 5, 10, 15);
    quarter_round(x, 1, 6, 11, 12);
    quarter_round(x, 2, 7, 8, 13);
    quarter_round(x, 3, 4, 9, 14);
  }
  for (std::size_t i = 0; i < x.size(); ++i) x[i] += input[i];
  return x;
}

#endif

}  // namespace

std::array<std::uint8_t, 64> chacha20_block(const Seed& key, std::uint32_t counter,
                                            const std::array<std::uint8_t, 12>& nonce) {
  Words state = initial_state(key);
  state[12] = counter;
  for (std::size_t i = 0; i < 3; ++i) state[13 + i] = load_le32(nonce.data() + 4 * i);
  const Words words = block_words(state);
  std::array<std::uint8_t, 64> out{};
  for (std::size_t i = 0; i < words.size(); ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      out[4 * i + j] = static_cast<std::uint8_t>(words[i] >> (8 * j));
    }
  }
  return out;
}

ChaCha20Stream::ChaCha20Stream() = default;

ChaCha20Stream::ChaCha20Stream(const Seed& key, std::uint64_t stream)
    : key_(key), stream_(stream) {}

std::uint32_t ChaCha20Stream::next_u32() {
  // `>=` rather than `==` keeps an out-of-range restored offset from reading past block_.
  if (block_counter_ == 0 || word_offset_ >= kWordsPerBlock) {
    generate_block(block_counter_);
    ++block_counter_;
    word_offset_ = 0;
  }
  return block_[word_offset_++];
}

std::uint32_t ChaCha20Stream::uniform(std::uint32_t n) {
  assert(n >= 1);
  if (n == 0) return 0;  // release builds: no division by zero
  // 2^32 mod n: rejecting the words below it leaves a range whose size is a multiple of n.
  // The threshold is below n, so a word of at least n is kept without computing it (a division
  // saved on almost every call; the words kept are the same).
  std::uint32_t word = next_u32();
  if (word < n) {
    const std::uint32_t threshold = (std::uint32_t{0} - n) % n;
    while (word < threshold) word = next_u32();
  }
  return word % n;
}

bool ChaCha20Stream::is_valid_position(std::uint64_t block_counter, std::uint32_t word_offset) {
  return block_counter == 0 ? word_offset == 0 : word_offset <= kWordsPerBlock;
}

ChaCha20Stream ChaCha20Stream::restore(const Seed& key, std::uint64_t stream,
                                       std::uint64_t block_counter, std::uint32_t word_offset) {
  assert(is_valid_position(block_counter, word_offset));
  ChaCha20Stream result(key, stream);
  result.block_counter_ = block_counter;
  result.word_offset_ = word_offset;
  if (block_counter > 0) result.generate_block(block_counter - 1);
  return result;
}

// State words 12-13 hold the 64-bit block index and 14-15 the stream, both little-endian
// halves, as in the original ChaCha; 2^64 blocks per stream can never be exhausted by a game.
void ChaCha20Stream::generate_block(std::uint64_t index) {
  Words state = initial_state(key_);
  state[12] = static_cast<std::uint32_t>(index);
  state[13] = static_cast<std::uint32_t>(index >> 32);
  state[14] = static_cast<std::uint32_t>(stream_);
  state[15] = static_cast<std::uint32_t>(stream_ >> 32);
  block_ = block_words(state);
}

}  // namespace blockfog::core
