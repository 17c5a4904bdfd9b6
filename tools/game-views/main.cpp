// game-views: plays a seeded game of a rules module with its own legal actions and writes the
// views of chosen steps as JSON files, for the web client's fixtures (tests/web/fixtures/)
// and for looking at what a client is sent. Links the rules libraries only.
//
//   game-views --game scotland_rising --seed 7 --out DIR
//     --weights end_turn=1,undo=0,attack=200 --stop start=start --stop late=step:300
//     --stop archers=legal:type=attack,unit~longbow --stop over=end
//
// Each step the awaited role's action is drawn from its legal actions, weighted by type (the
// action's "type", or "kind" for hots; 10 unless --weights says otherwise), by a generator
// seeded from --seed. A stop's file is written at the first step where all its conditions hold
// (stops.h): the view of the awaited role (Scotland once the game is over), as
// {"game","scenario","seed","step","role","legal_actions_added","view"}. The engine's view is
// written as it is, but for one thing: a view without "legal_actions" gets the module's
// legal_actions(role) under that name, and "legal_actions_added" says so.
//
//   --record NAME=COND[&COND...]
//
// writes NAME.json at the first step where COND holds: the game so far as a record and the
// replay's steps give it (docs/protocol.md, "Stepping through a finished game"):
// {"game","scenario","seed","step","actions":[{"seq","role","action"}],"board","views"}, with
// "views" the observer's view after 0, 1, ... "step" actions, each without the data file
// ("board"), which is the same at every step and written once.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/chacha20.h"
#include "rules/core/game.h"
#include "rules/core/sha256.h"
#include "rules/hots/module.h"
#include "rules/scotland_rising/module.h"
#include "tools/game-views/stops.h"

namespace {

using namespace blockfog;
using nlohmann::json;

struct Options {
  std::string game = "scotland_rising";
  std::string scenario;
  json options = json::object();
  std::string seed = "1";
  std::map<std::string, int> weights;
  int max_actions = 20000;
  std::filesystem::path out = ".";
  std::vector<tools::Stop> stops;
  std::vector<tools::Stop> records;
};

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "game-views: " << problem << "\n"
            << "usage: game-views [--game scotland_rising|hots] [--scenario S] [--options JSON] "
               "[--seed TEXT] [--weights TYPE=N,...] [--max-actions N] [--out DIR] "
               "--stop NAME=COND[&COND...] ... --record NAME=COND[&COND...] ...\n"
               "  COND: start | end | step:N | legal:FIELD=TEXT[,FIELD~TEXT] | log:TEXT | "
               "view:PATH=JSON\n";
  std::exit(2);
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--game") {
      o.game = value();
    } else if (arg == "--scenario") {
      o.scenario = value();
    } else if (arg == "--options") {
      o.options = json::parse(value(), nullptr, false);
      if (!o.options.is_object()) usage("--options takes a JSON object");
    } else if (arg == "--seed") {
      o.seed = value();
    } else if (arg == "--weights") {
      std::string pair;
      std::istringstream in(value());
      while (std::getline(in, pair, ',')) {
        const auto eq = pair.find('=');
        if (eq == std::string::npos) usage("--weights takes TYPE=N pairs");
        try {
          const int w = std::stoi(pair.substr(eq + 1));
          if (w < 0) usage("a weight is 0 or more");
          o.weights[pair.substr(0, eq)] = w;
        } catch (const std::exception&) {
          usage("a weight is a number: " + pair);
        }
      }
    } else if (arg == "--max-actions") {
      try {
        o.max_actions = std::stoi(value());
      } catch (const std::exception&) {
        usage("--max-actions takes a number");
      }
    } else if (arg == "--out") {
      o.out = value();
    } else if (arg == "--stop" || arg == "--record") {
      std::string error;
      auto stop = tools::parse_stop(value(), error);
      if (!stop) usage(error);
      (arg == "--stop" ? o.stops : o.records).push_back(std::move(*stop));
    } else {
      usage("unknown argument " + arg);
    }
  }
  if (o.stops.empty() && o.records.empty()) usage("no --stop or --record given");
  return o;
}

const core::GameModule& module_named(const std::string& name) {
  if (name == "hots") return hots::module();
  if (name == "scotland_rising") return scotland_rising::module();
  usage("unknown game " + name);
}

std::string action_kind(const json& action) {
  if (action.contains("type")) return action["type"].get<std::string>();
  if (action.contains("kind")) return action["kind"].get<std::string>();
  return "";
}

