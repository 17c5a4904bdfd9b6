#include "rules/core/hex.h"

namespace blockfog::core {
namespace {

constexpr std::string_view kDigits = "0123456789abcdef";

// The value of one hexadecimal digit, or -1 for any other character.
int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes text (even length) into out (text.size() / 2 bytes); false on a non-hex character.
bool decode_into(std::string_view text, std::uint8_t* out) {
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int high = digit_value(text[i]);
    const int low = digit_value(text[i + 1]);
    if (high < 0 || low < 0) return false;
    out[i / 2] = static_cast<std::uint8_t>(high << 4 | low);
  }
  return true;
}

}  // namespace

std::string to_hex(std::span<const std::uint8_t> bytes) {
  std::string text;
  text.reserve(bytes.size() * 2);
  for (const std::uint8_t byte : bytes) {
    text.push_back(kDigits[byte >> 4]);
    text.push_back(kDigits[byte & 0x0f]);
  }
  return text;
}

std::optional<std::vector<std::uint8_t>> from_hex(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::vector<std::uint8_t> bytes(text.size() / 2);
  if (!decode_into(text, bytes.data())) return std::nullopt;
  return bytes;
}

std::optional<Seed> seed_from_hex(std::string_view text) {
  Seed seed{};
  if (text.size() != seed.size() * 2 || !decode_into(text, seed.data())) return std::nullopt;
  return seed;
}

}  // namespace blockfog::core
