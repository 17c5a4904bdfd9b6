#include "tools/blockfog-load/frame_scan.h"

#include <string.h>  // memmem, memrchr (glibc)

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// Where in a block of 64 bytes are the bytes that can change a walk over an object or array:
// bit i of each mask for the block's byte i.
struct BlockMasks {
  std::uint64_t quote = 0;
  std::uint64_t backslash = 0;
  std::uint64_t open = 0;   // '{' or '['
  std::uint64_t close = 0;  // '}' or ']'
};

constexpr std::size_t kBlock = 64;

// The masks of the 64 bytes at `p`. A byte is '{' or '[' when it is '{' with bit 5 set (and
// '}' or ']' likewise): one comparison finds both brackets of a kind. Always inlined: called,
// it returns the masks through memory (a sixth of a walk's time), and a caller that uses one
// mask only gets that one computed.
[[gnu::always_inline]] inline BlockMasks masks_of(const char* p) {
  BlockMasks m;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i open = _mm_set1_epi8('{');
  const __m128i close = _mm_set1_epi8('}');
  const __m128i bit5 = _mm_set1_epi8(0x20);
  const auto bits = [](__m128i eq, int shift) {
    return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(eq))) << shift;
  };
  for (int i = 0; i < static_cast<int>(kBlock / 16); ++i) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    const __m128i folded = _mm_or_si128(v, bit5);
    m.quote |= bits(_mm_cmpeq_epi8(v, quote), 16 * i);
    m.backslash |= bits(_mm_cmpeq_epi8(v, backslash), 16 * i);
    m.open |= bits(_mm_cmpeq_epi8(folded, open), 16 * i);
    m.close |= bits(_mm_cmpeq_epi8(folded, close), 16 * i);
  }
#else
  for (std::size_t i = 0; i < kBlock; ++i) {
    const char folded = static_cast<char>(p[i] | 0x20);
    m.quote |= static_cast<std::uint64_t>(p[i] == '"') << i;
    m.backslash |= static_cast<std::uint64_t>(p[i] == '\\') << i;
    m.open |= static_cast<std::uint64_t>(folded == '{') << i;
    m.close |= static_cast<std::uint64_t>(folded == '}') << i;
  }
#endif
  return m;
}

// Bit i set where an odd number of `bits` are set at or below i: with the quotes' bits, the
// bytes from an opening quote up to (not including) its closing one.
std::uint64_t prefix_xor(std::uint64_t bits) {
  bits ^= bits << 1;
  bits ^= bits << 2;
  bits ^= bits << 4;
  bits ^= bits << 8;
  bits ^= bits << 16;
  bits ^= bits << 32;
  return bits;
}

// The 64 bytes of `text` from `begin` on: in place, or the text's last bytes copied to `last`
// and padded with spaces (no quote, backslash or bracket), so that no block reads past the text.
const char* block_at(std::string_view text, std::size_t begin, char (&last)[kBlock]) {
  const std::size_t n = text.size() - begin;
  if (n >= kBlock) return text.data() + begin;
  std::memset(last, ' ', kBlock);
  std::memcpy(last, text.data() + begin, n);
  return last;
}

// The number of bits set, inline: std::popcount calls libgcc without -mpopcnt, which the
// build's baseline x86-64 lacks (the call was a sixth of a walk's time).
int bit_count(std::uint64_t bits) {
  bits -= (bits >> 1) & 0x5555555555555555U;
  bits = (bits & 0x3333333333333333U) + ((bits >> 2) & 0x3333333333333333U);
  bits = (bits + (bits >> 4)) & 0x0f0f0f0f0f0f0f0fU;
  return static_cast<int>((bits * 0x0101010101010101U) >> 56);
}

