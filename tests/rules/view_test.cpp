// Fog of war (RULES 13, ACCEPTANCE group J and B-08): the serialised view of each seat carries no
// fact that seat may not know, in every phase implemented so far (set-up with the English
// initial levy, card phase, events, move phase). These tests read the views only through their
// JSON text and fields; they do not use the simulator's leak checker.

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "rules/core/hex.h"
#include "rules/hots/action.h"
#include "rules/hots/engine.h"
#include "rules/hots/log.h"
#include "rules/hots/view.h"
#include "tests/rules/fixture.h"
#include "tests/rules/helpers.h"

namespace blockfog::hots::testing {
namespace {

using nlohmann::json;

constexpr std::array<Role, 3> kRoles = {Role::Scotland, Role::England, Role::Observer};
constexpr std::array<std::string_view, 3> kScenarios = {"braveheart", "the_bruce", "campaign"};

std::string in_quotes(std::string_view id) { return "\"" + std::string(id) + "\""; }

const std::string& block_id(int b) { return game_data().blocks[b].id; }
const std::string& card_id(int c) { return game_data().cards[c].id; }

// The blocks whose identity `viewer` may not learn outside battles and announcements: the
// enemy's blocks on the map or in its draw pool; for the observer every such block (RULES 13.3).
std::vector<int> hidden_blocks(const Position& p, Role viewer) {
  std::vector<int> out;
  for (int b = 0; b < kBlockCount; ++b) {
    const auto loc = p.blocks.loc[b];
    if (loc >= kAreaCount && loc != kPool) continue;
    if (viewer != Role::Observer && owner_of(b) == viewer) continue;
    out.push_back(b);
  }
  return out;
}

// A block name that cannot appear in a view for a public reason: nobles and Moray share their
// names with areas, "Edward I" is a public field and a Norse move is announced (RULES 13.4.3).
bool has_distinctive_name(int b) {
  const auto& info = game_data().blocks[b];
  switch (info.type) {
    case BlockType::Noble:
    case BlockType::Moray:
    case BlockType::Norse:
    case BlockType::Edward:
      return false;
    default:
      break;
  }
  const auto& areas = game_data().areas;
  return std::none_of(areas.begin(), areas.end(),
                      [&](const AreaInfo& a) { return a.name == info.name; });
}

std::set<std::string> key_set(const json& object) {
  std::set<std::string> keys;
  for (const auto& item : object.items()) keys.insert(item.key());
  return keys;
}

// Whether any object anywhere in `j` has the key `key`.
bool has_key_anywhere(const json& j, std::string_view key) {
  if (j.is_object()) {
    for (const auto& item : j.items()) {
      if (item.key() == key || has_key_anywhere(item.value(), key)) return true;
    }
  } else if (j.is_array()) {
    for (const auto& item : j) {
      if (has_key_anywhere(item, key)) return true;
    }
  }
  return false;
}

json action_list(const std::vector<Action>& actions) {
  json out = json::array();
  for (const auto& a : actions) out.push_back(action_to_json(a));
  return out;
}

std::vector<std::string> hand_of(const Position& p, Side side) {
  std::vector<std::string> ids;
  for (int c = 0; c < kCardCount; ++c) {
    const CardState card = p.cards.get(c);
    if ((card.place == CardPlace::Hand || card.place == CardPlace::Chosen) &&
        card.holder == index_of(side)) {
      ids.push_back(card_id(c));
    }
  }
  return ids;
}

std::set<std::string> strings_of(const json& array) {
  std::set<std::string> out;
  for (const auto& item : array) out.insert(item.get<std::string>());
  return out;
}

// RULES 13.1.1, 13.2, 13.3: no id or distinctive name of a hidden block anywhere in the text.
void expect_no_hidden_identity(const State& s, const json& v, Role role, const std::string& when) {
  const std::string text = v.dump();
  for (int b : hidden_blocks(s, role)) {
    EXPECT_FALSE(has(text, block_id(b)))
        << name_of(role) << "'s view names hidden block " << block_id(b) << " (" << when << ")";
    if (has_distinctive_name(b)) {
      EXPECT_FALSE(has(text, game_data().blocks[b].name))
          << name_of(role) << "'s view names hidden block '" << game_data().blocks[b].name << "' ("
          << when << ")";
    }
  }
}

// RULES 13.2: the enemy's side of every area is counts only (count, moved, reserves by entry);
// the enemy's pool is its size only. For the observer both sides are enemies.
void expect_enemy_counts_only(const json& v, Role role, const std::string& when) {
  const std::set<std::string> area_keys = {"count", "moved", "reserves"};
  for (const auto& a : v.at("areas")) {
    for (Role side : {Role::Scotland, Role::England}) {
      if (side == role) continue;
      const auto& entry = a.at(name_of(side));
      EXPECT_EQ(key_set(entry), area_keys)
          << name_of(role) << " sees " << name_of(side) << " in " << a.at("id") << ": "
          << entry.dump() << " (" << when << ")";
      for (const auto& r : entry.value("reserves", json::array())) {
        EXPECT_TRUE(r.is_string()) << "reserve entry " << r.dump() << " (" << when << ")";
      }
    }
  }
  for (Role side : {Role::Scotland, Role::England}) {
    if (side == role) continue;
    const auto& pool = v.at("pools").at(name_of(side));
    EXPECT_EQ(key_set(pool), std::set<std::string>{"count"})
        << name_of(role) << " sees the " << name_of(side) << " pool as " << pool.dump() << " ("
        << when << ")";
  }
}

// RULES 13.1.5: neither the seed (the ChaCha20 key) nor the generator state before game over.
void expect_no_seed(const State& s, const json& v, const std::string& when) {
  const std::string text = v.dump();
  const auto& key = s.rng.stream().key();
  std::string hex = core::to_hex(key);
  EXPECT_FALSE(has(text, hex)) << "the seed is in the view (" << when << ")";
  std::transform(hex.begin(), hex.end(), hex.begin(), [](char c) {
    return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  });
  EXPECT_FALSE(has(text, hex)) << "the seed (upper-case hex) is in the view (" << when << ")";
  EXPECT_FALSE(has(text, json(key).dump())) << "the seed bytes are in the view (" << when << ")";
  for (std::string_view k : {"seed", "rng", "final_state"}) {
    EXPECT_FALSE(has_key_anywhere(v, k)) << "key '" << k << "' in the view (" << when << ")";
  }
}

// RULES 13.1.4 and 14: a view lists exactly its role's legal actions; nobody else's.
void expect_own_legal_actions_only(const State& s, const json& v, Role role,
                                   const std::string& when) {
  const json expected = action_list(legal_actions(s, role));
  EXPECT_EQ(v.at("legal_actions"), expected) << name_of(role) << " (" << when << ")";
  const auto awaited = active_roles(s);
  const bool is_awaited = std::find(awaited.begin(), awaited.end(), role) != awaited.end();
  if (role == Role::Observer) {
    EXPECT_TRUE(expected.empty()) << "observer has actions (" << when << ")";
  } else if (!is_awaited) {
    if (s.phase == Phase::CardChoice) {
      // RULES 3.1.2: a side that has chosen may take its card back while it waits.
      EXPECT_EQ(expected, json::array({{{"kind", "take_back"}}}))
          << name_of(role) << " (" << when << ")";
    } else {
      EXPECT_TRUE(expected.empty())
          << name_of(role) << " is not awaited but has " << expected.dump() << " (" << when << ")";
    }
  }
}

// RULES 13.2, 4.3.7: the block being moved is named only to its owner.
void expect_moving_block_named_to_owner_only(const State& s, const json& v, Role role,
                                             const std::string& when) {
  if (!v.contains("move") || !v.at("move").contains("moving")) return;
  const auto& moving = v.at("move").at("moving");
  ASSERT_NE(s.moving.block, kNone) << when;
  if (role == owner_of(s.moving.block)) {
    EXPECT_EQ(moving.value("block", ""), block_id(s.moving.block)) << when;
  } else {
    EXPECT_FALSE(moving.contains("block"))
        << name_of(role) << " sees the moving block: " << moving.dump() << " (" << when << ")";
  }
}

void expect_observer_sees_nothing_private(const State& s, const json& v, const std::string& when) {
  const std::string text = v.dump();
  for (Side side : {Side::Scotland, Side::England}) {
    for (const auto& id : hand_of(s, side)) {
      EXPECT_FALSE(has(text, in_quotes(id)))
          << "observer sees hand card " << id << " (" << when << ")";
    }
  }
  for (std::string_view k : {"hand", "my_choice", "blocks", "strength", "my_crossings"}) {
    EXPECT_FALSE(has_key_anywhere(v, k)) << "observer view has '" << k << "' (" << when << ")";
  }
}

// Every fog-of-war check of this file on the three views of `s`.
void expect_fog(const State& s, const std::string& when) {
  for (Role role : kRoles) {
    const json v = view(s, role);
    expect_no_hidden_identity(s, v, role, when);
    expect_enemy_counts_only(v, role, when);
    expect_own_legal_actions_only(s, v, role, when);
    expect_moving_block_named_to_owner_only(s, v, role, when);
    if (s.phase != Phase::GameOver) expect_no_seed(s, v, when);
    if (role == Role::Observer) expect_observer_sees_nothing_private(s, v, when);
  }
}

// ---------------------------------------------------------------------------------------------
// J-01: enemy blocks are anonymous.

class ScenarioViewTest : public ::testing::TestWithParam<std::string_view> {};

TEST_P(ScenarioViewTest, J01EnemyBlocksAnonymousAtSetUp) {
  const Fixture f(GetParam());
  const State& s = f.state();
  for (Role role : kRoles) {
    const json v = f.view(role);
    expect_no_hidden_identity(s, v, role, "set-up");
    expect_enemy_counts_only(v, role, "set-up");
  }
  // Counts are right for everybody, and the owner sees his own blocks with their strengths.
  for (int a = 0; a < kAreaCount; ++a) {
    const auto& id = game_data().areas[a].id;
    for (Role role : kRoles) {
      const json entry = area_entry(f.view(role), id);
      for (Side side : {Side::Scotland, Side::England}) {
        EXPECT_EQ(entry.at(name_of(side)).at("count").get<int>(), count_in_area(s, a, side))
            << name_of(role) << " " << id;
      }
    }
  }
  for (Side side : {Side::Scotland, Side::England}) {
    const json v = f.view(side);
    for (int b = 0; b < kBlockCount; ++b) {
      if (owner_of(b) != side || !on_map(s, b)) continue;
      const auto& blocks =
          area_entry(v, game_data().areas[s.blocks.loc[b]].id).at(name_of(side)).at("blocks");
      const auto it = std::find_if(blocks.begin(), blocks.end(),
                                   [&](const json& j) { return j.at("block") == block_id(b); });
      ASSERT_NE(it, blocks.end()) << name_of(side) << " does not see its own " << block_id(b);
      EXPECT_EQ(it->at("strength").get<int>(), s.blocks.strength[b]) << block_id(b);
    }
  }
}

TEST_P(ScenarioViewTest, J01EnemyBlocksAnonymousAfterMoves) {
  Fixture f(GetParam());
  f.hands({"move3_1", "move1_1"}, {"move3_2", "move1_2"});
  f.play_cards("move3_1", "move3_2");  // equal cards: England is P1 (RULES 3.2.2)
  expect_fog(f.state(), "England's move phase begins");
  // England moves every block it can, one step each, checking the views after every step.
  for (int guard = 0; guard < 300 && f.state().phase == Phase::Move; ++guard) {
    const Role mover = side_of(f.state().active);
    const auto actions = legal_actions(f.state(), mover);
    ASSERT_FALSE(actions.empty());
    f.act(mover, actions.front());
    expect_fog(f.state(), "after " + action_to_json(actions.front()).dump());
    if (HasFailure()) return;
  }
  EXPECT_NE(f.state().phase, Phase::Move) << "the move phases did not end";
}

// ---------------------------------------------------------------------------------------------
// J-02: the observer.

TEST(ViewTest, J02ObserverSeesNoHandNoIdentityNoStrength) {
  Fixture f;
  f.hands({"move2_1", "move1_1"}, {"move3_1", "move2_2"});
  expect_observer_sees_nothing_private(f.state(), f.view(Role::Observer), "card choice");
  f.act(Role::Scotland, play_card(card("move2_1")));
  expect_observer_sees_nothing_private(f.state(), f.view(Role::Observer), "Scotland chose");
  EXPECT_FALSE(has(f.view(Role::Observer).dump(), in_quotes("move2_1")));
  f.act(Role::England, play_card(card("move3_1")));
  f.act(Role::England, move(block("eng_cumbria_infantry"), area("lanark")));
  const json v = f.view(Role::Observer);
  expect_observer_sees_nothing_private(f.state(), v, "England moving");
  expect_no_hidden_identity(f.state(), v, Role::Observer, "England moving");
  expect_enemy_counts_only(v, Role::Observer, "England moving");
  EXPECT_EQ(v.at("cards").at("hand_sizes"), json({{"scotland", 1}, {"england", 1}}));
}

// ---------------------------------------------------------------------------------------------
// J-03: the chosen card.

TEST(ViewTest, J03ChosenCardHiddenUntilBothChose) {
  Fixture f;
  f.hands({"move2_1", "move1_1"}, {"move2_10", "move1_2"});
  f.act(Role::Scotland, play_card(card("move2_1")));
  for (Role role : {Role::England, Role::Observer}) {
    const json v = f.view(role);
    EXPECT_FALSE(has(v.dump(), in_quotes("move2_1"))) << name_of(role) << " sees Scotland's choice";
    EXPECT_EQ(v.at("cards").at("chosen"), json({{"scotland", true}, {"england", false}}));
  }
  EXPECT_EQ(f.view(Role::Scotland).at("cards").at("my_choice"), "move2_1");
  // Taking the card back and choosing another keeps it hidden (RULES 3.1.2).
  f.act(Role::Scotland, simple(ActionKind::TakeBack));
  f.act(Role::Scotland, play_card(card("move1_1")));
  for (Role role : {Role::England, Role::Observer}) {
    const std::string text = f.view(role).dump();
    EXPECT_FALSE(has(text, in_quotes("move1_1"))) << name_of(role);
    EXPECT_FALSE(has(text, in_quotes("move2_1"))) << name_of(role);
  }
  f.act(Role::England, play_card(card("move2_10")));
  for (Role role : kRoles) {
    const json v = f.view(role);
    std::set<std::string> played;
    for (const auto& p : v.at("cards").at("played_this_year")) played.insert(p.dump());
    EXPECT_EQ(played, (std::set<std::string>{
                          json({{"side", "scotland"}, {"card", "move1_1"}, {"turn", 1}}).dump(),
                          json({{"side", "england"}, {"card", "move2_10"}, {"turn", 1}}).dump()}))
        << name_of(role);
  }
}

TEST(ViewTest, J03EnglandsChosenCardHiddenFromScotland) {
  Fixture f;
  f.hands({"move2_2", "move1_1"}, {"truce", "move1_2"});
  f.act(Role::England, play_card(card("truce")));
  for (Role role : {Role::Scotland, Role::Observer}) {
    const std::string text = f.view(role).dump();
    EXPECT_FALSE(has(text, in_quotes("truce"))) << name_of(role) << " sees England's choice";
    EXPECT_FALSE(has(text, "Truce")) << name_of(role) << " sees England's choice";
  }
  f.act(Role::Scotland, play_card(card("move2_2")));
  for (Role role : kRoles) {
    const std::string text = f.view(role).dump();
    EXPECT_TRUE(has(text, in_quotes("truce"))) << name_of(role);
    EXPECT_TRUE(has(text, in_quotes("move2_2"))) << name_of(role);
  }
}

// ---------------------------------------------------------------------------------------------
// B-08: hands are private.

TEST(ViewTest, B08HandsPrivate) {
  const Fixture f;  // the real deal of the set-up
  const State& s = f.state();
  const auto scotland = hand_of(s, Side::Scotland);
  const auto england = hand_of(s, Side::England);
  ASSERT_EQ(scotland.size(), 5U);
  ASSERT_EQ(england.size(), 5U);
  const json sv = f.view(Role::Scotland);
  const json ev = f.view(Role::England);
  const json ov = f.view(Role::Observer);
  EXPECT_EQ(strings_of(sv.at("cards").at("hand")),
            std::set<std::string>(scotland.begin(), scotland.end()));
  EXPECT_EQ(strings_of(ev.at("cards").at("hand")),
            std::set<std::string>(england.begin(), england.end()));
  for (const auto& id : scotland) {
    EXPECT_FALSE(has(ev.dump(), in_quotes(id))) << "England sees Scotland's " << id;
    EXPECT_FALSE(has(ov.dump(), in_quotes(id))) << "the observer sees Scotland's " << id;
  }
  for (const auto& id : england) {
    EXPECT_FALSE(has(sv.dump(), in_quotes(id))) << "Scotland sees England's " << id;
    EXPECT_FALSE(has(ov.dump(), in_quotes(id))) << "the observer sees England's " << id;
  }
  for (const json& v : {sv, ev, ov}) {
    EXPECT_EQ(v.at("cards").at("hand_sizes"), json({{"scotland", 5}, {"england", 5}}));
  }
  EXPECT_FALSE(ov.at("cards").contains("hand"));
}

// ---------------------------------------------------------------------------------------------
// J-08 (set-up part): the English initial levy (RULES 2.1.2.3, 13.3).

void expect_levy_hidden(std::string_view scenario, const std::vector<std::string_view>& levied) {
  SCOPED_TRACE(std::string(scenario));
  std::vector<core::ScriptedOutcome> script;
  for (auto id : levied) script.push_back({core::ScriptedOutcome::Kind::Pick, block(id)});
  const State s =
      setup(patterned_seed(3, 131, 29, 17), *scenario_index(scenario), Options{}, script);
  const auto england = area("england");
  for (auto id : levied) ASSERT_EQ(s.blocks.loc[block(id)], england) << id;
  ASSERT_EQ(count_in_area(s, england, Side::England), static_cast<int>(levied.size()));

  const std::string count_line =
      "England levied " + std::to_string(levied.size()) +
      (levied.size() == 1 ? " block into England." : " blocks into England.");
  for (Role role : {Role::Scotland, Role::Observer}) {
    const json v = view(s, role);
    const std::string text = v.dump();
    const auto lines = log_lines(v);
    for (auto id : levied) {
      EXPECT_FALSE(has(text, id)) << name_of(role) << " learns that " << id << " was levied";
      const auto& name = game_data().blocks[block(id)].name;
      for (const auto& line : lines) {
        EXPECT_FALSE(has(line, name)) << name_of(role) << " log: " << line;
      }
    }
    EXPECT_EQ(std::count(lines.begin(), lines.end(), count_line), 1) << name_of(role);
    EXPECT_EQ(area_entry(v, "england").at("england").at("count").get<int>(),
              static_cast<int>(levied.size()));
  }
  const auto lines = log_lines(view(s, Role::England));
  for (auto id : levied) {
    const std::string line = "Levied " + game_data().blocks[block(id)].name + " into England.";
    EXPECT_EQ(std::count(lines.begin(), lines.end(), line), 1) << "England's log lacks " << line;
  }
}

// The counted lines read as a person writes them: one block, one area (RULES 10.10, 7).
TEST(LogText, CountsOfOneAreSingular) {
  const auto england = area("england");
  const auto levy = [&](int n) {
    return log_text(
        {LogKind::LevyCount, Audience::NotEngland, 0, england, 0, 0, static_cast<std::int16_t>(n)});
  };
  EXPECT_EQ(levy(1), "England levied 1 block into England.");
  EXPECT_EQ(levy(3), "England levied 3 blocks into England.");
  const auto battles = [](int n) {
    return log_text(
        {LogKind::BattlePhase, Audience::Public, 0, 0, 0, 0, static_cast<std::int16_t>(n)});
  };
  EXPECT_EQ(battles(1), "Battle phase: 1 contested area.");
  EXPECT_EQ(battles(2), "Battle phase: 2 contested areas.");
  const auto moves = [](int n) {
    return log_text(
        {LogKind::MovePhaseStart, Audience::Public, 0, 0, 0, 0, static_cast<std::int16_t>(n)});
  };
  EXPECT_EQ(moves(1), "Scotland moves with 1 move point.");
  EXPECT_EQ(moves(3), "Scotland moves with 3 move points.");
}

TEST(ViewTest, J08SetUpLevyShowsOnlyHowManyBlocks) {
  expect_levy_hidden("braveheart",
                     {"eng_edward", "eng_hobelars", "eng_york_knights", "eng_wales_archers"});
  expect_levy_hidden("campaign", {"eng_ulster_infantry", "eng_lancaster_archers",
                                  "eng_durham_knights", "eng_westmor_infantry"});
  expect_levy_hidden("the_bruce", {"eng_edward", "eng_lancaster_knights", "eng_york_infantry",
                                   "eng_wales_infantry", "eng_hobelars", "eng_ulster_infantry"});
}

// ---------------------------------------------------------------------------------------------
// J-12: no opponent actions; moves are anonymous to the opponent.

TEST(ViewTest, J12NoEnglishActionsInScotlandsViewAndAnonymousMoves) {
  Fixture f;
  f.hands({"move1_1", "move2_1"}, {"move3_1", "move2_2"});
  f.play_cards("move1_1", "move3_1");  // England is P1
  ASSERT_EQ(f.state().phase, Phase::Move);
  ASSERT_EQ(f.state().active, index_of(Side::England));

  const auto check_scotland = [&](const std::string& when) {
    const json v = f.view(Role::Scotland);
    EXPECT_EQ(v.at("legal_actions"), json::array()) << when;
    EXPECT_EQ(v.at("awaiting"), json::array({"england"})) << when;
    EXPECT_EQ(v.at("phase_text"), "England: move phase") << when;
    EXPECT_FALSE(has(v.dump(), "\"kind\"")) << "an action in Scotland's view " << when;
    expect_no_hidden_identity(f.state(), v, Role::Scotland, when);
  };
  check_scotland("England's move phase begins");

  const std::size_t log_before = log_lines(f.view(Role::Scotland)).size();
  f.act(Role::England, move(block("eng_cumbria_infantry"), area("lanark")));
  check_scotland("Cumbria Infantry in Lanark, still moving");
  for (Role role : {Role::Scotland, Role::Observer}) {
    const json moving = f.view(role).at("move").at("moving");
    EXPECT_EQ(moving.at("origin"), "lothian") << name_of(role);
    EXPECT_EQ(moving.at("at"), "lanark") << name_of(role);
    EXPECT_FALSE(moving.contains("block")) << name_of(role) << ": " << moving.dump();
  }
  EXPECT_EQ(f.view(Role::England).at("move").at("moving").at("block"), "eng_cumbria_infantry");

  // Infantry: its allowance of 2 is spent; it may wait for its owner's `stop` (RULES 13.1.4).
  f.act(Role::England, step(area("carrick")));
  if (f.state().moving.block != kNone) f.act(Role::England, simple(ActionKind::Stop));
  check_scotland("Cumbria Infantry in Carrick");
  for (Role role : {Role::Scotland, Role::Observer}) {
    const auto lines = log_lines(f.view(role));
    const std::vector<std::string> moves(lines.begin() + static_cast<std::ptrdiff_t>(log_before),
                                         lines.end());
    EXPECT_EQ(moves, (std::vector<std::string>{"An English block moved from Lothian to Lanark.",
                                               "An English block moved from Lanark to Carrick."}))
        << name_of(role);
    const json carrick = area_entry(f.view(role), "carrick").at("england");
    EXPECT_EQ(carrick, json({{"count", 1}, {"moved", 1}, {"reserves", json::array()}}));
  }
  const auto own = log_lines(f.view(Role::England));
  EXPECT_NE(std::find(own.begin(), own.end(), "Cumbria Infantry moved from Lanark to Carrick."),
            own.end());
}

// RULES 13.1.4 (with 4.3.4 and 4.3.7): whether the block being moved may go on after its second
// step depends on its movement allowance, a hidden fact (only Wallace, the King, Keith,
// Etterick, Edward and the Hobelars have 3). The opponent's and the observer's views must
// therefore not differ between a 2-move and a 3-move block that made the same two steps.
TEST(ViewTest, J12PauseAfterSecondStepRevealsNoMovementAllowance) {
  const auto after_two_steps = [](std::string_view mover) {
    Fixture f;
    f.clear({"england", "lothian"});  // the levy and Cumbria Infantry back to the pool
    f.place(mover, "lothian");
    f.hands({"move1_1", "move2_1"}, {"move3_1", "move2_2"});
    f.play_cards("move1_1", "move3_1");  // England is P1
    f.act(Role::England, move(block(mover), area("lanark")));
    f.act(Role::England, step(area("carrick")));
    return f;
  };
  Fixture infantry = after_two_steps("eng_york_infantry");  // movement 2
  Fixture hobelars = after_two_steps("eng_hobelars");       // movement 3
  for (Role role : {Role::Scotland, Role::Observer}) {
    EXPECT_EQ(json::diff(infantry.view(role), hobelars.view(role)), json::array())
        << name_of(role) << " can tell a 3-move block from a 2-move one after two steps";
  }
  // Stopping there looks the same too (the owner stops either block himself or it stopped).
  for (Fixture* f : {&infantry, &hobelars}) {
    if (f->state().moving.block != kNone) f->act(Role::England, simple(ActionKind::Stop));
  }
  for (Role role : {Role::Scotland, Role::Observer}) {
    EXPECT_EQ(json::diff(infantry.view(role), hobelars.view(role)), json::array())
        << name_of(role) << " after the stop";
  }
}

// ---------------------------------------------------------------------------------------------
// J-13: no seed or generator state before the game ends.

TEST(ViewTest, J13NoSeedInAnyViewBeforeGameOver) {
  for (auto scenario : kScenarios) {
    State s = setup(patterned_seed(11, 131, 29, 17), *scenario_index(scenario), Options{});
    for (Role role : kRoles) expect_no_seed(s, view(s, role), std::string(scenario) + " set-up");
    const auto scotland = legal_actions(s, Role::Scotland);
    ASSERT_FALSE(scotland.empty());
    ASSERT_FALSE(apply(s, Role::Scotland, scotland.front()).has_value());
    for (Role role : kRoles) expect_no_seed(s, view(s, role), std::string(scenario) + " chosen");
  }
}

// ---------------------------------------------------------------------------------------------
// J-15: pools.

TEST_P(ScenarioViewTest, J15PoolSizesForAllIdentitiesForOwner) {
  const Fixture f(GetParam());
  const State& s = f.state();
  std::array<std::set<std::string>, 2> pools;
  std::set<std::string> dead;
  std::set<std::string> not_in_play;
  for (int b = 0; b < kBlockCount; ++b) {
    const auto loc = s.blocks.loc[b];
    if (loc == kPool) pools[index_of(owner_of(b))].insert(block_id(b));
    if (loc == kDead) dead.insert(block_id(b));
    if (loc == kNotInPlay && game_data().blocks[b].noble < 0) not_in_play.insert(block_id(b));
  }
  for (Role role : kRoles) {
    const json v = f.view(role);
    for (Side side : {Side::Scotland, Side::England}) {
      const auto& pool = v.at("pools").at(name_of(side));
      EXPECT_EQ(pool.at("count").get<std::size_t>(), pools[index_of(side)].size())
          << name_of(role) << " " << name_of(side);
      if (role == side) {
        EXPECT_EQ(strings_of(pool.at("blocks")), pools[index_of(side)]) << name_of(role);
      } else {
        EXPECT_FALSE(pool.contains("blocks")) << name_of(role) << " sees " << pool.dump();
      }
    }
    EXPECT_EQ(strings_of(v.at("dead")), dead) << name_of(role);
    EXPECT_EQ(strings_of(v.at("not_in_play")), not_in_play) << name_of(role);
  }
}

// ---------------------------------------------------------------------------------------------
// J-18: Moray's whereabouts.

TEST(ViewTest, J18MorayWhereaboutsHiddenFromEnglandAndObserver) {
  Fixture on_map;
  on_map.state().year = 1299;
  on_map.place("sco_moray", "fife");
  Fixture in_pool;
  in_pool.state().year = 1299;
  in_pool.to_pool("sco_moray");

  const json england_nobles = on_map.view(Role::England).at("nobles");
  for (Role role : {Role::England, Role::Observer}) {
    const json a = on_map.view(role).at("nobles");
    const json b = in_pool.view(role).at("nobles");
    EXPECT_EQ(a, b) << name_of(role) << " can tell where Moray is";
    EXPECT_EQ(a, england_nobles) << "England's and the observer's noble parts differ";
    EXPECT_EQ(a.at("scotland").at("two_block"), 2) << name_of(role);
    EXPECT_FALSE(a.at("scotland").contains("total")) << name_of(role) << ": " << a.dump();
  }
  const json exact_on_map = on_map.view(Role::Scotland).at("nobles").at("scotland");
  const json exact_in_pool = in_pool.view(Role::Scotland).at("nobles").at("scotland");
  EXPECT_EQ(exact_on_map.at("total"), 3);
  EXPECT_EQ(exact_on_map.at("moray"), "on_map");
  EXPECT_EQ(exact_in_pool.at("total"), 2);
  EXPECT_EQ(exact_in_pool.at("moray"), "pool");
}

TEST(ViewTest, J18DeadMorayShownDeadToAll) {
  Fixture f;
  f.kill("sco_moray");
  for (Role role : kRoles) {
    const json scotland = f.view(role).at("nobles").at("scotland");
    EXPECT_EQ(scotland.at("moray"), "dead") << name_of(role);
    EXPECT_EQ(scotland.at("total"), 2) << name_of(role);
    EXPECT_TRUE(has(f.view(role).at("dead").dump(), "sco_moray")) << name_of(role);
  }
  EXPECT_EQ(f.view(Role::England).at("nobles"), f.view(Role::Scotland).at("nobles"));
  EXPECT_EQ(f.view(Role::Observer).at("nobles"), f.view(Role::Scotland).at("nobles"));
  // The Bruce: dead from the start.
  const Fixture bruce("the_bruce");
  for (Role role : kRoles) {
    EXPECT_EQ(bruce.view(role).at("nobles").at("scotland").at("moray"), "dead") << name_of(role);
  }
}

// ---------------------------------------------------------------------------------------------
// RULES 13.2: border-crossing counters are each player's own.

TEST(ViewTest, BorderCountersShownToTheirOwnerOnly) {
  Fixture f;
  f.hands({"move1_1", "move2_1"}, {"move3_1", "move2_2"});
  f.play_cards("move1_1", "move3_1");  // England P1, Scotland P2
  f.act(Role::England, move(block("eng_cumbria_infantry"), area("lanark")));
  EXPECT_EQ(f.view(Role::England).at("borders").at("my_crossings"), json({{"lanark-lothian", 1}}));
  EXPECT_EQ(f.view(Role::Scotland).at("borders").at("my_crossings"), json::object());
  EXPECT_FALSE(f.view(Role::Observer).at("borders").contains("my_crossings"));
  for (Role role : {Role::Scotland, Role::Observer}) {
    EXPECT_FALSE(has(f.view(role).dump(), "lanark-lothian")) << name_of(role);
  }
  f.act(Role::England, simple(ActionKind::Stop));
  f.act(Role::England, simple(ActionKind::EndMovePhase));
  ASSERT_EQ(f.state().active, index_of(Side::Scotland));
  f.act(Role::Scotland, move(block("sco_wallace"), area("mentieth")));  // attacks: must stop
  EXPECT_EQ(f.view(Role::Scotland).at("borders").at("my_crossings"), json({{"mentieth-fife", 1}}));
  EXPECT_EQ(f.view(Role::England).at("borders").at("my_crossings"), json::object());
  EXPECT_FALSE(f.view(Role::Observer).at("borders").contains("my_crossings"));
  // The border-use record is public (RULES 4.8, 13.2).
  for (Role role : kRoles) {
    EXPECT_EQ(f.view(role).at("borders").at("use"), json({{"mentieth-fife", "scotland"}}))
        << name_of(role);
  }
}

// ---------------------------------------------------------------------------------------------
// RULES 7.5, 13.2: the Truce is public and ends with the game turn.

TEST(ViewTest, TruceShownToAllAndClearedNextTurn) {
  Fixture f;
  f.hands({"move2_1", "move1_1"}, {"truce", "move2_2"});
  f.play_cards("move2_1", "truce");  // England's event: England is P1
  ASSERT_EQ(f.state().phase, Phase::Event);
  for (Role role : kRoles) EXPECT_TRUE(f.view(role).at("truce_against").is_null());
  f.act(Role::England, simple(ActionKind::Truce));
  for (Role role : kRoles) {
    const json v = f.view(role);
    EXPECT_EQ(v.at("truce_against"), "scotland") << name_of(role);
    const auto lines = log_lines(v);
    EXPECT_NE(
        std::find(lines.begin(), lines.end(), "Truce: Scotland may not attack this game turn."),
        lines.end())
        << name_of(role);
  }
  ASSERT_EQ(f.state().phase, Phase::Move);
  f.act(Role::Scotland, simple(ActionKind::EndMovePhase));
  ASSERT_EQ(f.state().phase, Phase::CardChoice);
  ASSERT_EQ(f.state().turn, 2);
  for (Role role : kRoles) EXPECT_TRUE(f.view(role).at("truce_against").is_null()) << name_of(role);
}

// ---------------------------------------------------------------------------------------------
// Property: random legal play through every implemented phase never leaks.

bool is_implemented(Phase phase) {
  return phase == Phase::CardChoice || phase == Phase::Event || phase == Phase::Move;
}

struct FogCoverage {
  std::set<Phase> phases;
  std::set<std::string> kinds;
};

void play_random_fog_game(std::string_view scenario, std::uint32_t n, FogCoverage& coverage) {
  SCOPED_TRACE(std::string(scenario) + " game " + std::to_string(n));
  State s = setup(patterned_seed(n, 131, 29, 17), *scenario_index(scenario), Options{});
  std::mt19937 pick(n);
  expect_fog(s, "set-up");
  for (int i = 0; i < 600 && is_implemented(s.phase); ++i) {
    std::vector<std::pair<Role, Action>> choices;
    for (Role role : {Role::Scotland, Role::England}) {
      for (const auto& a : legal_actions(s, role)) choices.emplace_back(role, a);
    }
    if (choices.empty()) break;
    const auto [role, action] =
        choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(pick)];
    const std::string what =
        name_of(role) + " " + action_to_json(action).dump() + " (action " + std::to_string(i) + ")";
    ASSERT_FALSE(apply(s, role, action).has_value()) << what;
    coverage.phases.insert(s.phase);
    coverage.kinds.insert(std::string(action_kind_name(action.kind)));
    if (!is_implemented(s.phase)) break;  // battles and winter: their own tests
    expect_fog(s, "after " + what);
    if (::testing::Test::HasFailure()) return;  // one precise report, not hundreds
  }
}

TEST(ViewFogPropertyTest, RandomLegalPlayNeverLeaks) {
  FogCoverage coverage;
  for (auto scenario : kScenarios) {
    for (std::uint32_t n = 1; n <= 12; ++n) {
      play_random_fog_game(scenario, n, coverage);
      if (HasFailure()) return;
    }
  }
  // The games went through every implemented phase.
  EXPECT_TRUE(coverage.phases.count(Phase::CardChoice));
  EXPECT_TRUE(coverage.phases.count(Phase::Event));
  EXPECT_TRUE(coverage.phases.count(Phase::Move));
  for (std::string_view kind :
       {"play_card", "take_back", "truce", "decline", "move", "step", "stop", "end_move_phase"}) {
    EXPECT_TRUE(coverage.kinds.count(std::string(kind))) << kind << " never played";
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ScenarioViewTest, ::testing::ValuesIn(kScenarios),
                         [](const auto& param_info) { return std::string(param_info.param); });

}  // namespace
}  // namespace blockfog::hots::testing
