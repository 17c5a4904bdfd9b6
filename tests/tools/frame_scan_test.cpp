// The load client's frame scanner reads the fields it acts on from real server frames (as the
// protocol encodes them) exactly as a JSON parser would.

#include "tools/blockfog-load/frame_scan.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

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

// Keys in string values (a ref the client chose, a chat line, a log line) are text, not keys:
// their quotes are escaped. An envelope longer than a block (a ref of the longest) is read
// whole.
TEST(FrameScan, AKeyInsideAStringIsNotAKey) {
  const std::string ref = R"(","seq":7,"stale":true,"type":"error","view":{"legal_actions":[)";
  ASSERT_LE(ref.size(), protocol::kMaxRefBytes);
  const json actions = json::array({{{"kind", "pass"}}});
  const json view = {{"legal_actions", actions},
                     {"log", json::array({{{"i", 0}, {"text", R"("outcome":{"x":1})"}}})}};
  auto scanned = scan_frame(
      protocol::encode(protocol::ServerMessage{protocol::ViewMessage{42, view, 0, ref}}));
  ASSERT_TRUE(scanned);
  EXPECT_EQ(scanned->type, "view");
  EXPECT_EQ(scanned->seq, 42);
  EXPECT_FALSE(scanned->stale);
  EXPECT_FALSE(scanned->finished);
  ASSERT_EQ(scanned->actions.size(), 1U);
  EXPECT_EQ(json::parse(scanned->actions[0]), actions[0]);
  ASSERT_TRUE(scanned->ref);
  EXPECT_EQ(json::parse("\"" + *scanned->ref + "\""), ref) << "read as written, escapes and all";

  const std::string chat = protocol::encode(protocol::ServerMessage{
      protocol::ChatLine{3, "england", "edward",
                         R"(","type":"view","view":{"legal_actions":[{"kind":"pass"}]}})", 9}});
  scanned = scan_frame(chat);
  ASSERT_TRUE(scanned);
  EXPECT_EQ(scanned->type, "chat");
  EXPECT_FALSE(scanned->is_view());
  EXPECT_TRUE(scanned->actions.empty());
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

// Only a member of `set` or `elements` is read as one: the same keys deeper (in an area, in a
// battle) or in a string (a log line quoting them) change nothing, however long the values
// around them.
TEST(FrameScan, APatchsKeysAreReadAtTheirOwnLevelOnly) {
  const std::string quoted = R"(a "legal_actions":[{"kind":"x"}],"outcome":{"w":1} \\" }]\)";
  const json patch = {
      {"elements",
       {{"areas", json::array({json::array({3,
                                            {{"legal_actions", json::array({1})},
                                             {"outcome", {{"winner", "england"}}},
                                             {"text", quoted + std::string(80, '[')}}})})}}},
      {"set",
       {{"battle", {{"outcome", {{"winner", "scotland"}}}, {"legal_actions", json::array()}}},
        {"log", json::array({{{"i", 1}, {"text", quoted}}, {{"i", 2}, {"text", quoted + quoted}}})},
        {"phase_text", quoted}}}};
  ScannedFrame scanned;
  ASSERT_TRUE(scan_frame(patch_frame(4, patch, "r2"), scanned));
  EXPECT_FALSE(scanned.actions_given);
  EXPECT_TRUE(scanned.action_changes.empty());
  EXPECT_FALSE(scanned.finished);

  // The same keys as the patch's own members, after all that, are read.
  json with = patch;
  with["set"]["outcome"] = {{"winner", "england"}};
  with["set"]["legal_actions"] = json::array({{{"kind", "pass"}, {"text", quoted}}});
  ASSERT_TRUE(scan_frame(patch_frame(5, with, "r3"), scanned));
  EXPECT_TRUE(scanned.finished);
  EXPECT_TRUE(scanned.actions_given);
  ASSERT_EQ(scanned.actions.size(), 1U);
  EXPECT_EQ(json::parse(scanned.actions[0]), with["set"]["legal_actions"][0]);

  // Cut anywhere in the patch (its frame still closed), it is not read.
  const auto frame = patch_frame(5, with, "r3");
  const auto body = frame.find(R"("view_patch":{)") + std::string_view(R"("view_patch":)").size();
  for (std::size_t cut = body + 1; cut + 1 < frame.size(); ++cut) {
    ASSERT_FALSE(scan_frame(frame.substr(0, cut) + "}")) << "cut at " << cut;
  }
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

// A string ends at the first quote after an even run of backslashes (escaped backslashes), not
// at one after an odd run (an escaped quote), however long the run.
TEST(FrameScan, AStringEndsAtAQuoteAfterAnEvenRunOfBackslashes) {
  EXPECT_EQ(json_value_at(R"("a\\",1)", 0), R"("a\\")");
  EXPECT_EQ(json_value_at(R"("a\\\\",1)", 0), R"("a\\\\")");
  EXPECT_EQ(json_value_at(R"("a\\\"b",1)", 0), R"("a\\\"b")");
  EXPECT_EQ(json_value_at(R"("\"\"\\",1)", 0), R"("\"\"\\")");
  EXPECT_EQ(json_value_at(R"(x"\\\\\\\"",1)", 1), R"("\\\\\\\"")") << "seven, then the end";
  EXPECT_EQ(json_value_at(R"("",1)", 0), R"("")");
  EXPECT_EQ(json_value_at(R"("a\\\")", 0), "") << "three: the last quote is escaped";
  EXPECT_EQ(json_value_at(R"("a\)", 0), "");
  EXPECT_EQ(json_value_at(R"(")", 0), "");
}

// A JSON value of random shape: objects and arrays nested up to four deep, numbers, literals,
// and strings of the bytes a walk must not misread (quotes, backslashes and their runs,
// brackets), some longer than the 64 bytes the walk takes at a time.
json random_value(std::mt19937& rng, int depth) {
  const auto text = [&] {
    static constexpr std::string_view kBytes = "ab\"\\{}[],:";
    std::string out(rng() % 8 == 0 ? 40 + rng() % 90 : rng() % 12, ' ');
    for (auto& c : out) c = kBytes[rng() % kBytes.size()];
    return out;
  };
  switch (rng() % (depth >= 4 ? 3 : 6)) {
    case 0:
      return text();
    case 1:
      return static_cast<int>(rng() % 2000) - 1000;
    case 2:
      return rng() % 2 == 0 ? json(true) : json(nullptr);
    case 3:
    case 4: {
      json array = json::array();
      for (auto n = rng() % 6; n > 0; --n) array.push_back(random_value(rng, depth + 1));
      return array;
    }
    default: {
      json object = json::object();
      for (auto n = rng() % 6; n > 0; --n) object[text()] = random_value(rng, depth + 1);
      return object;
    }
  }
}

// Any value the server could write is found whole, wherever its strings' escapes, quotes and
// brackets fall against the walk's blocks of 64 bytes, and a value cut anywhere has no end.
TEST(FrameScan, AnyValueIsFoundWholeAndNoCutValueHasAnEnd) {
  std::mt19937 rng(5);
  int cut_checks = 0;
  for (int n = 0; n < 3000; ++n) {
    const json value = n % 2 == 0 ? json::array({random_value(rng, 1)}) : random_value(rng, 0);
    const std::string dump = value.dump();
    const std::string text = "[" + dump + R"(,{"next":"]}\\"}])";
    ASSERT_EQ(json_value_at(text, 1), dump) << dump;
    if (dump.front() != '{' && dump.front() != '[' && dump.front() != '"') continue;
    for (std::size_t cut = 2; cut < dump.size() + 1; cut += 1 + n % 7) {
      ASSERT_EQ(json_value_at(text.substr(0, cut), 1), "") << dump << " cut at " << cut;
      ++cut_checks;
    }
  }
  EXPECT_GT(cut_checks, 10'000);
}

// The walk's blocks start where the value does: a string padded one byte at a time puts an
// escaped quote, a run of backslashes and brackets that are text at every place in a block,
// across the end of one and at the end of the text.
TEST(FrameScan, EscapesAndBracketsInStringsAreReadAtEveryPlaceInABlock) {
  for (std::size_t pad = 0; pad < 140; ++pad) {
    const json value = {{"a", std::string(pad, 'x')},
                        {"b", "q\"}] \\\"{[\\\\\\"},
                        {"c", json::array({json::array({{{"d", "\\\""}}})})},
                        {"e", std::string(70, ']')}};
    const std::string dump = value.dump();
    EXPECT_EQ(json_value_at(dump, 0), dump) << pad << " at the text's end";
    EXPECT_EQ(json_value_at(dump + "]}]}", 0), dump) << pad;
    for (std::size_t cut = 1; cut < dump.size(); ++cut) {
      ASSERT_EQ(json_value_at(dump.substr(0, cut), 0), "") << pad << " cut at " << cut;
    }
  }
}

}  // namespace
}  // namespace blockfog::load
