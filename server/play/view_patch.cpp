#include "server/play/view_patch.h"

#include <charconv>
#include <cstdint>
#include <span>
#include <vector>

namespace blockfog::server {

namespace {

using core::text_of;
using core::ViewLayout;

constexpr std::string_view kLog = "log";

std::string_view name_of(const ViewText& view, const ViewLayout::Member& member) {
  return text_of(view.text, member.name);
}

std::string_view value_of(const ViewText& view, const ViewLayout::Member& member) {
  return text_of(view.text, member.value);
}

// One member present in both views with a changed value, or only in one of them. An array
// sent by its elements names them in `elements`: [first_index, first_index + index_count).
struct Change {
  const ViewLayout::Member* before = nullptr;
  const ViewLayout::Member* after = nullptr;
  bool by_elements = false;
  std::uint32_t first_index = 0;
  std::uint32_t index_count = 0;
};

// Appends to `indices` the indices of the elements that differ between two arrays of the same
// length: each element is compared once, and the patch is written from these indices.
void changed_elements(const ViewText& before, const ViewText& after, const ViewLayout::Member& b,
                      const ViewLayout::Member& a, std::vector<std::uint32_t>& indices) {
  for (std::uint32_t i = 0; i < a.element_count; ++i) {
    const auto x = text_of(after.text, after.layout.elements[a.first_element + i]);
    const auto y = text_of(before.text, before.layout.elements[b.first_element + i]);
    if (x != y) indices.push_back(i);
  }
}

// Whether an array's changed elements (with the index and brackets of each pair) are shorter
// than the whole array.
bool elements_are_shorter(const ViewText& after, const ViewLayout::Member& a,
                          std::span<const std::uint32_t> indices) {
  std::size_t bytes = 0;
  for (const auto i : indices) {
    const auto& element = after.layout.elements[a.first_element + i];
    bytes += element.end - element.begin + 8;  // [i,…] and its comma
  }
  return bytes < a.value.end - a.value.begin;
}

void append_name(std::string& out, std::string_view name) {
  out += '"';
  out += name;  // as the view wrote it, escapes and all
  out += "\":";
}

void append_number(std::string& out, std::uint32_t n) {
  char digits[12];
  const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
  out.append(digits, end);
}

}  // namespace

void write_view_patch(const ViewText& before, const ViewText& after, std::string& out) {
  // Both views list their members in the same (sorted) order: one walk pairs them. The list
  // is kept from call to call (one per thread): this runs for every role of every action.
  static thread_local std::vector<Change> changes;
  static thread_local std::vector<std::uint32_t> indices;  // of changed elements (see Change)
  changes.clear();
  indices.clear();
  const auto& bm = before.layout.members;
  const auto& am = after.layout.members;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < bm.size() || j < am.size()) {
    const int order = i == bm.size()   ? 1
                      : j == am.size() ? -1
                                       : name_of(before, bm[i]).compare(name_of(after, am[j]));
    if (order < 0) {
      changes.push_back({&bm[i++], nullptr});
    } else if (order > 0) {
      changes.push_back({nullptr, &am[j++]});
    } else {
      const auto& b = bm[i++];
      const auto& a = am[j++];
      if (name_of(after, a) == kLog) {
        // Only the new lines, and only if there are any (docs/protocol.md).
        if (after.lines.end > after.lines.begin) changes.push_back({&b, &a});
      } else if (value_of(before, b) != value_of(after, a)) {
        // An array of unchanged length may go as its changed elements, each compared once.
        if (a.array && b.array && a.element_count == b.element_count && a.element_count > 0) {
          const auto first = static_cast<std::uint32_t>(indices.size());
          changed_elements(before, after, b, a, indices);
          const auto count = static_cast<std::uint32_t>(indices.size()) - first;
          const bool by_elements = elements_are_shorter(
              after, a, std::span<const std::uint32_t>(indices).subspan(first, count));
          changes.push_back({&b, &a, by_elements, first, count});
        } else {
          changes.push_back({&b, &a});
        }
      }
    }
  }

  out.clear();
  out += '{';
  bool first_part = true;
  const auto open_part = [&](std::string_view name, char bracket) {
    if (!first_part) out += ',';
    first_part = false;
    append_name(out, name);
    out += bracket;
  };

  bool any = false;
  for (const auto& c : changes) {
    if (!c.by_elements) continue;
    if (!any) open_part("elements", '{');
    if (any) out += ',';
    any = true;
    append_name(out, name_of(after, *c.after));
    out += '[';
    bool first = true;
    for (std::uint32_t n = 0; n < c.index_count; ++n) {
      const auto k = indices[c.first_index + n];
      const auto x = text_of(after.text, after.layout.elements[c.after->first_element + k]);
      if (!first) out += ',';
      first = false;
      out += '[';
      append_number(out, k);
      out += ',';
      out += x;
      out += ']';
    }
    out += ']';
  }
  if (any) out += '}';

  any = false;
  for (const auto& c : changes) {
    if (!c.after || c.by_elements) continue;
    if (!any) open_part("set", '{');
    if (any) out += ',';
    any = true;
    append_name(out, name_of(after, *c.after));
    out += value_of(after, *c.after);
  }
  if (any) out += '}';

  any = false;
  for (const auto& c : changes) {
    if (c.after) continue;
    if (!any) open_part("unset", '[');
    if (any) out += ',';
    any = true;
    out += '"';
    out += name_of(before, *c.before);
    out += '"';
  }
  if (any) out += ']';
  out += '}';
}

}  // namespace blockfog::server
