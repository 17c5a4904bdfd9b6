#include "rules/scotland_rising/serialize.h"

#include "rules/core/hex.h"
#include "rules/core/sha256.h"
#include "rules/scotland_rising/invariants.h"

namespace blockfog::scotland_rising {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& what) { throw StateFormatError("state: " + what); }

constexpr std::array<std::string_view, 4> kPhases = {"setup", "scots_ap", "actions", "game_over"};

json hex_or_null(const Data& d, int hex) { return hex < 0 ? json(nullptr) : json(d.hex_id(hex)); }

int hex_from(const Data& d, const json& j) {
  if (j.is_null()) return -1;
  const auto hex = d.hex_index(j.get<std::string>());
  if (!hex) fail("no hex " + j.dump());
  return *hex;
}

Role side_from(const json& j) {
  const auto role = core::role_from_name(j.get<std::string>());
  if (!role || *role == Role::Observer) fail("unknown side " + j.dump());
  return *role;
}

Position position_from_json(const Data& d, const json& j) {
  Position p;
  const auto& units = j.at("units");
  if (units.size() != d.units.size()) fail("one entry per unit of the scenario");
  for (std::size_t u = 0; u < units.size(); ++u) {
    const auto& e = units[u];
    if (e.at("id").get<std::string>() != d.units[u].id) fail("units out of order");
    UnitState unit;
    unit.hex = hex_from(d, e.at("hex"));
    unit.start_hex = hex_from(d, e.at("start_hex"));
    unit.reduced = e.at("reduced").get<bool>();
    unit.eliminated = e.at("eliminated").get<bool>();
    unit.exited = e.at("exited").get<bool>();
    unit.schiltron = e.at("schiltron").get<bool>();
    unit.disordered = e.at("disordered").get<bool>();
    unit.acted = e.at("acted").get<bool>();
    p.units.push_back(unit);
  }
  const auto phase = j.at("phase").get<std::string>();
  if (phase == "setup") {
    p.phase = Phase::Setup;
  } else if (phase == "scots_ap") {
    p.phase = Phase::ScotsAp;
  } else if (phase == "actions") {
    p.phase = Phase::Actions;
  } else if (phase == "game_over") {
    p.phase = Phase::GameOver;
  } else {
    fail("unknown phase " + phase);
  }
  p.side = side_from(j.at("side"));
  p.turn = j.at("turn").get<int>();
  p.ap = j.at("ap").get<int>();
  p.vp = {j.at("vp").at("scotland").get<int>(), j.at("vp").at("england").get<int>()};
  p.commanders_lost = {j.at("commanders_lost").at("scotland").get<int>(),
                       j.at("commanders_lost").at("england").get<int>()};
  p.scots_charge_used = j.at("scots_charge_used").get<bool>();
  p.scots_charge_now = j.at("scots_charge_now").get<bool>();
  const auto event = j.at("event").get<std::string>();
  int e = 0;
  while (e <= static_cast<int>(Event::LongbowDie) && event_name(static_cast<Event>(e)) != event)
    ++e;
  if (e > static_cast<int>(Event::LongbowDie)) fail("unknown event " + event);
  p.event = static_cast<Event>(e);
  p.event_uses = j.at("event_uses").get<int>();
  return p;
}

}  // namespace

json options_to_json(const Options& o) {
  return {{"longbows_vs_schiltron", o.longbows_vs_schiltron},
          {"battle_events", o.battle_events},
          {"solitaire_events", o.solitaire_events},
          {"freeform_setup", o.freeform_setup}};
}

Options options_from_json(const json& j) {
  Options o;
  if (j.is_null()) return o;
  if (!j.is_object()) fail("options must be an object");
  for (const auto& [key, value] : j.items()) {
    if (!value.is_boolean()) fail("option '" + key + "' is a boolean");
    const bool on = value.get<bool>();
    if (key == "longbows_vs_schiltron") {
      o.longbows_vs_schiltron = on;
    } else if (key == "battle_events") {
      o.battle_events = on;
    } else if (key == "solitaire_events") {
      o.solitaire_events = on;
    } else if (key == "freeform_setup") {
      o.freeform_setup = on;
    } else {
      fail("unknown option '" + key +
           "' (known: longbows_vs_schiltron, battle_events, solitaire_events, freeform_setup)");
    }
  }
  if (o.solitaire_events && !o.battle_events) fail("solitaire_events needs battle_events");
  return o;
}

