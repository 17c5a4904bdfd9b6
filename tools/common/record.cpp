#include "tools/common/record.h"

#include "rules/core/hex.h"
#include "rules/core/shared_seed.h"

namespace blockfog::tools {

namespace {
// A seat's dice: both 64 hex digits, else nullopt and why in `error`.
std::optional<RecordedDice> parse_dice(const nlohmann::json& json, const std::string& role,
                                       std::string& error) {
  RecordedDice dice{json.at(role).at("commitment").get<std::string>(),
                    json.at(role).at("contribution").get<std::string>()};
  if (!core::seed_from_hex(dice.commitment) || !core::seed_from_hex(dice.contribution)) {
    error = role + "'s dice must be 64 hex digits each";
    return std::nullopt;
  }
  return dice;
}
}  // namespace

core::Seed GameRecord::play_seed() const {
  if (!dice) return seed;
  return *core::seed_from_hex(
      *core::shared_seed(core::to_hex(seed), dice->first.contribution, dice->second.contribution));
}

std::optional<GameRecord> parse_record(const nlohmann::json& json, std::string& error) {
  try {
    GameRecord record;
    record.kind = json.at("game").get<std::string>();
    if (!games::find_game_kind(record.kind)) {
      error = "a record of '" + record.kind + "', not a game this tool plays";
      return std::nullopt;
    }
    record.rules_version = json.at("rules_version").get<std::string>();
    record.scenario = json.at("scenario").get<std::string>();
    record.options = json.value("options", nlohmann::json::object());
    const auto seed = core::seed_from_hex(json.at("seed").get<std::string>());
    if (!seed) {
      error = "seed must be 64 hex digits";
      return std::nullopt;
    }
    record.seed = *seed;
    if (json.contains("game_id")) record.game_id = json.at("game_id").get<std::int64_t>();
    if (json.contains("seed_sha256")) {
      record.seed_sha256 = json.at("seed_sha256").get<std::string>();
    }
    if (json.contains("final_state_hash")) {
      record.final_state_hash = json.at("final_state_hash").get<std::string>();
    }
    if (json.contains("result") && !json.at("result").is_null()) record.result = json.at("result");
    if (json.contains("dice")) {
      const auto scotland = parse_dice(json.at("dice"), "scotland", error);
      if (!scotland) return std::nullopt;
      const auto england = parse_dice(json.at("dice"), "england", error);
      if (!england) return std::nullopt;
      record.dice = std::pair{*scotland, *england};
    }
    for (const auto& entry : json.at("actions")) {
      const auto role = core::role_from_name(entry.at("role").get<std::string>());
      if (!role || *role == core::Role::Observer) {
        error = "action " + std::to_string(record.actions.size() + 1) + " has no playing role";
        return std::nullopt;
      }
      RecordedAction recorded{*role, entry.at("action"), std::nullopt};
      if (entry.contains("state_hash"))
        recorded.state_hash = entry.at("state_hash").get<std::string>();
      record.actions.push_back(std::move(recorded));
    }
    return record;
  } catch (const nlohmann::json::exception& e) {
    error = std::string("malformed record: ") + e.what();
    return std::nullopt;
  }
}

nlohmann::json record_to_json(const GameRecord& record) {
  nlohmann::json actions = nlohmann::json::array();
  int seq = 0;
  for (const auto& a : record.actions) {
    nlohmann::json entry = {
        {"seq", ++seq}, {"role", core::role_name(a.role)}, {"action", a.action}};
    if (a.state_hash) entry["state_hash"] = *a.state_hash;
    actions.push_back(std::move(entry));
  }
  nlohmann::json out = {{"game", record.kind},
                        {"rules_version", record.rules_version},
                        {"scenario", record.scenario},
                        {"options", record.options},
                        {"seed", core::to_hex(record.seed)},
                        {"actions", actions}};
  if (record.game_id) out["game_id"] = *record.game_id;
  if (record.seed_sha256) out["seed_sha256"] = *record.seed_sha256;
  if (record.final_state_hash) out["final_state_hash"] = *record.final_state_hash;
  if (record.result) out["result"] = *record.result;
  if (record.dice) {
    out["dice"] = {{"scotland",
                    {{"commitment", record.dice->first.commitment},
                     {"contribution", record.dice->first.contribution}}},
                   {"england",
                    {{"commitment", record.dice->second.commitment},
                     {"contribution", record.dice->second.contribution}}}};
  }
  return out;
}

std::unique_ptr<core::Game> set_up_recorded_game(const GameRecord& record, std::string& error) {
  const auto* kind = games::find_game_kind(record.kind);
  if (!kind) {
    error = "a record of '" + record.kind + "', not a game this tool plays";
    return nullptr;
  }
  auto setup = kind->module->setup_as(record.rules_version, record.play_seed(), record.scenario,
                                      record.options);
  if (!setup.game) error = setup.error;
  return std::move(setup.game);
}

}  // namespace blockfog::tools
