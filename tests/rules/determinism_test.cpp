// ACCEPTANCE A-06 (RULES 1.9; DESIGN "The engine contract"): determinism, exact snapshots,
// state hashes; the scripted random source; and the module interface's handling of bad input.

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rules/core/rng.h"
#include "rules/hots/engine.h"
#include "rules/hots/invariants.h"
#include "rules/hots/module.h"
#include "rules/hots/serialize.h"
#include "tests/rules/fixture.h"
#include "tests/rules/helpers.h"

namespace blockfog::hots::testing {
namespace {

using core::RuleErrorCode;
using core::ScriptedOutcome;
using nlohmann::json;

struct Move {
  Role role;
  Action action;
};

// A game of random legal actions: what is needed to replay it exactly.
struct RandomGame {
  core::Seed seed;
  int scenario = 0;
  Options options;
  std::vector<Move> moves;
  std::string refused;  // an offered action that apply refused (an engine bug), if any
};

State start(const RandomGame& g) { return setup(g.seed, g.scenario, g.options); }

// A uniformly random legal action of a uniformly random side that has one, or nullopt when
// nobody can act (game over, or a phase whose decisions are not implemented yet).
std::optional<Move> random_move(const State& s, std::mt19937& gen) {
  std::vector<Move> options;
  for (Role role : {Role::Scotland, Role::England}) {
    const auto actions = legal_actions(s, role);
    if (actions.empty()) continue;
    options.push_back({role, actions[gen() % actions.size()]});
  }
  if (options.empty()) return std::nullopt;
  return options[gen() % options.size()];
}

std::string describe(const Move& m) {
  return std::string(core::role_name(m.role)) + " " + action_to_json(m.action).dump();
}

// Random-legal-action games over all scenarios, at least kMinActions actions in total.
const std::vector<RandomGame>& random_games() {
  static const std::vector<RandomGame> games = [] {
    constexpr int kMinActions = 300;
    const char* scenarios[] = {"braveheart", "the_bruce", "campaign"};
    std::vector<RandomGame> out;
    int total = 0;
    for (int n = 0; total < kMinActions && n < 100; ++n) {
      RandomGame g{patterned_seed(n, 131, 17, 5),
                   *scenario_index(scenarios[n % 3]),
                   Options{n % 2 == 1},
                   {},
                   {}};
      std::mt19937 gen(static_cast<std::mt19937::result_type>(4242 + n));
      State s = start(g);
      // Up to 120 actions per game, so that every scenario is played.
      while (total < kMinActions && g.moves.size() < 120) {
        const auto move = random_move(s, gen);
        if (!move) break;
        if (const auto error = apply(s, move->role, move->action)) {
          g.refused = describe(*move) + ": " + error->message;
          break;
        }
        g.moves.push_back(*move);
        ++total;
      }
      out.push_back(std::move(g));
    }
    return out;
  }();
  return games;
}

// The ids of the cards in a side's hand (chosen cards not included).
std::set<std::string> cards_in_hand(const State& s, Side side) {
  std::set<std::string> ids;
  for (CardId c = 0; c < kCardCount; ++c) {
    if (s.cards.place[c] == CardPlace::Hand && s.cards.holder[c] == index_of(side)) {
      ids.insert(game_data().cards[c].id);
    }
  }
  return ids;
}

// DESIGN "The engine contract": apply accepts every action legal_actions offers.
TEST(RandomGames, PlayAtLeastThreeHundredOfferedActionsWithoutARefusal) {
  std::size_t total = 0;
  for (const auto& g : random_games()) {
    total += g.moves.size();
    EXPECT_EQ(g.refused, "") << "after " << g.moves.size() << " actions";
  }
  EXPECT_GE(total, 300u);
}

// A-06 (RULES 1.9): same seed, scenario, options and actions give the same state, bit for bit,
// after every action; every offered action is accepted.
TEST(Determinism, SameSeedAndActionsGiveIdenticalStatesAfterEveryAction) {
  for (const auto& g : random_games()) {
    State a = start(g);
    State b = start(g);
    ASSERT_EQ(to_json(a), to_json(b));
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
      const auto& m = g.moves[i];
      SCOPED_TRACE("action " + std::to_string(i) + ": " + describe(m));
      const auto error_a = apply(a, m.role, m.action);
      const auto error_b = apply(b, m.role, m.action);
      ASSERT_FALSE(error_a) << "an offered action was refused: " << error_a->message;
      ASSERT_FALSE(error_b) << error_b->message;
      ASSERT_TRUE(a == b);
      // The serialized forms too (every 10th action: to_json is slow in sanitizer builds).
      if (i % 10 == 0 || i + 1 == g.moves.size()) {
        ASSERT_EQ(to_json(a), to_json(b));
        ASSERT_EQ(view(a, Role::Observer), view(b, Role::Observer));
      }
    }
  }
}

// A-06 (DESIGN "The engine contract"): to_json/state_from_json round-trips exactly after
// every action, and a game restored from its snapshot before every action plays on
// identically (a restart resumes exactly).
TEST(Determinism, SnapshotsRoundTripExactlyAfterEveryAction) {
  for (const auto& g : random_games()) {
    State a = start(g);
    State restored = start(g);  // always the copy read back from the last snapshot
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
      const auto& m = g.moves[i];
      SCOPED_TRACE("action " + std::to_string(i) + ": " + describe(m));
      ASSERT_FALSE(apply(a, m.role, m.action));
      ASSERT_FALSE(apply(restored, m.role, m.action));
      ASSERT_TRUE(restored == a);
      const json snapshot = to_json(a);
      restored = state_from_json(snapshot);
      ASSERT_TRUE(restored == a);
      ASSERT_EQ(to_json(restored), snapshot);
      // The snapshot survives its text form too (what the store writes).
      if (i % 20 == 0) {
        ASSERT_TRUE(state_from_json(json::parse(snapshot.dump())) == a);
      }
    }
  }
}

