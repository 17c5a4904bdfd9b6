#pragma once

// SHA-256 compression with the x86 SHA extensions (SHA-NI), about ten times the portable code:
// the server hashes every state it commits (Game::state_hash), log and undo points included,
// so this is on the path of every action. Elsewhere, or on a processor without them,
// available() is false and the portable code in sha256.cpp runs.

#include <array>
#include <cstddef>
#include <cstdint>

namespace blockfog::core::sha256_x86 {

bool available();
// Compresses `count` 64-byte blocks into `h`; only when available().
void compress(std::array<std::uint32_t, 8>& h, const std::uint8_t* blocks, std::size_t count);

}  // namespace blockfog::core::sha256_x86
