#pragma once

// What a turn notice says happened since the recipient's last decision (docs/server.md, "Turn
// notices"): the lines of his own view's log after it that are public, that is that an
// observer's view has too. Each line is one his view holds, so a notice tells nothing his view
// does not (RULES 13.1.1); none is his own private line (13.1.3: his blocks' identities stay
// out of his mailbox and his webhook's channel), and no line tells of a hidden sub-step the
// views do not show (13.1.4).
//
// Where a seat's log stood at its last decision is a mark of two log sizes taken right after
// that decision was applied: its own view's and the observer's. Both logs are filtered from
// the one engine log, so the lines after the two marks cover the same events.

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "rules/core/game.h"

namespace blockfog::server {

struct DecisionMark {
  std::size_t own = 0;       // the log_size of the seat's view after its last decision
  std::size_t observer = 0;  // the observer's log_size at that moment
};
// Per seat, by core::Role (Scotland, England); zero before a seat's first decision.
using DecisionMarks = std::array<DecisionMark, 2>;

// The mark of `role` in `game` as it stands (right after `role`'s decision was applied).
DecisionMark decision_mark(const core::Game& game, core::Role role);
// The log_size of `role`'s view of `game` (the view written without its lines).
std::size_t view_log_size(const core::Game& game, core::Role role);

// How many lines a notice repeats: the rest are counted ("and 5 more").
inline constexpr std::size_t kNoticeLines = 12;

struct HappenedLines {
  std::vector<std::string> lines;  // in log order, at most the cap
  std::size_t more = 0;            // the public lines after those
};

// The public lines of `role`'s view of `game` after `mark`, in order, at most `cap` of them.
HappenedLines happened_since(const core::Game& game, core::Role role, const DecisionMark& mark,
                             std::size_t cap = kNoticeLines);

}  // namespace blockfog::server
