#include "rules/hots/winter.h"

#include <algorithm>
#include <array>

#include "rules/hots/fixed_list.h"

// The winter turn's order and the nobles' homecoming: RULES 10, 10.1, 10.2, 14.

namespace blockfog::hots::detail {
namespace {

const NobleInfo& noble_named(std::string_view key) {
  const auto& nobles = game_data().nobles;
  return *std::find_if(nobles.begin(), nobles.end(),
                       [key](const NobleInfo& n) { return n.key == key; });
}

int noble_index(const NobleInfo& noble) {
  return static_cast<int>(&noble - game_data().nobles.data());
}

bool has_two_homes(const NobleInfo& noble) {
  return game_data().blocks[noble.blocks[0]].homes.size() == 2;
}

// 10.1.1 / 10.2: a one-home noble of `side` goes home, changing sides there if the enemy holds
// it.
void go_home(State& s, BlockId b) {
  const auto& info = game_data().blocks[b];
  const AreaId home = info.homes.front();
  if (s.blocks.loc[b] != home) {
    relocate(s, b, home);
    add_log(s, LogKind::NobleHome, Audience::Public, b, home);
  }
  if (has_enemy(s, home, info.owner)) {
    const BlockId twin = change_sides(s, b);
    add_log(s, LogKind::WinterDefection, Audience::Public, twin, home);
  }
}

void homecoming(State& s, Side side) {
  for (const auto& noble : game_data().nobles) {
    const BlockId b = noble.blocks[index_of(side)];
    if (on_map(s, b) && !has_two_homes(noble)) go_home(s, b);
  }
}

// 10.1.2: returns true when somebody must choose the home of `b` (the step then waits).
bool place_two_home_noble(State& s, BlockId b) {
  const auto& info = game_data().blocks[b];
  AreaList allowed;
  for (AreaId h : info.homes) {
    if (open_for(s, h, info.owner)) allowed.push_back(h);
  }
  s.winter.placed = static_cast<std::uint16_t>(s.winter.placed | (1U << info.noble));
  if (allowed.size() == 1) {
    if (s.blocks.loc[b] != allowed[0]) {
      relocate(s, b, allowed[0]);
      add_log(s, LogKind::NobleHome, Audience::Public, b, allowed[0]);
    }
    return false;
  }
  BlockId homing = b;
  if (allowed.empty()) {
    // Both homes held by the enemy: he changes sides and his new owner picks the home.
    homing = change_sides(s, b);
    add_log(s, LogKind::WinterDefection, Audience::Public, homing, s.blocks.loc[homing]);
  }
  s.winter.homing = homing;
  s.winter.step = WinterStep::NobleHome;
  s.active = index_of(owner_of(homing));
  return true;
}

bool is_placed(const Position& p, const NobleInfo& noble) {
  return (p.winter.placed >> noble_index(noble)) & 1U;
}

// Runs the homecoming (10.1, 10.2) until a Bruce/Comyn choice is needed; true when done.
bool continue_homecoming(State& s) {
  // Looked up by name once: this runs at every step of the homecoming.
  static const std::array<const NobleInfo*, 2> two_home_nobles = {&noble_named("bruce"),
                                                                  &noble_named("comyn")};
  for (Side side : {Side::England, Side::Scotland}) {
    for (const NobleInfo* two_homes : two_home_nobles) {
      const auto& noble = *two_homes;
      const BlockId b = noble.blocks[index_of(side)];
      if (!on_map(s, b) || is_placed(s, noble)) continue;
      if (place_two_home_noble(s, b)) return false;
    }
    if (side == Side::England) homecoming(s, Side::Scotland);  // 10.2 after 10.1
  }
  return true;
}

}  // namespace

void relocate(State& s, BlockId b, AreaId area) { s.blocks.loc[b] = area; }

BlockId change_sides(State& s, BlockId b) {
  const auto twin = game_data().blocks[b].twin;
  s.blocks.set(twin, BlockState{s.blocks.loc[b], s.blocks.strength[b]});
  s.blocks.set(b, BlockState{kNotInPlay, 0});
  return twin;
}

void disband(State& s, BlockId b) {
  const AreaId area = s.blocks.loc[b];
  s.blocks.set(b, BlockState{kPool, 0});
  add_private_log(s, owner_of(b), LogKind::Disbanded, b, area, 0, LogKind::DisbandedAnon,
                  index_of(owner_of(b)), area, 0);
}

bool open_for(const Position& p, AreaId area, Side side) {
  return is_friendly(p, area, side) || is_vacant(p, area);
}

void enter_winter(State& s) {
  // RULES 3.3: after a double event the remaining cards are discarded unplayed.
  for (auto hand = s.cards.at(CardPlace::Hand); hand != 0; hand &= hand - 1) {
    s.cards.set(std::countr_zero(hand), CardState{});
  }
  clear_undo(s);
  s.phase = Phase::Winter;
  s.active = kNone;
  s.winter = WinterState{};
  add_log(s, LogKind::WinterStart, Audience::Public, 0, 0, 0, s.year);
  homecoming(s, Side::England);  // 10.1.1
  if (continue_homecoming(s)) enter_scotland_homes(s);
}

void next_winter_step(State& s) {
  switch (s.winter.step) {
    case WinterStep::NobleHome:
      if (continue_homecoming(s)) enter_scotland_homes(s);
      return;
    case WinterStep::ScotlandHomes:
      enter_england_disband(s);
      return;
    case WinterStep::EnglandDisband:
      if (follows_hots3(s)) {
        enter_scotland_wallace(s);
      } else {
        enter_scotland_disband(s);
      }
      return;
    case WinterStep::ScotlandWallace:
      enter_scotland_disband(s);
      return;
    case WinterStep::ScotlandDisband:
      french_knights_check(s);
      enter_scotland_build(s);
      return;
    case WinterStep::ScotlandBuild:
      enter_england_build(s);
      return;
    case WinterStep::EnglandBuild:
    case WinterStep::None:
      finish_winter(s);
      return;
  }
}

void winter_legal(const State& s, Side side, ActionList& out) {
  if (s.active != index_of(side)) return;
  if (s.winter.step == WinterStep::NobleHome) {
    for (AreaId h : game_data().blocks[s.winter.homing].homes) {
      out.push_back(with_area(ActionKind::Home, h));
    }
    return;
  }
  winter_step_legal(s, side, out);
}

void winter_apply(State& s, Side side, const Action& action) {
  if (action.kind == ActionKind::Home) {
    const BlockId b = s.winter.homing;
    if (s.blocks.loc[b] != action.a) relocate(s, b, action.a);
    add_log(s, LogKind::NobleHome, Audience::Public, b, action.a);  // public (13.4.5)
    // RULES 14 "Undo": revealed to everybody, so it cannot be taken back (hots-3; under
    // hots-2 the history was cleared only when the awaited side changed).
    if (follows_hots3(s)) clear_undo(s);
    s.winter.homing = kNone;
    next_winter_step(s);
    return;
  }
  winter_step_apply(s, side, action);
}

}  // namespace blockfog::hots::detail
