#include "rules/hots/module.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "rules/hots/adjudication.h"
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
      : state_(std::move(state)), hots1_(hots1), readable_(count_readable(state_)) {}

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

  std::size_t write_view(Role role, std::size_t log_from, std::string& out,
                         core::ViewLayout* layout, core::ViewMemo* memo) const override {
    return hots::write_view(state_, role, log_from, out, layout, memo, &readable_);
  }
  core::Outcome outcome() const override { return hots::outcome(state_); }
  json to_json() const override {
    json state = hots::to_json(state_);
    if (hots1_) state["rules_version"] = kRulesVersion1;  // from_json reads it back as hots-1
    return state;
  }
  // The binary form (binary_state.h, starting "hots-bin-2"): a third of the JSON's size.
  void write_snapshot(std::string& out) const override { encode_state(state_, out); }
  std::string state_hash() const override {
    if (hots1_) return state_hash_v1(state_);
    // The hasher was fed the log's first entries up to some count, of which the first
    // `log_kept_` are unchanged since: the log's digest resumes from there.
    std::string hash = log_kept_ >= hashed_ ? hasher_.hash_grown(state_, true)
                                            : hasher_.hash_cut(state_, log_kept_);
    hashed_ = log_kept_ = state_.log.size();
    return hash;
  }
  std::vector<std::string> check_invariants() const override {
    return hots::check_invariants(state_);
  }
  // A copy carries the hasher with it: its log is this one's, so its digest carries on.
  std::unique_ptr<core::Game> clone() const override { return std::make_unique<HotsGame>(*this); }

  const State& state() const { return state_; }

 private:
  // After an applied action whose state had `before` log entries: the log grew, or an undo
  // cut it back (never both, so the first min(before, after) entries are as they were).
  void follow_log(std::size_t before) {
    const std::size_t after = state_.log.size();
    if (after >= before) {
      const auto added = count_readable(state_, before);
      for (std::size_t r = 0; r < readable_.size(); ++r) readable_[r] += added[r];
    } else {
      readable_ = count_readable(state_);
      log_kept_ = std::min(log_kept_, after);
    }
  }

  State state_;
  bool hots1_ = false;
  ReadableCounts readable_;  // count_readable(state_), kept with every action
  // The hasher's digest covers the log's first hashed_ entries, of which the first
  // log_kept_ are the state's still (see state_hash()).
  mutable StateHasher hasher_;
  mutable std::size_t hashed_ = 0;
  mutable std::size_t log_kept_ = 0;
};

// "hots-1" plays as hots-1 (its state hash); hots-2, hots-3 and the current version with the
// newer hash, or nothing else.
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
           std::string(kPlayedRulesVersions) + " are)";
  }
};

}  // namespace

const core::GameModule& module() {
  static const HotsModule instance;
  return instance;
}

std::optional<Adjudication> adjudicate(const core::Game& game) {
  const auto* hots_game = dynamic_cast<const HotsGame*>(&game);
  if (!hots_game) return std::nullopt;
  return adjudicate(hots_game->state());
}

}  // namespace blockfog::hots
