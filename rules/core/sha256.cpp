#include "rules/core/sha256.h"

#include <algorithm>
#include <bit>

#include "rules/core/sha256_constants.h"
#include "rules/core/sha256_x86.h"

namespace blockfog::core {
namespace {

// FIPS 180-4 §5.3.3.
constexpr std::array<std::uint32_t, 8> kInitialHash{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

std::uint32_t load_be32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 |
         static_cast<std::uint32_t>(p[2]) << 8 | static_cast<std::uint32_t>(p[3]);
}

}  // namespace

Sha256::Sha256(bool cpu_instructions)
    : cpu_instructions_(cpu_instructions && sha256_x86::available()) {
  reset();
}

void Sha256::reset() {
  h_ = kInitialHash;
  buffer_.fill(0);
  buffered_ = 0;
  total_bytes_ = 0;
}

void Sha256::update(std::string_view data) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(data.data());
  std::size_t size = data.size();
  total_bytes_ += size;
  if (buffered_ > 0) {
    const std::size_t take = std::min(size, buffer_.size() - buffered_);
    std::copy_n(bytes, take, buffer_.data() + buffered_);
    buffered_ += take;
    bytes += take;
    size -= take;
    if (buffered_ < buffer_.size()) return;
    compress(buffer_.data(), 1);
    buffered_ = 0;
  }
  // Whole blocks straight from the input, without copying them through the buffer.
  const std::size_t whole = size / buffer_.size();
  compress(bytes, whole);
  bytes += whole * buffer_.size();
  size -= whole * buffer_.size();
  std::copy_n(bytes, size, buffer_.data());
  buffered_ = size;
}

Digest Sha256::finish() {
  // FIPS 180-4 §5.1.1: a 1 bit, zeros up to 56 mod 64 bytes, then the bit length big-endian.
  const std::uint64_t bit_length = total_bytes_ * 8;
  buffer_[buffered_++] = 0x80;
  if (buffered_ > 56) {
    std::fill(buffer_.begin() + static_cast<std::ptrdiff_t>(buffered_), buffer_.end(), 0);
    compress(buffer_.data(), 1);
    buffered_ = 0;
  }
  std::fill(buffer_.begin() + static_cast<std::ptrdiff_t>(buffered_), buffer_.begin() + 56, 0);
  for (std::size_t i = 0; i < 8; ++i) {
    buffer_[56 + i] = static_cast<std::uint8_t>(bit_length >> (56 - 8 * i));
  }
  compress(buffer_.data(), 1);

  Digest digest{};
  for (std::size_t i = 0; i < h_.size(); ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      digest[4 * i + j] = static_cast<std::uint8_t>(h_[i] >> (24 - 8 * j));
    }
  }
  reset();
  return digest;
}

void Sha256::compress(const std::uint8_t* blocks, std::size_t count) {
  if (count == 0) return;
  if (cpu_instructions_) return sha256_x86::compress(h_, blocks, count);
  for (std::size_t i = 0; i < count; ++i) compress_portable(blocks + 64 * i);
}

// FIPS 180-4 §6.2.2.
void Sha256::compress_portable(const std::uint8_t* block) {
  std::array<std::uint32_t, 64> w{};
  for (std::size_t t = 0; t < 16; ++t) w[t] = load_be32(block + 4 * t);
  for (std::size_t t = 16; t < 64; ++t) {
    const std::uint32_t s0 = std::rotr(w[t - 15], 7) ^ std::rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const std::uint32_t s1 = std::rotr(w[t - 2], 17) ^ std::rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }

  std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3];
  std::uint32_t e = h_[4], f = h_[5], g = h_[6], h = h_[7];
  for (std::size_t t = 0; t < 64; ++t) {
    const std::uint32_t sigma1 = std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25);
    const std::uint32_t choose = (e & f) ^ (~e & g);
    const std::uint32_t t1 = h + sigma1 + choose + kSha256RoundConstants[t] + w[t];
    const std::uint32_t sigma0 = std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22);
    const std::uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
    const std::uint32_t t2 = sigma0 + majority;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h_[0] += a;
  h_[1] += b;
  h_[2] += c;
  h_[3] += d;
  h_[4] += e;
  h_[5] += f;
  h_[6] += g;
  h_[7] += h;
}

Digest sha256(std::string_view data) {
  Sha256 hasher;
  hasher.update(data);
  return hasher.finish();
}

}  // namespace blockfog::core
