#include "tools/blockfog-load/frame_scan.h"

#include <string.h>  // memmem, memrchr (glibc)

#include <charconv>

namespace blockfog::load {
namespace {

// Where `needle` first occurs in `text` at or after `from`, or npos. glibc's memmem, not
// string_view::find: find looks for the needle's first character with memchr and compares at
// each hit, and the needles here start with a quote, the commonest character of a view (it
// was a sixth of the client's time).
std::size_t find(std::string_view text, std::string_view needle, std::size_t from = 0) {
  if (from > text.size()) return std::string_view::npos;
  const void* hit = memmem(text.data() + from, text.size() - from, needle.data(), needle.size());
  if (hit == nullptr) return std::string_view::npos;
  return static_cast<std::size_t>(static_cast<const char*>(hit) - text.data());
}

// The value after `"key":` in `text`, or empty.
std::string_view value_of(std::string_view text, std::string_view key) {
  std::string needle = "\"";
  needle.append(key).append("\":");
  const auto at = find(text, needle);
  if (at == std::string_view::npos) return {};
  return json_value_at(text, at + needle.size());
}

std::string unquote(std::string_view value) {
  if (value.size() < 2 || value.front() != '"') return {};
  return std::string(value.substr(1, value.size() - 2));  // refs and codes have no escapes
}

// Where the key `"legal_actions":` is in a view, searched from the end: keys are sorted, and
// the ones after it (log, nobles, phase, pools, ...) are a few hundred bytes against the
// kilobytes of areas before it. A log line's text cannot match: its quotes are escaped.
std::size_t find_legal_actions(std::string_view view) {
  static constexpr std::string_view kBefore = "\"legal";    // then the underscore
  static constexpr std::string_view kAfter = "actions\":";  // after it
  std::size_t end = view.size();
  while (end > 0) {
    const void* hit = memrchr(view.data(), '_', end);
    if (hit == nullptr) return std::string_view::npos;
    const auto at = static_cast<std::size_t>(static_cast<const char*>(hit) - view.data());
    if (at >= kBefore.size() && view.substr(at - kBefore.size(), kBefore.size()) == kBefore &&
        view.substr(at + 1, kAfter.size()) == kAfter) {
      return at - kBefore.size();
    }
    end = at;
  }
  return std::string_view::npos;
}

}  // namespace

void ActionList::assign(std::string_view array) {
  clear();
  if (array.size() < 2 || array.front() != '[') return;
  text_.assign(array);
  std::size_t at = 1;
  while (at < array.size() && array[at] != ']') {
    const auto item = json_value_at(array, at);
    if (item.empty()) break;
    spans_.emplace_back(static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(item.size()));
    at += item.size();
    if (at < array.size() && array[at] == ',') ++at;
  }
}

void ActionList::clear() {
  text_.clear();
  spans_.clear();
}

std::string_view json_value_at(std::string_view text, std::size_t at) {
  if (at >= text.size()) return {};
  const char first = text[at];
  if (first == '"') {
    for (std::size_t i = at + 1; i < text.size(); ++i) {
      if (text[i] == '\\') {
        ++i;
      } else if (text[i] == '"') {
        return text.substr(at, i + 1 - at);
      }
    }
    return {};
  }
  if (first == '{' || first == '[') {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = at; i < text.size(); ++i) {
      const char c = text[i];
      if (in_string) {
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          in_string = false;
        }
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) return text.substr(at, i + 1 - at);
      }
    }
    return {};
  }
  std::size_t end = at;
  while (end < text.size() && text[end] != ',' && text[end] != '}' && text[end] != ']') ++end;
  return text.substr(at, end - at);
}

bool scan_frame(std::string_view frame, ScannedFrame& scanned) {
  scanned.seq.reset();
  scanned.ref.reset();
  scanned.stale = false;
  scanned.actions.clear();
  scanned.finished = false;
  scanned.error_code.clear();
  if (frame.empty() || frame.front() != '{') return false;
  // The envelope's fields all come before "view" (sorted keys), so look for them there only.
  const auto view_at = find(frame, "\"view\":{");
  const std::string_view envelope = frame.substr(0, view_at);
  scanned.type = unquote(value_of(envelope, "type"));
  if (scanned.type.empty()) return false;
  if (const auto ref = value_of(envelope, "ref"); !ref.empty()) scanned.ref = unquote(ref);
  if (scanned.type == "error") {
    scanned.error_code = unquote(value_of(envelope, "code"));
    return true;
  }
  if (scanned.type != "view" || view_at == std::string_view::npos) return true;
  const auto seq = value_of(envelope, "seq");
  std::int64_t number = 0;
  if (std::from_chars(seq.data(), seq.data() + seq.size(), number).ec == std::errc()) {
    scanned.seq = number;
  }
  scanned.stale = value_of(envelope, "stale") == "true";
  // "view" is the envelope's last key, so the view runs to the frame's closing brace: no need
  // to walk it to find its end.
  const std::size_t view_begin = view_at + 7;
  if (frame.back() != '}' || frame.size() < view_begin + 2) return false;
  const std::string_view view = frame.substr(view_begin, frame.size() - 1 - view_begin);
  // The view's keys are sorted too: "outcome" comes after "legal_actions", so the search for
  // it starts where the actions end (most frames of a game in play have no outcome, and would
  // otherwise be searched to their end twice).
  static constexpr std::size_t kActionsKey = std::string_view("\"legal_actions\":").size();
  std::size_t after_actions = 0;
  if (const auto at = find_legal_actions(view); at != std::string_view::npos) {
    const auto list = json_value_at(view, at + kActionsKey);
    scanned.actions.assign(list);
    after_actions = at + kActionsKey + list.size();
  }
  scanned.finished = find(view, "\"outcome\":{", after_actions) != std::string_view::npos;
  return true;
}

std::optional<ScannedFrame> scan_frame(std::string_view frame) {
  ScannedFrame scanned;
  if (!scan_frame(frame, scanned)) return std::nullopt;
  return scanned;
}

}  // namespace blockfog::load
