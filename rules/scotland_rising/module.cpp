#include "rules/scotland_rising/module.h"

#include "rules/scotland_rising/engine.h"
#include "rules/scotland_rising/invariants.h"
#include "rules/scotland_rising/serialize.h"
#include "rules/scotland_rising/view.h"

namespace blockfog::scotland_rising {
namespace {

using nlohmann::json;

class ScotlandRisingGame final : public core::Game {
 public:
  explicit ScotlandRisingGame(State state) : state_(std::move(state)) {}

  std::vector<Role> active_roles() const override { return scotland_rising::active_roles(state_); }

  json legal_actions(Role role) const override {
    json list = json::array();
    for (const auto& a : scotland_rising::legal_actions(state_, role)) {
      list.push_back(action_to_json(*state_.data, a));
    }
    return list;
  }

  std::optional<core::RuleError> apply(Role role, const json& action) override {
    std::string error;
    const auto parsed = action_from_json(*state_.data, action, error);
    if (!parsed) return core::RuleError{core::RuleErrorCode::MalformedAction, error};
    return scotland_rising::apply(state_, role, *parsed);
  }

  std::size_t write_view(Role role, std::size_t log_from, std::string& out,
                         core::ViewLayout* layout, core::ViewMemo*) const override {
    return scotland_rising::write_view(state_, role, log_from, out, layout);
  }
  core::Outcome outcome() const override { return scotland_rising::outcome(state_); }
  json to_json() const override { return scotland_rising::to_json(state_); }
  std::string state_hash() const override { return scotland_rising::state_hash(state_); }
  std::vector<std::string> check_invariants() const override {
    return scotland_rising::check_invariants(state_);
  }
  std::unique_ptr<core::Game> clone() const override {
    return std::make_unique<ScotlandRisingGame>(*this);
  }

 private:
  State state_;
};

class ScotlandRisingModule final : public core::GameModule {
 public:
  explicit ScotlandRisingModule(std::shared_ptr<const Data> data) : data_(std::move(data)) {}

  std::string_view id() const override { return "scotland_rising"; }
  std::string_view rules_version() const override { return kRulesVersion; }
  std::vector<std::string> scenarios() const override { return {data_->scenario}; }

  core::SetupResult setup(const core::Seed& seed, std::string_view scenario,
                          const json& options) const override {
    if (scenario != data_->scenario) {
      return {nullptr, "unknown scenario '" + std::string(scenario) + "'"};
    }
    try {
      return {std::make_unique<ScotlandRisingGame>(
                  scotland_rising::setup(seed, data_, options_from_json(options))),
              ""};
    } catch (const StateFormatError& e) {
      return {nullptr, e.what()};
    }
  }

  core::SetupResult from_json(const json& state) const override {
    try {
      State s = state_from_json(data_, state);
      const auto broken = scotland_rising::check_invariants(s);
      if (!broken.empty()) return {nullptr, "state: " + broken.front()};
      return {std::make_unique<ScotlandRisingGame>(std::move(s)), ""};
    } catch (const StateFormatError& e) {
      return {nullptr, e.what()};
    }
  }

 private:
  std::shared_ptr<const Data> data_;
};

}  // namespace

const core::GameModule& module() {
  static const ScotlandRisingModule instance(variant_board());
  return instance;
}

std::unique_ptr<core::GameModule> make_module(const json& data) {
  return std::make_unique<ScotlandRisingModule>(Data::parse(data));
}

}  // namespace blockfog::scotland_rising
