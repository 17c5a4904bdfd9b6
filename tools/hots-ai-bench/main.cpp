// hots-ai-bench: plays games between two players of the computer opponent (ai/player.h) or the
// random player, per scenario and side, and prints the win rate of the first player and how
// fast the opponent thinks (determinizations and playouts per second).
//
//   hots-ai-bench --scenario braveheart --games 20 --player normal --against random
//
// --no-time-cap: only the level's counts bound the search, so the games do not depend on the
// machine's load (each level's counts fit its time budget on one quiet core, docs/ai.md).
//
// Players: random (a seeded uniform pick among the legal actions), easy (the greedy one-ply
// heuristic), normal, hard. The first player plays each side in turn (half the games each);
// the table has a row per side. A second table gives the first player's decisions per phase:
// how many, how many offered one action only, how many were searched rather than taken by the
// rule of thumb, and their CPU time.

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <map>
#include <random>
#include <string>

#include "ai/player.h"
#include "rules/hots/module.h"

namespace {

using namespace blockfog;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string scenario = "braveheart";
  int games = 10;
  std::string player = "normal";
  std::string against = "random";
  std::uint64_t seed = 1;
  int max_actions = 20000;
  bool time_cap = true;
};

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "hots-ai-bench: " << problem << "\n"
            << "usage: hots-ai-bench [--scenario braveheart|bruce|campaign] [--games N] "
               "[--player random|easy|normal|hard] [--against random|easy|normal|hard] "
               "[--seed N] [--max-actions N] [--no-time-cap]\n";
  std::exit(2);
}

struct Tally {
  int games = 0;
  int wins = 0;
  int draws = 0;
  double think_seconds = 0;
  long determinizations = 0;
  long playouts = 0;
  long decisions = 0;
  double max_seconds = 0;
  double max_cpu_seconds = 0;  // the longest decision in CPU time of the thinking thread
};

// The first player's decisions per phase of the view (both sides together): how many, how many
// were searched (at least one determinization), and their CPU time.
struct PhaseTally {
  long decisions = 0;
  long single = 0;  // only one action (undo aside): taken without thinking
  long searched = 0;
  double cpu_seconds = 0;
  double max_cpu_seconds = 0;
};

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

json choose(const std::string& player, core::Game& game, core::Role role, std::mt19937_64& random,
            Tally& tally, bool time_cap, std::map<std::string, PhaseTally>* phases = nullptr) {
  if (player == "random") {
    const auto legal = game.legal_actions(role);
    std::vector<json> pick;
    for (const auto& a : legal) {
      if (a["kind"] != "undo") pick.push_back(a);
    }
    return pick.empty() ? legal[0] : pick[random() % pick.size()];
  }
  const auto view = game.view(role);
  ai::Thinking thinking;
  const auto start = Clock::now();
  const double cpu_start = thread_cpu_seconds();
  auto action =
      ai::choose_action(view, {}, *ai::level_from_name(player), random(), &thinking, time_cap);
  const double spent = std::chrono::duration<double>(Clock::now() - start).count();
  tally.think_seconds += spent;
  tally.max_seconds = std::max(tally.max_seconds, spent);
  const double cpu = thread_cpu_seconds() - cpu_start;
  tally.max_cpu_seconds = std::max(tally.max_cpu_seconds, cpu);
  if (phases) {
    auto& p = (*phases)[view.value("phase", "")];
    ++p.decisions;
    const auto& legal = view.at("legal_actions");
    p.single += std::count_if(legal.begin(), legal.end(),
                              [](const json& a) { return a.value("kind", "") != "undo"; }) == 1;
    p.searched += thinking.determinizations > 0;
    p.cpu_seconds += cpu;
    p.max_cpu_seconds = std::max(p.max_cpu_seconds, cpu);
  }
  tally.determinizations += thinking.determinizations;
  tally.playouts += thinking.playouts;
  ++tally.decisions;
  return action;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--scenario") {
      options.scenario = value();
    } else if (arg == "--games") {
      options.games = std::stoi(value());
    } else if (arg == "--player") {
      options.player = value();
    } else if (arg == "--against") {
      options.against = value();
    } else if (arg == "--seed") {
      options.seed = std::stoull(value());
    } else if (arg == "--no-time-cap") {
      options.time_cap = false;
    } else if (arg == "--max-actions") {
      options.max_actions = std::stoi(value());
    } else {
      usage("unknown argument " + arg);
    }
  }
  for (const auto& p : {options.player, options.against}) {
    if (p != "random" && !ai::level_from_name(p)) usage("unknown player " + p);
  }
  Tally tally[2];  // by the first player's side
  std::map<std::string, PhaseTally> phases;
  std::mt19937_64 random(options.seed);
  for (int g = 0; g < options.games; ++g) {
    core::Seed seed{};
    for (auto& byte : seed) byte = static_cast<std::uint8_t>(random());
    auto setup = hots::module().setup(seed, options.scenario, json::object());
    if (!setup.game) usage(setup.error);
    auto& game = *setup.game;
    const auto first_side = g % 2 == 0 ? core::Role::Scotland : core::Role::England;
    auto& t = tally[core::side_index(first_side)];
    Tally other;
    for (int n = 0; n < options.max_actions && !game.outcome().finished; ++n) {
      const auto role = game.active_roles().at(0);
      const auto action =
          role == first_side
              ? choose(options.player, game, role, random, t, options.time_cap, &phases)
              : choose(options.against, game, role, random, other, options.time_cap);
      if (const auto error = game.apply(role, action)) {
        std::cerr << "illegal action " << action << ": " << error->message << "\n";
        return 1;
      }
    }
    ++t.games;
    const auto outcome = game.outcome();
    if (!outcome.finished || !outcome.winner) {
      ++t.draws;
    } else if (*outcome.winner == first_side) {
      ++t.wins;
    }
    std::cerr << "game " << g + 1 << "/" << options.games
              << " done: " << (outcome.winner ? core::role_name(*outcome.winner) : "none") << " by "
              << outcome.reason << "\n";
  }
  std::cout << "| scenario | " << options.player << " as | against | games | wins | win rate | "
            << "decisions | s/decision (max) | max CPU s | determinizations/s | playouts/s |\n"
            << "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (int side = 0; side < 2; ++side) {
    const auto& t = tally[side];
    if (t.games == 0) continue;
    const double seconds = t.think_seconds > 0 ? t.think_seconds : 1;
    std::cout << "| " << options.scenario << " | " << (side == 0 ? "scotland" : "england") << " | "
              << options.against << " | " << t.games << " | " << t.wins << " | " << std::fixed
              << std::setprecision(0) << 100.0 * t.wins / t.games << "% | " << t.decisions << " | "
              << std::setprecision(3) << seconds / std::max(1L, t.decisions) << " ("
              << t.max_seconds << ") | " << t.max_cpu_seconds << " | " << std::setprecision(0)
              << t.determinizations / seconds << " | " << t.playouts / seconds << " |\n";
  }
  if (options.player == "random") return 0;
  std::cout << "\n| phase | " << options.player << "'s decisions | one action | searched | "
            << "mean CPU s | max CPU s |\n|---|---|---|---|---|---|\n";
  for (const auto& [phase, p] : phases) {
    std::cout << "| " << phase << " | " << p.decisions << " | " << p.single << " | " << p.searched
              << " | " << std::setprecision(4) << p.cpu_seconds / std::max(1L, p.decisions) << " | "
              << p.max_cpu_seconds << " |\n";
  }
}
