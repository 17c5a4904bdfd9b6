// The load client's frame scanner reads the fields it acts on from real server frames (as the
// protocol encodes them) exactly as a JSON parser would.

#include "tools/blockfog-load/frame_scan.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "protocol/messages.h"

namespace blockfog::load {
namespace {

using nlohmann::json;

TEST(FrameScan, ReadsAViewsVersionRefAndLegalActions) {
  const json actions = json::array({{{"kind", "move"}, {"block", "sco_wallace"}, {"to", "lothian"}},
                                    {{"kind", "pass"}},
                                    {{"kind", "chat"}, {"text", "a \"quoted\" ] } text"}}});
  const json view = {{"game", "hots"},
                     {"areas", json::array({{{"id", "fife"}}})},
                     {"legal_actions", actions},
                     {"log", json::array({{{"i", 4}, {"text", "\"legal_actions\":[] in a line"}}})},
                     {"log_size", 5}};
  const auto frame =
      protocol::encode(protocol::ServerMessage{protocol::ViewMessage{42, view, 4, "r7", true}});
  const auto scanned = scan_frame(frame);
  ASSERT_TRUE(scanned);
  EXPECT_EQ(scanned->type, "view");
  EXPECT_EQ(scanned->seq, 42);
  EXPECT_EQ(scanned->ref, "r7");
  EXPECT_TRUE(scanned->stale);
  EXPECT_FALSE(scanned->finished);
  ASSERT_EQ(scanned->actions.size(), 3U);
  for (std::size_t i = 0; i < actions.size(); ++i) {
    EXPECT_EQ(json::parse(scanned->actions[i]), actions[i]);
  }
}

TEST(FrameScan, AViewWithoutRefIsNotAnAnswerAndAnOutcomeEndsTheGame) {
  const json view = {{"legal_actions", json::array()},
                     {"outcome", {{"winner", "england"}, {"reason", "sudden death"}}}};
  const auto scanned = scan_frame(
      protocol::encode(protocol::ServerMessage{protocol::ViewMessage{3, view, 0, {}, false}}));
  ASSERT_TRUE(scanned);
  EXPECT_FALSE(scanned->ref);
  EXPECT_FALSE(scanned->stale);
  EXPECT_TRUE(scanned->actions.empty());
  EXPECT_TRUE(scanned->finished);
}

// The client scans every frame into the same buffers: nothing of one frame may be left in the
// next one's reading. The key is found from the end of the view, past many other keys and
// values with underscores, and a view without legal_actions lists none.
TEST(FrameScan, AFrameScannedIntoUsedBuffersKeepsNothingOfTheLastOne) {
  const json actions =
      json::array({{{"kind", "play_card"}, {"card", "her_ald"}}, {{"kind", "pass"}}});
  const json view = {{"areas", json::array({{{"id", "sco_ross"}}, {{"id", "not_in_play"}}})},
                     {"legal_actions", actions},
                     {"log_size", 3},
                     {"not_in_play", json::array({"eng_x", "sco_y"})},
                     {"phase_text", "move_phase"},
                     {"truce_against", nullptr}};
  ScannedFrame scanned;
  ASSERT_TRUE(scan_frame(
      protocol::encode(protocol::ServerMessage{protocol::ViewMessage{8, view, 0, "r1", false}}),
      scanned));
  ASSERT_EQ(scanned.actions.size(), 2U);
  EXPECT_EQ(json::parse(scanned.actions[0]), actions[0]);
  EXPECT_EQ(json::parse(scanned.actions[1]), actions[1]);

  const json without = {{"areas", json::array()}, {"log_size", 3}, {"phase_text", "a_b"}};
  ASSERT_TRUE(scan_frame(
      protocol::encode(protocol::ServerMessage{protocol::ViewMessage{9, without, 0, {}, true}}),
      scanned));
  EXPECT_EQ(scanned.seq, 9);
  EXPECT_FALSE(scanned.ref);
  EXPECT_TRUE(scanned.stale);
  EXPECT_TRUE(scanned.actions.empty());

  ASSERT_TRUE(scan_frame(protocol::encode(protocol::ServerMessage{protocol::ErrorMessage{
                             protocol::ErrorCode::GameOver, "x", std::nullopt}}),
                         scanned));
  EXPECT_EQ(scanned.type, "error");
  EXPECT_FALSE(scanned.seq);
  EXPECT_FALSE(scanned.stale);
  EXPECT_FALSE(scan_frame("[]", scanned));
}

TEST(FrameScan, ReadsAnErrorsCodeAndRef) {
  const auto scanned = scan_frame(protocol::encode(protocol::ServerMessage{
      protocol::ErrorMessage{protocol::ErrorCode::IllegalAction, "no \"ref\":\"x\"", "r9"}}));
  ASSERT_TRUE(scanned);
  EXPECT_EQ(scanned->type, "error");
  EXPECT_EQ(scanned->error_code, "illegal_action");
  EXPECT_EQ(scanned->ref, "r9");
  EXPECT_FALSE(scan_frame("not json"));
  EXPECT_FALSE(scan_frame(R"({"v":1})"));
}

std::string patch_frame(std::int64_t seq, const json& patch, std::optional<std::string> ref) {
  return protocol::encode(
      protocol::ServerMessage{protocol::ViewPatchMessage{seq, patch, 3, std::move(ref)}});
}

// A patch gives the seat's actions only where it changes them: set whole, or by elements
// (applied to the list the seat holds), or not at all (the seat keeps its list).
TEST(FrameScan, ReadsWhatAPatchChangesOfTheActions) {
  const json actions = json::array({{{"kind", "move"}, {"to", "fife"}}, {{"kind", "pass"}}});
  const json areas = json::array({{1, {{"id", "fife"}, {"legal_actions", "not these"}}}});
  ScannedFrame scanned;
  ASSERT_TRUE(scan_frame(
      patch_frame(5, {{"elements", {{"areas", areas}}}, {"set", {{"legal_actions", actions}}}},
                  "r3"),
      scanned));
  EXPECT_EQ(scanned.type, "view_patch");
  EXPECT_TRUE(scanned.is_view());
  EXPECT_EQ(scanned.seq, 5);
  EXPECT_EQ(scanned.ref, "r3");
  EXPECT_TRUE(scanned.actions_given);
  ASSERT_EQ(scanned.actions.size(), 2U);
  EXPECT_EQ(json::parse(scanned.actions[1]), actions[1]);
  EXPECT_TRUE(scanned.action_changes.empty());
  EXPECT_FALSE(scanned.finished);

  ActionList held = scanned.actions;
  const json changed = {{{"kind", "move"}, {"to", "\"]lothian"}}};
  ASSERT_TRUE(scan_frame(
      patch_frame(6, {{"elements", {{"legal_actions", {{0, changed}}}}}, {"unset", {"battle"}}},
                  std::nullopt),
      scanned));
  EXPECT_FALSE(scanned.actions_given);
  EXPECT_FALSE(scanned.ref);
  ASSERT_TRUE(held.replace(scanned.action_changes));
  ASSERT_EQ(held.size(), 2U);
  EXPECT_EQ(json::parse(held[0]), changed);
  EXPECT_EQ(json::parse(held[1]), actions[1]);
  EXPECT_FALSE(held.replace(R"([[2,{"kind":"pass"}]])")) << "an index beyond the list";
  EXPECT_EQ(held.size(), 2U);

  ASSERT_TRUE(
      scan_frame(patch_frame(7, {{"set", {{"log_size", 4}, {"phase", "move"}}}}, {}), scanned));
  EXPECT_FALSE(scanned.actions_given);
  EXPECT_TRUE(scanned.action_changes.empty());
  EXPECT_TRUE(scanned.actions.empty());
}

TEST(FrameScan, APatchThatSetsAnOutcomeEndsTheGame) {
  const auto scanned = scan_frame(patch_frame(
      9,
      {{"set",
        {{"legal_actions", json::array()}, {"outcome", {{"winner", "scotland"}}}, {"seed", "ab"}}}},
      "r1"));
  ASSERT_TRUE(scanned);
  EXPECT_TRUE(scanned->finished);
  EXPECT_TRUE(scanned->actions_given);
  EXPECT_TRUE(scanned->actions.empty());
}

// A patch cut short, or one whose parts are not objects, is not read (the client counts it as
// an error) rather than read in part.
TEST(FrameScan, ACutOrMalformedPatchIsNotRead) {
  const auto whole =
      patch_frame(5, {{"set", {{"legal_actions", json::array({{{"kind", "pass"}}})}}}}, "r1");
  ASSERT_TRUE(scan_frame(whole));
  EXPECT_FALSE(scan_frame(whole.substr(0, whole.size() - 4) + "}")) << "cut in the list";
  EXPECT_FALSE(scan_frame(whole.substr(0, whole.size() - 2) + "}")) << "the patch not closed";
  EXPECT_FALSE(
      scan_frame(R"({"seq":1,"type":"view_patch","v":1,"view_patch":{"set":[{"kind":"pass"}]}})"))
      << "a part that is not an object";
  EXPECT_FALSE(scan_frame(R"({"seq":1,"type":"view_patch","v":1,"view_patch":{"set":{}},"x":1})"))
      << "something after the patch";
}

// A value is found whole whatever its strings hold: escaped quotes and backslashes, and
// brackets that are text, not structure (log lines quote what players typed).
TEST(FrameScan, AValueEndsAtItsOwnClosingBracketNotAtOneInsideAString) {
  const json value = {{"line", "he said \"}] {[\" then \\"},
                      {"list", json::array({"\\", "a\\\"b", "]", json::object({{"x", "}"}})})},
                      {"n", 3}};
  std::string text = "[";  // appended, not added up: GCC 12 warns (-Wrestrict) at a + b + c
  text += value.dump();
  text += ",\"tail\\\\\",7]";
  EXPECT_EQ(json_value_at(text, 1), value.dump());
  EXPECT_EQ(json::parse(json_value_at(text, 0)), json::parse(text));
  EXPECT_EQ(json_value_at(text, value.dump().size() + 2), "\"tail\\\\\"");
  EXPECT_EQ(json_value_at(text, text.size() - 2), "7");
  // Cut anywhere inside the value, it has no end.
  for (std::size_t cut = 2; cut < value.dump().size(); ++cut) {
    EXPECT_EQ(json_value_at(text.substr(0, cut), 1), "") << cut;
  }
  EXPECT_EQ(json_value_at(R"("a\")", 0), "") << "a quote escaped is not the end";
}

}  // namespace
}  // namespace blockfog::load
