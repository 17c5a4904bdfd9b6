// The fog-of-war check of hots-sim --check (RULES 13) must see what it is meant to see in the
// view text: a hidden block named anywhere, enemy block details in an area, the generator key,
// and text that is not JSON. A check that cannot fail would make the fuzzing run meaningless.

#include <string>

#include <gtest/gtest.h>

#include "rules/core/hex.h"
#include "rules/hots/engine.h"
#include "rules/hots/view.h"
#include "tools/hots-sim/redaction.h"

namespace blockfog::tools {
namespace {

using core::Role;

hots::State start() {
  core::Seed seed{};
  seed[0] = 9;
  return hots::setup(seed, 0, hots::Options{});
}

// An English block on the map at set-up: hidden from Scotland and observers.
hots::BlockId english_on_map(const hots::State& s) {
  for (hots::BlockId b = hots::kBlocksPerSide; b < hots::kBlockCount; ++b) {
    if (hots::on_map(s, b)) return b;
  }
  return hots::kNone;
}

std::string view_of(const hots::State& s, Role role) {
  std::string text;
  hots::write_view(s, role, 0, text);
  return text;
}

void replace(std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
}

TEST(ToolsRedaction, TheEngineViewsAreClean) {
  const auto s = start();
  for (Role role : {Role::Scotland, Role::England, Role::Observer}) {
    EXPECT_TRUE(find_leaks(s, role, view_of(s, role)).empty()) << core::role_name(role);
  }
}

TEST(ToolsRedaction, FindsAHiddenBlockAsValueKeyOrEscapedString) {
  const auto s = start();
  const auto b = english_on_map(s);
  ASSERT_NE(b, hots::kNone);
  const auto& id = hots::game_data().blocks[b].id;
  const auto clean = view_of(s, Role::Scotland);
  for (const std::string& planted :
       {"\"game\":\"" + id + "\"", "\"game\":{\"" + id + "\":1}",
        "\"game\":\"" + id.substr(0, 3) + "\\u005f" + id.substr(4) + "\""}) {
    auto text = clean;
    replace(text, "\"game\":\"hots\"", planted);
    const auto leaks = find_leaks(s, Role::Scotland, text);
    ASSERT_EQ(leaks.size(), 1U) << planted;
    EXPECT_NE(leaks[0].find(id), std::string::npos) << leaks[0];
  }
  // The owner may see it.
  auto own = view_of(s, Role::England);
  replace(own, "\"game\":\"hots\"", "\"game\":\"" + id + "\"");
  EXPECT_TRUE(find_leaks(s, Role::England, own).empty());
}

TEST(ToolsRedaction, FindsEnemyBlockDetailsInAnArea) {
  const auto s = start();
  auto text = view_of(s, Role::Scotland);
  // The first area's English side gains a "blocks" list: only counts may be shown.
  replace(text, "\"england\":{\"count\"", "\"england\":{\"blocks\":[],\"count\"");
  const auto leaks = find_leaks(s, Role::Scotland, text);
  ASSERT_EQ(leaks.size(), 1U);
  EXPECT_NE(leaks[0].find("'blocks' of enemy blocks"), std::string::npos) << leaks[0];
  // The same list on Scotland's own side is its right.
  auto own = view_of(s, Role::Scotland);
  EXPECT_TRUE(find_leaks(s, Role::Scotland, own).empty());
}

TEST(ToolsRedaction, FindsTheGeneratorKeyAndBrokenJson) {
  const auto s = start();
  auto text = view_of(s, Role::Observer);
  replace(text, "\"game\":\"hots\"", "\"game\":\"" + core::to_hex(s.rng.stream().key()) + "\"");
  const auto leaks = find_leaks(s, Role::Observer, text);
  ASSERT_EQ(leaks.size(), 1U);
  EXPECT_NE(leaks[0].find("generator key"), std::string::npos);

  auto broken = view_of(s, Role::Observer);
  broken.pop_back();  // the closing brace
  const auto invalid = find_leaks(s, Role::Observer, broken);
  ASSERT_EQ(invalid.size(), 1U);
  EXPECT_NE(invalid[0].find("not valid JSON"), std::string::npos);
}

}  // namespace
}  // namespace blockfog::tools
