// The view written as text (write_view) is byte for byte the DOM view (view().dump()), for
// every role, over complete random games of every scenario (RULES 13: both say the same, so the
// fog-of-war tests of the DOM view hold for the text the server sends); the layout noted while
// writing (core::ViewLayout) is where the view's parts are.

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
};

// `lines` is where the log's lines are in `text`: cut out, what is left is the view without
// lines (the server's comparison key); put in brackets, they are the view's "log".
void expect_lines_at(const std::string& text, const core::TextSpan& lines, const json& dom,
                     const std::string& without_lines) {
  ASSERT_LE(lines.begin, lines.end);
  ASSERT_GT(lines.begin, 0u);
  ASSERT_LT(lines.end, text.size());
  EXPECT_EQ(text[lines.begin - 1], '[');
  EXPECT_EQ(text[lines.end], ']');
  EXPECT_EQ(json::parse("[" + text.substr(lines.begin, lines.end - lines.begin) + "]"),
            dom.at("log"));
  EXPECT_EQ(text.substr(0, lines.begin) + text.substr(lines.end), without_lines);
}

// Each member of the layout is the member of the view of that name, with its value, and each
// element of an array member is that element.
void expect_parts_of(const std::string& text, const core::ViewLayout& layout, const json& dom) {
  ASSERT_EQ(layout.members.size(), dom.size());
  std::size_t elements = 0;
  for (const auto& member : layout.members) {
    const std::string name(core::text_of(text, member.name));
    ASSERT_TRUE(dom.contains(name)) << name;
    EXPECT_EQ(json::parse(core::text_of(text, member.value)), dom.at(name)) << name;
    EXPECT_EQ(member.array, dom.at(name).is_array()) << name;
    if (!member.array) continue;
    ASSERT_EQ(member.element_count, dom.at(name).size()) << name;
    EXPECT_EQ(member.first_element, elements) << name;
    for (std::uint32_t k = 0; k < member.element_count; ++k) {
      EXPECT_EQ(json::parse(core::text_of(text, layout.elements[member.first_element + k])),
                dom.at(name).at(k))
          << name << "[" << k << "]";
    }
    elements += member.element_count;
  }
  EXPECT_EQ(elements, layout.elements.size());
}

// Each role's memo of area texts, kept through a whole game as the server keeps it.
using Memos = std::array<std::unique_ptr<core::ViewMemo>, 3>;

void expect_same_views(const State& s, std::size_t log_from, Coverage& coverage, Memos& memos) {
  std::string text;
  std::string without_lines;
  std::string with_memo;
  for (Role role : {kScotland, kEngland, kObserver}) {
    core::TextSpan lines;
    const auto size = write_view(s, role, log_from, text, &lines);
    const auto dom = view(s, role, log_from);
    ASSERT_EQ(text, dom.dump()) << "role " << core::role_name(role) << ", phase "
                                << phase_name(s.phase) << ", log from " << log_from;
    // Area texts reused from earlier states must be what this state gives.
    auto& memo = memos[static_cast<std::size_t>(role)];
    if (!memo) memo = new_view_memo();
    core::ViewLayout layout;
    write_view(s, role, log_from, with_memo, nullptr, nullptr, memo.get(), &layout);
    ASSERT_EQ(with_memo, text) << "with the memo: role " << core::role_name(role) << ", phase "
                               << phase_name(s.phase);
    // The layout noted while writing is where the parts are.
    core::ViewLayout scanned;
    ASSERT_TRUE(core::scan_view_layout(text, scanned));
    ASSERT_EQ(layout, scanned) << "role " << core::role_name(role) << ", phase "
                               << phase_name(s.phase);
    if (coverage.views % 16 == 0) expect_parts_of(text, layout, dom);
    EXPECT_EQ(size, dom.at("log_size").get<std::size_t>());
    write_view(s, role, SIZE_MAX, without_lines);
    expect_lines_at(text, lines, dom, without_lines);
    ++coverage.views;
  }
  coverage.phases.insert(s.phase);
  coverage.battles += s.battle.area != kNone;
  coverage.game_overs += s.phase == Phase::GameOver;
}

