#include "rules/core/json_writer.h"

#include <array>
#include <cassert>
#include <cstdint>
#include <cstring>

namespace blockfog::core {

namespace {

// Characters nlohmann escapes: control characters, the quote and the backslash.
constexpr auto kEscaped = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[c] = true;
  table['"'] = true;
  table['\\'] = true;
  return table;
}();

// How many leading characters of [p, p + n) need no escape. Eight at a time while none does
// (views are mostly plain ASCII names; this scan was the largest single cost of writing them):
// a word holds a byte below 0x20, a quote or a backslash exactly when one of these tests finds
// a byte (the classic "has less than" / "has zero byte" bit tricks, exact as yes/no answers).
std::size_t plain_prefix(const char* p, std::size_t n) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    const std::uint64_t control = (w - kOnes * 0x20) & ~w & kHighs;
    const std::uint64_t q = w ^ (kOnes * '"');
    const std::uint64_t b = w ^ (kOnes * '\\');
    const std::uint64_t quote = (q - kOnes) & ~q & kHighs;
    const std::uint64_t backslash = (b - kOnes) & ~b & kHighs;
    if ((control | quote | backslash) != 0) break;
  }
  while (i < n && !kEscaped[static_cast<unsigned char>(p[i])]) ++i;
  return i;
}

}  // namespace

bool is_plain(std::string_view text) {
  return plain_prefix(text.data(), text.size()) == text.size();
}

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t i = plain_prefix(text.data(), text.size());
  if (i == text.size()) {  // the usual case: nothing to escape
    // Three appends straight into `out`. Quoting into a stack buffer first and appending that
    // was slower: the copy out of it read back bytes just stored (a store-forwarding stall) and
    // was compiled as `rep movsq`, slow to start for a few bytes.
    out += '"';
    out.append(text.data(), text.size());
    out += '"';
    return;
  }
  out += '"';
  std::size_t run = 0;  // start of the pending run of characters copied as they are
  for (; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (!kEscaped[c]) continue;
    out.append(text.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:  // other control characters, as nlohmann writes them: \u00XX, lower-case hex
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xf];
        break;
    }
  }
  out.append(text.data() + run, text.size() - run);
  out += '"';
}

void JsonWriter::close_string(std::size_t quote) {
  const std::size_t begin = quote + 1;
  if (plain_prefix(out_.data() + begin, out_.size() - begin) < out_.size() - begin) {
    const std::string raw = out_.substr(begin);  // rare: escape it as a whole
    out_.resize(quote);
    append_json_string(out_, raw);
    return;
  }
  out_ += '"';
}

void JsonWriter::raw_elements(std::string_view json_text, std::span<const TextSpan> elements) {
  assert(!elements.empty() && elements.front().begin == 0 &&
         elements.back().end == json_text.size());
  separate();  // the first element's comma, and where it starts
  const std::size_t at = out_.size();
  out_ += json_text;
  if (!layout_ || depth_ != 2 || !in_top_array_) return;
  // The first element was noted by separate(); its end, and the others, are noted here. The
  // last one's end is noted again by whatever is written next, at the same offset.
  auto& member = layout_->members.back();
  layout_->elements.back().end = at + elements.front().end;
  for (std::size_t i = 1; i < elements.size(); ++i) {
    layout_->elements.push_back({at + elements[i].begin, at + elements[i].end});
    ++member.element_count;
  }
}

void JsonWriter::value_starts() {
  auto& member = layout_->members.back();
  member.value.begin = out_.size();
  member.name.end = out_.size() - 2;  // before `":`
}

void JsonWriter::item_starts() {
  const std::size_t begin = out_.size() + (has_items_[depth_] ? 1 : 0);  // past the comma
  if (depth_ == 1) {
    if (!layout_->members.empty()) layout_->members.back().value.end = out_.size();
    ViewLayout::Member member;
    member.name.begin = begin + 1;  // past the key's quote
    layout_->members.push_back(member);
    in_top_array_ = false;
    return;
  }
  auto& member = layout_->members.back();
  if (member.element_count > 0) layout_->elements.back().end = out_.size();
  layout_->elements.push_back({begin, begin});
  ++member.element_count;
}

void JsonWriter::item_ends() {
  if (depth_ == 1) {
    if (!layout_->members.empty()) layout_->members.back().value.end = out_.size();
  } else if (in_top_array_ && layout_->members.back().element_count > 0) {
    layout_->elements.back().end = out_.size();
  }
}

void JsonWriter::array_starts(bool array) {
  in_top_array_ = array;
  if (!array) return;
  auto& member = layout_->members.back();
  member.array = true;
  member.first_element = static_cast<std::uint32_t>(layout_->elements.size());
}

}  // namespace blockfog::core
