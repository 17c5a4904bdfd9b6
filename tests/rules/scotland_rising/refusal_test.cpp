// apply accepts exactly the legal actions (any legal path to an offered destination) and leaves
// the state unchanged when it refuses: checked with mutated actions along random games.

#include <random>
#include <set>

#include <gtest/gtest.h>

#include "rules/core/sha256.h"
#include "tests/rules/scotland_rising/sr_fixture.h"

namespace blockfog::scotland_rising::testing {
namespace {

// What identifies an action apart from the path it takes: its JSON form (which has only the
// fields of its type) with the path replaced by its destination.
std::string key_of(const Data& d, const Action& a) {
  auto j = action_to_json(d, a);
  if (j.contains("path")) j["path"] = a.path.empty() ? json() : json(a.path.back());
  return j.dump();
}

Action mutate(const Action& a, const Data& d, std::mt19937& gen) {
  Action m = a;
  const int units = static_cast<int>(d.units.size());
  switch (gen() % 7) {
    case 6:  // out of range, or missing
      m.unit = static_cast<int>(gen() % 3) - 2 + (gen() % 2 ? units + 1 : 0);
      m.hex = static_cast<int>(gen() % 3) - 2 + (gen() % 2 ? d.hex_count() + 1 : 0);
      break;
    case 0:
      m.unit = static_cast<int>(gen() % units);
      break;
    case 1:
      m.hex = static_cast<int>(gen() % d.hex_count());
      break;
    case 2:
      if (!m.path.empty()) m.path.back() = static_cast<int>(gen() % d.hex_count());
      break;
    case 3:
      m.path.push_back(d.adjacent[m.path.empty() ? 0 : m.path.back()][0]);
      break;
    case 4:
      if (!m.path.empty()) m.path.pop_back();
      break;
    default:
      m.type = static_cast<ActionType>(gen() % 15);
      m.leader = static_cast<int>(gen() % units);
      if (m.unit < 0) m.unit = static_cast<int>(gen() % units);
      break;
  }
  return m;
}

TEST(Refusals, ApplyAcceptsOnlyOfferedActionsAndLeavesARefusedStateUnchanged) {
  std::mt19937 gen(11);
  int accepted_variants = 0, refused = 0;
  for (int game = 0; game < 6; ++game) {
    Options options;
    options.battle_events = true;
    options.solitaire_events = game % 2 == 0;
    State s = setup(core::sha256("refusals " + std::to_string(game)), variant_board(), options);
    for (int n = 0; n < 4000 && s.pos.phase != Phase::GameOver; ++n) {
      const Role role = s.pos.side;
      const auto actions = legal_actions(s, role);
      std::set<std::string> keys;
      for (const auto& a : actions) keys.insert(key_of(*s.data, a));
      for (int t = 0; t < 3; ++t) {
        const Action m = mutate(actions[gen() % actions.size()], *s.data, gen);
        State copy = s;
        const auto refusal = apply(copy, role, m);
        if (refusal) {
          ++refused;
          ASSERT_EQ(copy.pos, s.pos) << action_to_json(*s.data, m).dump();
          ASSERT_EQ(copy.log, s.log);
          ASSERT_EQ(copy.undo.size(), s.undo.size());
        } else {
          ASSERT_TRUE(keys.count(key_of(*s.data, m)))
              << "accepted but not offered: " << action_to_json(*s.data, m).dump();
          ++accepted_variants;
        }
      }
      State other = s;  // the side not awaited is refused
      ASSERT_TRUE(apply(other, other_side(role), actions.front()));
      ASSERT_FALSE(apply(s, role, actions[gen() % actions.size()]));
    }
  }
  EXPECT_GT(refused, 1000);
  EXPECT_GT(accepted_variants, 0);
}

}  // namespace
}  // namespace blockfog::scotland_rising::testing
