// Engine benchmarks (issue: random-playout throughput and per-action costs). Run through
// bench/run.sh on the release preset; today's figures are in bench/RESULTS.md.

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "rules/core/chacha20.h"
#include "rules/core/sha256.h"
#include "rules/core/view_layout.h"
#include "rules/hots/engine.h"
#include "rules/hots/legal_cache.h"
#include "rules/hots/view.h"

namespace {

using namespace blockfog;

// The lists kept between decisions, reused from game to game (its capacity is kept).
hots::LegalCache& playout_cache() {
  static hots::LegalCache cache;
  return cache;
}

// One random legal game: uniformly among both sides' legal actions, as hots-sim plays. The
// index is drawn over Scotland's list followed by England's (the order hots-sim combines them
// in) and read from the list it falls in, so the same games are played without copying both
// lists into one.
long play_random_game(int scenario, std::uint64_t game) {
  const auto seed = core::sha256("bench:" + std::to_string(game));
  auto state = hots::setup(seed, scenario, hots::Options{});
  core::ChaCha20Stream chooser(seed, 1);
  hots::LegalCache& cache = playout_cache();
  cache.reset();
  long actions = 0;
  while (state.phase != hots::Phase::GameOver) {
    const auto& scotland = hots::legal_actions(state, core::Role::Scotland, cache);
    const auto& england = hots::legal_actions(state, core::Role::England, cache);
    const auto total = scotland.size() + england.size();
    if (total == 0) break;
    const std::size_t i = chooser.uniform(static_cast<std::uint32_t>(total));
    if (i < scotland.size()) {
      hots::apply_legal(state, core::Role::Scotland, scotland[i], cache);
    } else {
      hots::apply_legal(state, core::Role::England, england[i - scotland.size()], cache);
    }
    ++actions;
  }
  return actions;
}

void BM_RandomPlayout(benchmark::State& bench, const char* scenario) {
  const int index = *hots::scenario_index(scenario);
  std::uint64_t game = 0;
  long actions = 0;
  for (auto _ : bench) actions += play_random_game(index, game++);
  bench.counters["games/s"] =
      benchmark::Counter(static_cast<double>(game), benchmark::Counter::kIsRate);
  bench.counters["actions/s"] =
      benchmark::Counter(static_cast<double>(actions), benchmark::Counter::kIsRate);
  bench.counters["actions/game"] = static_cast<double>(actions) / static_cast<double>(game);
}
BENCHMARK_CAPTURE(BM_RandomPlayout, braveheart, "braveheart")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_RandomPlayout, bruce, "bruce")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_RandomPlayout, campaign, "campaign")->Unit(benchmark::kMillisecond);

// Every `every`-th state met along `games` random Braveheart games (seeded from `name`), with
// the role to act there.
std::vector<std::pair<hots::State, core::Role>> states_along_games(const std::string& name,
                                                                   std::uint64_t games, int every) {
  std::vector<std::pair<hots::State, core::Role>> out;
  for (std::uint64_t game = 0; game < games; ++game) {
    const auto seed = core::sha256(name + std::to_string(game));
    auto state = hots::setup(seed, 0, hots::Options{});
    core::ChaCha20Stream chooser(seed, 1);
    for (int step = 0; state.phase != hots::Phase::GameOver; ++step) {
      const auto roles = hots::active_roles(state);
      if (roles.empty()) break;
      const auto role = roles.front();
      const auto legal = hots::legal_actions(state, role);
      if (step % every == 0) out.emplace_back(state, role);
      hots::apply_legal(state, role,
                        legal[chooser.uniform(static_cast<std::uint32_t>(legal.size()))]);
    }
  }
  return out;
}

// States met along random Braveheart games, to time single operations on realistic positions.
const std::vector<std::pair<hots::State, core::Role>>& sample_states() {
  static const auto samples = states_along_games("bench-sample:", 4, 7);
  return samples;
}

void BM_LegalActions(benchmark::State& bench) {
  const auto& samples = sample_states();
  std::size_t i = 0;
  hots::ActionList legal;
  for (auto _ : bench) {
    const auto& [state, role] = samples[i++ % samples.size()];
    hots::legal_actions(state, role, legal);
    benchmark::DoNotOptimize(legal);
  }
}
BENCHMARK(BM_LegalActions);

