// hots-sim: plays random legal games of Hammer of the Scots on the engine and reports how they
// went. With --check it verifies after every action: the invariants, the exact round trip of
// the state (binary every action, JSON every kFullCheckEvery actions and at the end), undo
// safety, and the fog of war (no view holds a block id its role may not know, RULES 13).

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/hex.h"
#include "rules/core/sha256.h"
#include "rules/hots/binary_state.h"
#include "rules/hots/engine.h"
#include "rules/hots/invariants.h"
#include "rules/hots/legal_cache.h"
#include "rules/hots/serialize.h"
#include "rules/hots/view.h"
#include "tools/common/record.h"
#include "tools/hots-sim/redaction.h"

namespace {

using namespace blockfog;
using nlohmann::json;

struct Options {
  std::vector<int> scenarios;
  std::uint64_t seed = 1;
  int games = 1;
  bool check = false;
  bool schiltroms = false;
  int max_actions = 20000;
  std::string record_path;  // writes the first game's record there
  int first = 0;            // number of the first game (a long run can be split: --first, --games)
  int jobs = 1;             // threads playing games (the results do not depend on it)
  int progress = 0;         // every this many games, the totals so far on stderr
};

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "hots-sim: " << problem << "\n"
            << "usage: hots-sim [--scenario braveheart|bruce|campaign|all] [--seed N] "
               "[--games N] [--check] [--schiltroms] [--max-actions N] [--record FILE] "
               "[--first N] [--jobs N] [--progress N]\n";
  std::exit(2);
}

Options parse_args(int argc, char** argv) {
  Options options;
  std::string scenario = "braveheart";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    try {
      if (arg == "--scenario") {
        scenario = value();
      } else if (arg == "--seed") {
        options.seed = std::stoull(value());
      } else if (arg == "--games") {
        options.games = std::stoi(value());
      } else if (arg == "--max-actions") {
        options.max_actions = std::stoi(value());
      } else if (arg == "--first") {
        options.first = std::stoi(value());
      } else if (arg == "--jobs") {
        options.jobs = std::stoi(value());
      } else if (arg == "--progress") {
        options.progress = std::stoi(value());
      } else if (arg == "--check") {
        options.check = true;
      } else if (arg == "--schiltroms") {
        options.schiltroms = true;
      } else if (arg == "--record") {
        options.record_path = value();
      } else {
        usage("unknown argument " + arg);
      }
    } catch (const std::logic_error&) {
      usage("bad number for " + arg);
    }
  }
  if (options.games < 1) usage("--games must be at least 1");
  if (options.jobs < 1 || options.jobs > 64) usage("--jobs must be 1..64");
  if (options.first < 0) usage("--first must be at least 0");
  if (scenario == "all") {
    for (std::size_t i = 0; i < hots::game_data().scenarios.size(); ++i) {
      options.scenarios.push_back(static_cast<int>(i));
    }
  } else if (auto index = hots::scenario_index(scenario)) {
    options.scenarios.push_back(*index);
  } else {
    usage("unknown scenario " + scenario);
  }
  return options;
}

// Each game's seed is derived from the run's seed, the scenario and the game number, so that a
// failing game can be replayed alone.
core::Seed game_seed(std::uint64_t seed, int scenario, int game) {
  const auto text = "hots-sim:" + std::to_string(seed) + ":" + std::to_string(scenario) + ":" +
                    std::to_string(game);
  return core::sha256(text);
}

struct GameReport {
  std::string stopped_at;  // phase name, or "game_over"
  long actions = 0;
  std::string final_hash;
  std::vector<std::string> errors;
  tools::GameRecord record;
  std::size_t max_legal = 0;
  std::optional<core::Role> winner;
  std::string reason;
};

// How often the expensive checks run: the JSON round trip, and each view written again without
// the memo and compared with the one written with it, and with the dump of its own parse. They
// also run on the first and the last state of every game.
constexpr long kFullCheckEvery = 64;

// Buffers reused from one check to the next, so that checking does not allocate per action.
struct Checker {
  std::array<std::size_t, 3> log_seen{};  // per role, log lines already checked
  std::array<std::string, 3> views;
  std::array<core::ViewMemo, 3> memos;  // per role, as the server keeps them
  std::string plain;                    // a view written without a memo
  std::string bytes;
};

