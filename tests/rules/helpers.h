#pragma once

// Small helpers shared by the rule tests (winter, battle and event cases): actions by id,
// where a block is, the legal actions and the log as a role sees them, and the common ways
// of reaching a winter or a battle. Each test file used to carry its own copy.

#include <algorithm>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
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

inline std::vector<std::string> log_of(const Fixture& f, Role role) {
  std::vector<std::string> lines;
  const nlohmann::json v = f.view(role);
  for (const auto& line : v.at("log")) lines.push_back(line.at("text"));
  return lines;
}

inline bool log_has(const Fixture& f, Role role, std::string_view text) {
  const auto lines = log_of(f, role);
  return std::any_of(lines.begin(), lines.end(), [text](const std::string& line) {
    return line.find(text) != std::string::npos;
  });
}

// Whether a log line of `role` written since the last winter began contains `text`.
inline bool winter_log_has(const Fixture& f, Role role, std::string_view text) {
  const auto lines = log_of(f, role);
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

// One card each, both move phases ended without moving: the empty hands start the winter.
inline void to_winter(Fixture& f) {
  f.hands({"move1_1"}, {"move1_2"}).play_cards("move1_1", "move1_2");
  while (f.state().phase == Phase::Move) {
    f.act(side_of(f.state().active), simple(ActionKind::EndMovePhase));
  }
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

inline std::vector<std::string> log_lines(const Fixture& f, Role role) {
  const nlohmann::json v = f.view(role);
  std::vector<std::string> lines;
  for (const auto& line : v.at("log")) lines.push_back(line.at("text"));
  return lines;
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

}  // namespace blockfog::hots::testing
