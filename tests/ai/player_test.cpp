// The computer opponent (ai/player.h): honest (its choice depends on the view only), legal,
// and able to play a whole game.

#include <gtest/gtest.h>

#include <algorithm>

#include "ai/determinize.h"
#include "ai/player.h"
#include "rules/hots/engine.h"
#include "rules/hots/module.h"
#include "tests/ai/decisions.h"

namespace blockfog::ai {
namespace {

using nlohmann::json;

std::unique_ptr<core::Game> new_game(std::uint8_t seed_byte) {
  core::Seed seed{};
  seed[0] = seed_byte;
  auto result = hots::module().setup(seed, "braveheart", json::object());
  return std::move(result.game);
}

// Plays seeded random actions until the awaited seat's view satisfies `wanted`.
template <typename Wanted>
core::Role advance_to(core::Game& game, Random& random, Wanted wanted) {
  for (int i = 0; i < 3000 && !game.outcome().finished; ++i) {
    const auto role = game.active_roles().at(0);
    const auto view = game.view(role);
    if (wanted(view)) return role;
    auto actions = game.legal_actions(role);
    json pick = actions[random() % actions.size()];
    if (pick["kind"] == "undo") pick = actions[0];
    EXPECT_FALSE(game.apply(role, pick));
  }
  ADD_FAILURE() << "the wanted view was not reached";
  return core::Role::Scotland;
}

// Until the awaited seat's view is one the sampler rebuilds in the move phase.
core::Role advance_to_move(core::Game& game, Random& random) {
  return advance_to(game, random, [](const json& view) {
    return view["phase"] == "move" && can_determinize(view) && view["legal_actions"].size() > 3;
  });
}

// A second true state behind the same view of `role`: two enemy blocks on the map in different
// areas, neither revealed in a battle, swap places with their strengths. Empty when the game
// holds no such pair.
json swapped_hidden_blocks(const core::Game& game, core::Role role) {
  const auto enemy = role == core::Role::Scotland ? "eng_" : "sco_";
  const auto view = game.view(role);
  std::string battle_area;
  if (view.contains("battle") && view["battle"].is_object()) battle_area = view["battle"]["area"];
  auto state = game.to_json();
  auto& blocks = state["position"]["blocks"];
  std::string first;
  std::string second;
  for (const auto& [id, row] : blocks.items()) {
    if (id.rfind(enemy, 0) != 0 || !row[0].is_string() || row[6] == true) continue;
    const std::string loc = row[0];
    if (loc == "pool" || loc == "dead" || loc == "not_in_play" || loc == battle_area) continue;
    if (first.empty()) {
      first = id;
    } else if (blocks[first][0] != loc && blocks[first][1] != row[1]) {
      second = id;
      break;
    }
  }
  if (second.empty()) return json();
  std::swap(blocks[first], blocks[second]);
  return state;
}

TEST(AiHonesty, SameViewFromDifferentHiddenBlocksGivesTheSameChoice) {
  auto game = new_game(3);
  Random random(5);
  const auto role = advance_to_move(*game, random);
  const auto state = swapped_hidden_blocks(*game, role);
  ASSERT_FALSE(state.is_null());
  auto other = hots::module().from_json(state);
  ASSERT_TRUE(other.game) << other.error;
  ASSERT_NE(other.game->state_hash(), game->state_hash());
  const auto view = game->view(role);
  ASSERT_EQ(other.game->view(role), view);

  for (const auto level : {Level::Easy, Level::Normal, Level::Hard}) {
    Thinking thinking;
    const auto a = choose_action(view, {}, level, 11, &thinking, false);
    const auto b = choose_action(other.game->view(role), {}, level, 11, nullptr, false);
    EXPECT_EQ(a, b);
    EXPECT_GT(thinking.determinizations, 0);
  }
}

// Hard searches a combat turn (RULES 5.5-5.6: fire, pass or retreat) on determinizations too,
// and its choice there depends on the view only.
TEST(AiHonesty, HardSearchesACombatTurnFromTheViewOnly) {
  int checked = 0;
  for (std::uint8_t seed = 1; seed < 30 && checked < 2; ++seed) {
    auto game = new_game(seed);
    Random random(seed);
    const auto role = advance_to(*game, random, [](const json& view) {
      return view["phase"] == "combat" && view["battle"]["hits_to_allocate"] == 0 &&
             view["legal_actions"].size() > 2;
    });
    if (game->outcome().finished) continue;
    const auto state = swapped_hidden_blocks(*game, role);
    if (state.is_null()) continue;
    auto other = hots::module().from_json(state);
    ASSERT_TRUE(other.game) << other.error;
    ASSERT_NE(other.game->state_hash(), game->state_hash());
    const auto view = game->view(role);
    ASSERT_EQ(other.game->view(role), view);
    Thinking thinking;
    const auto a = choose_action(view, {}, Level::Hard, 11, &thinking, false);
    const auto b = choose_action(other.game->view(role), {}, Level::Hard, 11, nullptr, false);
    EXPECT_EQ(a, b);
    EXPECT_GT(thinking.determinizations, 0);
    EXPECT_GT(thinking.playouts, 0);
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

// Hard searches a decision of `phase` (RULES 5.7 hit allocation, 5.11.3 the retreat after the
// third round, 5.12 regroups, 9 border raids, 10 winter, 7 events, 5.1 the choice of a battle)
// on determinizations, and its choice there depends on the view only: in seeded random games,
// the first `wanted` decisions of that phase with a choice to make and two hidden enemy blocks
// to swap give the same action from both true states, after a search (samples and playouts).
void expect_hard_searches_from_the_view_only(hots::Phase phase, int wanted, int scenario = 0) {
  int checked = 0;
  test_decisions::visit_decisions(phase, scenario, 300, [&](core::Game& game, core::Role role) {
    const auto state = swapped_hidden_blocks(game, role);
    if (state.is_null()) return true;
    auto other = hots::module().from_json(state);
    EXPECT_TRUE(other.game) << other.error;
    if (!other.game) return false;
    EXPECT_NE(other.game->state_hash(), game.state_hash());
    const auto view = game.view(role);
    EXPECT_EQ(other.game->view(role), view);
    Thinking thinking;
    const auto a = choose_action(view, {}, Level::Hard, 11, &thinking, false);
    const auto b = choose_action(other.game->view(role), {}, Level::Hard, 11, nullptr, false);
    EXPECT_EQ(a, b) << view["phase_text"];
    EXPECT_GT(thinking.determinizations, 0) << view["phase_text"];
    EXPECT_GT(thinking.playouts, 0) << view["phase_text"];
    return ++checked < wanted;
  });
  EXPECT_EQ(checked, wanted) << hots::phase_name(phase);
}

TEST(AiHonesty, HardSearchesHitAllocationFromTheViewOnly) {
  expect_hard_searches_from_the_view_only(hots::Phase::HitAllocation, 2);
}

TEST(AiHonesty, HardSearchesTheRetreatAfterTheThirdRoundFromTheViewOnly) {
  expect_hard_searches_from_the_view_only(hots::Phase::MandatoryRetreat, 2);
}

TEST(AiHonesty, HardSearchesRegroupsFromTheViewOnly) {
  expect_hard_searches_from_the_view_only(hots::Phase::Regroup, 2);
}

TEST(AiHonesty, HardSearchesBorderRaidsFromTheViewOnly) {
  expect_hard_searches_from_the_view_only(hots::Phase::BorderRaid, 2);
}

TEST(AiHonesty, HardSearchesWinterDecisionsFromTheViewOnly) {
  expect_hard_searches_from_the_view_only(hots::Phase::Winter, 3);
}

TEST(AiHonesty, HardSearchesEventDecisionsFromTheViewOnly) {
  expect_hard_searches_from_the_view_only(hots::Phase::Event, 3);
}

TEST(AiHonesty, HardSearchesTheChoiceOfABattleFromTheViewOnly) {
  expect_hard_searches_from_the_view_only(hots::Phase::BattleChoice, 2);
}

TEST(AiPlay, EveryChoiceIsLegalAndAGameAgainstRandomFinishes) {
  auto game = new_game(7);
  Random random(9);
  const auto ai_role = core::Role::England;
  std::vector<json> history;
  int actions = 0;
  for (; actions < 20000 && !game->outcome().finished; ++actions) {
    const auto role = game->active_roles().at(0);
    const auto legal = game->legal_actions(role);
    json action;
    if (role == ai_role) {
      const auto view = game->view(role);
      action = choose_action(view, history, Level::Easy, actions, nullptr, false);
      history.push_back(view);
      if (history.size() > 4) history.erase(history.begin());
      ASSERT_NE(std::find(legal.begin(), legal.end(), action), legal.end()) << action;
    } else {
      action = legal[random() % legal.size()];
      if (action["kind"] == "undo") action = legal[0];
    }
    ASSERT_FALSE(game->apply(role, action)) << action;
  }
  EXPECT_TRUE(game->outcome().finished) << actions << " actions";
}

}  // namespace
}  // namespace blockfog::ai

namespace blockfog::ai {
namespace {

// A view that is not a seat's awaited view gets a clear MalformedView, never a crash, at every
// level: the shape is checked first, and a field of the wrong type deeper in is reported too.
TEST(AiInput, AMalformedViewIsATypedErrorNotACrash) {
  auto game = new_game(4);
  Random random(9);
  const auto role = advance_to_move(*game, random);
  const json view = game->view(role);
  ASSERT_NO_THROW(choose_action(view, {}, Level::Easy, 1, nullptr, false));

  const auto refused = [&](const json& bad, const std::string& says) {
    for (Level level : {Level::Easy, Level::Normal}) {
      try {
        choose_action(bad, {}, level, 1, nullptr, false);
        ADD_FAILURE() << "accepted: " << says;
      } catch (const MalformedView& e) {
        EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
      }
    }
  };
  refused(json::array(), "not a JSON object");
  refused(json::object(), "'role'");
  json no_role = view;
  no_role["role"] = "observer";
  refused(no_role, "'role'");
  json no_actions = view;
  no_actions["legal_actions"] = json::array();
  refused(no_actions, "'legal_actions'");
  json not_awaited = view;
  not_awaited["awaiting"] = json::array();
  refused(not_awaited, "does not await");
  // Deeper fields the search cannot read: a MalformedView, or (where the sampler gives up on
  // the view and the rule of thumb decides) one of the view's own legal actions.
  json bad_areas = view;
  bad_areas["areas"] = 7;
  json no_cards = view;
  no_cards.erase("cards");
  json bad_phase = view;
  bad_phase["phase"] = 12;
  for (const json& bad : {bad_areas, no_cards, bad_phase}) {
    for (Level level : {Level::Easy, Level::Normal, Level::Hard}) {
      try {
        const auto chosen = choose_action(bad, {}, level, 1, nullptr, false);
        const auto& legal = bad["legal_actions"];
        EXPECT_NE(std::find(legal.begin(), legal.end(), chosen), legal.end()) << chosen;
      } catch (const MalformedView& e) {
        EXPECT_NE(std::string(e.what()).find("malformed view"), std::string::npos);
      }
    }
  }
  try {
    choose_action(view, {json(3)}, Level::Normal, 1, nullptr, false);
    ADD_FAILURE() << "a history entry that is not a view was accepted";
  } catch (const MalformedView& e) {
    EXPECT_NE(std::string(e.what()).find("history"), std::string::npos);
  }
}

}  // namespace
}  // namespace blockfog::ai

namespace blockfog::ai {
namespace {

// The seat's strength in its battle and the enemy's as the rule of docs/ai.md counts them:
// the enemy's revealed strengths plus 3 for each block still face down.
std::pair<int, int> battle_forces(const json& view) {
  const std::string me = view["role"];
  const std::string enemy = me == "scotland" ? "england" : "scotland";
  int own = 0;
  int count = 0;
  for (const auto& area : view["areas"]) {
    if (area["id"] != view["battle"]["area"]) continue;
    for (const auto& b : area[me]["blocks"]) own += b["strength"].get<int>();
    count = area[enemy]["count"];
  }
  int theirs = 0;
  int shown = 0;
  for (const auto& b : view["battle"]["revealed"][enemy]) {
    theirs += b["strength"].get<int>();
    ++shown;
  }
  return {own, theirs + 3 * (count - shown)};
}

bool enemy_free(const json& view, const std::string& area_id) {
  const std::string enemy = view["role"] == "scotland" ? "england" : "scotland";
  for (const auto& area : view["areas"]) {
    if (area["id"] == area_id) return area[enemy]["count"] == 0;
  }
  return false;
}

// RULES 5.8, 5.10, 12.2: at normal a block whose side is outmatched in its battle retreats (to
// an area without enemy blocks when one is offered) instead of firing; easy fires. (Hard
// searches the combat turn: AiHonesty.HardSearchesACombatTurnFromTheViewOnly.)
TEST(AiRules, AnOutmatchedBlockRetreatsAtNormalAndFiresAtEasy) {
  int outmatched = 0;
  int even = 0;
  for (std::uint8_t seed = 1; seed < 40 && (outmatched < 3 || even < 3); ++seed) {
    auto game = new_game(seed);
    Random random(seed);
    for (int i = 0; i < 3000 && !game->outcome().finished && (outmatched < 3 || even < 3); ++i) {
      const auto role = game->active_roles().at(0);
      if (game->legal_actions(role)[0]["kind"] != "fire") {
        auto actions = game->legal_actions(role);
        json pick = actions[random() % actions.size()];
        if (pick["kind"] == "undo") pick = actions[0];
        ASSERT_FALSE(game->apply(role, pick));
        continue;
      }
      const auto view = game->view(role);
      const auto& legal = view["legal_actions"];
      const auto offers = [&](const char* kind) {
        return std::any_of(legal.begin(), legal.end(),
                           [&](const json& a) { return a["kind"] == kind; });
      };
      if (view["phase"] == "combat" && offers("fire") && offers("retreat")) {
        const auto [own, theirs] = battle_forces(view);
        const auto normal = choose_action(view, {}, Level::Normal, 3, nullptr, false);
        const auto easy = choose_action(view, {}, Level::Easy, 3, nullptr, false);
        EXPECT_EQ(easy["kind"], "fire");
        if (own < theirs) {
          ++outmatched;
          EXPECT_EQ(normal["kind"], "retreat") << own << " against " << theirs;
          const bool safe_offered = std::any_of(legal.begin(), legal.end(), [&](const json& a) {
            return a["kind"] == "retreat" && enemy_free(view, a["to"]);
          });
          if (safe_offered) {
            EXPECT_TRUE(enemy_free(view, normal["to"])) << normal;
          }
        } else {
          ++even;
          EXPECT_EQ(normal["kind"], "fire") << own << " against " << theirs;
        }
      }
      auto actions = game->legal_actions(role);
      json pick = actions[random() % actions.size()];
      if (pick["kind"] == "undo") pick = actions[0];
      ASSERT_FALSE(game->apply(role, pick));
    }
  }
  EXPECT_GE(outmatched, 3);
  EXPECT_GE(even, 3);
}

}  // namespace
}  // namespace blockfog::ai
