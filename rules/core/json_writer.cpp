#include "rules/core/json_writer.h"

#include <array>
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

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t i = 0;
  while (i < text.size() && !kEscaped[static_cast<unsigned char>(text[i])]) ++i;
  if (i == text.size() && text.size() <= 62) {  // the usual case: one append
    char quoted[64];
    quoted[0] = '"';
    std::memcpy(quoted + 1, text.data(), text.size());
    quoted[text.size() + 1] = '"';
    out.append(quoted, text.size() + 2);
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
  for (std::size_t i = quote + 1; i < out_.size(); ++i) {
    if (!kEscaped[static_cast<unsigned char>(out_[i])]) continue;
    const std::string raw = out_.substr(quote + 1);  // rare: escape it as a whole
    out_.resize(quote);
    append_json_string(out_, raw);
    return;
  }
  out_ += '"';
}

}  // namespace blockfog::core
