#pragma once

// Small helpers shared by the rule tests: actions by id, where a block is, the legal actions
// and the log as a role sees them, views compared and searched, seeds, and the common ways of
// reaching a move phase, an event, a winter or a battle. One definition each: the rules tests
// compile as unity batches, where two files defining one name fail to build.

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "rules/hots/engine.h"
#include "tests/rules/fixture.h"

namespace blockfog::hots::testing {

// --- Actions, blocks, legal actions and the log; reaching and playing a winter --------------

inline Action done() { return simple(ActionKind::Done); }

inline Action disband(std::string_view id) { return with_block(ActionKind::Disband, block(id)); }

inline Action winter() { return simple(ActionKind::Winter); }

inline Action stay() { return simple(ActionKind::Stay); }

inline BlockState blk(const Fixture& f, std::string_view id) {
  return f.state().blocks.get(block(id));
}

inline bool is_at(const Fixture& f, std::string_view id, std::string_view area_id) {
  return blk(f, id).loc == area(area_id);
}

inline bool in_pool(const Fixture& f, std::string_view id) { return blk(f, id).loc == kPool; }

inline std::vector<Action> legal(const Fixture& f, Role role) {
  return legal_actions(f.state(), role);
}

inline bool kind_offered(const Fixture& f, Role role, ActionKind kind) {
  const auto actions = legal(f, role);
  return std::any_of(actions.begin(), actions.end(),
                     [kind](const Action& a) { return a.kind == kind; });
}

// The legal actions as a sorted list of their JSON texts (order-free comparison).
inline std::vector<std::string> texts(const std::vector<Action>& actions) {
  std::vector<std::string> out;
  for (const auto& a : actions) out.push_back(action_to_json(a).dump());
  std::sort(out.begin(), out.end());
  return out;
}

// The legal actions without `undo` (an optional engine feature, RULES 14 "Undo").
inline std::vector<std::string> legal_texts(const Fixture& f, Role role) {
  auto actions = legal(f, role);
  actions.erase(std::remove(actions.begin(), actions.end(), simple(ActionKind::Undo)),
                actions.end());
  return texts(actions);
}

inline WinterStep step_of(const Fixture& f) { return f.state().winter.step; }

inline bool awaits(const Fixture& f, Role role) {
  return f.state().phase == Phase::Winter && f.state().active == index_of(role);
}

// The texts of a view's log lines, oldest first.
inline std::vector<std::string> log_lines(const nlohmann::json& view) {
  std::vector<std::string> lines;
  for (const auto& line : view.at("log")) lines.push_back(line.at("text").get<std::string>());
  return lines;
}

// The texts of `role`'s log lines, oldest first.
inline std::vector<std::string> log_lines(const Fixture& f, Role role) {
  return log_lines(f.view(role));
}

// Lines of `lines` containing every fragment (the checks do not depend on wording).
inline int count_lines(const std::vector<std::string>& lines,
                       std::initializer_list<std::string_view> fragments) {
  return static_cast<int>(std::count_if(lines.begin(), lines.end(), [&](const std::string& line) {
    return std::all_of(fragments.begin(), fragments.end(), [&](std::string_view fragment) {
      return line.find(fragment) != std::string::npos;
    });
  }));
}

// Lines of `role`'s log containing `text`.
inline int count_lines(const Fixture& f, Role role, std::string_view text) {
  return count_lines(log_lines(f, role), {text});
}

inline bool log_has(const Fixture& f, Role role, std::string_view text) {
  const auto lines = log_lines(f, role);
  return std::any_of(lines.begin(), lines.end(), [text](const std::string& line) {
    return line.find(text) != std::string::npos;
  });
}

// Whether a log line of `role` written since the last winter began contains `text`.
inline bool winter_log_has(const Fixture& f, Role role, std::string_view text) {
  const auto lines = log_lines(f, role);
  bool in_winter = false;
  for (const auto& line : lines) {
    if (line.rfind("Winter of", 0) == 0) in_winter = true;
    if (in_winter && line.find(text) != std::string::npos) return true;
  }
  return false;
}

// A quiet position: every non-noble in its pool, every noble at home as set up, Bruce English
// in Annan; the Scottish Galloway waits in Carrick and the Scottish Ross in Lochaber, so that the
// English Bruce and Comyn have one open home each (10.1.2) before those two go home (10.2). In
// winter nobody then has anything to decide, and no area has a replacement point with a use.
inline Fixture quiet(std::string_view scenario = "braveheart") {
  Fixture f(scenario);
  f.clear_non_nobles();
  f.clear({"annan", "carrick", "lochaber"});
  f.place("eng_bruce", "annan").place("sco_galloway", "carrick").place("sco_ross", "lochaber");
  return f;
}

// quiet() in `year` of the Braveheart scenario.
inline Fixture quiet_in_year(int year) {
  Fixture f = quiet();
  f.state().year = static_cast<std::uint16_t>(year);
  return f;
}

// Ends every move phase as soon as it starts (at most four), so that nobody moves.
inline void end_move_phases(Fixture& f) {
  for (int guard = 0; guard < 4 && f.state().phase == Phase::Move; ++guard) {
    f.act(side_of(f.state().active), simple(ActionKind::EndMovePhase));
  }
}

// One card each, both move phases ended without moving: the empty hands start the winter.
inline void to_winter(Fixture& f) {
  f.hands({"move1_1"}, {"move1_2"}).play_cards("move1_1", "move1_2");
  end_move_phases(f);
  ASSERT_EQ(f.state().phase, Phase::Winter);
}

// Plays on (first home offered, `done` or Wallace's `stay` when offered, else the first legal
// action) until the winter reaches `until` or ends.
inline void play_until(Fixture& f, WinterStep until) {
  for (int guard = 0; guard < 200; ++guard) {
    if (f.state().phase != Phase::Winter || step_of(f) == until) return;
    const Role role = side_of(f.state().active);
    const auto actions = legal(f, role);
    ASSERT_FALSE(actions.empty()) << "the winter waits for " << core::role_name(role)
                                  << " who has nothing to do";
    const auto offered = [&](const Action& a) {
      return std::find(actions.begin(), actions.end(), a) != actions.end();
    };
    const Action stay = simple(ActionKind::Stay);
    f.act(role, offered(done()) ? done() : offered(stay) ? stay : actions.front());
  }
  FAIL() << "the winter did not progress";
}

inline void finish_winter(Fixture& f) { play_until(f, WinterStep::None); }

// --- Battles: who goes first, moves into a battle, combat turns -------------------------------

// England is P1 with 2 MP, Scotland P2 with 1 MP (RULES 3.2.2). Each side keeps a spare card,
// so that the year goes on after this game turn.
inline void england_first(Fixture& f) {
  f.hands({"move1_1", "move1_2"}, {"move2_1", "move2_2"}).play_cards("move1_1", "move2_1");
}

inline void scotland_first(Fixture& f) {
  f.hands({"move2_1", "move2_2"}, {"move1_1", "move1_2"}).play_cards("move2_1", "move1_1");
}

// Moves a block along `path` with real move actions and stops it at the end.
inline void go(Fixture& f, Role side, std::string_view id,
               std::initializer_list<std::string_view> path) {
  bool first = true;
  for (auto to : path) {
    f.act(side, first ? move(block(id), area(to)) : step(area(to)));
    first = false;
  }
  if (f.state().moving.block == block(id)) f.act(side, simple(ActionKind::Stop));
}

inline void end_moves(Fixture& f, Role side) {
  if (f.state().phase == Phase::Move && f.state().active == index_of(side)) {
    f.act(side, simple(ActionKind::EndMovePhase));
  }
}

inline Role awaited(const Fixture& f) { return side_of(f.state().active); }

inline Action fire_of(std::string_view id) { return with_block(ActionKind::Fire, block(id)); }

inline Action pass_of(std::string_view id) { return with_block(ActionKind::Pass, block(id)); }

inline Action hit_on(std::string_view id) { return with_block(ActionKind::TakeHit, block(id)); }

inline Action retreat_of(std::string_view id, std::string_view to) {
  return to_area(ActionKind::Retreat, block(id), area(to));
}

inline void fire(Fixture& f, Role side, std::string_view id, std::initializer_list<int> dice) {
  f.dice(dice);
  f.act(side, fire_of(id));
}

inline void pass(Fixture& f, Role side, std::string_view id) { f.act(side, pass_of(id)); }

// The blocks of the awaited side that may take their combat turn now.
inline std::set<std::string> acting_blocks(const Fixture& f) {
  std::set<std::string> ids;
  if (f.state().active == kNone) return ids;
  for (const auto& a : legal_actions(f.state(), awaited(f))) {
    if (a.kind == ActionKind::Pass) ids.insert(game_data().blocks[a.a].id);
  }
  return ids;
}

inline std::set<ActionKind> kinds_for(const Fixture& f, Role side, std::string_view id) {
  std::set<ActionKind> kinds;
  for (const auto& a : legal_actions(f.state(), side)) {
    if (a.a == block(id)) kinds.insert(a.kind);
  }
  return kinds;
}

inline bool has_kind(const Fixture& f, Role side, ActionKind kind) {
  const auto actions = legal_actions(f.state(), side);
  return std::any_of(actions.begin(), actions.end(),
                     [&](const Action& a) { return a.kind == kind; });
}

// Passes every combat turn until the battle leaves its combat rounds.
inline void pass_to_end_of_rounds(Fixture& f) {
  for (int guard = 0; guard < 100 && f.state().phase == Phase::Combat; ++guard) {
    const auto ids = acting_blocks(f);
    ASSERT_FALSE(ids.empty());
    pass(f, awaited(f), *ids.begin());
  }
}

// Whether a line of `role`'s log contains every fragment (the checks do not depend on wording).
inline bool logged(const Fixture& f, Role role, std::initializer_list<std::string_view> fragments) {
  const auto lines = log_lines(f, role);
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) {
    return std::all_of(fragments.begin(), fragments.end(), [&](std::string_view fragment) {
      return line.find(fragment) != std::string::npos;
    });
  });
}

