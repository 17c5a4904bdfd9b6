#include "rules/hots/events.h"

// Coronation of a Scottish King: RULES 8.

namespace blockfog::hots::detail {
namespace {

AreaId fife() { return *game_data().area_by_id("fife"); }

BlockId scottish_noble(std::string_view key) {
  for (const auto& noble : game_data().nobles) {
    if (noble.key == key) return noble.blocks[index_of(Side::Scotland)];
  }
  return kNone;
}

}  // namespace

void coronation_legal(const State& s, Side side, ActionList& out) {
  if (side != Side::Scotland || s.king_crowned) return;  // 8.1: once per game, Scotland only
  const bool wallace_dead = s.blocks.loc[game_data().wallace] == kDead;
  if (wallace_dead && s.blocks.loc[scottish_noble("bruce")] == fife()) {
    out.push_back(simple(ActionKind::CrownBruce));
  }
  if (wallace_dead && s.blocks.loc[scottish_noble("comyn")] == fife()) {
    out.push_back(simple(ActionKind::CrownComyn));
  }
  if (s.year >= 1301 && on_map(s, game_data().french_knights)) {  // 8.2.3
    out.push_back(simple(ActionKind::ReturnOfTheKing));
  }
}

void crown(State& s, const Action& action) {
  const bool balliol = action.kind == ActionKind::ReturnOfTheKing;
  const AreaId area = balliol ? s.blocks.loc[game_data().french_knights] : fife();
  s.blocks.set(game_data().king,
               BlockState{area, static_cast<std::uint8_t>(
                                    game_data().blocks[game_data().king].max_strength)});
  s.king_crowned = true;
  clear_undo(s);
  const int candidate = action.kind == ActionKind::CrownBruce ? 0 : balliol ? 2 : 1;
  add_log(s, LogKind::Coronation, Audience::Public, candidate, area);
  // 8.3.2: Bruce drives the Comyn faction to England; Comyn or Balliol, the Bruce faction.
  const Faction leaving = action.kind == ActionKind::CrownBruce ? Faction::Comyn : Faction::Bruce;
  std::uint32_t battles = 0;
  for (const auto& noble : game_data().nobles) {
    const BlockId b = noble.blocks[index_of(Side::Scotland)];
    if (noble.faction != leaving || !on_map(s, b)) continue;
    const AreaId at = s.blocks.loc[b];
    const BlockId english = noble.blocks[index_of(Side::England)];
    s.blocks.set(english, BlockState{at, s.blocks.strength[b]});
    s.blocks.set(b, BlockState{kNotInPlay, 0});
    add_log(s, LogKind::CoronationDefects, Audience::Public, english, at);
    if (is_contested(s, at)) battles |= 1U << at;
  }
  if (battles != 0) {
    fight_defection_battles(s, battles, Side::England);  // 8.4: England attacks
    return;
  }
  end_event(s);
}

}  // namespace blockfog::hots::detail
