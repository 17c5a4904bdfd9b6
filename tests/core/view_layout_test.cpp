// The layout scanner (core::scan_view_layout) finds a compact JSON object's members and the
// elements of its array members, strings with brackets, quotes and escapes included, and
// refuses what is not one object. (The engine's views: tests/rules/view_text_test.cpp checks
// that the layout noted while writing equals the scanned one.)

#include "rules/core/view_layout.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace blockfog::core {
namespace {

std::vector<std::string> names(std::string_view text, const ViewLayout& layout) {
  std::vector<std::string> out;
  for (const auto& m : layout.members) out.emplace_back(text_of(text, m.name));
  return out;
}

TEST(ViewLayout, FindsMembersAndTheElementsOfArrays) {
  const std::string text =
      R"({"a":1,"b":[{"x":"]"},[],"q\"]",null],"c":{"d":[1,2]},"e":[],"f":"{\\"})";
  ViewLayout layout;
  ASSERT_TRUE(scan_view_layout(text, layout));
  EXPECT_EQ(names(text, layout), (std::vector<std::string>{"a", "b", "c", "e", "f"}));
  const auto& m = layout.members;
  EXPECT_EQ(text_of(text, m[0].value), "1");
  EXPECT_FALSE(m[0].array);
  EXPECT_EQ(text_of(text, m[1].value), R"([{"x":"]"},[],"q\"]",null])");
  ASSERT_TRUE(m[1].array);
  ASSERT_EQ(m[1].element_count, 4U);
  EXPECT_EQ(m[1].first_element, 0U);
  EXPECT_EQ(text_of(text, layout.elements[0]), R"({"x":"]"})");
  EXPECT_EQ(text_of(text, layout.elements[1]), "[]");
  EXPECT_EQ(text_of(text, layout.elements[2]), R"("q\"]")");
  EXPECT_EQ(text_of(text, layout.elements[3]), "null");
  EXPECT_EQ(text_of(text, m[2].value), R"({"d":[1,2]})");
  EXPECT_FALSE(m[2].array) << "only top-level arrays are split";
  EXPECT_TRUE(m[3].array);
  EXPECT_EQ(m[3].element_count, 0U);
  EXPECT_EQ(m[3].first_element, 4U);
  EXPECT_EQ(text_of(text, m[4].value), R"("{\\")");
  EXPECT_EQ(layout.elements.size(), 4U);
}

TEST(ViewLayout, AnEmptyObjectHasNoMembers) {
  ViewLayout layout;
  layout.members.emplace_back();  // cleared by the scan
  ASSERT_TRUE(scan_view_layout("{}", layout));
  EXPECT_TRUE(layout.members.empty());
}

TEST(ViewLayout, RefusesWhatIsNotOneCompactObject) {
  ViewLayout layout;
  for (const char* text : {"", "[]", "{", R"({"a":1)", R"({"a":1}x)", R"({"a"})", R"({"a":"x})",
                           R"({"a":[1,2})", R"({a:1})", R"({"a": 1})"}) {
    EXPECT_FALSE(scan_view_layout(text, layout)) << text;
  }
}

}  // namespace
}  // namespace blockfog::core
