#pragma once

// Decisions of a given phase, found in seeded random games played on the typed engine (fast
// enough to reach phases that random games rarely reach, such as border raids, RULES 9).

#include <cstdint>
#include <random>

#include "rules/core/game.h"
#include "rules/hots/engine.h"
#include "rules/hots/module.h"
#include "rules/hots/serialize.h"

namespace blockfog::ai::test_decisions {

// Calls visit(game, role) at each decision of `phase` where the awaited seat has more than one
// action (undo aside), in random games of `scenario` from seeds 1, 2, ..., until visit returns
// false or `games` games were played.
template <typename Visit>
void visit_decisions(hots::Phase phase, int scenario, int games, Visit visit) {
  hots::ActionList list;
  for (int g = 1; g <= games; ++g) {
    core::Seed seed{};
    seed[0] = static_cast<std::uint8_t>(g);
    seed[1] = static_cast<std::uint8_t>(g >> 8);
    auto s = hots::setup(seed, scenario, hots::Options{});
    std::mt19937_64 random(static_cast<std::uint64_t>(g));
    for (int i = 0; i < 6000 && !hots::outcome(s).finished; ++i) {
      const auto role = hots::active_roles(s).at(0);
      hots::legal_actions(s, role, list);
      std::size_t forward = list.size();
      if (forward > 0 && list[forward - 1].kind == hots::ActionKind::Undo) --forward;
      if (forward == 0) break;
      if (s.phase == phase && forward > 1) {
        auto made = hots::module().from_json(hots::to_json(s));
        if (made.game && !visit(*made.game, role)) return;
      }
      hots::apply_legal(s, role, list[random() % forward]);
    }
  }
}

}  // namespace blockfog::ai::test_decisions
