#include "rules/core/json_writer.h"

namespace blockfog::core {

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t run = 0;  // start of the pending run of characters copied as they are
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
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

}  // namespace blockfog::core
