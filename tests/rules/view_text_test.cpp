// The one view writer (write_view), over complete random games of every scenario and every
// role: its text is the dump of its own parse (so the JSON tree that tools and tests read,
// view(), says exactly what the server sends); the caller's memo changes no byte of it; the
// layout noted while writing (core::ViewLayout) is where the view's parts are; and the lines a
// game finds from its log's end are those counted from the start, through undos.

#include <algorithm>
#include <array>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rules/core/json_writer.h"
#include "rules/hots/engine.h"
#include "rules/hots/module.h"
#include "rules/hots/view.h"
#include "tests/rules/fixture.h"

namespace blockfog::hots::testing {
namespace {

using nlohmann::json;

core::Seed seed_of(int n) {
  core::Seed seed{};
  for (std::size_t i = 0; i < seed.size(); ++i) {
    seed[i] = static_cast<std::uint8_t>((n * 37 + static_cast<int>(i) * 11 + 3) & 0xff);
  }
  return seed;
}

TEST(JsonWriter, EscapesStringsAsNlohmannDoes) {
  std::string all;
  for (int c = 1; c < 128; ++c) all += static_cast<char>(c);
  for (const std::string& text :
       {std::string(), all, std::string("Moray \xc3\xa9\xe2\x80\x94 \"x\""),
        std::string("a\\b\n\t\x01\x1f\x7f")}) {
    std::string out;
    core::append_json_string(out, text);
    EXPECT_EQ(out, json(text).dump()) << text;
  }
}

// The scan for characters to escape goes eight bytes at a time: every escaped character at
// every position of a word (and of the tail), among UTF-8 bytes, must still be found.
TEST(JsonWriter, FindsEveryEscapeAtEveryPositionOfLongStrings) {
  const std::string filler = "Moray ~\x7f abcdefghijklmnopqrstuvwxyz0123456789";
  const std::string utf8 = "\xc3\xa9\xe2\x80\x94\xf0\x9f\xa6\x81";  // e-acute, dash, lion
  for (const char special : {'"', '\\', '\n', '\x01', '\x1f'}) {
    for (std::size_t length = 1; length < 40; ++length) {
      for (std::size_t at = 0; at < length; ++at) {
        std::string text = filler.substr(0, length);
        text[at] = special;
        text.insert(at % 2 == 0 ? 0 : text.size(), utf8);
        std::string out;
        core::append_json_string(out, text);
        ASSERT_EQ(out, json(text).dump(-1, ' ', false, json::error_handler_t::replace))
            << "length " << length << ", escape at " << at;
        std::string written;
        core::JsonWriter w(written);
        w.string_from([&text](std::string& o) { o += text; });
        ASSERT_EQ(written, out);
      }
    }
  }
}

TEST(JsonWriter, NestsAndSeparatesAsNlohmannDoes) {
  std::string out;
  core::JsonWriter w(out);
  w.begin_object();
  w.key("a");
  w.begin_array();
  w.number(-3);
  w.begin_object();
  w.end_object();
  w.begin_array();
  w.end_array();
  w.null();
  w.end_array();
  w.field("b", true);
  w.field("c", std::size_t{18446744073709551615ULL} / 2);
  w.key("d");
  w.raw(R"({"x":[1,2]})");
  w.end_object();
  const json expected = {{"a", {-3, json::object(), json::array(), nullptr}},
                         {"b", true},
                         {"c", std::int64_t{9223372036854775807LL}},
                         {"d", {{"x", {1, 2}}}}};
  EXPECT_EQ(out, expected.dump());
}

TEST(JsonWriter, StringsWrittenInPlaceAreEscapedLikeOthers) {
  for (const std::string& text :
       {std::string("plain"), std::string("a \"quote\"\n"), std::string()}) {
    std::string out;
    core::JsonWriter w(out);
    w.begin_array();
    w.string_from([&text](std::string& o) { o += text; });
    w.string(text);
    w.end_array();
    EXPECT_EQ(out, json::array({text, text}).dump());
  }
}

TEST(ViewText, ActionsAreWrittenAsTheirJson) {
  // Every kind, with parameters in range and out of range.
  for (int kind = 0; kind <= static_cast<int>(ActionKind::Undo); ++kind) {
    for (std::uint8_t a : {std::uint8_t{0}, std::uint8_t{3}, kNone}) {
      const Action action{static_cast<ActionKind>(kind), a, static_cast<std::uint8_t>(a ^ 1)};
      std::string out;
      core::JsonWriter w(out);
      write_action(w, action);
      EXPECT_EQ(out, action_to_json(action).dump());
    }
  }
}

// What the games below went through, so that a change in the engine cannot quietly make the
// comparison cover less.
struct Coverage {
  std::set<Phase> phases;
  int battles = 0;
  int game_overs = 0;
  long views = 0;
  long states = 0;
};

// `lines` is where the log's lines are in `text` (the layout's "log" without its brackets):
// cut out, what is left is the view without lines (the server's comparison key).
void expect_lines_at(const std::string& text, const core::ViewLayout& layout, const json& parsed,
                     const std::string& without_lines) {
  const auto log = std::find_if(layout.members.begin(), layout.members.end(), [&](const auto& m) {
    return core::text_of(text, m.name) == "log";
  });
  ASSERT_NE(log, layout.members.end());
  const core::TextSpan lines{log->value.begin + 1, log->value.end - 1};
  EXPECT_EQ(json::parse(core::text_of(text, log->value)), parsed.at("log"));
  EXPECT_EQ(text.substr(0, lines.begin) + text.substr(lines.end), without_lines);
}

// Each member of the layout is the member of the view of that name, with its value, and each
// element of an array member is that element.
void expect_parts_of(const std::string& text, const core::ViewLayout& layout, const json& parsed) {
  ASSERT_EQ(layout.members.size(), parsed.size());
  std::size_t elements = 0;
  for (const auto& member : layout.members) {
    const std::string name(core::text_of(text, member.name));
    ASSERT_TRUE(parsed.contains(name)) << name;
    EXPECT_EQ(json::parse(core::text_of(text, member.value)), parsed.at(name)) << name;
    EXPECT_EQ(member.array, parsed.at(name).is_array()) << name;
    if (!member.array) continue;
    ASSERT_EQ(member.element_count, parsed.at(name).size()) << name;
    EXPECT_EQ(member.first_element, elements) << name;
    for (std::uint32_t k = 0; k < member.element_count; ++k) {
      EXPECT_EQ(json::parse(core::text_of(text, layout.elements[member.first_element + k])),
                parsed.at(name).at(k))
          << name << "[" << k << "]";
    }
    elements += member.element_count;
  }
  EXPECT_EQ(elements, layout.elements.size());
}

// Each role's memo, kept through a whole game as the server keeps it.
using Memos = std::array<core::ViewMemo, 3>;

void expect_sound_views(const State& s, std::size_t log_from, Coverage& coverage, Memos& memos) {
  std::string text;
  std::string without_lines;
  std::string with_memo;
  // The memo is checked at every state (a stale part would show in the next one only if its
  // area changed again); the parse, the layout and the lines at every 8th.
  const bool full = coverage.states++ % 8 == 0;
  for (Role role : {kScotland, kEngland, kObserver}) {
    const auto size = write_view(s, role, log_from, text);
    core::ViewLayout layout;
    const auto readable = count_readable(s);
    write_view(s, role, log_from, with_memo, &layout, &memos[static_cast<std::size_t>(role)],
               &readable);
    ASSERT_EQ(with_memo, text) << "with the memo: role " << core::role_name(role) << ", phase "
                               << phase_name(s.phase);
    if (!full) continue;
    const auto parsed = json::parse(text);
    ASSERT_EQ(text, parsed.dump()) << "role " << core::role_name(role) << ", phase "
                                   << phase_name(s.phase) << ", log from " << log_from;
    // The layout noted while writing is where the parts are.
    core::ViewLayout scanned;
    ASSERT_TRUE(core::scan_view_layout(text, scanned));
    ASSERT_EQ(layout, scanned) << "role " << core::role_name(role) << ", phase "
                               << phase_name(s.phase);
    if (coverage.views % 2 == 0) expect_parts_of(text, layout, parsed);
    EXPECT_EQ(size, parsed.at("log_size").get<std::size_t>());
    write_view(s, role, SIZE_MAX, without_lines);
    expect_lines_at(text, layout, parsed, without_lines);
    ++coverage.views;
  }
  coverage.phases.insert(s.phase);
  coverage.battles += s.battle.area != kNone;
  coverage.game_overs += s.phase == Phase::GameOver;
}

TEST(ViewText, IsItsOwnParsesDumpAndTheMemoChangesNothingOverRandomGames) {
  Coverage coverage;
  const char* scenarios[] = {"braveheart", "the_bruce", "campaign"};
  for (int n = 0; n < 3; ++n) {
    State s = setup(seed_of(n), *scenario_index(scenarios[n % 3]), Options{n % 2 == 1});
    std::mt19937 gen(static_cast<std::mt19937::result_type>(900 + n));
    Memos memos;
    for (int step = 0; step < 20000; ++step) {
      // The whole log now and then (as the server asks), otherwise the last lines only.
      expect_sound_views(s,
                         step % 97 == 0 ? 0 : s.log.size() - std::min<std::size_t>(s.log.size(), 5),
                         coverage, memos);
      if (::testing::Test::HasFatalFailure()) return;
      const auto choice = random_legal_action(s, gen);
      if (!choice) break;
      ASSERT_FALSE(apply(s, choice->first, choice->second).has_value());
    }
    EXPECT_EQ(s.phase, Phase::GameOver) << "game " << n << " did not finish";
  }
  EXPECT_EQ(coverage.game_overs, 3);
  EXPECT_GT(coverage.battles, 50);
  EXPECT_GT(coverage.views, 1000);
  for (Phase phase : {Phase::CardChoice, Phase::Event, Phase::Move, Phase::BattleChoice,
                      Phase::Combat, Phase::HitAllocation, Phase::Regroup, Phase::Winter}) {
    EXPECT_TRUE(coverage.phases.count(phase)) << phase_name(phase) << " never compared";
  }
}

TEST(ViewText, ReusesTheCallersBuffer) {
  const State s = setup(seed_of(1), 0, Options{});
  std::string text;
  write_view(s, kScotland, 0, text);
  const auto* data = text.data();
  const auto size = text.size();
  write_view(s, kScotland, 0, text);
  EXPECT_EQ(text.data(), data) << "the second view of the same state reallocated the buffer";
  EXPECT_EQ(text.size(), size);
}

// A game finds a role's lines from `log_from` on from its log's end (it keeps how many lines
// each role may read through every action): the lines, their numbers and the log_size are
// those of the whole view, through random play with its undos (an undo shortens the log).
TEST(ViewText, AGameFindsTheLinesARoleLacksThroughUndos) {
  for (const char* scenario : {"braveheart", "campaign"}) {
    auto game = module().setup(seed_of(11), scenario, nullptr).game;
    ASSERT_TRUE(game);
    std::mt19937 gen(17);
    std::array<std::size_t, 3> held{};  // each role's log_size after its last view
    int undos = 0;
    int shortened = 0;  // views after an undo cut the role's lines back
    for (int step = 0; step < 300; ++step) {
      for (Role role : {kScotland, kEngland, kObserver}) {
        const auto r = static_cast<std::size_t>(role);
        std::string text;
        const auto size = game->write_view(role, held[r], text);
        const auto whole = game->view(role);
        ASSERT_EQ(size, whole.at("log_size").get<std::size_t>()) << scenario << " step " << step;
        const auto lines = json::parse(text).at("log");
        const auto& all = whole.at("log");
        ASSERT_EQ(lines.size(), size - std::min(size, held[r])) << scenario << " step " << step;
        for (std::size_t k = 0; k < lines.size(); ++k) {
          ASSERT_EQ(lines[k], all[all.size() - lines.size() + k]) << scenario << " step " << step;
        }
        shortened += size < held[r];
        held[r] = size;
      }
      std::vector<std::pair<Role, json>> choices;
      for (Role role : {kScotland, kEngland}) {
        for (const auto& a : game->legal_actions(role)) choices.emplace_back(role, a);
      }
      if (choices.empty()) break;
      const auto& [role, action] = choices[gen() % choices.size()];
      undos += action.at("kind") == "undo";
      ASSERT_FALSE(game->apply(role, action).has_value());
    }
    EXPECT_GT(undos, 0) << scenario;
    EXPECT_GT(shortened, 0) << scenario;
  }
}

}  // namespace
}  // namespace blockfog::hots::testing