TEST(ViewText, EqualsTheDomViewOverRandomGamesOfEveryScenario) {
  Coverage coverage;
  const char* scenarios[] = {"braveheart", "the_bruce", "campaign"};
  for (int n = 0; n < 3; ++n) {
    State s = setup(seed_of(n), *scenario_index(scenarios[n % 3]), Options{n % 2 == 1});
    std::mt19937 gen(static_cast<std::mt19937::result_type>(900 + n));
    Memos memos;
    for (int step = 0; step < 20000; ++step) {
      // The whole log now and then (as the server asks), otherwise the last lines only.
      expect_same_views(s,
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
  EXPECT_GT(coverage.views, 3000);
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

TEST(ViewText, TheGameInterfaceWritesTheSameText) {
  auto game = module().setup(seed_of(2), "braveheart", nullptr).game;
  ASSERT_TRUE(game);
  for (Role role : {kScotland, kEngland, kObserver}) {
    EXPECT_EQ(game->view_text(role), game->view(role).dump());
  }
}

// A module without a text writer of its own: core::Game's DOM-based write_view_from.
class DomOnlyGame final : public core::Game {
 public:
  explicit DomOnlyGame(const core::Game& game) : game_(game) {}
  std::vector<Role> active_roles() const override { return game_.active_roles(); }
  json legal_actions(Role role) const override { return game_.legal_actions(role); }
  std::optional<core::RuleError> apply(Role, const json&) override { return std::nullopt; }
  json view(Role role) const override { return game_.view(role); }
  json view_from(Role role, std::size_t log_from) const override {
    return game_.view_from(role, log_from);
  }
  core::Outcome outcome() const override { return game_.outcome(); }
  std::int64_t turn_marker() const override { return game_.turn_marker(); }
  json to_json() const override { return game_.to_json(); }
  std::string state_hash() const override { return game_.state_hash(); }
  std::vector<std::string> check_invariants() const override { return {}; }
  std::unique_ptr<core::Game> clone() const override { return nullptr; }

 private:
  const core::Game& game_;
};

TEST(ViewText, TheDefaultTextWriterFindsTheSameLines) {
  auto game = module().setup(seed_of(3), "the_bruce", nullptr).game;
  ASSERT_TRUE(game);
  std::mt19937 gen(5);
  const DomOnlyGame dom_only(*game);
  for (int step = 0; step < 300; ++step) {
    for (Role role : {kScotland, kEngland, kObserver}) {
      for (std::size_t from : {std::size_t{0}, std::size_t{3}, SIZE_MAX}) {
        std::string text, expected, without_lines;
        core::TextSpan lines, expected_lines;
        core::ViewLayout layout, expected_layout;
        const auto size =
            dom_only.write_view_from(role, from, text, &lines, nullptr, nullptr, &layout);
        EXPECT_EQ(size, game->write_view_from(role, from, expected, &expected_lines, nullptr,
                                              nullptr, &expected_layout));
        ASSERT_EQ(text, expected);
        EXPECT_EQ(layout, expected_layout);
        EXPECT_EQ(lines.begin, expected_lines.begin);
        EXPECT_EQ(lines.end, expected_lines.end);
        game->write_view_from(role, SIZE_MAX, without_lines);
        expect_lines_at(text, lines, game->view_from(role, from), without_lines);
      }
    }
    std::vector<std::pair<Role, json>> choices;
    for (Role role : {kScotland, kEngland}) {
      for (const auto& a : game->legal_actions(role)) choices.emplace_back(role, a);
    }
    if (choices.empty()) break;
    const auto& [role, action] = choices[gen() % choices.size()];
    ASSERT_FALSE(game->apply(role, action).has_value());
  }
}

}  // namespace
// A view that resumes counting log lines where the role's last view stopped writes exactly what
// one counting from the first line writes, through random play with its undos (an undo shortens
// the log, sometimes below the cursor, which must then uncount the entries cut off).
TEST(ViewText, ALogCursorRenewedEveryActionChangesNothing) {
  for (const char* scenario : {"braveheart", "campaign"}) {
    auto game = module().setup(seed_of(11), scenario, nullptr).game;
    ASSERT_TRUE(game);
    std::mt19937 gen(17);
    std::array<core::LogCursor, 3> cursors{};
    std::array<std::size_t, 3> held{};  // each role's log_size after its last view
    int undos = 0;
    int resumed = 0;
    int cut_back = 0;  // views after an undo cut the log back behind the cursor
    for (int step = 0; step < 1500; ++step) {
      for (Role role : {kScotland, kEngland, kObserver}) {
        const auto r = static_cast<std::size_t>(role);
        std::string with_cursor, from_the_start;
        const auto before = cursors[r];
        const auto size = game->write_view_from(role, held[r], with_cursor, nullptr, &cursors[r]);
        ASSERT_EQ(size, game->write_view_from(role, held[r], from_the_start)) << scenario << step;
        ASSERT_EQ(with_cursor, from_the_start) << scenario << " step " << step;
        EXPECT_EQ(cursors[r].visible, size);
        resumed += before.raw > 0 && before.raw <= cursors[r].raw;
        cut_back += before.raw > cursors[r].raw;
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
    EXPECT_GT(resumed, 0) << scenario;
    EXPECT_GT(cut_back, 0) << scenario;
  }
}

}  // namespace blockfog::hots::testing
