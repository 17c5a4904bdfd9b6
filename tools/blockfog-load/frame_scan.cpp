#include "tools/blockfog-load/frame_scan.h"

#include <string.h>  // memmem, memrchr (glibc)

#include <charconv>
#include <utility>
#include <vector>

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

// Walks the members of the object at text[at] (its '{'), as the server writes them (compact,
// keys without escapes): `member(key, at)` is given each key (unquoted) and where its value
// starts, and returns where the value ends. Returns where the object ends (past its '}'), or
// npos where the text is not such an object.
template <typename Member>
std::size_t walk_object(std::string_view text, std::size_t at, Member&& member) {
  constexpr auto npos = std::string_view::npos;
  if (at >= text.size() || text[at] != '{') return npos;
  ++at;
  if (at < text.size() && text[at] == '}') return at + 1;
  while (at < text.size()) {
    if (text[at] != '"') return npos;
    const auto quote = text.find('"', at + 1);
    if (quote == npos || quote + 1 >= text.size() || text[quote + 1] != ':') return npos;
    at = member(text.substr(at + 1, quote - at - 1), quote + 2);
    if (at == npos || at >= text.size()) return npos;
    if (text[at] == '}') return at + 1;
    if (text[at] != ',') return npos;
    ++at;
  }
  return npos;
}

// Where the value at text[at] ends, or npos.
std::size_t skip_value(std::string_view text, std::size_t at) {
  const auto value = json_value_at(text, at);
  return value.empty() ? std::string_view::npos : at + value.size();
}

// A patch (its `elements`, `set` and `unset`; a few hundred bytes to a few kilobytes): the
// seat's legal actions and whether the game ended, where it changes them. One walk: the
// members of `elements` and `set` are read where the walk over the patch meets them (reading
// the patch's parts first and then each part again went over most bytes twice).
bool scan_patch(std::string_view patch, ScannedFrame& scanned) {
  constexpr auto npos = std::string_view::npos;
  const auto end = walk_object(patch, 0, [&](std::string_view part, std::size_t at) {
    const bool elements = part == "elements";
    if (!elements && part != "set") return skip_value(patch, at);
    return walk_object(patch, at, [&](std::string_view key, std::size_t value_at) {
      if (!elements && key == "legal_actions") {
        scanned.actions_given = true;
        return scanned.actions.assign_at(patch, value_at);
      }
      const auto value = json_value_at(patch, value_at);
      if (value.empty()) return npos;
      if (elements) {
        if (key == "legal_actions") scanned.action_changes.assign(value);
      } else if (key == "outcome") {
        scanned.finished = true;
      }
      return value_at + value.size();
    });
  });
  return end == patch.size();
}

// Where the envelope's body key (`"view":{` or `"view_patch":{`) starts, and whether it is a
// patch; npos if there is none. Only the envelope is searched: the first `"view` that is such
// a key ends it (the type's value, `"view"` or `"view_patch"`, is not followed by `":{`).
std::pair<std::size_t, bool> find_body(std::string_view frame) {
  static constexpr std::string_view kKey = "\"view";
  static constexpr std::string_view kView = "\":{";
  static constexpr std::string_view kPatch = "_patch\":{";
  for (std::size_t from = 0;;) {
    const auto at = find(frame, kKey, from);
    if (at == std::string_view::npos) return {at, false};
    const auto rest = frame.substr(at + kKey.size());
    if (rest.starts_with(kView)) return {at, false};
    if (rest.starts_with(kPatch)) return {at, true};
    from = at + 1;
  }
}

}  // namespace

void ActionList::assign(std::string_view array) {
  if (assign_at(array, 0) != array.size()) clear();
}