// England (P1) attacks `to` with `attackers`, one step each; Scotland (P2) moves nothing.
inline void english_attack(Fixture& f, std::initializer_list<std::string_view> attackers,
                           std::string_view to) {
  england_first(f);
  for (auto id : attackers) go(f, kEngland, id, {to});
  end_moves(f, kEngland);
  end_moves(f, kScotland);
}

inline Action regroup_of(std::string_view id, std::string_view to) {
  return to_area(ActionKind::Regroup, block(id), area(to));
}

inline Action end_regroup() { return simple(ActionKind::EndRegroup); }

// --- Events ----------------------------------------------------------------------------------

inline Action decline() { return simple(ActionKind::Decline); }

inline int strength(const Fixture& f, std::string_view id) { return blk(f, id).strength; }

inline bool in_event_of(const Fixture& f, Role side) {
  return f.state().phase == Phase::Event && f.state().active == index_of(side);
}

inline bool in_move_phase_of(const Fixture& f, Role side) {
  return f.state().phase == Phase::Move && f.state().active == index_of(side);
}

// A role's legal actions (undo aside) in their JSON form, e.g. {"kind":"roll"}.
inline std::set<std::string> actions(const Fixture& f, Role role) {
  std::set<std::string> out;
  for (const auto& a : legal_actions(f.state(), role)) {
    if (a.kind != ActionKind::Undo) out.insert(action_to_json(a).dump());
  }
  return out;
}

