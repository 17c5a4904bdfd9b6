// Random complete games (the engine contract, docs/architecture.md): every offered action is
// applied, the invariants hold after each, nobody is ever stuck, every game ends after turn 15
// (R12), and a game's seed and actions reproduce it exactly. SCOTLAND_RISING_GAMES=N plays N
// games instead of 300 and prints the digest of them all (docs/scotland-rising.md records the
// 10,000-game digest).

#include <cstdlib>
#include <iostream>
#include <random>

#include <gtest/gtest.h>

#include "rules/core/hex.h"
#include "rules/core/sha256.h"
#include "rules/scotland_rising/module.h"
#include "rules/scotland_rising/serialize.h"
#include "tests/rules/scotland_rising/sr_fixture.h"

namespace blockfog::scotland_rising::testing {
namespace {

struct Summary {
  int scots_wins = 0, english_wins = 0, draws = 0;
  long actions = 0;
  std::string digest_input;
};

Options options_of_game(int game) {
  Options o;
  o.longbows_vs_schiltron = game % 2 == 1;
  o.battle_events = game % 3 != 0;
  o.solitaire_events = game % 3 == 2;
  o.freeform_setup = game % 5 == 4;
  return o;
}

// Plays game `game` to its end; returns false (with a test failure) if anything broke.
bool play(int game, Summary& sum) {
  const auto seed = core::sha256("sr random " + std::to_string(game));
  State s = setup(seed, variant_board(), options_of_game(game));
  std::mt19937 chooser(static_cast<unsigned>(game));
  constexpr int kMaxActions = 40000;
  int n = 0;
  for (; n < kMaxActions && s.pos.phase != Phase::GameOver; ++n) {
    const auto roles = active_roles(s);
    if (roles.size() != 1) {
      ADD_FAILURE() << "game " << game << ": " << roles.size() << " roles awaited";
      return false;
    }
    const auto actions = legal_actions(s, roles[0]);
    if (actions.empty()) {
      ADD_FAILURE() << "game " << game << " is stuck at action " << n;
      return false;
    }
    if (!legal_actions(s, other_side(roles[0])).empty()) {
      ADD_FAILURE() << "game " << game << ": the side not awaited has actions";
      return false;
    }
    const auto& a = actions[chooser() % actions.size()];
    if (const auto refused = apply(s, roles[0], a)) {
      ADD_FAILURE() << "game " << game << ": offered " << action_to_json(*s.data, a).dump()
                    << " refused: " << refused->message;
      return false;
    }
    const auto broken = check_invariants(s);
    if (!broken.empty()) {
      ADD_FAILURE() << "game " << game << " after " << action_to_json(*s.data, a).dump() << ": "
                    << broken.front();
      return false;
    }
    if (s.pos.turn > 15) {
      ADD_FAILURE() << "game " << game << " went past turn 15";
      return false;
    }
  }
  if (s.pos.phase != Phase::GameOver || s.pos.turn != 15) {
    ADD_FAILURE() << "game " << game << " did not end after turn 15";
    return false;
  }
  const auto out = outcome(s);
  if (!out.winner) {
    ++sum.draws;
  } else if (*out.winner == Role::Scotland) {
    ++sum.scots_wins;
  } else {
    ++sum.english_wins;
  }
  sum.actions += n;
  sum.digest_input += state_hash(s);
  return true;
}

int games_to_play() {
  const char* env = std::getenv("SCOTLAND_RISING_GAMES");
  return env ? std::atoi(env) : 300;
}

TEST(RandomGames, EveryRandomGameEndsAfterTurnFifteenWithSoundStatesThroughout) {
  const int games = games_to_play();
  Summary sum;
  for (int g = 0; g < games; ++g) {
    if (!play(g, sum)) break;
  }
  const auto digest = core::to_hex(core::sha256(sum.digest_input));
  std::cout << "scotland rising: " << games << " random games, " << sum.actions
            << " actions; Scotland won " << sum.scots_wins << ", England " << sum.english_wins
            << ", drawn " << sum.draws << "; digest " << digest << "\n";
  EXPECT_EQ(sum.scots_wins + sum.english_wins + sum.draws, games);
}

// Replays the random game's own actions through the module's JSON boundary: the same seed,
// scenario, options and actions give the same states, hashes, round trips and copies.
TEST(RandomGames, SeedScenarioOptionsAndActionsReproduceEveryState) {
  for (int game = 0; game < 4; ++game) {
    const auto seed = core::sha256("sr replay " + std::to_string(game));
    const auto options = options_to_json(options_of_game(game));
    auto a = module().setup(seed, "bannockburn_variant", options).game;
    auto b = module().setup(seed, "bannockburn_variant", options).game;
    ASSERT_TRUE(a && b);
    std::mt19937 chooser(static_cast<unsigned>(game) + 100);
    for (int n = 0; n < 3000 && !a->outcome().finished; ++n) {
      const Role role = a->active_roles().front();
      const auto list = a->legal_actions(role);
      ASSERT_FALSE(list.empty());
      const auto action = list[chooser() % list.size()];
      auto copy = a->clone();
      ASSERT_FALSE(a->apply(role, action)) << action.dump();
      ASSERT_FALSE(b->apply(role, action)) << action.dump();
      ASSERT_FALSE(copy->apply(role, action)) << action.dump();
      if (n % 10 == 0) {
        const auto hash = a->state_hash();
        ASSERT_EQ(hash, b->state_hash());
        ASSERT_EQ(hash, copy->state_hash());
      }
      if (n % 50 == 0) {
        const auto restored = module().from_json(a->to_json());
        ASSERT_TRUE(restored.game) << restored.error;
        ASSERT_EQ(restored.game->to_json(), a->to_json());
        ASSERT_EQ(restored.game->state_hash(), a->state_hash());
      }
    }
  }
}

}  // namespace
}  // namespace blockfog::scotland_rising::testing