// Verifies one state; returns problems found. After every action: the invariants, the binary
// round trip and the redaction of the three views (each log line checked once, when new). Every
// kFullCheckEvery actions, and when `full`: the JSON round trip, and each view as written from
// the memo == as written without it == the dump of its parse.
std::vector<std::string> check_state(const hots::State& s, Checker& checker, bool full) {
  auto problems = hots::check_invariants(s);
  hots::encode_state(s, checker.bytes);
  if (!(hots::decode_state(checker.bytes) == s)) {
    problems.push_back("binary round trip changed the state");
  }
  if (full && !(hots::state_from_json(hots::to_json(s)) == s)) {
    problems.push_back("JSON round trip changed the state");
  }
  for (core::Role role : {core::Role::Scotland, core::Role::England, core::Role::Observer}) {
    const auto r = static_cast<int>(role);
    auto& text = checker.views[r];
    const auto log_from = checker.log_seen[r];
    checker.log_seen[r] = hots::write_view(s, role, log_from, text, nullptr, &checker.memos[r]);
    if (full) {
      hots::write_view(s, role, log_from, checker.plain);
      if (text != checker.plain) {
        problems.push_back(std::string(core::role_name(role)) +
                           " view written from the memo differs from the view written afresh");
      }
      const auto parsed = nlohmann::json::parse(text, nullptr, false);
      if (parsed.is_discarded() || parsed.dump() != text) {
        problems.push_back(std::string(core::role_name(role)) +
                           " view is not the dump of its own JSON parse");
      }
    }
    for (auto& leak : tools::find_leaks(s, role, text)) problems.push_back(std::move(leak));
  }
  return problems;
}

// Undo safety: an undo must bring back exactly the state its undo point was taken in (game
// facts and log), and undo points must disappear whenever something random or hidden came out.
void check_undo(const hots::State& before, const hots::State& after, const hots::Action& action,
                std::vector<hots::State>& shadow, std::vector<std::string>& errors) {
  if (action.kind == hots::ActionKind::Undo) {
    if (shadow.empty()) {
      errors.push_back("undo with no recorded undo point");
      return;
    }
    const auto& expected = shadow.back();
    if (!(static_cast<const hots::Position&>(after) == expected) || after.log != expected.log) {
      errors.push_back("undo did not restore the state of its undo point");
    }
    shadow.pop_back();
    return;
  }
  if (after.undo.size() == before.undo.size() + 1) {
    shadow.push_back(before);
  } else if (after.undo.empty()) {
    shadow.clear();
  }
  if (shadow.size() != after.undo.size()) errors.push_back("undo history out of step");
}

GameReport play_game(const Options& options, int scenario, int game) {
  GameReport report;
  const auto seed = game_seed(options.seed, scenario, game);
  auto state = hots::setup(seed, scenario, hots::Options{options.schiltroms});
  report.record.scenario = hots::game_data().scenarios[scenario].id;
  report.record.options = {{"schiltroms", options.schiltroms}};
  report.record.seed = seed;
  // The players' choices come from a stream of their own, apart from the game's dice.
  core::ChaCha20Stream chooser(seed, 1);
  Checker checker;
  std::vector<std::pair<core::Role, hots::Action>> actions;
  std::vector<hots::State> undo_shadow;  // the state before each action undo may take back
  if (options.check) report.errors = check_state(state, checker, true);
  std::vector<std::pair<core::Role, hots::Action>> choices;  // both sides' actions, reused
  // The lists come through a LegalCache, as playouts take them; --check compares them with
  // fresh ones, and the state the cache's apply makes with the checked apply's.
  hots::LegalCache cache;
  hots::ActionList fresh;
  while (report.errors.empty() && report.actions < options.max_actions) {
    choices.clear();
    for (core::Role role : {core::Role::Scotland, core::Role::England}) {
      const auto& legal = hots::legal_actions(state, role, cache);
      if (options.check) {
        hots::legal_actions(state, role, fresh);
        if (!(legal == fresh)) {
          report.errors.push_back("cached legal actions differ for " +
                                  std::string(core::role_name(role)));
        }
      }
      for (const auto& a : legal) choices.emplace_back(role, a);
      report.max_legal = std::max(report.max_legal, choices.size());
    }
    if (choices.empty()) break;
    const auto& [role, action] =
        choices[chooser.uniform(static_cast<std::uint32_t>(choices.size()))];
    actions.emplace_back(role, action);
    if (options.check) {
      const hots::State before = state;
      hots::State checked = state;
      if (auto error = hots::apply(checked, role, action)) {
        report.errors.push_back("legal action refused: " + error->message);
        break;
      }
      hots::apply_legal(state, role, action, cache);
      if (!(checked == state)) report.errors.push_back("apply through the cache differs");
      check_undo(before, state, action, undo_shadow, report.errors);
    } else {
      hots::apply_legal(state, role, action, cache);  // it came from legal_actions just now
    }
    ++report.actions;
    if (options.check) {
      const bool full =
          report.actions % kFullCheckEvery == 0 || state.phase == hots::Phase::GameOver;
      report.errors = check_state(state, checker, full);
    }
  }
  // The record is written in JSON only when someone may read it.
  if (options.check || !options.record_path.empty()) {
    for (const auto& [role, action] : actions) {
      report.record.actions.push_back({role, hots::action_to_json(action), std::nullopt});
    }
  }
  report.stopped_at = report.actions >= options.max_actions
                          ? "step_cap"
                          : std::string(hots::phase_name(state.phase));
  const auto result = hots::outcome(state);
  report.winner = result.winner;
  report.reason = result.reason;
  report.final_hash = hots::state_hash(state);
  return report;
}

