#include "server/notices/notice_lines.h"

#include <algorithm>
#include <cstdint>

namespace blockfog::server {

using core::Role;

namespace {

constexpr std::size_t kNoLines = SIZE_MAX;
// Lines matched at most on each side after their common start. A seat's view gains some
// hundreds of lines in a turn of the other's; beyond this, the seat's own remaining lines are
// counted as more (a count of lines its view holds).
constexpr std::size_t kMatched = 1000;

// A view's log line is {"i","text"} or, for a module whose lines carry nothing else, the text
// itself (docs/rules-engine.md, "The view").
std::vector<std::string> lines_after(const core::Game& game, Role role, std::size_t from) {
  const auto view = game.view(role, from);
  std::vector<std::string> lines;
  for (const auto& line : view.at("log")) {
    lines.push_back(line.is_string() ? line.get<std::string>()
                                     : line.at("text").get<std::string>());
  }
  return lines;
}

}  // namespace

std::size_t view_log_size(const core::Game& game, Role role) {
  std::string text;
  return game.write_view(role, kNoLines, text);
}

DecisionMark decision_mark(const core::Game& game, Role role) {
  return {view_log_size(game, role), view_log_size(game, Role::Observer)};
}

HappenedLines happened_since(const core::Game& game, Role role, const DecisionMark& mark,
                             std::size_t cap) {
  const auto own = lines_after(game, role, mark.own);
  const auto seen = lines_after(game, Role::Observer, mark.observer);
  HappenedLines out;
  const auto take = [&](const std::string& line) {
    if (out.lines.size() < cap) {
      out.lines.push_back(line);
    } else {
      ++out.more;
    }
  };
  // The two logs hold the same events, each the lines its role may read: a line of the seat's
  // that the observer's log also has, in the same order, is public. They mostly agree from
  // the start (the other side's moves, battles); where they part (the seat's own private
  // lines, the other side's redacted ones), their longest common subsequence pairs them.
  std::size_t start = 0;
  while (start < own.size() && start < seen.size() && own[start] == seen[start]) {
    take(own[start++]);
  }
  const std::size_t n = std::min(own.size() - start, kMatched);
  const std::size_t m = std::min(seen.size() - start, kMatched);
  // common[i * (m + 1) + j]: the longest common subsequence of own[start + i ..] and
  // seen[start + j ..], within the n and m lines compared.
  std::vector<std::uint16_t> common((n + 1) * (m + 1), 0);
  const auto at = [&](std::size_t i, std::size_t j) -> std::uint16_t& {
    return common[i * (m + 1) + j];
  };
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      at(i, j) = own[start + i] == seen[start + j]
                     ? static_cast<std::uint16_t>(at(i + 1, j + 1) + 1)
                     : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n && j < m) {
    if (own[start + i] == seen[start + j]) {
      take(own[start + i]);
      ++i;
      ++j;
    } else if (at(i + 1, j) >= at(i, j + 1)) {
      ++i;
    } else {
      ++j;
    }
  }
  if (own.size() - start > kMatched) out.more += own.size() - start - kMatched;
  return out;
}

}  // namespace blockfog::server