inline std::set<std::string> as_set(std::initializer_list<Action> list) {
  std::set<std::string> out;
  for (const auto& a : list) out.insert(action_to_json(a).dump());
  return out;
}

// True when a log line of `role` contains `text`.
inline bool logged(const Fixture& f, Role role, std::string_view text) {
  const auto lines = log_lines(f, role);
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& line) { return line.find(text) != std::string::npos; });
}

// --- Names, text and views --------------------------------------------------------------------

// "scotland", "england" or "observer".
inline std::string name_of(Role role) { return std::string(core::role_name(role)); }

// The engine's name of an action kind, e.g. "crown_bruce".
inline std::string name_of(ActionKind kind) { return std::string(action_kind_name(kind)); }

// Whether `text` contains `needle`.
inline bool has(const std::string& text, std::string_view needle) {
  return text.find(needle) != std::string::npos;
}

// A view's entry for an area (by id); throws when the view has none.
inline const nlohmann::json& area_entry(const nlohmann::json& view, std::string_view area_id) {
  for (const auto& a : view.at("areas")) {
    if (a.at("id") == area_id) return a;
  }
  throw std::invalid_argument("no area " + std::string(area_id) + " in the view");
}

// The revealed blocks of one side in a view's battle, as (id, strength); none without a battle.
inline std::set<std::pair<std::string, int>> revealed(const nlohmann::json& view, Side side) {
  std::set<std::pair<std::string, int>> out;
  if (!view.contains("battle")) return out;
  for (const auto& r : view.at("battle").at("revealed").at(name_of(side))) {
    out.insert({r.at("block").get<std::string>(), r.at("strength").get<int>()});
  }
  return out;
}

