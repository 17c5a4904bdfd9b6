#include "rules/hots/module.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <utility>

#include "rules/hots/binary_state.h"
#include "rules/hots/engine.h"
#include "rules/hots/invariants.h"
#include "rules/hots/serialize.h"
#include "rules/hots/view.h"

namespace blockfog::hots {
namespace {

using core::Role;
using nlohmann::json;

class HotsGame final : public core::Game {
 public:
  // `hots1`: a game created under rules version hots-1, whose states are identified by that
  // version's state hash (serialize.h).
  explicit HotsGame(State state, bool hots1 = false)
      : state_(std::move(state)),
        hots1_(hots1),
        line_(std::make_shared<LogLine>(state_.log.size())) {}

  std::vector<Role> active_roles() const override { return hots::active_roles(state_); }

  json legal_actions(Role role) const override {
    json list = json::array();
    for (const auto& a : hots::legal_actions(state_, role)) list.push_back(action_to_json(a));
    return list;
  }

  std::optional<core::RuleError> apply(Role role, const json& action) override {
    std::string error;
    const auto parsed = action_from_json(action, error);
    if (!parsed) return core::RuleError{core::RuleErrorCode::MalformedAction, error};
    const std::size_t before = state_.log.size();
    auto refused = hots::apply(state_, role, *parsed);
    if (!refused) follow_log(before);
    return refused;
  }

  json view(Role role) const override { return hots::view(state_, role); }
  json view_from(Role role, std::size_t log_from) const override {
    return hots::view(state_, role, log_from);
  }
  void write_view(Role role, std::string& out) const override {
    hots::write_view(state_, role, 0, out);
  }
  std::size_t write_view_from(Role role, std::size_t log_from, std::string& out,
                              core::TextSpan* lines, core::LogCursor* cursor, core::ViewMemo* memo,
                              core::ViewLayout* layout) const override {
    return hots::write_view(state_, role, log_from, out, lines, cursor, memo, layout);
  }
  std::unique_ptr<core::ViewMemo> new_view_memo() const override { return hots::new_view_memo(); }
  core::Outcome outcome() const override { return hots::outcome(state_); }
  // RULES 2.3: five game turns a year, then the winter (10).
  std::int64_t turn_marker() const override {
    const int step = state_.phase == Phase::Winter     ? 6
                     : state_.phase == Phase::GameOver ? 7
                                                       : state_.turn;
    return std::int64_t{state_.year} * 8 + step;
  }
  json to_json() const override {
    json state = hots::to_json(state_);
    if (hots1_) state["rules_version"] = kRulesVersion1;  // from_json reads it back as hots-1
    return state;
  }
  // The binary form (binary_state.h, starting "hots-bin-2"): snapshots are written whenever
  // the turn passes, and the JSON of a late-game state (its whole log) was ~19 KiB.
  void write_snapshot(std::string& out) const override { encode_state(state_, out); }
  std::string state_hash() const override {
    if (hots1_) return state_hash_v1(state_);
    const auto hashed = std::exchange(hashed_line_, line_);
    // On the line the hasher was fed from, the log only grew (hash_grown checks that). Cut
    // back from it (an undo), the log still starts with the line's first cut_at_ entries.
    if (hashed == line_) return hasher_.hash_grown(state_, true);
    if (hashed && hashed == cut_from_) return hasher_.hash_cut(state_, cut_at_);
    return hasher_.hash_grown(state_, false);
  }
  std::vector<std::string> check_invariants() const override {
    return hots::check_invariants(state_);
  }
  std::unique_ptr<core::Game> clone() const override { return std::make_unique<HotsGame>(*this); }
  bool copy_to(core::Game& target) const override {
    auto* game = dynamic_cast<HotsGame*>(&target);
    if (!game) return false;
    // The server copies each game into the copy of it one action before: on one line, its
    // log is the start of this one's, and only the last action's lines are copied (the whole
    // log, ~1,000 entries, twice with the hasher's copy of it, was 3% of the server's work).
    // On the line this log was cut from (the copy before an undo), it has the cut's first
    // entries in common with this one.
    std::size_t kept = 0;
    if (game->line_ == line_ && game->state_.log.size() <= state_.log.size()) {
      kept = game->state_.log.size();
    } else if (cut_from_ && game->line_ == cut_from_) {
      kept = std::min(game->state_.log.size(), cut_at_);
    }
    copy_state(game->state_, state_, kept);  // vectors assigned in place: capacity is kept
    game->hots1_ = hots1_;
    game->line_ = line_;
    game->cut_from_ = cut_from_;
    game->cut_at_ = cut_at_;
    game->hasher_ = hasher_;  // the copy's log starts as this one's: its digest carries on
    game->hashed_line_ = hashed_line_;
    return true;
  }

