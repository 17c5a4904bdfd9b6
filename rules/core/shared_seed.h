#pragma once

// The seed of a game whose dice nobody could choose (docs/records.md, "Dice"): the server's
// secret, committed at creation, and one contribution per seat, each committed before the other
// seat's was revealed. Pure functions, shared by the server that starts the game and by the
// tools that verify its record.

#include <optional>
#include <string>
#include <string_view>

namespace blockfog::core {

// The commitment to a contribution of exactly 32 bytes (64 hex digits, either case): the lower-
// case hex of SHA-256 of those bytes. Nullopt for anything else.
std::optional<std::string> dice_commitment(std::string_view contribution_hex);

// The game's seed, 64 lower-case hex digits: SHA-256(secret ‖ Scotland's contribution ‖
// England's), over the raw bytes of each. Nullopt unless each is exactly 32 bytes of hex.
std::optional<std::string> shared_seed(std::string_view secret_hex, std::string_view scotland_hex,
                                       std::string_view england_hex);

}  // namespace blockfog::core