json position_to_json(const Data& d, const Position& p) {
  json units = json::array();
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    const auto& unit = p.units[u];
    units.push_back({{"id", d.units[u].id},
                     {"hex", hex_or_null(d, unit.hex)},
                     {"start_hex", hex_or_null(d, unit.start_hex)},
                     {"reduced", unit.reduced},
                     {"eliminated", unit.eliminated},
                     {"exited", unit.exited},
                     {"schiltron", unit.schiltron},
                     {"disordered", unit.disordered},
                     {"acted", unit.acted}});
  }
  return {
      {"units", std::move(units)},
      {"phase", kPhases[static_cast<int>(p.phase)]},
      {"side", core::role_name(p.side)},
      {"turn", p.turn},
      {"ap", p.ap},
      {"vp", {{"scotland", p.vp[0]}, {"england", p.vp[1]}}},
      {"commanders_lost", {{"scotland", p.commanders_lost[0]}, {"england", p.commanders_lost[1]}}},
      {"scots_charge_used", p.scots_charge_used},
      {"scots_charge_now", p.scots_charge_now},
      {"event", event_name(p.event)},
      {"event_uses", p.event_uses}};
}

json to_json(const State& s) {
  const Data& d = *s.data;
  json undo = json::array();
  for (const auto& point : s.undo) {
    undo.push_back(
        {{"position", position_to_json(d, point.position)}, {"log_size", point.log_size}});
  }
  const auto& stream = s.rng.stream();
  json script = json::array();
  for (const auto& outcome : s.rng.script_queue()) script.push_back(outcome.value);
  return {{"game", "scotland_rising"},
          {"rules_version", kRulesVersion},
          {"scenario", d.scenario},
          {"options", options_to_json(s.options)},
          {"position", position_to_json(d, s.pos)},
          {"log", s.log},
          {"undo", std::move(undo)},
          {"rng",
           {{"key", core::to_hex(stream.key())},
            {"stream", stream.stream()},
            {"block_counter", stream.block_counter()},
            {"word_offset", stream.word_offset()},
            {"script", std::move(script)},
            {"script_position", s.rng.script_position()}}}};
}

State state_from_json(std::shared_ptr<const Data> data, const json& j) {
  State s;
  s.data = std::move(data);
  const Data& d = *s.data;
  try {
    if (j.at("game") != "scotland_rising") fail("not a Scotland Rising state");
    if (j.at("rules_version") != kRulesVersion) fail("another rules version");
    if (j.at("scenario") != d.scenario) fail("a state of another scenario");
    s.options = options_from_json(j.at("options"));
    s.pos = position_from_json(d, j.at("position"));
    s.log = j.at("log").get<std::vector<std::string>>();
    for (const auto& point : j.at("undo")) {
      s.undo.push_back(
          {position_from_json(d, point.at("position")), point.at("log_size").get<std::size_t>()});
      if (s.undo.back().log_size > s.log.size()) fail("an undo point beyond the log");
    }
    const auto& rng = j.at("rng");
    const auto key = core::seed_from_hex(rng.at("key").get<std::string>());
    if (!key) fail("the generator's key is 64 hexadecimal digits");
    const auto blocks = rng.at("block_counter").get<std::uint64_t>();
    const auto words = rng.at("word_offset").get<std::uint32_t>();
    if (!core::ChaCha20Stream::is_valid_position(blocks, words)) fail("a generator position");
    std::vector<core::ScriptedOutcome> script;
    for (const auto& face : rng.at("script")) {
      const int value = face.get<int>();
      if (value < 1 || value > 6) fail("a scripted die is 1-6");
      script.push_back({core::ScriptedOutcome::Kind::Die, value});
    }
    s.rng = core::Rng::restore(
        core::ChaCha20Stream::restore(*key, rng.at("stream").get<std::uint64_t>(), blocks, words),
        std::move(script), rng.at("script_position").get<std::size_t>());
  } catch (const json::exception& e) {
    fail(std::string("malformed: ") + e.what());
  }
  rebuild_occupancy(s);
  return s;
}

State state_from_view(std::shared_ptr<const Data> data, const json& view, const core::Seed& seed) {
  State s;
  s.data = std::move(data);
  try {
    if (!view.is_object()) fail("a view is a JSON object");
    if (view.at("game") != "scotland_rising") fail("not a Scotland Rising view");
    if (view.at("scenario") != s.data->scenario) fail("a view of another scenario");
    s.options = options_from_json(view.at("options"));
    s.pos = position_from_json(*s.data, view);
  } catch (const json::exception& e) {
    fail(std::string("malformed view: ") + e.what());
  }
  s.rng = core::Rng(seed);
  rebuild_occupancy(s);
  const auto broken = check_invariants(s);
  if (!broken.empty()) fail("the view's position: " + broken.front());
  return s;
}

std::string state_hash(const State& s) {
  const auto digest = core::sha256(to_json(s).dump());
  return core::to_hex(digest);
}

}  // namespace blockfog::scotland_rising