 private:
  // Games sharing a line have logs that all start each other: each is the start of the
  // longest, whose length is `frontier`. Copies share their original's line; a game whose log
  // is cut back (an undo) or grows from behind the frontier (it went another way than a copy
  // of it did) starts a line of its own. So a game on the same line as before, with a log no
  // shorter, still starts with the entries it had. Copies of one game may be played on
  // several threads (the server's replays clone shared checkpoints): the frontier moves by
  // compare-and-swap, so of two copies growing from it at once one keeps the line.
  struct LogLine {
    explicit LogLine(std::size_t length) : frontier(length) {}
    std::atomic<std::size_t> frontier;
  };

  // After an applied action whose state had `before` log entries.
  void follow_log(std::size_t before) {
    const std::size_t after = state_.log.size();
    if (after == before) return;
    std::size_t expected = before;
    if (after > before && line_->frontier.compare_exchange_strong(expected, after)) return;
    // A new line, whose logs start with the first min(before, after) entries of the old one.
    cut_from_ = std::move(line_);
    cut_at_ = std::min(before, after);
    line_ = std::make_shared<LogLine>(after);
  }

  State state_;
  bool hots1_ = false;
  std::shared_ptr<LogLine> line_;
  // The line before line_, and how many of its entries line_'s logs start with.
  std::shared_ptr<LogLine> cut_from_;
  std::size_t cut_at_ = 0;
  // Keeps the log's digest between calls (the server hashes the state after every action of
  // the game, each time in the next copy of it), and the line its log was on then.
  mutable StateHasher hasher_;
  mutable std::shared_ptr<LogLine> hashed_line_;
};

// "hots-1" plays as hots-1 (its state hash); hots-2 and the current version, or nothing else.
std::optional<bool> is_hots1(std::string_view rules_version) {
  if (!plays_rules_version(rules_version)) return std::nullopt;
  return rules_version == kRulesVersion1;
}

// A game's state with the procedures of its rules version (Position::procedures), in the
// state and every undo point.
State with_procedures(State state, std::string_view rules_version) {
  state.procedures = procedures_of(rules_version);
  for (auto& point : state.undo) point.position.procedures = state.procedures;
  return state;
}

class HotsModule final : public core::GameModule {
 public:
  std::string_view id() const override { return "hots"; }
  std::string_view rules_version() const override { return kRulesVersion; }

  std::vector<std::string> scenarios() const override {
    std::vector<std::string> ids;
    for (const auto& s : game_data().scenarios) ids.push_back(s.id);
    return ids;
  }

  core::SetupResult setup(const core::Seed& seed, std::string_view scenario,
                          const json& options) const override {
    return set_up(seed, scenario, options, kRulesVersion);
  }

  core::SetupResult setup_as(std::string_view rules_version, const core::Seed& seed,
                             std::string_view scenario, const json& options) const override {
    if (!plays_rules_version(rules_version)) return {nullptr, unknown_version(rules_version)};
    return set_up(seed, scenario, options, rules_version);
  }

  core::SetupResult from_json(const json& state) const override {
    try {
      const auto hots1 = is_hots1(state.at("rules_version").get<std::string>());
      return {std::make_unique<HotsGame>(state_from_json(state), hots1.value_or(false)), ""};
    } catch (const StateFormatError& e) {
      return {nullptr, e.what()};
    } catch (const json::exception& e) {
      return {nullptr, std::string("state: malformed: ") + e.what()};
    }
  }

  core::SetupResult from_snapshot(std::string_view rules_version,
                                  std::string_view bytes) const override {
    const auto hots1 = is_hots1(rules_version);
    if (!hots1) return {nullptr, unknown_version(rules_version)};
    try {
      State state = decode_state(bytes);
      if (state.procedures != procedures_of(rules_version)) {
        return {nullptr,
                "snapshot: a state of another rules version than " + std::string(rules_version)};
      }
      return {std::make_unique<HotsGame>(std::move(state), *hots1), ""};
    } catch (const StateFormatError& e) {
      return {nullptr, e.what()};
    }
  }

 private:
  static core::SetupResult set_up(const core::Seed& seed, std::string_view scenario,
                                  const json& options, std::string_view rules_version) {
    const auto index = scenario_index(scenario);
    if (!index) return {nullptr, "unknown scenario '" + std::string(scenario) + "'"};
    Options parsed;
    if (!options.is_null()) {
      if (!options.is_object()) return {nullptr, "options must be an object"};
      for (const auto& [key, value] : options.items()) {
        if (key != "schiltroms" || !value.is_boolean()) {
          return {nullptr, "unknown option '" + key + "' (known: schiltroms, a boolean)"};
        }
        parsed.schiltroms = value.get<bool>();
      }
    }
    return {std::make_unique<HotsGame>(
                with_procedures(hots::setup(seed, *index, parsed), rules_version),
                rules_version == kRulesVersion1),
            ""};
  }

  static std::string unknown_version(std::string_view rules_version) {
    return "rules version '" + std::string(rules_version) + "' is not played here (" +
           std::string(kRulesVersion) + ", " + std::string(kRulesVersion2) + " and " +
           std::string(kRulesVersion1) + " are)";
  }
};

}  // namespace

const core::GameModule& module() {
  static const HotsModule instance;
  return instance;
}

}  // namespace blockfog::hots
