// The layout scanner (core::scan_view_layout) finds a compact JSON object's members and the
// elements of its array members, strings with brackets, quotes and escapes included, and
// refuses what is not one object. (The engine's views: tests/rules/view_text_test.cpp checks
// that the layout noted while writing equals the scanned one.)

#include "rules/core/view_layout.h"

#include <gtest/gtest.h>

#include "rules/core/json_writer.h"

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

// Elements copied in runs (JsonWriter::raw_elements, as the engine copies unchanged areas)
// are noted one by one, as if each had been written alone: the text and the layout are those
// of the same array written element by element.
TEST(ViewLayout, ElementsCopiedInOneRunAreNotedOneByOne) {
  const std::string run = R"({"id":"a"},[1,[2]],"x,y")";
  const std::vector<TextSpan> spans{{0, 10}, {11, 18}, {19, 24}};
  ASSERT_EQ(text_of(run, spans[1]), "[1,[2]]");

  std::string text;
  ViewLayout layout;
  JsonWriter w(text);
  w.record_layout(&layout);
  w.begin_object();
  w.key("areas");
  w.begin_array();
  w.raw("0");
  w.raw_elements(run, spans);
  w.raw("4");
  w.raw_elements(std::string_view(run).substr(0, 10), std::span(spans).first(1));
  w.end_array();
  w.key("b");
  w.begin_array();
  w.raw_elements(run, spans);  // first in its array: no comma before it
  w.end_array();
  w.key("c");
  w.number(1);
  w.end_object();

  EXPECT_EQ(text, R"({"areas":[0,{"id":"a"},[1,[2]],"x,y",4,{"id":"a"}],)"
                  R"("b":[{"id":"a"},[1,[2]],"x,y"],"c":1})");
  ViewLayout scanned;
  ASSERT_TRUE(scan_view_layout(text, scanned));
  EXPECT_EQ(layout, scanned);
  ASSERT_EQ(layout.members.size(), 3U);
  EXPECT_EQ(layout.members[0].element_count, 6U);
  EXPECT_EQ(layout.members[1].element_count, 3U);
  EXPECT_EQ(text_of(text, layout.elements[3]), R"("x,y")");
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
