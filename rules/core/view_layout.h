#pragma once

// Where the parts of a view's JSON text are: its top-level members, and the elements of each
// member that is an array. The server compares two views of one role part by part and sends
// only the parts that changed (docs/protocol.md, `view_patch`); finding them in the text again
// would cost as much as writing the view, so the writer notes them as it goes
// (JsonWriter::record_layout), and scan_view_layout finds them in any text for modules that do
// not.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace blockfog::core {

// A stretch of written text: text[begin, end).
struct TextSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool operator==(const TextSpan&) const = default;
};

struct ViewLayout {
  struct Member {
    TextSpan name;   // the key, without its quotes
    TextSpan value;  // the value's whole text
    bool array = false;
    std::uint32_t first_element = 0;  // into `elements`, when the value is an array
    std::uint32_t element_count = 0;
    bool operator==(const Member&) const = default;
  };
  std::vector<Member> members;     // in the order written
  std::vector<TextSpan> elements;  // of every array member, each member's in a run

  void clear() {
    members.clear();
    elements.clear();
  }
  bool operator==(const ViewLayout&) const = default;
};

// The layout of `text`, a JSON object as nlohmann's dump() writes it (compact); false (and the
// layout partly filled) when it is not one.
bool scan_view_layout(std::string_view text, ViewLayout& layout);

inline std::string_view text_of(std::string_view text, TextSpan span) {
  return text.substr(span.begin, span.end - span.begin);
}

}  // namespace blockfog::core
