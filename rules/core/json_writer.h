#pragma once

// JSON text written straight into a caller's buffer, without building a DOM: for views and
// other hot outputs. The text is exactly what nlohmann::json::dump() gives for the same
// document (compact, strings escaped alike), provided the caller writes object keys in the
// order nlohmann keeps them: sorted byte-wise.

#include <array>
#include <cassert>
#include <charconv>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "rules/core/view_layout.h"

namespace blockfog::core {

// Appends `text` as a JSON string literal, escaped as nlohmann::json::dump() escapes it
// (UTF-8 passes through; control characters, quote and backslash are escaped).
void append_json_string(std::string& out, std::string_view text);
// True when `text` needs no escaping (append_json_string would copy it as it is).
bool is_plain(std::string_view text);

class JsonWriter {
 public:
  // Appends to `out` (which is not cleared: the caller owns and reuses the buffer).
  explicit JsonWriter(std::string& out) : out_(out) {}

  // From now on notes in `layout` (cleared) where the document's top-level members and the
  // elements of its top-level arrays are written, as offsets into `out`. Called before the
  // document's first write; the document is one object.
  void record_layout(ViewLayout* layout) {
    layout_ = layout;
    if (layout_) layout_->clear();
  }

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }

  void key(std::string_view name) {
    separate();
    append_json_string(out_, name);
    out_ += ':';
    after_key_ = true;
  }
  // A key that is a string literal: the writers' own names (letters, digits, underscores),
  // written without the escape scan, which for a view's hundreds of short keys was a third of
  // its cost and could only confirm that they need none. A literal that would need escaping
  // is caught on its first write in debug builds. (A char array that is not a literal must be
  // passed as a string_view.)
  template <std::size_t N>
  void key(const char (&name)[N]) {
    static_assert(N > 1, "an empty key");
    plain_key(std::string_view(name, N - 1));
  }
  void string(std::string_view value) {
    separate();
    append_json_string(out_, value);
  }
  // A key and a string known to need no escaping, such as the game data's ids: written without
  // the escape scan (checked in debug builds).
  void plain_key(std::string_view name) {
    assert(is_plain(name));
    separate();
    out_ += '"';
    out_ += name;
    out_.append("\":", 2);
    after_key_ = true;
  }
  void plain_string(std::string_view value) {
    assert(is_plain(value));
    separate();
    out_ += '"';
    out_ += value;
    out_ += '"';
  }
  void number(std::int64_t value) {
    separate();
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    out_.append(digits, end);
  }
  void boolean(bool value) {
    separate();
    out_ += value ? "true" : "false";
  }
  void null() {
    separate();
    out_ += "null";
  }
  // A string value whose text `write(out)` appends in place: no temporary string (it is
  // escaped afterwards, should it need to be).
  template <typename Write>
  void string_from(Write&& write) {
    separate();
    const std::size_t quote = out_.size();
    out_ += '"';
    write(out_);
    close_string(quote);
  }
  // A value that is already JSON text.
  void raw(std::string_view json_text) {
    separate();
    out_ += json_text;
  }
  // Several elements of the array being written, already JSON text with the commas between
  // them, in one copy: `elements` are where each one is in `json_text` (the first starts at
  // 0, the last ends at its end). The layout notes each element, as one raw() per element
  // would.
  void raw_elements(std::string_view json_text, std::span<const TextSpan> elements);

  // key + value in one call; `name` is a literal (the key above) or converts to a string_view.
  template <typename Name>
  void field(const Name& name, std::string_view value) {
    key(name);
    string(value);
  }
  // A field whose value is known to need no escaping (plain_string).
  template <typename Name>
  void plain_field(const Name& name, std::string_view value) {
    key(name);
    plain_string(value);
  }
  template <typename Name>
  void field(const Name& name, const char* value) {
    field(name, std::string_view(value));
  }
  template <typename Name>
  void field(const Name& name, bool value) {
    key(name);
    boolean(value);
  }
  template <typename Name>
  void field(const Name& name, std::int64_t value) {
    key(name);
    number(value);
  }
  template <typename Name>
  void field(const Name& name, int value) {
    field(name, std::int64_t{value});
  }
  template <typename Name>
  void field(const Name& name, unsigned value) {
    field(name, std::int64_t{value});
  }
  template <typename Name>
  void field(const Name& name, std::size_t value) {
    field(name, static_cast<std::int64_t>(value));
  }

 private:
  static constexpr int kMaxDepth = 32;

  void close_string(std::size_t quote);

  void separate() {
    if (after_key_) {
      after_key_ = false;
      if (layout_ && depth_ == 1) value_starts();
      return;
    }
    if (layout_ && (depth_ == 1 || (depth_ == 2 && in_top_array_))) item_starts();
    if (has_items_[depth_]) out_ += ',';
    has_items_[depth_] = true;
  }
  void open(char bracket) {
    separate();
    out_ += bracket;
    ++depth_;  // the view nests 6 deep; kMaxDepth is far beyond any document written here
    has_items_[depth_] = false;
    if (layout_ && depth_ == 2) array_starts(bracket == '[');
  }
  void close(char bracket) {
    if (layout_ && depth_ <= 2) item_ends();
    --depth_;
    out_ += bracket;
  }
  // The layout's bookkeeping (record_layout), out of line: only the server's views pay for it.
  void value_starts();
  void item_starts();  // a member's key or a top-level array's element, before its comma
  void item_ends();    // before the bracket that closes the object or a top-level array
  void array_starts(bool array);

  std::string& out_;
  std::array<bool, kMaxDepth> has_items_{};
  int depth_ = 0;
  bool after_key_ = false;
  ViewLayout* layout_ = nullptr;
  bool in_top_array_ = false;  // the member being written is an array
};

}  // namespace blockfog::core