// The log lines of a view, as text (a module's line may be a string or an object with "text").
std::vector<std::string> line_texts(const json& view) {
  std::vector<std::string> out;
  for (const auto& line : view.value("log", json::array())) {
    out.push_back(line.is_string() ? line.get<std::string>() : line.value("text", line.dump()));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_args(argc, argv);
  const auto& module = module_named(o.game);
  const std::string scenario = o.scenario.empty() ? module.scenarios().front() : o.scenario;
  const core::Seed seed = core::sha256("game-views:" + o.seed);
  auto setup = module.setup(seed, scenario, o.options);
  if (!setup.game) {
    std::cerr << "game-views: " << setup.error << "\n";
    return 1;
  }
  auto& game = *setup.game;
  core::ChaCha20Stream chooser(seed, 1);
  std::filesystem::create_directories(o.out);
  std::vector<bool> written(o.stops.size(), false);
  std::vector<bool> recorded(o.records.size(), false);
  std::size_t left = o.stops.size() + o.records.size();
  std::size_t log_size = 0;
  // What a --record file holds, kept only when one is asked for.
  json played = json::array();
  json replay_views = json::array();
  json board;

  for (int step = 0;; ++step) {
    const auto roles = game.active_roles();
    const bool finished = game.outcome().finished || roles.empty();
    const core::Role role = roles.empty() ? core::Role::Scotland : roles.front();
    json view = game.view(role);
    const bool added = !view.contains("legal_actions");
    if (added) view["legal_actions"] = game.legal_actions(role);
    const auto lines = line_texts(view);
    tools::StepFacts facts;
    facts.step = step;
    facts.finished = finished;
    facts.view = &view;
    facts.legal = &view["legal_actions"];
    facts.new_lines.assign(
        lines.begin() + static_cast<std::ptrdiff_t>(std::min(log_size, lines.size())), lines.end());
    log_size = lines.size();
    if (!o.records.empty()) {
      json seen = game.view(core::Role::Observer);
      if (seen.contains("board")) {
        board = seen["board"];
        seen.erase("board");
      }
      replay_views.push_back(std::move(seen));
    }
    for (std::size_t k = 0; k < o.records.size(); ++k) {
      if (recorded[k] || !tools::stop_holds(o.records[k], facts)) continue;
      const json file = {{"game", module.id()},  {"scenario", scenario}, {"seed", o.seed},
                         {"step", step},         {"actions", played},    {"board", board},
                         {"views", replay_views}};
      const auto path = o.out / (o.records[k].name + ".json");
      std::ofstream(path) << file.dump() << "\n";
      std::cout << o.records[k].name << ": record of " << step << " actions -> " << path.string()
                << "\n";
      recorded[k] = true;
      --left;
    }
    for (std::size_t k = 0; k < o.stops.size(); ++k) {
      if (written[k] || !tools::stop_holds(o.stops[k], facts)) continue;
      const json file = {
          {"game", module.id()}, {"scenario", scenario},          {"seed", o.seed},
          {"step", step},        {"role", core::role_name(role)}, {"legal_actions_added", added},
          {"view", view}};
      const auto path = o.out / (o.stops[k].name + ".json");
      std::ofstream(path) << file.dump(1) << "\n";
      std::cout << o.stops[k].name << ": step " << step << ", " << core::role_name(role) << " -> "
                << path.string() << "\n";
      written[k] = true;
      --left;
    }
    if (left == 0 || finished) break;
    if (step >= o.max_actions) {
      std::cerr << "game-views: no end after " << o.max_actions << " actions\n";
      break;
    }
    const json legal = game.legal_actions(role);
    std::vector<int> weight;
    std::uint32_t total = 0;
    for (const auto& action : legal) {
      const auto it = o.weights.find(action_kind(action));
      weight.push_back(it == o.weights.end() ? 10 : it->second);
      total += static_cast<std::uint32_t>(weight.back());
    }
    if (total == 0) {
      std::cerr << "game-views: every legal action of step " << step << " has weight 0\n";
      return 1;
    }
    std::uint32_t pick = chooser.uniform(total);
    std::size_t chosen = 0;
    while (pick >= static_cast<std::uint32_t>(weight[chosen])) pick -= weight[chosen++];
    if (auto error = game.apply(role, legal[chosen])) {
      std::cerr << "game-views: a legal action was refused: " << error->message << "\n";
      return 1;
    }
    if (!o.records.empty()) {
      played.push_back(
          {{"seq", step + 1}, {"role", core::role_name(role)}, {"action", legal[chosen]}});
    }
  }
  for (std::size_t k = 0; k < o.stops.size(); ++k) {
    if (!written[k]) std::cerr << "game-views: the stop '" << o.stops[k].name << "' never held\n";
  }
  for (std::size_t k = 0; k < o.records.size(); ++k) {
    if (!recorded[k]) {
      std::cerr << "game-views: the record '" << o.records[k].name << "' never held\n";
    }
  }
  return left == 0 ? 0 : 1;
}