// The same in `role`'s view.
inline std::set<std::pair<std::string, int>> revealed(const Fixture& f, Role role, Side side) {
  return revealed(f.view(role), side);
}

// A JSON value as text, cut to 200 characters.
inline std::string clip(const nlohmann::json& j) {
  std::string text = j.dump();
  return text.size() > 200 ? text.substr(0, 200) + "..." : text;
}

// The first place where two JSON values differ ("path: left vs right"), or "" when equal.
inline std::string first_difference(const nlohmann::json& a, const nlohmann::json& b,
                                    const std::string& path = "") {
  if (a.type() != b.type()) return path + ": " + clip(a) + " vs " + clip(b);
  if (a.is_object()) {
    for (const auto& item : a.items()) {
      if (!b.contains(item.key())) return path + "/" + item.key() + ": only on the left";
      auto d = first_difference(item.value(), b.at(item.key()), path + "/" + item.key());
      if (!d.empty()) return d;
    }
    for (const auto& item : b.items()) {
      if (!a.contains(item.key())) return path + "/" + item.key() + ": only on the right";
    }
    return "";
  }
  if (a.is_array()) {
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
      auto d = first_difference(a[i], b[i], path + "/" + std::to_string(i));
      if (!d.empty()) return d;
    }
    if (a.size() != b.size()) {
      const nlohmann::json& longer = a.size() > b.size() ? a : b;
      return path + ": " + std::to_string(a.size()) + " vs " + std::to_string(b.size()) +
             " items, first extra " + clip(longer[std::min(a.size(), b.size())]);
    }
    return "";
  }
  return a == b ? "" : path + ": " + clip(a) + " vs " + clip(b);
}

// The full views of `roles` are identical in both games (fails naming the first difference).
inline void expect_same_views(const Fixture& a, const Fixture& b, std::initializer_list<Role> roles,
                              std::string_view when) {
  for (Role role : roles) {
    EXPECT_EQ(first_difference(a.view(role), b.view(role)), "")
        << name_of(role) << "'s views differ " << when;
  }
}

// --- Seeds -------------------------------------------------------------------------------------

// Byte i of the seed is (n * mul + i * stride + offset) mod 256: a seed per game number.
inline core::Seed patterned_seed(std::uint32_t n, std::uint32_t mul, std::uint32_t stride,
                                 std::uint32_t offset) {
  core::Seed seed{};
  for (std::size_t i = 0; i < seed.size(); ++i) {
    seed[i] = static_cast<std::uint8_t>(
        (n * mul + static_cast<std::uint32_t>(i) * stride + offset) & 0xffU);
  }
  return seed;
}