// Where the object or array at text[at] (its '{' or '[') ends, past its closing bracket, or
// npos: the byte-by-byte walk (quotes open and close strings, a backslash in a string escapes
// the next byte, any opening bracket outside strings goes one deeper and any closing one back)
// done a block of 64 bytes at a time. Views are mostly short quoted ids: the bytewise walk
// spent a branch on every byte and was most of the client's time reading patches. A block
// without a backslash (nearly all: frames escape only a quote or backslash in a log line) has
// no escapes, so every quote in it opens or closes a string; a block with one is walked byte
// by byte, as before.
std::size_t container_end(std::string_view text, std::size_t at) {
  constexpr auto npos = std::string_view::npos;
  int depth = 0;
  bool in_string = false;
  bool escape_next = false;  // a block walked bytewise ended with a string's backslash
  char last[kBlock];
  for (std::size_t begin = at; begin < text.size(); begin += kBlock) {
    const char* p = block_at(text, begin, last);
    const BlockMasks m = masks_of(p);
    if (m.backslash != 0 || escape_next) {
      const std::size_t n = std::min(kBlock, text.size() - begin);
      for (std::size_t i = 0; i < n; ++i) {
        const char c = p[i];
        if (escape_next) {
          escape_next = false;
        } else if (in_string) {
          if (c == '\\') {
            escape_next = true;
          } else if (c == '"') {
            in_string = false;
          }
        } else if (c == '"') {
          in_string = true;
        } else if (c == '{' || c == '[') {
          ++depth;
        } else if (c == '}' || c == ']') {
          if (--depth == 0) return begin + i + 1;
        }
      }
      continue;
    }
    // Bytes in a string: each quote toggles (the padding has none).
    std::uint64_t in = prefix_xor(m.quote);
    if (in_string) in = ~in;
    in_string = ((in >> (kBlock - 1)) & 1U) != 0;
    const std::uint64_t opens = m.open & ~in;
    const std::uint64_t closes = m.close & ~in;
    // Fewer closing brackets than the depth: the value cannot end in this block.
    if (const int closed = bit_count(closes); closed < depth) {
      depth += bit_count(opens) - closed;
      continue;
    }
    for (std::uint64_t left = opens | closes; left != 0; left &= left - 1) {
      const int i = std::countr_zero(left);
      if ((opens >> i) & 1U) {
        ++depth;
      } else if (--depth == 0) {
        return begin + static_cast<std::size_t>(i) + 1;
      }
    }
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

// Where the envelope's fields and its body are: each `…_at` is where the value after the first
// `"key":` starts, npos if there is none. Every such key and the body key start with a quote,
// so one pass over the quotes finds them all (six memmem calls, one a field, were a fifth of
// the time a patch took).
struct Envelope {
  // Where the body key (`"view":{` or `"view_patch":{`) starts, and whether it is a patch; npos
  // if there is none. The first `"view` that is such a key ends the envelope (the type's value,
  // `"view"` or `"view_patch"`, is not followed by `":{`).
  std::size_t body_at = std::string_view::npos;
  bool patch = false;
  std::size_t type_at = std::string_view::npos;
  std::size_t ref_at = std::string_view::npos;
  std::size_t code_at = std::string_view::npos;
  std::size_t seq_at = std::string_view::npos;
  std::size_t stale_at = std::string_view::npos;
};

Envelope read_envelope(std::string_view frame) {
  constexpr auto npos = std::string_view::npos;
  Envelope e;
  // Notes where the value starts if the quote at frame[quote] begins the first `"key":`.
  const auto field = [&](std::size_t quote, std::string_view key, std::size_t& at) {
    const auto rest = frame.substr(quote + 1);
    if (at == npos && rest.starts_with(key) && rest.substr(key.size()).starts_with("\":")) {
      at = quote + key.size() + 3;
    }
  };
  char last[kBlock];
  for (std::size_t begin = 0; begin < frame.size(); begin += kBlock) {
    // Only the quotes' mask is used: the rest is left out where the call is inlined.
    const auto quotes_in_block = masks_of(block_at(frame, begin, last)).quote;
    for (std::uint64_t quotes = quotes_in_block; quotes != 0; quotes &= quotes - 1) {
      const std::size_t quote = begin + static_cast<std::size_t>(std::countr_zero(quotes));
      if (quote + 1 >= frame.size()) return e;
      switch (frame[quote + 1]) {
        case 'v': {
          const auto rest = frame.substr(quote + 1);
          if (rest.starts_with("view\":{") || rest.starts_with("view_patch\":{")) {
            e.body_at = quote;
            e.patch = rest[4] == '_';
            return e;
          }
          break;
        }
        case 't':
          field(quote, "type", e.type_at);
          break;
        case 'r':
          field(quote, "ref", e.ref_at);
          break;
        case 'c':
          field(quote, "code", e.code_at);
          break;
        case 's':
          field(quote, "seq", e.seq_at);
          field(quote, "stale", e.stale_at);
          break;
        default:
          break;
      }
    }
  }
  return e;
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
    // The first quote after an even run of backslashes (none, or escaped backslashes) ends the
    // string; the opening quote stops the count.
    for (std::size_t from = at + 1;;) {
      const void* hit = std::memchr(text.data() + from, '"', text.size() - from);
      if (hit == nullptr) return {};
      const auto quote = static_cast<std::size_t>(static_cast<const char*>(hit) - text.data());
      std::size_t run = 0;
      while (text[quote - 1 - run] == '\\') ++run;
      if (run % 2 == 0) return text.substr(at, quote + 1 - at);
      from = quote + 1;
    }
  }
  if (first == '{' || first == '[') {
    const auto end = container_end(text, at);
    if (end == std::string_view::npos) return {};
    return text.substr(at, end - at);
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
  const Envelope e = read_envelope(frame);
  const auto view_at = e.body_at;
  const bool patch = e.patch;
  const std::size_t body_begin =
      view_at + std::string_view(patch ? "\"view_patch\":" : "\"view\":").size();
  const std::string_view envelope = frame.substr(0, view_at);
  const auto value_at = [envelope](std::size_t at) {
    return at == std::string_view::npos ? std::string_view() : json_value_at(envelope, at);
  };
  scanned.type = unquote(value_at(e.type_at));
  if (scanned.type.empty()) return false;
  if (const auto ref = value_at(e.ref_at); !ref.empty()) scanned.ref = unquote(ref);
  if (scanned.type == "error") {
    scanned.error_code = unquote(value_at(e.code_at));
    return true;
  }
  if (!scanned.is_view() || view_at == std::string_view::npos ||
      patch != (scanned.type == "view_patch")) {
    return true;
  }
  const auto seq = value_at(e.seq_at);
  std::int64_t number = 0;
  if (std::from_chars(seq.data(), seq.data() + seq.size(), number).ec == std::errc()) {
    scanned.seq = number;
  }
  scanned.stale = value_at(e.stale_at) == "true";
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
