#include <algorithm>

#include "rules/hots/engine.h"
#include "rules/hots/fixed_list.h"
#include "rules/hots/phases.h"

// Scenario set-up: RULES 2.1.

namespace blockfog::hots {
namespace {

void place_blocks(State& s, const ScenarioInfo& scenario) {
  const auto& data = game_data();
  for (const auto& side : scenario.sides) {
    for (const auto& p : side.on_map) {
      s.blocks.set(
          p.block,
          BlockState{p.area, static_cast<std::uint8_t>(data.blocks[p.block].max_strength)});
    }
    for (auto b : side.draw_pool) s.blocks.set(b, BlockState{kPool, 0});
    for (auto b : side.not_in_play) s.blocks.set(b, BlockState{kNotInPlay, 0});
    for (auto b : side.dead) s.blocks.set(b, BlockState{kDead, 0});
  }
}

// RULES 2.1.2.3: the English initial levy, drawn at random from the English pool. Which blocks
// came is England's secret; Scotland learns only how many (RULES 13.3, 10.13.3).
void initial_levy(State& s, int count) {
  const auto& data = game_data();
  PoolList pool;
  for (int b = 0; b < kBlockCount; ++b) {
    if (s.blocks.loc[b] == kPool && data.blocks[b].owner == Side::England) pool.push_back(b);
  }
  int drawn = 0;
  for (; drawn < count && !pool.empty(); ++drawn) {
    const int b = s.rng.pick(pool.items());
    pool.erase_value(b);
    s.blocks.set(b,
                 BlockState{data.england, static_cast<std::uint8_t>(data.blocks[b].max_strength)});
    detail::add_log(s, LogKind::LevyBlock, Audience::EnglandOnly, b, data.england);
  }
  detail::add_log(s, LogKind::LevyCount, Audience::NotEngland, 0, data.england, 0, drawn);
}

}  // namespace

std::optional<int> scenario_index(std::string_view id) {
  if (id == "bruce") id = "the_bruce";
  return game_data().scenario_by_id(id);
}

State setup(const core::Seed& seed, int scenario_id, const Options& options,
            std::vector<core::ScriptedOutcome> script) {
  const auto& scenario = game_data().scenarios.at(static_cast<std::size_t>(scenario_id));
  State s;
  s.rng = core::Rng(seed);
  s.rng.script(std::move(script));
  s.scenario = static_cast<std::uint8_t>(scenario_id);
  s.schiltroms = options.schiltroms;  // RULES 2.1.3
  s.border_use.fill(kNone);
  place_blocks(s, scenario);
  initial_levy(s, scenario.initial_levy);
  // RULES 2.1.2.4
  s.year = static_cast<std::uint16_t>(scenario.start_year);
  s.edward_ii = false;
  s.edward_wintered_last = false;
  s.king_crowned = scenario.king_crowned;
  s.french_knights_added = false;
  detail::start_year(s);  // RULES 2.1.2.5
  return s;
}

}  // namespace blockfog::hots
