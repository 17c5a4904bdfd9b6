#include <algorithm>
#include <bit>

#include "rules/hots/fixed_list.h"
#include "rules/hots/winter.h"

// The first three opaque winter steps: Moray and the King (10.3, 10.5), Edward and English
// disbanding (10.6, 10.7), Wallace and Scottish disbanding (10.8, 10.9).

namespace blockfog::hots::detail {
namespace {

AreaId area_named(std::string_view id) { return *game_data().area_by_id(id); }

// Looked up once: asked for every block in the disband checks.
AreaId selkirk() {
  static const AreaId area = area_named("selkirk");
  return area;
}

AreaId moray_home() {  // asked at every listing of Scotland's winter homes step
  static const AreaId area = area_named("moray");
  return area;
}

// The blocks whose data satisfies `is_kind`, a bit per block: the disband listings take them
// from the side's blocks on the map with a mask.
template <typename Predicate>
std::uint64_t blocks_where(Predicate is_kind) {
  std::uint64_t bits = 0;
  for (BlockId b = 0; b < kBlockCount; ++b) {
    bits |= std::uint64_t{is_kind(game_data().blocks[b])} << b;
  }
  return bits;
}

bool is_retinue_type(BlockType type) {
  return type == BlockType::Archers || type == BlockType::Knights || type == BlockType::Hobelars;
}

std::uint64_t english_infantry() {
  static const std::uint64_t bits = blocks_where([](const BlockInfo& info) {
    return info.owner == Side::England && info.type == BlockType::Infantry;
  });
  return bits;
}

std::uint64_t english_retinue() {  // 10.7.2, 10.7.4
  static const std::uint64_t bits = blocks_where([](const BlockInfo& info) {
    return info.owner == Side::England && is_retinue_type(info.type);
  });
  return bits;
}

std::uint64_t scottish_non_nobles() {  // 10.9
  static const std::uint64_t bits = blocks_where([](const BlockInfo& info) {
    return info.owner == Side::Scotland && info.type != BlockType::Noble;
  });
  return bits;
}

// --- Scotland: Moray and the King -----------------------------------------------------------

bool moray_may_go_home(const Position& p) {
  const AreaId home = moray_home();
  const BlockState moray = p.blocks.get(game_data().moray);
  return moray.loc < kAreaCount && moray.loc != home && !p.winter.moray_moved &&
         open_for(p, home, Side::Scotland);
}

AreaList king_cathedrals(const Position& p) {
  AreaList out;
  const BlockState king = p.blocks.get(game_data().king);
  if (king.loc >= kAreaCount || p.winter.king_moved) return out;
  for (AreaId a = 0; a < kAreaCount; ++a) {
    if (game_data().areas[a].cathedral && a != king.loc && open_for(p, a, Side::Scotland)) {
      out.push_back(a);
    }
  }
  return out;
}

// --- England: Edward and disbanding ---------------------------------------------------------

bool is_edward_question(const Position& p) {
  const BlockState edward = p.blocks.get(game_data().edward);
  return !p.winter.edward_decided && !p.edward_ii && !p.edward_wintered_last &&
         edward.loc < kAreaCount && edward.loc != game_data().england;
}

AreaId wintering_edward_area(const Position& p) {
  return p.winter.edward_winters ? p.blocks.loc[game_data().edward] : kNone;
}

// 10.7.1, 10.7.2: disbanding without choice. It runs when England's step begins, so that
// whether an Edward question follows cannot be told from its timing (13.1.4); the retinue in
// the area of an Edward I who may still winter waits for his answer.
void automatic_english_disbanding(State& s) {
  const BlockId edward = game_data().edward;
  const bool undecided = is_edward_question(s);
  const AreaId with_edward = undecided ? s.blocks.loc[edward] : wintering_edward_area(s);
  for (BlockId b = 0; b < kBlockCount; ++b) {
    const auto& info = game_data().blocks[b];
    if (info.owner != Side::England || !on_map(s, b) || info.type == BlockType::Noble) continue;
    const AreaId at = s.blocks.loc[b];
    const bool in_england = at == game_data().england;
    const bool retinue = is_retinue_type(info.type) && at != with_edward;
    if (in_england || retinue) disband(s, b);
  }
}

// 10.7.3: English infantry that must go because its area is over the printed castle limit.
// (The loops here run over England's blocks only: no other block qualifies.)
BlockList forced_english_disbands(const Position& p) {
  BlockList out;
  const AreaId with_edward = wintering_edward_area(p);
  auto infantry = p.blocks.on_map() & english_infantry();
  for (; infantry != 0; infantry &= infantry - 1) {  // in block order
    const auto b = static_cast<BlockId>(std::countr_zero(infantry));
    const AreaId at = p.blocks.loc[b];
    if (at != with_edward && count_in_area(p, at) > game_data().areas[at].castle_limit)
      out.push_back(b);
  }
  return out;
}

void decide_edward(State& s, bool winters) {
  s.winter.edward_decided = true;
  s.winter.edward_winters = winters;
  const BlockId edward = game_data().edward;
  if (winters) {
    clear_undo(s);  // announced (13.4.5)
    add_log(s, LogKind::EdwardWinters, Audience::Public, 0, s.blocks.loc[edward]);
  } else if (on_map(s, edward)) {
    disband(s, edward);  // others see an anonymous block leave (10.6.4)
  }
  automatic_english_disbanding(s);  // now the retinue that stayed with him, if he left
}

void england_disband_legal(const State& s, ActionList& out) {
  const BlockId edward = game_data().edward;
  if (is_edward_question(s)) {
    out.push_back(simple(ActionKind::Winter));
    out.push_back(with_block(ActionKind::Disband, edward));
    return;
  }
  const auto forced = forced_english_disbands(s);
  for (BlockId b : forced) out.push_back(with_block(ActionKind::Disband, b));
  if (!forced.empty()) return;
  // 10.7.4: any further infantry, and the retinue wintering with Edward, may go.
  const AreaId with_edward = wintering_edward_area(s);  // kNone: no block is there
  const std::uint64_t retinue = english_retinue() & s.blocks.at(with_edward);
  auto may_go = s.blocks.on_map() & (english_infantry() | retinue);
  for (; may_go != 0; may_go &= may_go - 1) {  // in block order
    out.push_back(with_block(ActionKind::Disband, static_cast<BlockId>(std::countr_zero(may_go))));
  }
  out.push_back(simple(ActionKind::Done));
}

// --- Scotland: Wallace and disbanding -------------------------------------------------------

bool is_wallace_in_selkirk(const Position& p, BlockId b) {
  return b == game_data().wallace && p.blocks.loc[b] == selkirk();
}

bool wallace_may_go_to_selkirk(const Position& p) {
  const BlockState wallace = p.blocks.get(game_data().wallace);
  return wallace.loc < kAreaCount && wallace.loc != selkirk() && !p.winter.wallace_moved &&
         open_for(p, selkirk(), Side::Scotland);
}

void heal_wallace(State& s) {
  auto& wallace = s.blocks.strength[game_data().wallace];
  const int max = game_data().blocks[game_data().wallace].max_strength;
  wallace = static_cast<std::uint8_t>(std::min(max, wallace + 2));  // 10.8
  s.winter.wallace_moved = true;
  add_log(s, LogKind::WallaceSelkirk, Audience::Public);
}

// 10.9.1: Scottish non-nobles that must go because their area is over the Scottish limit.
// (The loops here run over Scotland's blocks only: no other block qualifies.)
BlockList forced_scottish_disbands(const Position& p) {
  BlockList out;
  const bool wallace_in_selkirk = is_wallace_in_selkirk(p, game_data().wallace);
  auto candidates = p.blocks.on_map() & scottish_non_nobles();
  if (wallace_in_selkirk) candidates &= ~(std::uint64_t{1} << game_data().wallace);
  for (; candidates != 0; candidates &= candidates - 1) {  // in block order
    const auto b = static_cast<BlockId>(std::countr_zero(candidates));
    const AreaId at = p.blocks.loc[b];
    const int exempt = wallace_in_selkirk && at == selkirk();
    if (count_in_area(p, at) - exempt > game_data().areas[at].scottish_castle_limit)
      out.push_back(b);
  }
  return out;
}

void scotland_disband_legal(const State& s, ActionList& out) {
  // hots-2 offers Wallace's move among the disbanding actions; hots-3 asks it first.
  if (!follows_hots3(s) && wallace_may_go_to_selkirk(s)) {
    out.push_back(simple(ActionKind::ToSelkirk));
  }
  const auto forced = forced_scottish_disbands(s);
  for (BlockId b : forced) out.push_back(with_block(ActionKind::Disband, b));
  if (!forced.empty()) return;
  // 10.9.2: voluntary
  auto may_go = s.blocks.on_map() & scottish_non_nobles();
  for (; may_go != 0; may_go &= may_go - 1) {  // in block order
    out.push_back(with_block(ActionKind::Disband, static_cast<BlockId>(std::countr_zero(may_go))));
  }
  out.push_back(simple(ActionKind::Done));
}

}  // namespace

void enter_scotland_homes(State& s) {
  s.winter.step = WinterStep::ScotlandHomes;
  s.active = index_of(Side::Scotland);
}

void enter_england_disband(State& s) {
  s.winter.step = WinterStep::EnglandDisband;
  s.active = index_of(Side::England);
  if (!s.edward_ii && s.year == 1306) {  // 6.1.2, 10.6.2
    s.edward_ii = true;
    add_log(s, LogKind::EdwardBecomesII, Audience::Public);
  }
  if (is_edward_question(s)) {
    automatic_english_disbanding(s);
  } else {
    decide_edward(s, false);
  }
}

// 10.8 before 10.9 (table 14 #23, #24). Others see one "Scotland: winter" step whether or not
// Wallace has a question (13.1.4): the question is left out only when it does not apply, and
// Scotland's disbanding is then asked at once, with nothing logged in between.
void enter_scotland_wallace(State& s) {
  s.active = index_of(Side::Scotland);
  if (is_wallace_in_selkirk(s, game_data().wallace)) heal_wallace(s);  // 10.8.1
  if (wallace_may_go_to_selkirk(s)) {                                  // 10.8.2
    s.winter.step = WinterStep::ScotlandWallace;
    return;
  }
  enter_scotland_disband(s);
}

void enter_scotland_disband(State& s) {
  s.winter.step = WinterStep::ScotlandDisband;
  s.active = index_of(Side::Scotland);
  // Under hots-2 Wallace's step (10.8) is part of this one; under hots-3
  // enter_scotland_wallace has healed him already.
  if (!follows_hots3(s) && is_wallace_in_selkirk(s, game_data().wallace))
    heal_wallace(s);  // 10.8.1
}

void winter_step_legal(const State& s, Side side, ActionList& out) {
  switch (s.winter.step) {
    case WinterStep::ScotlandHomes:
      if (moray_may_go_home(s)) out.push_back(simple(ActionKind::GoHome));
      for (AreaId a : king_cathedrals(s)) out.push_back(with_area(ActionKind::MoveKing, a));
      out.push_back(simple(ActionKind::Done));
      return;
    case WinterStep::EnglandDisband:
      england_disband_legal(s, out);
      return;
    case WinterStep::ScotlandWallace:
      out.push_back(simple(ActionKind::ToSelkirk));
      out.push_back(simple(ActionKind::Stay));
      return;
    case WinterStep::ScotlandDisband:
      scotland_disband_legal(s, out);
      return;
    case WinterStep::ScotlandBuild:
    case WinterStep::EnglandBuild:
      build_legal(s, side, out);
      return;
    case WinterStep::NobleHome:
    case WinterStep::None:
      return;
  }
}

void winter_step_apply(State& s, Side side, const Action& action) {
  switch (action.kind) {
    case ActionKind::GoHome: {
      const AreaId from = s.blocks.loc[game_data().moray];
      relocate(s, game_data().moray, moray_home());
      s.winter.moray_moved = true;
      clear_undo(s);  // announced (13.4.5)
      add_log(s, LogKind::MorayHome, Audience::Public, 0, moray_home(), from);
      return;
    }
    case ActionKind::MoveKing: {
      const AreaId from = s.blocks.loc[game_data().king];
      relocate(s, game_data().king, action.a);
      s.winter.king_moved = true;
      clear_undo(s);
      add_log(s, LogKind::KingToCathedral, Audience::Public, 0, from, action.a);
      return;
    }
    case ActionKind::Winter:
      decide_edward(s, true);
      return;
    case ActionKind::Disband:
      if (action.a == game_data().edward && is_edward_question(s)) {
        decide_edward(s, false);
      } else {
        disband(s, action.a);
      }
      return;
    case ActionKind::ToSelkirk:
      relocate(s, game_data().wallace, selkirk());
      clear_undo(s);
      heal_wallace(s);  // announced (13.4.5)
      if (s.winter.step == WinterStep::ScotlandWallace) enter_scotland_disband(s);
      return;
    case ActionKind::Stay:  // hidden: no line for anybody (10.8.3, 13.1.4)
      enter_scotland_disband(s);
      return;
    case ActionKind::AddStep:
    case ActionKind::Draw:
      build_apply(s, side, action);
      return;
    case ActionKind::Done:
      next_winter_step(s);
      return;
    default:
      return;
  }
}

}  // namespace blockfog::hots::detail
