#pragma once

#include <array>
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "rules/core/game.h"
#include "rules/core/role.h"
#include "rules/core/view_layout.h"
#include "rules/hots/phase_text.h"
#include "rules/hots/state.h"

namespace blockfog::hots {

// How many of the log's entries each role may read, by core::Role (Scotland, England,
// Observer).
using ReadableCounts = std::array<std::size_t, 3>;
// Of s.log's entries from index `from` on.
ReadableCounts count_readable(const State& s, std::size_t from = 0);

// The picture of the game that `role` may see (RULES 13), written as JSON text into `out`
// (cleared first, its capacity kept): the only code that decides what a role sees, and the
// only way game facts leave the engine. Enemy blocks appear as anonymous counts per area;
// hands, chosen cards, pools and private log lines of the other side are absent, not flagged.
// Every object's keys are in sorted order, as nlohmann::json keeps them, so the text is the
// dump() of its own parse.
// `log_from` is how many of the role's log lines the caller already has: only later lines are
// included (all of them with 0). "log_size", the role's total, is always there and returned.
// `layout`, when given, receives where the view's members and areas are in `out`.
// `memo`, when given, is the caller's cache for views of `role` (core::ViewMemo): each area's
// text and the text of the borders, cards, nobles and pools are kept there with what they were
// written from, and reused while that is unchanged (an action changes few areas).
// `readable`, when given, is count_readable(s): the role's lines from `log_from` on are then
// found from the log's end, not by counting from its start (a late game has thousands).
std::size_t write_view(const State& s, core::Role role, std::size_t log_from, std::string& out,
                       core::ViewLayout* layout = nullptr, core::ViewMemo* memo = nullptr,
                       const ReadableCounts* readable = nullptr);

// The same view as a JSON tree: write_view's text, parsed.
nlohmann::json view(const State& s, core::Role role, std::size_t log_from = 0);

}  // namespace blockfog::hots
