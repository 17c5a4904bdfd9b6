#pragma once

// A compact binary form of the whole state: every field in a fixed order. state_hash hashes
// it (position, generator, log, undo history), and hots-sim --check round-trips it after every
// action, which costs a fraction of the JSON round trip.

#include <cstddef>
#include <string>
#include <string_view>

#include "rules/hots/state.h"

namespace blockfog::hots {

// Appends every field of `p` (the canonical form state_hash has always hashed).
void append_position(std::string& out, const Position& p);
// At most this many bytes per position: every field takes at most its own size there but the
// four block flags, a bit each in the position and a byte each in the form.
inline constexpr std::size_t kPositionBytesMax = sizeof(Position) + 4 * kBlockCount;

// The whole state, secrets included; `out` is replaced (its capacity kept, so that a caller
// reusing the buffer does not allocate). Round-trips exactly: decode_state(encoded) == s.
void encode_state(const State& s, std::string& out);
// Throws StateFormatError (serialize.h) when `bytes` is not what encode_state wrote.
State decode_state(std::string_view bytes);

}  // namespace blockfog::hots
