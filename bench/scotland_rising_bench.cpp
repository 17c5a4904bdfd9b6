// Scotland Rising engine benchmark: random playouts of the variant board, uniformly among the
// awaited side's legal actions (as tests/rules/scotland_rising/random_games_test.cpp plays).
// Today's figure is in bench/RESULTS.md.

#include <benchmark/benchmark.h>

#include <string>

#include "rules/core/chacha20.h"
#include "rules/core/sha256.h"
#include "rules/scotland_rising/engine.h"

namespace {

using namespace blockfog;

long play_random_game(std::uint64_t game, const scotland_rising::Options& options) {
  const auto seed = core::sha256("sr-bench:" + std::to_string(game));
  auto state = scotland_rising::setup(seed, scotland_rising::variant_board(), options);
  core::ChaCha20Stream chooser(seed, 1);
  long actions = 0;
  while (state.pos.phase != scotland_rising::Phase::GameOver) {
    const auto role = state.pos.side;
    const auto list = scotland_rising::legal_actions(state, role);
    const auto i = chooser.uniform(static_cast<std::uint32_t>(list.size()));
    scotland_rising::apply_legal(state, role, list[i]);
    ++actions;
  }
  return actions;
}

void BM_RandomPlayout(benchmark::State& bench, bool events) {
  scotland_rising::Options options;
  options.battle_events = events;
  std::uint64_t game = 0;
  long actions = 0;
  for (auto _ : bench) actions += play_random_game(game++, options);
  bench.counters["games/s"] =
      benchmark::Counter(static_cast<double>(game), benchmark::Counter::kIsRate);
  bench.counters["actions/s"] =
      benchmark::Counter(static_cast<double>(actions), benchmark::Counter::kIsRate);
  bench.counters["actions/game"] = static_cast<double>(actions) / static_cast<double>(game);
}
BENCHMARK_CAPTURE(BM_RandomPlayout, variant, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_RandomPlayout, variant_events, true)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