std::size_t ActionList::assign_at(std::string_view text, std::size_t at) {
  clear();
  if (at >= text.size() || text[at] != '[') return std::string_view::npos;
  const std::size_t first = at;
  ++at;
  // The items are found as the walk goes, so the array's end is known without a walk of its
  // own (the acting seat's list is most of a patch's bytes).
  while (at < text.size() && text[at] != ']') {
    const auto item = json_value_at(text, at);
    if (item.empty()) break;
    spans_.emplace_back(static_cast<std::uint32_t>(at - first),
                        static_cast<std::uint32_t>(item.size()));
    at += item.size();
    if (at < text.size() && text[at] == ',') ++at;
  }
  if (at >= text.size() || text[at] != ']') {
    clear();
    return std::string_view::npos;
  }
  text_.assign(text.substr(first, at + 1 - first));
  return at + 1;
}

bool ActionList::replace(std::string_view pairs) {
  // The new list's elements, by index: the pair's action where one is given.
  std::vector<std::string_view> items;
  items.reserve(spans_.size());
  for (std::size_t i = 0; i < spans_.size(); ++i) items.push_back((*this)[i]);
  if (pairs.size() < 2 || pairs.front() != '[') return false;
  std::size_t at = 1;
  while (at < pairs.size() && pairs[at] != ']') {
    const auto pair = json_value_at(pairs, at);
    if (pair.size() < 2 || pair.front() != '[') return false;
    const auto index = json_value_at(pair, 1);
    std::size_t i = 0;
    if (std::from_chars(index.data(), index.data() + index.size(), i).ec != std::errc() ||
        i >= items.size() || index.size() + 2 >= pair.size()) {
      return false;
    }
    items[i] = json_value_at(pair, index.size() + 2);
    at += pair.size();
    if (at < pairs.size() && pairs[at] == ',') ++at;
  }
  // Written apart from text_, which the items point into (a rare path: a few per game).
  std::string list = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) list += ',';
    list += items[i];
  }
  list += ']';
  assign(list);
  return true;
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
  scanned.actions_given = false;
  scanned.action_changes.clear();
  scanned.finished = false;
  scanned.error_code.clear();
  if (frame.empty() || frame.front() != '{') return false;
  // The envelope's fields all come before "view" or "view_patch" (sorted keys), so look for
  // them there only.
  const auto [view_at, patch] = find_body(frame);
  const std::size_t body_begin =
      view_at + std::string_view(patch ? "\"view_patch\":" : "\"view\":").size();
  const std::string_view envelope = frame.substr(0, view_at);
  scanned.type = unquote(value_of(envelope, "type"));
  if (scanned.type.empty()) return false;
  if (const auto ref = value_of(envelope, "ref"); !ref.empty()) scanned.ref = unquote(ref);
  if (scanned.type == "error") {
    scanned.error_code = unquote(value_of(envelope, "code"));
    return true;
  }
  if (!scanned.is_view() || view_at == std::string_view::npos ||
      patch != (scanned.type == "view_patch")) {
    return true;
  }
  const auto seq = value_of(envelope, "seq");
  std::int64_t number = 0;
  if (std::from_chars(seq.data(), seq.data() + seq.size(), number).ec == std::errc()) {
    scanned.seq = number;
  }
  scanned.stale = value_of(envelope, "stale") == "true";
  // The body is the envelope's last key, so it runs to the frame's closing brace: no need to
  // walk it to find its end.
  if (frame.back() != '}' || frame.size() < body_begin + 3) return false;
  const std::string_view body = frame.substr(body_begin, frame.size() - 1 - body_begin);
  if (patch) return scan_patch(body, scanned);
  const std::string_view view = body;
  scanned.actions_given = true;
  // The view's keys are sorted too: "outcome" comes after "legal_actions", so the search for
  // it starts where the actions end (most frames of a game in play have no outcome, and would
  // otherwise be searched to their end twice).
  static constexpr std::size_t kActionsKey = std::string_view("\"legal_actions\":").size();
  std::size_t after_actions = 0;
  if (const auto at = find_legal_actions(view); at != std::string_view::npos) {
    const auto end = scanned.actions.assign_at(view, at + kActionsKey);
    if (end != std::string_view::npos) after_actions = end;
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