void BM_ApplyChecked(benchmark::State& bench) {
  const auto& samples = sample_states();
  std::size_t i = 0;
  for (auto _ : bench) {
    bench.PauseTiming();
    auto [state, role] = samples[i++ % samples.size()];
    const auto action = hots::legal_actions(state, role).front();
    bench.ResumeTiming();
    benchmark::DoNotOptimize(hots::apply(state, role, action));
  }
}
BENCHMARK(BM_ApplyChecked);

void BM_View(benchmark::State& bench) {
  const auto& samples = sample_states();
  std::size_t i = 0;
  for (auto _ : bench) {
    const auto& [state, role] = samples[i++ % samples.size()];
    // A connected client gets the view with only the log lines it has not seen yet.
    benchmark::DoNotOptimize(hots::view(state, role, state.log.size()).dump());
  }
}
BENCHMARK(BM_View);

// The same view as text, into a buffer reused from call to call, as the server can send it.
void BM_ViewText(benchmark::State& bench) {
  const auto& samples = sample_states();
  std::size_t i = 0;
  std::string text;
  for (auto _ : bench) {
    const auto& [state, role] = samples[i++ % samples.size()];
    benchmark::DoNotOptimize(hots::write_view(state, role, state.log.size(), text));
  }
}
BENCHMARK(BM_ViewText);

// The whole log, as a client gets it when it (re)connects.
void BM_ViewTextFullLog(benchmark::State& bench) {
  const auto& samples = sample_states();
  std::size_t i = 0;
  std::string text;
  for (auto _ : bench) {
    const auto& [state, role] = samples[i++ % samples.size()];
    benchmark::DoNotOptimize(hots::write_view(state, role, 0, text));
  }
}
BENCHMARK(BM_ViewTextFullLog);

// Finding the parts of a view in its text (core::scan_view_layout), as modules without a
// layout-recording writer do with every view: arg 0 the view with no log lines, arg 1 with the
// whole log (long strings).
void BM_ScanViewLayout(benchmark::State& bench) {
  const auto& samples = sample_states();
  std::vector<std::string> texts;
  for (const auto& [state, role] : samples) {
    std::string text;
    hots::write_view(state, role, bench.range(0) != 0 ? 0 : state.log.size(), text);
    texts.push_back(std::move(text));
  }
  std::size_t i = 0;
  std::size_t bytes = 0;
  core::ViewLayout layout;
  for (auto _ : bench) {
    const auto& text = texts[i++ % texts.size()];
    benchmark::DoNotOptimize(core::scan_view_layout(text, layout));
    bytes += text.size();
  }
  bench.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_ScanViewLayout)->Arg(0)->Arg(1);

// The states of one random Braveheart game, in order: what a game's views are written from,
// one action after another.
const std::vector<std::pair<hots::State, core::Role>>& consecutive_states() {
  static const auto states = states_along_games("bench-consecutive:", 1, 1);
  return states;
}

// Both sides' views after each action of a game, as the server writes them (each with its
// layout, its lines found from the log's end with the readable counts the game keeps, counted
// here before timing): with each role's memo of area texts (arg 1) or without (arg 0). Per
// state: two views.
void BM_ViewTextAfterEachAction(benchmark::State& bench) {
  const auto& states = consecutive_states();
  std::vector<hots::ReadableCounts> readable;
  for (const auto& [state, role] : states) readable.push_back(hots::count_readable(state));
  const bool memo = bench.range(0) != 0;
  core::ViewMemo scotland;
  core::ViewMemo england;
  std::size_t i = 0;
  std::string text;
  core::ViewLayout layout;
  for (auto _ : bench) {
    const std::size_t at = i++ % states.size();
    const auto& state = states[at].first;
    const auto log = state.log.size();
    benchmark::DoNotOptimize(hots::write_view(state, core::Role::Scotland, log, text, &layout,
                                              memo ? &scotland : nullptr, &readable[at]));
    benchmark::DoNotOptimize(hots::write_view(state, core::Role::England, log, text, &layout,
                                              memo ? &england : nullptr, &readable[at]));
  }
}
BENCHMARK(BM_ViewTextAfterEachAction)->Arg(0)->Arg(1);

void BM_StateCopy(benchmark::State& bench) {
  const auto& samples = sample_states();
  std::size_t i = 0;
  for (auto _ : bench) {
    hots::Position copy = samples[i++ % samples.size()].first;
    benchmark::DoNotOptimize(copy);
  }
}
BENCHMARK(BM_StateCopy);

}  // namespace

BENCHMARK_MAIN();
