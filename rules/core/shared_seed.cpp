#include "rules/core/shared_seed.h"

#include "rules/core/hex.h"
#include "rules/core/sha256.h"

namespace blockfog::core {

namespace {
// The 32 bytes of `text`, as a string for hashing; nullopt unless it is 64 hex digits.
std::optional<std::string> bytes_32(std::string_view text) {
  if (text.size() != 64) return std::nullopt;
  const auto bytes = from_hex(text);
  if (!bytes) return std::nullopt;
  return std::string(bytes->begin(), bytes->end());
}
}  // namespace

std::optional<std::string> dice_commitment(std::string_view contribution_hex) {
  const auto bytes = bytes_32(contribution_hex);
  if (!bytes) return std::nullopt;
  return to_hex(sha256(*bytes));
}

std::optional<std::string> shared_seed(std::string_view secret_hex, std::string_view scotland_hex,
                                       std::string_view england_hex) {
  const auto secret = bytes_32(secret_hex);
  const auto scotland = bytes_32(scotland_hex);
  const auto england = bytes_32(england_hex);
  if (!secret || !scotland || !england) return std::nullopt;
  return to_hex(sha256(*secret + *scotland + *england));
}

}  // namespace blockfog::core
