#pragma once

// The view frame built around view JSON text the engine wrote (core::Game::write_view),
// for the server's hot path: no JSON DOM of the view is built or walked. The bytes are exactly
// what encode(ViewMessage) gives for the same view parsed, so clients cannot tell the two apart
// (tests/protocol/view_frame_test.cpp).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace blockfog::protocol {

// `view_json` must be one JSON object, compact, as nlohmann's dump() writes it.
// The frame is encode_view_head(...) + view_json + kViewFrameTail: the server sends a role's
// view text to each of that role's connections as the middle part of one gather write, so the
// view is never copied into a frame of its own.
std::string encode_view_head(std::int64_t seq, std::int64_t log_from,
                             const std::optional<std::string>& ref, bool stale);
inline constexpr std::string_view kViewFrameTail = "}";
// The same for a view_patch frame (protocol::ViewPatchMessage): encode_view_patch_head(...) +
// the patch body (server/play/view_patch.h) + kViewFrameTail.
std::string encode_view_patch_head(std::int64_t seq, std::int64_t log_from,
                                   const std::optional<std::string>& ref);
std::string encode_view(std::int64_t seq, std::string_view view_json, std::int64_t log_from,
                        const std::optional<std::string>& ref, bool stale);

}  // namespace blockfog::protocol