// the state hash identifies a position: equal states hash equal, any action changes it.
TEST(Determinism, StateHashIsEqualForEqualStatesAndChangesWithEveryAction) {
  for (const auto& g : random_games()) {
    State a = start(g);
    State b = start(g);
    std::string previous = state_hash(a);
    EXPECT_EQ(previous.size(), 64u);
    EXPECT_EQ(previous, state_hash(b));
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
      const auto& m = g.moves[i];
      SCOPED_TRACE("action " + std::to_string(i) + ": " + describe(m));
      ASSERT_FALSE(apply(a, m.role, m.action));
      ASSERT_FALSE(apply(b, m.role, m.action));
      const std::string hash = state_hash(a);
      if (i % 10 == 0 || i + 1 == g.moves.size()) {
        ASSERT_TRUE(a == b);
        EXPECT_EQ(hash, state_hash(b));
      }
      EXPECT_NE(hash, previous);
      previous = hash;
    }
  }
}

// DESIGN "The engine contract": random play never breaks an invariant.
TEST(Determinism, RandomGamesKeepEveryInvariant) {
  for (const auto& g : random_games()) {
    State s = start(g);
    ASSERT_EQ(check_invariants(s), std::vector<std::string>{});
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
      const auto& m = g.moves[i];
      SCOPED_TRACE("action " + std::to_string(i) + ": " + describe(m));
      ASSERT_FALSE(apply(s, m.role, m.action));
      ASSERT_EQ(check_invariants(s), std::vector<std::string>{});
    }
  }
}

// A-06 (RULES 1.9, 2.2.1): the deal depends on the seed.
TEST(Determinism, DifferentSeedsDealDifferentOpeningHands) {
  const int braveheart = *scenario_index("braveheart");
  int different = 0;
  for (int n = 0; n < 20; ++n) {
    const State x = setup(patterned_seed(n, 131, 17, 5), braveheart, Options{});
    const State y = setup(patterned_seed(n + 1000, 131, 17, 5), braveheart, Options{});
    EXPECT_EQ(cards_in_hand(x, Side::Scotland).size(), 5u);
    different += cards_in_hand(x, Side::Scotland) != cards_in_hand(y, Side::Scotland) ||
                 cards_in_hand(x, Side::England) != cards_in_hand(y, Side::England);
  }
  EXPECT_GE(different, 1);
}

