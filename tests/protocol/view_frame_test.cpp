#include "protocol/view_frame.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "protocol/messages.h"

namespace blockfog::protocol {
namespace {

using nlohmann::json;

// The server's text-built frame must be the frame a client would get from the DOM encoder.
void expect_same_frame(std::int64_t seq, const json& view, std::int64_t log_from,
                       std::optional<std::string> ref, bool stale) {
  const std::string text = encode_view(seq, view.dump(), log_from, ref, stale);
  EXPECT_EQ(text, encode(ServerMessage{ViewMessage{seq, view, log_from, ref, stale}}));
  // The server's gather write sends the same bytes in three parts.
  EXPECT_EQ(encode_view_head(seq, log_from, ref, stale) + view.dump() + std::string(kViewFrameTail),
            text);
  const auto decoded = decode_server(text);
  ASSERT_TRUE(std::holds_alternative<ServerMessage>(decoded)) << text;
  const auto* message = std::get_if<ViewMessage>(&std::get<ServerMessage>(decoded));
  ASSERT_NE(message, nullptr);
  EXPECT_EQ(message->seq, seq);
  EXPECT_EQ(message->view, view);
  EXPECT_EQ(message->log_from, log_from);
  EXPECT_EQ(message->ref, ref);
  EXPECT_EQ(message->stale, stale);
}

TEST(ViewFrame, MatchesTheDomEncoderWithAndWithoutRefAndStale) {
  const json view = {{"log", json::array({"Scotland plays a card", "Ïle — moves"})},
                     {"log_size", 12},
                     {"phase", "England: winter"},
                     {"areas", {{"Fife", {{"scotland", 2}}}}},
                     {"actions", json::array({{{"kind", "done"}}})}};
  expect_same_frame(7, view, 10, std::nullopt, false);
  expect_same_frame(8, view, 0, std::string("r1"), false);
  expect_same_frame(9, view, 3, std::string("r2"), true);
  expect_same_frame(0, json::object(), 0, std::nullopt, true);
}

TEST(ViewFrame, EscapesRefsAsTheDomEncoderDoes) {
  const json view = {{"log", json::array()}, {"log_size", 0}};
  for (const std::string& ref :
       {std::string("quote\"back\\slash"), std::string("tab\tnew\nline"), std::string("\x01\x1f"),
        std::string("ünï — 🦁"), std::string(64, 'x')}) {
    expect_same_frame(1, view, 0, ref, false);
  }
}

TEST(ViewFrame, APatchFrameMatchesTheDomEncoder) {
  const json patch = {
      {"set", {{"log", json::array({{{"i", 4}, {"text", "Ïle"}}})}, {"log_size", 5}}},
      {"unset", {"battle"}}};
  for (const auto& ref : {std::optional<std::string>(), std::optional<std::string>("q\"1")}) {
    const std::string text =
        encode_view_patch_head(9, 4, ref) + patch.dump() + std::string(kViewFrameTail);
    EXPECT_EQ(text, encode(ServerMessage{ViewPatchMessage{9, patch, 4, ref}}));
    const auto decoded = decode_server(text);
    ASSERT_TRUE(std::holds_alternative<ServerMessage>(decoded)) << text;
    const auto* message = std::get_if<ViewPatchMessage>(&std::get<ServerMessage>(decoded));
    ASSERT_NE(message, nullptr);
    EXPECT_EQ(message->patch, patch);
    EXPECT_EQ(message->ref, ref);
  }
}

}  // namespace
}  // namespace blockfog::protocol