// What the run found so far; reports are added in game order, so the digest does not depend on
// how many threads played them.
struct Totals {
  long actions = 0;
  int games = 0;
  int finished = 0;
  int errors = 0;
  int stuck = 0;
  std::size_t max_legal = 0;
  std::map<std::string, int> stopped;
  std::map<std::string, int> wins;
  std::map<std::string, int> endings;
  core::Sha256 digest;

  void add(const GameReport& report) {
    ++games;
    actions += report.actions;
    max_legal = std::max(max_legal, report.max_legal);
    ++stopped[report.stopped_at];
    if (report.stopped_at == "game_over") {
      ++finished;
      ++wins[report.winner ? std::string(core::role_name(*report.winner)) : "none"];
      ++endings[report.reason];
    } else {
      ++stuck;  // the step cap, or nobody had a legal action
    }
    errors += !report.errors.empty();
    digest.update(report.final_hash);
  }

  json summary(bool checked, double seconds) const {
    core::Sha256 copy = digest;  // the running digest goes on
    return {{"games", games},
            {"finished", finished},
            {"stuck", stuck},
            {"stopped_at", stopped},
            {"errors", errors},
            {"actions", actions},
            {"max_legal_actions", max_legal},
            {"wins", wins},
            {"endings", endings},
            {"checked", checked},
            {"seconds", seconds},
            {"games_per_sec", seconds > 0 ? games / seconds : 0.0},
            {"digest", core::to_hex(copy.finish())}};
  }
};

// Plays games [first, first + count) of `scenario` on `jobs` threads; reports in game order.
std::vector<GameReport> play_games(const Options& options, int scenario, int first, int count) {
  std::vector<GameReport> reports(static_cast<std::size_t>(count));
  std::atomic<int> next{0};
  auto work = [&] {
    for (int i = next++; i < count; i = next++) {
      reports[static_cast<std::size_t>(i)] = play_game(options, scenario, first + i);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < options.jobs; ++t) threads.emplace_back(work);
  work();
  for (auto& thread : threads) thread.join();
  return reports;
}

}  // namespace

int main(int argc, char** argv) {
  const auto options = parse_args(argc, argv);
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  Totals totals;
  for (int scenario : options.scenarios) {
    const auto& name = hots::game_data().scenarios[scenario].id;
    // Chunks of games, so that a long run keeps only a few records in memory.
    const int chunk = 8 * options.jobs;
    const int end = options.first + options.games;
    for (int first = options.first; first < end; first += chunk) {
      const auto reports = play_games(options, scenario, first, std::min(chunk, end - first));
      for (std::size_t i = 0; i < reports.size(); ++i) {
        const auto& report = reports[i];
        const int game = first + static_cast<int>(i);
        totals.add(report);
        if (!options.record_path.empty() && totals.games == 1) {
          std::ofstream(options.record_path)
              << tools::record_to_json(report.record).dump(1) << "\n";
        }
        if (!report.errors.empty()) {
          std::cerr << "FAILED " << name << " seed " << options.seed << " game " << game << ":\n";
          for (const auto& e : report.errors) std::cerr << "  " << e << "\n";
          std::cerr << "  record (replay with hots-replay): "
                    << tools::record_to_json(report.record).dump() << "\n";
        }
        if (options.games == 1) {
          std::cout << name << " game " << game << ": stopped at " << report.stopped_at << " after "
                    << report.actions << " actions"
                    << (report.stopped_at == "game_over" ? " (" + report.reason + ")" : "")
                    << "; final state " << report.final_hash.substr(0, 16) << "\n";
        }
        if (options.progress > 0 && totals.games % options.progress == 0) {
          std::cerr << "progress " << name << " " << game + 1 << ": "
                    << totals.summary(options.check, elapsed()).dump() << std::endl;
        }
      }
    }
  }
  std::cout << totals.summary(options.check, elapsed()).dump() << "\n";
  return totals.errors == 0 ? 0 : 1;
}