// A position with a scripted die, undo history and a move in progress: most fields non-trivial.
State busy_state() {
  Fixture f;
  f.hands({"move3_2", "move2_2", "move2_3", "move1_3", "herald"},
          {"move3_1", "move2_1", "move1_1", "move1_2", "truce"});
  f.play_cards("move2_2", "move3_1");
  const auto& actions = legal_actions(f.state(), Role::England);
  const auto first_move = std::find_if(actions.begin(), actions.end(),
                                       [](const Action& a) { return a.kind == ActionKind::Move; });
  if (first_move != actions.end()) f.act(Role::England, *first_move);
  f.dice({5, 2});
  return f.state();
}

// Removes the value at `pointer` from its parent object or array.
void erase_at(json& j, const json::json_pointer& pointer) {
  auto& parent = j[pointer.parent_pointer()];
  if (parent.is_array()) {
    parent.erase(static_cast<std::size_t>(std::stoul(pointer.back())));
  } else {
    parent.erase(pointer.back());
  }
}

void expect_format_error(const json& j, const std::string& what) {
  try {
    state_from_json(j);
    ADD_FAILURE() << what << ": accepted";
  } catch (const StateFormatError&) {
    // the expected refusal
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": threw something other than StateFormatError: " << e.what();
  }
}

TEST(StateFromJson, RestoresTheBusyStateExactly) {
  const State s = busy_state();
  EXPECT_FALSE(s.undo.empty());
  EXPECT_TRUE(s.rng.has_script());
  EXPECT_TRUE(state_from_json(to_json(s)) == s);
}

TEST(StateFromJson, RejectsAMissingField) {
  const json good = to_json(busy_state());
  for (const char* path :
       {"/format", "/rules_version", "/position", "/position/year", "/position/blocks",
        "/position/cards", "/position/phase", "/position/moving", "/rng", "/rng/key",
        "/rng/block_counter", "/rng/script", "/log", "/undo"}) {
    json j = good;
    erase_at(j, json::json_pointer(path));
    expect_format_error(j, path);
  }
}

TEST(StateFromJson, RejectsABadRngKey) {
  const json good = to_json(busy_state());
  for (const json& key : {json("zz"), json(""), json(std::string(63, 'a')),
                          json(std::string(64, 'g')), json(std::string(66, '0')), json(42)}) {
    json j = good;
    j["rng"]["key"] = key;
    expect_format_error(j, "key " + key.dump());
  }
  json j = good;
  j["rng"]["word_offset"] = 17;
  expect_format_error(j, "word offset past the block");
}

TEST(StateFromJson, RejectsAnUnknownBlockOrPlace) {
  const json good = to_json(busy_state());
  {
    json j = good;
    auto& blocks = j["position"]["blocks"];
    blocks["sco_nobody"] = blocks["sco_wallace"];
    blocks.erase("sco_wallace");
    expect_format_error(j, "renamed block");
  }
  {
    json j = good;
    j["position"]["blocks"]["sco_nobody"] = j["position"]["blocks"]["sco_wallace"];
    expect_format_error(j, "57th block");
  }
  {
    json j = good;
    j["position"]["blocks"]["sco_wallace"][0] = "narnia";
    expect_format_error(j, "unknown place");
  }
  {
    json j = good;
    j["position"]["cards"]["joker"] = j["position"]["cards"]["herald"];
    j["position"]["cards"].erase("herald");
    expect_format_error(j, "unknown card");
  }
}

TEST(StateFromJson, RejectsWhatIsNotAStateOfThisEngine) {
  for (const json& j : {json(), json(42), json("state"), json::array(), json::object()}) {
    expect_format_error(j, j.dump());
  }
  json j = to_json(busy_state());
  j["format"] = 99;
  expect_format_error(j, "other format");
  j = to_json(busy_state());
  j["rules_version"] = "hots-0";
  expect_format_error(j, "other rules version");
}

