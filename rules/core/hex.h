#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/chacha20.h"

namespace blockfog::core {

// Lowercase hexadecimal, two characters per byte.
std::string to_hex(std::span<const std::uint8_t> bytes);

// Parses hexadecimal (either case) of even length; nullopt on any other character or an odd
// length. The empty string is the empty byte sequence.
std::optional<std::vector<std::uint8_t>> from_hex(std::string_view text);

// A seed from exactly 64 hexadecimal characters, else nullopt.
std::optional<Seed> seed_from_hex(std::string_view text);

}  // namespace blockfog::core
