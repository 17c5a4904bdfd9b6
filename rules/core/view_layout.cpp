#include "rules/core/view_layout.h"

namespace blockfog::core {

namespace {

bool is_scalar_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
         c == '+' || c == '.';
}

// Reads compact JSON text as nlohmann writes it: no whitespace between tokens.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  std::size_t at() const { return at_; }
  bool take(char c) {
    if (at_ >= text_.size() || text_[at_] != c) return false;
    ++at_;
    return true;
  }
  bool peek(char c) const { return at_ < text_.size() && text_[at_] == c; }

  // Past one string literal (its escapes included).
  bool skip_string() {
    if (!take('"')) return false;
    while (at_ < text_.size()) {
      const char c = text_[at_++];
      if (c == '\\') {
        ++at_;
      } else if (c == '"') {
        return true;
      }
    }
    return false;
  }

  // Past one value of any kind.
  bool skip_value() {
    if (peek('"')) return skip_string();
    if (peek('{') || peek('[')) {
      int depth = 0;
      while (at_ < text_.size()) {
        const char c = text_[at_];
        if (c == '"') {
          if (!skip_string()) return false;
          continue;
        }
        ++at_;
        if (c == '{' || c == '[') ++depth;
        if ((c == '}' || c == ']') && --depth == 0) return true;
      }
      return false;
    }
    // A number, true, false or null.
    const std::size_t start = at_;
    while (at_ < text_.size() && is_scalar_char(text_[at_])) ++at_;
    return at_ > start;
  }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
};

}  // namespace

bool scan_view_layout(std::string_view text, ViewLayout& layout) {
  layout.clear();
  Scanner s(text);
  if (!s.take('{')) return false;
  if (s.take('}')) return s.at() == text.size();
  do {
    ViewLayout::Member member;
    const std::size_t quote = s.at();
    if (!s.skip_string()) return false;
    member.name = {quote + 1, s.at() - 1};
    if (!s.take(':')) return false;
    member.value.begin = s.at();
    if (s.take('[')) {
      member.array = true;
      member.first_element = static_cast<std::uint32_t>(layout.elements.size());
      if (!s.take(']')) {
        do {
          const std::size_t begin = s.at();
          if (!s.skip_value()) return false;
          layout.elements.push_back({begin, s.at()});
          ++member.element_count;
        } while (s.take(','));
        if (!s.take(']')) return false;
      }
    } else if (!s.skip_value()) {
      return false;
    }
    member.value.end = s.at();
    layout.members.push_back(member);
  } while (s.take(','));
  return s.take('}') && s.at() == text.size();
}

}  // namespace blockfog::core