// The kind of a field: its JSON pointer with array indices and block, card and area keys
// replaced by '*'.
std::string shape_of(const std::string& path) {
  std::string shape;
  std::string previous;
  std::size_t begin = 1;
  while (begin <= path.size()) {
    const auto end = std::min(path.find('/', begin), path.size());
    std::string token = path.substr(begin, end - begin);
    const bool index = !token.empty() && std::all_of(token.begin(), token.end(), ::isdigit);
    if (index || previous == "blocks" || previous == "cards" || previous == "battles") {
      token = "*";
    }
    shape += "/" + token;
    previous = token;
    begin = end + 1;
  }
  return shape;
}

// Snapshots are untrusted input: every single-field corruption is refused with a
// StateFormatError or read as some state; nothing else escapes and nothing crashes.
TEST(StateFromJson, NeverCrashesOnACorruptedField) {
  json j = to_json(busy_state());
  const json flat = j.flatten();
  const std::vector<json> replacements = {json("x"), json(-1),      json(1000000), json(true),
                                          json(),    json::array(), json::object()};
  int refused = 0;
  auto parse = [&](const std::string& what) {
    try {
      state_from_json(j);
    } catch (const StateFormatError&) {
      ++refused;
    } catch (const std::exception& e) {
      ADD_FAILURE() << what << ": " << e.what();
    }
  };
  std::map<std::string, int> shapes;
  for (const auto& item : flat.items()) {
    const std::string path = item.key();
    // Rows of the same table are read by the same code: corrupt a few of each kind.
    if (++shapes[shape_of(path)] > 3) continue;
    // Corrupt in place and restore, so that the (large) state is not copied for each case.
    const json::json_pointer pointer(path);
    const json value = j.at(pointer);  // flatten() shows an empty object or array as null
    for (const auto& r : replacements) {
      j[pointer] = r;
      parse(path + " = " + r.dump());
    }
    j[pointer] = value;
    auto& parent = j[pointer.parent_pointer()];
    if (parent.is_array()) {
      const auto index = static_cast<std::ptrdiff_t>(std::stoul(pointer.back()));
      parent.erase(parent.begin() + index);
      parse(path + " removed");
      parent.insert(parent.begin() + index, value);
    } else {
      parent.erase(pointer.back());
      parse(path + " removed");
      parent[pointer.back()] = value;
    }
  }
  EXPECT_EQ(j, to_json(busy_state()));  // the corruptions were all undone
  EXPECT_GT(refused, 0);
}

// RULES 1.9 (tests): scripted outcomes are consumed before the stream is used.
TEST(ScriptedRng, ScriptedDiceComeBeforeTheStream) {
  const core::Seed seed = patterned_seed(3, 131, 17, 5);
  core::Rng scripted(seed);
  core::Rng plain(seed);
  scripted.script({{ScriptedOutcome::Kind::Die, 5}, {ScriptedOutcome::Kind::Die, 2}});
  EXPECT_EQ(scripted.roll_die(), 5);
  EXPECT_EQ(scripted.roll_die(), 2);
  EXPECT_FALSE(scripted.has_script());
  // The stream was not touched by the scripted rolls: it continues as an unscripted one.
  for (int i = 0; i < 10; ++i) EXPECT_EQ(scripted.roll_die(), plain.roll_die());
  const std::vector<int> items = {4, 8, 15, 16, 23, 42};
  scripted.script({{ScriptedOutcome::Kind::Pick, 15}});
  EXPECT_EQ(scripted.pick(items), 15);
  EXPECT_EQ(scripted.pick(items), plain.pick(items));
}

TEST(ScriptedRng, UnscriptedDiceAreFairFaces) {
  core::Rng rng(patterned_seed(9, 131, 17, 5));
  std::set<int> faces;
  for (int i = 0; i < 600; ++i) {
    const int face = rng.roll_die();
    ASSERT_GE(face, 1);
    ASSERT_LE(face, 6);
    faces.insert(face);
  }
  EXPECT_EQ(faces.size(), 6u);
}

