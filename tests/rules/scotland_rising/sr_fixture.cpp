#include "tests/rules/scotland_rising/sr_fixture.h"

#include <map>

#include "rules/core/sha256.h"
#include "rules/scotland_rising/serialize.h"

namespace blockfog::scotland_rising::testing {

json board(const std::vector<std::string>& terrain_rows, const std::vector<Piece>& pieces,
           const std::string& exit_hex) {
  static const std::map<std::string, std::array<int, 4>> kValues = {
      // dice, hit, move, vp (rulebook 3, 11)
      {"pike", {2, 5, 2, 2}},     {"ax", {3, 5, 2, 2}},     {"longbow", {2, 4, 2, 1}},
      {"crossbow", {3, 4, 2, 1}}, {"knight", {3, 6, 3, 3}}, {"hobelar", {2, 5, 4, 2}},
      {"leader", {2, 6, 3, 3}}};
  static const std::map<std::string, std::string> kLetters = {{"pike", "P"},    {"ax", "A"},
                                                              {"longbow", "L"}, {"crossbow", "C"},
                                                              {"knight", "K"},  {"hobelar", "H"}};
  const auto variant = json::parse(embedded_variant_board_json());
  json units = json::array();
  json setup = {{"scotland", json::array()}, {"england", json::array()}};
  for (const auto& p : pieces) {
    const auto& v = kValues.at(p.type);
    const json values = {{"dice", v[0]}, {"hit", v[1]}, {"move", v[2]}};
    const bool one_sided = p.type == "crossbow" || p.type == "leader";
    const std::string name = p.type == "leader" && p.name.empty() ? p.id : p.name;
    units.push_back({{"id", p.id},
                     {"side", p.side},
                     {"type", p.type},
                     {"name", name},
                     {"full", values},
                     {"reduced", one_sided ? json() : values},
                     {"vp", p.commander ? 6 : v[3]},
                     {"commander", p.commander}});
    setup[p.side].push_back(
        {{"hex", p.hex}, {"letter", p.type == "leader" ? name : kLetters.at(p.type)}});
  }
  return {{"scenario", "test"},
          {"title", "test board"},
          {"grid",
           {{"columns", static_cast<int>(terrain_rows.front().size())},
            {"rows", static_cast<int>(terrain_rows.size())},
            {"layout", "odd-r"}}},
          {"terrain_key", variant["terrain_key"]},
          {"terrain_rows", terrain_rows},
          {"blue_row", 1},
          {"red_row", static_cast<int>(terrain_rows.size())},
          {"exit_hex", exit_hex},
          {"turns", 15},
          {"start_vp", variant["start_vp"]},
          {"command_ap", variant["command_ap"]},
          {"commander_loss_ap", 1},
          {"random_ap", variant["random_ap"]},
          {"battle_events", variant["battle_events"]},
          {"units", units},
          {"setup", setup}};
}

core::Seed test_seed(int n) { return core::sha256("scotland rising test " + std::to_string(n)); }

void script(State& s, const std::vector<int>& dice) {
  std::vector<core::ScriptedOutcome> outcomes;
  for (int d : dice) outcomes.push_back({core::ScriptedOutcome::Kind::Die, d});
  s.rng.script(std::move(outcomes));
}

State start(const json& data, const std::vector<int>& dice, Options options) {
  State s = setup(test_seed(), Data::parse(data), options);
  script(s, dice);
  if (!options.freeform_setup) act(s, Role::Scotland, {{"type", "setup_done"}});
  return s;
}

std::optional<core::RuleError> try_act(State& s, Role role, const json& action) {
  std::string error;
  const auto parsed = action_from_json(*s.data, action, error);
  if (!parsed) return core::RuleError{core::RuleErrorCode::MalformedAction, error};
  return apply(s, role, *parsed);
}

void act(State& s, Role role, const json& action) {
  const auto refused = try_act(s, role, action);
  ASSERT_FALSE(refused) << action.dump() << ": " << refused->message;
  const auto broken = check_invariants(s);
  ASSERT_TRUE(broken.empty()) << broken.front();
}

std::vector<json> legal(const State& s, Role role) {
  std::vector<json> out;
  for (const auto& a : legal_actions(s, role)) out.push_back(action_to_json(*s.data, a));
  return out;
}

bool is_legal(const State& s, Role role, const json& action) {
  for (const auto& a : legal(s, role)) {
    if (a == action) return true;
  }
  return false;
}

const UnitState& unit(const State& s, const std::string& id) {
  return s.pos.units.at(*s.data->unit_index(id));
}
UnitState& unit(State& s, const std::string& id) { return s.pos.units.at(*s.data->unit_index(id)); }
int hex(const State& s, const std::string& id) { return *s.data->hex_index(id); }

void scots_turn(State& s, int scots_die) {
  script(s, {scots_die});
  act(s, Role::Scotland, {{"type", "roll_ap"}});
}

void english_turn(State& s, int english_die) {
  script(s, {english_die});
  act(s, Role::Scotland, {{"type", "end_turn"}});
}

}  // namespace blockfog::scotland_rising::testing
