#pragma once

// The Hammer of the Scots engine: the typed API behind the module contract of
// docs/architecture.md, "The engine contract".

#include <optional>
#include <string_view>
#include <vector>

#include "rules/core/game.h"
#include "rules/core/rng.h"
#include "rules/hots/action.h"
#include "rules/hots/state.h"

namespace blockfog::hots {

// The rules version a new game is played under: hots-4, whose procedures follow table 14 of
// RULES (Position::procedures). A game keeps the version it was created under: hots-3 games go
// on skipping the regroup only by the rule of before (battle.cpp), hots-2 games with the
// procedures of before hots-3, and hots-1 games with those and the state hash's first format
// (serialize.h).
inline constexpr std::string_view kRulesVersion = "hots-4";
inline constexpr std::string_view kRulesVersion3 = "hots-3";
inline constexpr std::string_view kRulesVersion2 = "hots-2";
inline constexpr std::string_view kRulesVersion1 = "hots-1";
// The versions this engine plays, a new game's first, as messages list them.
inline constexpr std::string_view kPlayedRulesVersions = "hots-4, hots-3, hots-2 and hots-1";
inline bool plays_rules_version(std::string_view version) {
  return version == kRulesVersion || version == kRulesVersion3 || version == kRulesVersion2 ||
         version == kRulesVersion1;
}
// The procedures of a version this engine plays.
inline std::uint8_t procedures_of(std::string_view version) {
  if (version == kRulesVersion) return kProcedures4;
  return version == kRulesVersion3 ? kProcedures3 : kProcedures2;
}
// The version a state's JSON and views name: hots-4, hots-3, or hots-2 for the procedures of
// before (the module names a hots-1 game's own version in its JSON).
inline std::string_view rules_version_of(const Position& p) {
  if (follows_hots4(p)) return kRulesVersion;
  return follows_hots3(p) ? kRulesVersion3 : kRulesVersion2;
}

struct Options {
  bool schiltroms = false;  // RULES 15.1

  bool operator==(const Options&) const = default;
};

// Scenario index for "braveheart", "the_bruce" (or "bruce") and "campaign".
std::optional<int> scenario_index(std::string_view id);

// RULES 2.1, for a game of the current rules version (set `procedures` for an older one).
// `script` scripts the set-up's random outcomes (levy, deal) for tests.
State setup(const core::Seed& seed, int scenario, const Options& options,
            std::vector<core::ScriptedOutcome> script = {});

std::vector<core::Role> active_roles(const State& s);
// The same as a bit per side index (bit 0 Scotland, bit 1 England), without allocating.
std::uint8_t awaited_sides(const State& s);
// What `role` may do now, into `out` (cleared first; no heap). The vector form is for callers
// that keep the list.
void legal_actions(const State& s, core::Role role, ActionList& out);
std::vector<Action> legal_actions(const State& s, core::Role role);
// Applies `action` for `role` and runs automatic steps to the next decision point. On error
// the state is unchanged.
std::optional<core::RuleError> apply(State& s, core::Role role, const Action& action);
// The same for an action just taken from legal_actions(s, role), skipping the membership check:
// for random playouts and benchmarks. Anything else must call apply().
void apply_legal(State& s, core::Role role, const Action& action);
core::Outcome outcome(const State& s);

// Public name of the phase (RULES 13.1.4): what everybody may see of the current state.
std::string_view phase_name(Phase phase);

}  // namespace blockfog::hots