TEST(ScriptedRng, ScriptThatDoesNotMatchTheRequestThrows) {
  const std::vector<int> items = {1, 2, 3};
  {
    core::Rng rng(patterned_seed(1, 131, 17, 5));
    rng.script({{ScriptedOutcome::Kind::Pick, 9}});
    EXPECT_THROW(rng.pick(items), core::ScriptMismatch);
  }
  {
    core::Rng rng(patterned_seed(1, 131, 17, 5));
    rng.script({{ScriptedOutcome::Kind::Die, 4}});
    EXPECT_THROW(rng.pick(items), core::ScriptMismatch);
  }
  {
    core::Rng rng(patterned_seed(1, 131, 17, 5));
    rng.script({{ScriptedOutcome::Kind::Pick, 2}});
    EXPECT_THROW(rng.roll_die(), core::ScriptMismatch);
  }
  {
    core::Rng rng(patterned_seed(1, 131, 17, 5));
    rng.script({{ScriptedOutcome::Kind::Die, 7}});
    EXPECT_THROW(rng.roll_die(), core::ScriptMismatch);
  }
}

// RULES 2.1.2.3: the levy draws from the English pool only; scripting a block that is not
// there is a test bug and is reported as one.
TEST(ScriptedRng, ScriptedLevyOfABlockOutsideThePoolThrows) {
  const int braveheart = *scenario_index("braveheart");
  for (std::string_view id : {"eng_cumbria_infantry", "sco_campbell", "eng_bruce"}) {
    EXPECT_THROW(setup(patterned_seed(1, 131, 17, 5), braveheart, Options{},
                       {{ScriptedOutcome::Kind::Pick, block(id)}}),
                 core::ScriptMismatch)
        << id;
  }
}

// --- The module interface (DESIGN "The engine contract") ---

std::unique_ptr<core::Game> new_game(std::string_view scenario = "braveheart",
                                     const json& options = json::object()) {
  auto result = module().setup(patterned_seed(11, 131, 17, 5), scenario, options);
  if (!result.game) ADD_FAILURE() << "setup failed: " << result.error;
  return std::move(result.game);
}

TEST(Module, OffersTheThreeScenarios) {
  EXPECT_EQ(module().id(), "hots");
  const auto scenarios = module().scenarios();
  EXPECT_EQ(std::set<std::string>(scenarios.begin(), scenarios.end()),
            (std::set<std::string>{"braveheart", "the_bruce", "campaign"}));
  for (const auto& id : scenarios) EXPECT_NE(new_game(id), nullptr) << id;
}

TEST(Module, SetupWithAnUnknownScenarioOrOptionReturnsAnError) {
  const auto unknown = module().setup(patterned_seed(1, 131, 17, 5), "agincourt", json::object());
  EXPECT_EQ(unknown.game, nullptr);
  EXPECT_NE(unknown.error.find("agincourt"), std::string::npos) << unknown.error;

  for (const json& options :
       {json{{"fog", true}}, json{{"schiltroms", "yes"}}, json{{"schiltroms", true}, {"extra", 1}},
        json::array({1}), json("schiltroms")}) {
    const auto result = module().setup(patterned_seed(1, 131, 17, 5), "braveheart", options);
    EXPECT_EQ(result.game, nullptr) << options.dump();
    EXPECT_FALSE(result.error.empty()) << options.dump();
  }
  const auto game = new_game("braveheart", json{{"schiltroms", true}});
  ASSERT_NE(game, nullptr);
  EXPECT_EQ(game->view(Role::Observer)["options"]["schiltroms"], true);
}