// Every byte `byte` but the first, which is byte * 37 + 1 (mod 256).
inline core::Seed filled_seed(std::uint8_t byte) {
  core::Seed seed{};
  seed.fill(byte);
  seed[0] = static_cast<std::uint8_t>(byte * 37 + 1);
  return seed;
}

// --- Movement ----------------------------------------------------------------------------------

// A border by id (e.g. "lothian-mentieth"); throws when there is none.
inline BorderId border(std::string_view id) {
  const auto b = game_data().border_by_id(id);
  if (!b) throw std::invalid_argument("no border " + std::string(id));
  return *b;
}

// The first step of a block's move.
inline Action move_to(std::string_view block_id, std::string_view to) {
  return move(block(block_id), area(to));
}

// A further step of the moving block.
inline Action step_to(std::string_view to) { return step(area(to)); }

inline Action stop() { return simple(ActionKind::Stop); }

inline Action end_phase() { return simple(ActionKind::EndMovePhase); }

inline Action undo() { return simple(ActionKind::Undo); }

// Whether the area was activated this move phase (RULES 4.2).
inline bool is_activated(const Fixture& f, std::string_view area_id) {
  return (f.state().activated >> area(area_id)) & 1U;
}

// Whether a block's move is open (it has not stopped).
inline bool is_moving(const Fixture& f) { return f.state().moving.block != kNone; }

// Whether `role` is offered any move of this block (any first step).
inline bool block_offered(const Fixture& f, Role role, std::string_view block_id) {
  const auto actions = legal(f, role);
  return std::any_of(actions.begin(), actions.end(), [&](const Action& a) {
    return a.kind == ActionKind::Move && a.a == block(block_id);
  });
}

// Deals one card to each side and plays them: P1 follows RULES 3.2 (higher move card, ties
// England), so the state is then P1's move phase.
inline Fixture& deal(Fixture& f, std::string_view scotland_card, std::string_view england_card) {
  return f.hands({scotland_card}, {england_card}).play_cards(scotland_card, england_card);
}

// Whether no border has a use recorded this turn (RULES 4.8).
inline bool no_border_record(const Fixture& f) {
  const auto& use = f.state().border_use;
  return std::all_of(use.begin(), use.end(), [](std::uint8_t u) { return u == kNone; });
}

// --- Event cards -------------------------------------------------------------------------------

// Scotland plays `event` and England a move card: Scotland is P1 (RULES 3.2.2) and resolves
// its event first. Each side keeps a spare card so that the year goes on.
inline void scotland_event(Fixture& f, std::string_view event) {
  f.hands({event, "move1_7"}, {"move2_1", "move2_2"}).play_cards(event, "move2_1");
}

// Both play events (RULES 3.3): England is P1 and resolves first.
inline void double_event(Fixture& f, std::string_view scotland_card,
                         std::string_view england_card) {
  f.hands({scotland_card, "move1_7"}, {england_card, "move1_6"})
      .play_cards(scotland_card, england_card);
}

// The index of a noble by key (e.g. "buchan"); throws when there is none.
inline std::uint8_t noble_index(std::string_view key) {
  const auto& nobles = game_data().nobles;
  for (std::size_t i = 0; i < nobles.size(); ++i) {
    if (nobles[i].key == key) return static_cast<std::uint8_t>(i);
  }
  throw std::invalid_argument("no noble " + std::string(key));
}

inline Action herald_of(std::string_view key) {
  return {ActionKind::Herald, noble_index(key), kNone};
}

inline Action roll() { return simple(ActionKind::Roll); }

inline Action sea(std::string_view block_id, std::string_view to) {
  return to_area(ActionKind::SeaMove, block(block_id), area(to));
}

inline Action victual_to(std::string_view block_id) {
  return with_block(ActionKind::Victual, block(block_id));
}

inline Action pillage_of(std::string_view area_id) {
  return with_area(ActionKind::Pillage, area(area_id));
}

inline Action gain_to(std::string_view block_id) {
  return with_block(ActionKind::Gain, block(block_id));
}

}  // namespace blockfog::hots::testing
