#pragma once

// Passwords, tokens and hashes, on OpenSSL.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace blockfog::server {

// OpenSSL failed (e.g. out of memory, or no entropy): an infrastructure failure.
class CryptoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// scrypt cost parameters; the defaults need 32 MiB and tens of milliseconds per hash, which is
// what makes a stolen database expensive to attack.
struct ScryptParams {
  std::uint64_t n = std::uint64_t{1} << 15;
  std::uint64_t r = 8;
  std::uint64_t p = 1;
};

// "scrypt$N$r$p$<salt hex>$<key hex>" with a fresh 16-byte salt and a 32-byte key. The
// parameters travel with the hash, so raising them later keeps old hashes verifiable.
std::string hash_password(std::string_view password, const ScryptParams& params = {});
// False for a wrong password or a malformed stored hash; the comparison is constant-time.
bool verify_password(std::string_view password, std::string_view stored);

// `bytes` random bytes from OpenSSL's CSPRNG, as lowercase hex.
std::string random_hex(std::size_t bytes);
// SHA-256 of `data` as lowercase hex.
std::string sha256_hex(std::string_view data);
// HMAC-SHA256 of `data` under `key`, as lowercase hex.
std::string hmac_sha256_hex(std::string_view key, std::string_view data);

}  // namespace blockfog::server
