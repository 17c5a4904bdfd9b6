#include "rules/hots/module.h"

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
  explicit HotsGame(State state) : state_(std::move(state)) {}

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
    return hots::apply(state_, role, *parsed);
  }

  json view(Role role) const override { return hots::view(state_, role); }
  json view_from(Role role, std::size_t log_from) const override {
    return hots::view(state_, role, log_from);
  }
  void write_view(Role role, std::string& out) const override {
    hots::write_view(state_, role, 0, out);
  }
  std::size_t write_view_from(Role role, std::size_t log_from, std::string& out,
                              core::TextSpan* lines, core::LogCursor* cursor) const override {
    return hots::write_view(state_, role, log_from, out, lines, cursor);
  }
  core::Outcome outcome() const override { return hots::outcome(state_); }
  // RULES 2.3: five game turns a year, then the winter (10).
  std::int64_t turn_marker() const override {
    const int step = state_.phase == Phase::Winter     ? 6
                     : state_.phase == Phase::GameOver ? 7
                                                       : state_.turn;
    return std::int64_t{state_.year} * 8 + step;
  }
  json to_json() const override { return hots::to_json(state_); }
  // The binary form (binary_state.h, starting "hots-bin-1"): snapshots are written whenever
  // the turn passes, and the JSON of a late-game state (its whole log) was ~19 KiB.
  void write_snapshot(std::string& out) const override { encode_state(state_, out); }
  std::string state_hash() const override { return hots::state_hash(state_); }
  std::vector<std::string> check_invariants() const override {
    return hots::check_invariants(state_);
  }
  std::unique_ptr<core::Game> clone() const override { return std::make_unique<HotsGame>(state_); }
  bool copy_to(core::Game& target) const override {
    auto* game = dynamic_cast<HotsGame*>(&target);
    if (!game) return false;
    game->state_ = state_;  // vectors assigned in place: their capacity is kept
    return true;
  }

 private:
  State state_;
};

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
    return {std::make_unique<HotsGame>(hots::setup(seed, *index, parsed)), ""};
  }

  core::SetupResult from_json(const json& state) const override {
    try {
      return {std::make_unique<HotsGame>(state_from_json(state)), ""};
    } catch (const StateFormatError& e) {
      return {nullptr, e.what()};
    }
  }

  core::SetupResult from_snapshot(std::string_view bytes) const override {
    try {
      return {std::make_unique<HotsGame>(decode_state(bytes)), ""};
    } catch (const StateFormatError& e) {
      return {nullptr, e.what()};
    }
  }
};

}  // namespace

const core::GameModule& module() {
  static const HotsModule instance;
  return instance;
}

}  // namespace blockfog::hots