TEST(Module, MalformedActionIsRefusedAndChangesNothing) {
  auto game = new_game();
  ASSERT_NE(game, nullptr);
  const auto hash = game->state_hash();
  for (const json& action :
       {json("play_card"), json(), json::array({"play_card"}), json{{"kind", 3}},
        json{{"card", "move3_1"}}, json{{"kind", "fly"}}, json{{"kind", "play_card"}},
        json{{"kind", "play_card"}, {"card", 3}}, json{{"kind", "play_card"}, {"card", "move9_9"}},
        json{{"kind", "move"}, {"block", "sco_wallace"}, {"to", "narnia"}}}) {
    for (Role role : {Role::Scotland, Role::England}) {
      const auto error = game->apply(role, action);
      ASSERT_TRUE(error.has_value()) << action.dump();
      EXPECT_EQ(error->code, RuleErrorCode::MalformedAction) << action.dump();
      EXPECT_FALSE(error->message.empty());
      EXPECT_EQ(game->state_hash(), hash) << action.dump();
    }
  }
}

TEST(Module, ObserverAndOutOfTurnActionsAreNotYourTurn) {
  auto game = new_game();
  ASSERT_NE(game, nullptr);
  const auto hash = game->state_hash();
  const json first = game->legal_actions(Role::Scotland).at(0);
  auto error = game->apply(Role::Observer, first);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, RuleErrorCode::NotYourTurn);
  EXPECT_EQ(game->state_hash(), hash);
  EXPECT_TRUE(game->legal_actions(Role::Observer).empty());

  // Both choose a card; then only Player 1 is awaited.
  ASSERT_FALSE(game->apply(Role::Scotland, first));
  ASSERT_FALSE(game->apply(Role::England, game->legal_actions(Role::England).at(0)));
  const auto awaited = game->active_roles();
  ASSERT_EQ(awaited.size(), 1u);
  const Role idle = core::other_side(awaited[0]);
  const auto before = game->state_hash();
  for (const json& action : {json{{"kind", "end_move_phase"}}, json{{"kind", "decline"}}}) {
    error = game->apply(idle, action);
    ASSERT_TRUE(error.has_value()) << action.dump();
    EXPECT_EQ(error->code, RuleErrorCode::NotYourTurn) << action.dump();
    EXPECT_EQ(game->state_hash(), before);
  }
}

TEST(Module, IllegalActionIsRefusedAndChangesNothing) {
  auto game = new_game();
  ASSERT_NE(game, nullptr);
  const auto hash = game->state_hash();
  const json legal = game->legal_actions(Role::Scotland);
  // A card that is not in Scotland's hand.
  std::optional<json> foreign;
  for (const auto& c : game_data().cards) {
    json action = {{"kind", "play_card"}, {"card", c.id}};
    if (std::find(legal.begin(), legal.end(), action) == legal.end()) {
      foreign = action;
      break;
    }
  }
  ASSERT_TRUE(foreign);
  for (const json& action : {*foreign, json{{"kind", "end_move_phase"}},
                             json{{"kind", "take_back"}}, json{{"kind", "truce"}}}) {
    const auto error = game->apply(Role::Scotland, action);
    ASSERT_TRUE(error.has_value()) << action.dump();
    EXPECT_EQ(error->code, RuleErrorCode::IllegalAction) << action.dump();
    EXPECT_EQ(game->state_hash(), hash) << action.dump();
  }
}

TEST(Module, RestoresAGameFromItsSnapshotAndRefusesAMalformedOne) {
  auto game = new_game();
  ASSERT_NE(game, nullptr);
  ASSERT_FALSE(game->apply(Role::England, game->legal_actions(Role::England).at(0)));
  const auto restored = module().from_json(game->to_json());
  ASSERT_NE(restored.game, nullptr) << restored.error;
  EXPECT_EQ(restored.game->state_hash(), game->state_hash());
  EXPECT_EQ(restored.game->view(Role::England), game->view(Role::England));

  json broken = game->to_json();
  broken["rng"]["key"] = "not hex";
  const auto refused = module().from_json(broken);
  EXPECT_EQ(refused.game, nullptr);
  EXPECT_FALSE(refused.error.empty());
  EXPECT_EQ(module().from_json(json("nonsense")).game, nullptr);
}

}  // namespace
}  // namespace blockfog::hots::testing
