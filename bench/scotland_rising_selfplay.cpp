// scotland-rising-selfplay: games of Scotland Rising between two players of the computer
// opponent (ai/scotland_rising/chooser.h) or the random player, each game from its own seed,
// and what the rulings' balance check asks for (RULINGS.md: neither side wins more than 60% of
// the decided games at equal levels): wins per side, draws, the VP spread; then how fast each
// player decides.
//
//   scotland-rising-selfplay --games 100 --scots normal --english normal --no-time-cap
//
// Every decision goes through the seat's view as the engine writes it (Game::view), exactly as
// the server would call the chooser. --data FILE plays another data file of the same schema
// (a candidate board, without rebuilding); --events turns on the Battle Events Table.
// --no-time-cap: only the level's counts bound the search, so the games do not depend on the
// machine's load.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <random>
#include <string>

#include "ai/scotland_rising/chooser.h"
#include "rules/core/sha256.h"
#include "rules/scotland_rising/module.h"

namespace {

using namespace blockfog;
using nlohmann::json;

struct Options {
  int games = 20;
  std::string scots = "normal";
  std::string english = "normal";
  std::uint64_t seed = 1;
  bool time_cap = true;
  bool events = false;
  bool log = false;
  std::string data;
};

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "scotland-rising-selfplay: " << problem << "\n"
            << "usage: scotland-rising-selfplay [--games N] [--scots random|easy|normal|hard] "
               "[--english random|easy|normal|hard] [--seed N] [--events] [--data FILE] [--log] "
               "[--no-time-cap]\n";
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--games") {
      o.games = std::atoi(value().c_str());
    } else if (arg == "--scots") {
      o.scots = value();
    } else if (arg == "--english") {
      o.english = value();
    } else if (arg == "--seed") {
      o.seed = std::strtoull(value().c_str(), nullptr, 10);
    } else if (arg == "--data") {
      o.data = value();
    } else if (arg == "--events") {
      o.events = true;
    } else if (arg == "--log") {
      o.log = true;
    } else if (arg == "--no-time-cap") {
      o.time_cap = false;
    } else {
      usage("unknown argument " + arg);
    }
  }
  for (const auto& p : {o.scots, o.english}) {
    if (p != "random" && !ai::level_from_name(p)) usage("unknown player " + p);
  }
  if (o.games < 1) usage("--games must be positive");
  return o;
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct Speed {
  long decisions = 0;
  long searched = 0;  // decisions with more than one action
  long playouts = 0;
  double cpu_seconds = 0;
  double max_cpu_seconds = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  std::unique_ptr<core::GameModule> owned;
  const core::GameModule* module = &scotland_rising::module();
  if (!o.data.empty()) {
    std::ifstream in(o.data);
    if (!in) usage("cannot read " + o.data);
    owned = scotland_rising::make_module(json::parse(in));
    module = owned.get();
  }
  const std::string scenario = module->scenarios().front();
  const json options = {{"battle_events", o.events}};
  int wins[2] = {0, 0}, draws = 0;
  std::vector<int> spread;  // Scots VP minus English VP, per game
  long vp[2] = {0, 0};
  Speed speed[2];
  std::map<std::string, long> lost;  // "side type" -> units eliminated, over all games
  long exits = 0;
  for (int g = 0; g < o.games; ++g) {
    const auto seed = core::sha256("scotland-rising-selfplay " + std::to_string(o.seed) + " " +
                                   std::to_string(g));
    auto game = module->setup(seed, scenario, options).game;
    std::mt19937_64 random(o.seed * 1000003 + static_cast<std::uint64_t>(g));
    for (int step = 0; step < 5000 && !game->outcome().finished; ++step) {
      const auto role = game->active_roles().at(0);
      const int side = core::side_index(role);
      const std::string& player = side == 0 ? o.scots : o.english;
      const auto view = game->view(role);
      json action;
      const double start = thread_cpu_seconds();
      if (player == "random") {
        std::vector<json> forward;
        for (const auto& a : view.at("legal_actions")) {
          if (a.at("type") != "undo") forward.push_back(a);
        }
        action = forward[random() % forward.size()];
      } else {
        ai::Thinking thinking;
        action = ai::scotland_rising::choose_action(view, {}, *ai::level_from_name(player),
                                                    random(), &thinking, o.time_cap);
        speed[side].playouts += thinking.playouts;
      }
      const double spent = thread_cpu_seconds() - start;
      auto& sp = speed[side];
      ++sp.decisions;
      if (view.at("legal_actions").size() > 1) ++sp.searched;
      sp.cpu_seconds += spent;
      sp.max_cpu_seconds = std::max(sp.max_cpu_seconds, spent);
      if (const auto error = game->apply(role, action)) {
        std::cerr << "game " << g << ": the engine refused " << action.dump() << ": "
                  << error->message << "\n";
        return 1;
      }
    }
    const auto state = game->to_json();
    if (o.log) {
      for (const auto& line : state["log"])
        std::cout << "game " << g << ": " << line.get<std::string>() << "\n";
    }
    const int scots = state["position"]["vp"]["scotland"],
              english = state["position"]["vp"]["england"];
    const auto& units = state["position"]["units"];
    const auto board = game->view(core::Role::Observer)["board"]["units"];
    for (std::size_t u = 0; u < units.size(); ++u) {
      if (units[u]["eliminated"]) {
        ++lost[board[u]["side"].get<std::string>() + " " + board[u]["type"].get<std::string>()];
      }
      exits += units[u]["exited"].get<bool>();
    }
    vp[0] += scots;
    vp[1] += english;
    spread.push_back(scots - english);
    const auto outcome = game->outcome();
    if (!outcome.finished) {
      std::cerr << "game " << g << " did not end\n";
      return 1;
    }
    if (!outcome.winner) {
      ++draws;
    } else {
      ++wins[core::side_index(*outcome.winner)];
    }
  }
  const int decided = wins[0] + wins[1];
  std::sort(spread.begin(), spread.end());
  double mean = 0;
  for (int d : spread) mean += d;
  mean /= o.games;
  double var = 0;
  for (int d : spread) var += (d - mean) * (d - mean);
  const double sd = std::sqrt(var / o.games);
  std::cout << std::fixed << std::setprecision(1);
  std::cout << "scenario " << scenario << (o.events ? " (battle events)" : "") << ", Scots "
            << o.scots << " vs English " << o.english << ", " << o.games << " games (seed "
            << o.seed << (o.time_cap ? ")" : ", count-bound)") << "\n";
  std::cout << "Scotland won " << wins[0] << ", England " << wins[1] << ", drawn " << draws
            << " (draw rate " << 100.0 * draws / o.games << "%); Scotland's share of decided games "
            << (decided ? 100.0 * wins[0] / decided : 0.0) << "%\n";
  std::cout << "VP: Scotland mean " << static_cast<double>(vp[0]) / o.games << ", England mean "
            << static_cast<double>(vp[1]) / o.games << "; Scots lead mean " << mean << ", sd " << sd
            << ", median " << spread[spread.size() / 2] << ", range " << spread.front() << ".."
            << spread.back() << "\n";
  std::cout << "eliminated per game:";
  for (const auto& [kind, n] : lost)
    std::cout << " " << kind << " " << static_cast<double>(n) / o.games << ";";
  std::cout << " English exits " << static_cast<double>(exits) / o.games << "\n";
  for (int side = 0; side < 2; ++side) {
    const auto& sp = speed[side];
    std::cout << (side == 0 ? "Scots " : "English ") << (side == 0 ? o.scots : o.english) << ": "
              << sp.decisions << " decisions (" << sp.searched << " with a choice), "
              << std::setprecision(0) << sp.decisions / std::max(sp.cpu_seconds, 1e-9)
              << " decisions/s of CPU, mean " << std::setprecision(2)
              << 1000.0 * sp.cpu_seconds / std::max(sp.decisions, 1L) << " ms, longest "
              << 1000.0 * sp.max_cpu_seconds << " ms, " << sp.playouts << " playouts ("
              << std::setprecision(0) << sp.playouts / std::max(sp.cpu_seconds, 1e-9) << "/s)\n"
              << std::setprecision(1);
  }
  return 0;
}
