#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "rules/core/game.h"
#include "rules/core/role.h"
#include "rules/hots/state.h"

namespace blockfog::hots {

// The picture of the game that `role` may see (RULES 13): the only way game facts leave the
// engine. Enemy blocks appear as anonymous counts per area; hands, chosen cards, pools and
// private log lines of the other side are absent, not flagged.
// `log_from` is how many of the role's log lines the caller already has: only later lines are
// included (all of them by default). "log_size" always gives the role's total.
nlohmann::json view(const State& s, core::Role role, std::size_t log_from = 0);

// The same view written as JSON text into `out` (cleared first, its capacity kept so that a
// caller reusing the buffer does not allocate per view): exactly view(s, role, log_from).dump(),
// without building the JSON DOM. Returns the view's "log_size". `lines`, when given, receives
// where the log lines are in `out` (between the brackets of "log"). `cursor`, when given, is
// where the role's last view stopped counting log lines (core::LogCursor) and is set to where
// this one stopped.
// `memo`, when given, is one new_view_memo() for `role`: each area's text, and the text of the
// borders, cards, nobles and pools, is kept there with what it was written from, and reused
// while that is unchanged (an action changes few areas, and one or two of those parts at most).
// `layout`, when given, receives where the view's members and areas are in `out`.
std::size_t write_view(const State& s, core::Role role, std::size_t log_from, std::string& out,
                       core::TextSpan* lines = nullptr, core::LogCursor* cursor = nullptr,
                       core::ViewMemo* memo = nullptr, core::ViewLayout* layout = nullptr);
std::unique_ptr<core::ViewMemo> new_view_memo();

// The public name of the step being played (RULES 13.1.4), e.g. "England: winter".
std::string phase_text(const State& s);
void append_phase_text(std::string& out, const State& s);  // the same, appended

}  // namespace blockfog::hots
