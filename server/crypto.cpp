#include "server/crypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <charconv>
#include <vector>

#include "rules/core/hex.h"
#include "rules/core/sha256.h"

namespace blockfog::server {
namespace {

constexpr std::size_t kSaltBytes = 16;
constexpr std::size_t kKeyBytes = 32;
// Stored parameters are trusted only this far, so a damaged row cannot make us allocate GiBs.
constexpr std::uint64_t kMaxN = std::uint64_t{1} << 20;
constexpr std::uint64_t kMaxR = 32;
constexpr std::uint64_t kMaxP = 16;

std::vector<std::uint8_t> scrypt(std::string_view password, const std::vector<std::uint8_t>& salt,
                                 const ScryptParams& p) {
  std::vector<std::uint8_t> key(kKeyBytes);
  // scrypt needs 128 * N * r bytes (plus a little); allow twice that.
  const std::uint64_t maxmem = 2 * 128 * p.n * p.r + (std::uint64_t{1} << 20);
  if (EVP_PBE_scrypt(password.data(), password.size(), salt.data(), salt.size(), p.n, p.r, p.p,
                     maxmem, key.data(), key.size()) != 1) {
    throw CryptoError("scrypt failed");
  }
  return key;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const auto end = text.find(sep, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

bool parse_u64(std::string_view text, std::uint64_t& out) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

std::string random_hex(std::size_t bytes) {
  std::vector<std::uint8_t> buffer(bytes);
  if (RAND_bytes(buffer.data(), static_cast<int>(buffer.size())) != 1) {
    throw CryptoError("RAND_bytes failed");
  }
  return core::to_hex(buffer);
}

std::string sha256_hex(std::string_view data) { return core::to_hex(core::sha256(data)); }

std::string hmac_sha256_hex(std::string_view key, std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  unsigned int size = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(),
           &size) == nullptr) {
    throw CryptoError("HMAC-SHA256 failed");
  }
  return core::to_hex(std::span<const std::uint8_t>(out.data(), size));
}

std::string hash_password(std::string_view password, const ScryptParams& params) {
  const auto salt = *core::from_hex(random_hex(kSaltBytes));
  const auto key = scrypt(password, salt, params);
  return "scrypt$" + std::to_string(params.n) + "$" + std::to_string(params.r) + "$" +
         std::to_string(params.p) + "$" + core::to_hex(salt) + "$" + core::to_hex(key);
}

bool verify_password(std::string_view password, std::string_view stored) {
  const auto parts = split(stored, '$');
  if (parts.size() != 6 || parts[0] != "scrypt") return false;
  ScryptParams p;
  if (!parse_u64(parts[1], p.n) || !parse_u64(parts[2], p.r) || !parse_u64(parts[3], p.p)) {
    return false;
  }
  if (p.n < 2 || p.n > kMaxN || (p.n & (p.n - 1)) != 0 || p.r < 1 || p.r > kMaxR || p.p < 1 ||
      p.p > kMaxP) {
    return false;
  }
  const auto salt = core::from_hex(parts[4]);
  const auto expected = core::from_hex(parts[5]);
  if (!salt || !expected || expected->size() != kKeyBytes) return false;
  const auto key = scrypt(password, *salt, p);
  return CRYPTO_memcmp(key.data(), expected->data(), kKeyBytes) == 0;
}

}  // namespace blockfog::server
