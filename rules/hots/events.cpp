#include "rules/hots/events.h"

#include <algorithm>
#include <bit>

// Event cards: RULES 7 (Herald 7.2, Sea Move 7.4, Truce 7.5, Victuals 7.6; Pillage is in
// pillage.cpp), and the event step in general (7.1, 14 #2-9).

namespace blockfog::hots::detail {
namespace {

EventKind event_of(const State& s, Side side) {
  return game_data().cards[played_card(s, side)].event;
}

// --- Herald (7.2) ----------------------------------------------------------------------------

// Noble indices of the enemy's two-block nobles (never Moray, 7.2.2); all are on the map.
FixedList<std::uint8_t, kBlocksPerSide> herald_targets(const Position& p, Side side) {
  FixedList<std::uint8_t, kBlocksPerSide> out;  // fewer nobles than blocks of a side
  const auto& nobles = game_data().nobles;
  for (std::size_t i = 0; i < nobles.size(); ++i) {
    if (on_map(p, nobles[i].blocks[index_of(core::other_side(side))])) {
      out.push_back(static_cast<std::uint8_t>(i));
    }
  }
  return out;
}

void herald_roll(State& s, Side side) {
  const int die = s.rng.roll_die();
  clear_undo(s);
  add_log(s, LogKind::HeraldRoll, Audience::Public, index_of(side), 0, 0, die);
  if (die <= 4 && !herald_targets(s, side).empty()) {
    s.event.stage = EventStage::HeraldName;
    return;
  }
  end_event(s);  // 7.2.2: a failure names nobody; a success without a target does nothing
}

void herald_convert(State& s, Side side, std::uint8_t noble) {
  const BlockId b = game_data().nobles[noble].blocks[index_of(core::other_side(side))];
  const auto& info = game_data().blocks[b];
  const AreaId area = s.blocks.loc[b];
  s.blocks.set(info.twin, BlockState{area, s.blocks.strength[b]});  // at its current strength
  s.blocks.set(b, BlockState{kNotInPlay, 0});
  add_log(s, LogKind::HeraldConverts, Audience::Public, info.twin, area);
  if (is_contested(s, area)) {
    fight_defection_battles(s, 1U << area, side);  // 7.2.3: the converted noble attacks
    return;
  }
  end_event(s);
}

// --- Sea Move (7.4) --------------------------------------------------------------------------

// The areas a sea move of `side` may end in, whatever the origin (bit per area): friendly and
// coastal (7.4.2), and for Scotland not England under an English Truce (4.9, 7.4.4).
std::uint32_t sea_destinations(const Position& p, Side side) {
  const Presence presence(p);
  std::uint32_t out = 0;
  for (AreaId to = 0; to < kAreaCount; ++to) {
    const bool friendly = presence.has(to, side) && !presence.has_enemy(to, side);
    if (!game_data().areas[to].coastal || !friendly) continue;
    if (side == Side::Scotland && to == game_data().england &&
        p.truce_against == index_of(Side::Scotland)) {
      continue;
    }
    out |= 1U << to;
  }
  return out;
}

void sea_move_legal(const State& s, Side side, ActionList& out) {
  const bool first = s.event.stage == EventStage::Start;
  const std::uint32_t destinations = first ? sea_destinations(s, side) : 0;
  for (BlockId b = 0; b < kBlockCount; ++b) {
    const BlockState block = s.blocks.get(b);
    if (owner_of(b) != side || block.loc >= kAreaCount || block.reserve) continue;
    if (b == game_data().norse || !game_data().areas[block.loc].coastal) continue;  // 7.4.2
    if (first) {
      // Any such area but the block's own, in area order.
      for (auto bits = destinations & ~(1U << block.loc); bits != 0; bits &= bits - 1) {
        out.push_back(to_area(ActionKind::SeaMove, b, static_cast<AreaId>(std::countr_zero(bits))));
      }
    } else if (block.loc == s.event.area && !block.moved) {
      out.push_back(to_area(ActionKind::SeaMove, b, s.event.dest));
    }
  }
  if (!first) out.push_back(simple(ActionKind::Done));
}

void sea_move(State& s, Side side, BlockId b, AreaId to) {
  const AreaId from = s.blocks.loc[b];
  s.blocks.loc[b] = to;
  s.blocks.moved.set(b, true);  // 7.4.3
  s.event = EventState{EventStage::SeaMove, from, to, static_cast<std::uint8_t>(s.event.count + 1)};
  // 7.4.5: origin, destination and number are public; which blocks, only their owner knows.
  add_private_log(s, side, LogKind::SeaMoved, b, from, to, LogKind::SeaMovedAnon, index_of(side),
                  from, to);
  if (s.event.count >= 2) end_event(s);
}

// --- Victuals (7.6) --------------------------------------------------------------------------

void victuals_legal(const State& s, Side side, ActionList& out) {
  const bool first = s.event.stage == EventStage::Start;
  if (first || s.event.count < 3) {
    for (BlockId b = 0; b < kBlockCount; ++b) {
      const BlockState block = s.blocks.get(b);
      if (owner_of(b) != side || block.loc >= kAreaCount) continue;
      if (!first && block.loc != s.event.area) continue;
      if (block.strength < game_data().blocks[b].max_strength) {
        out.push_back(with_block(ActionKind::Victual, b));
      }
    }
  }
  // The player always ends Victuals himself, so that nobody learns how many steps it gave.
  if (!first) out.push_back(simple(ActionKind::Done));
}

void victual(State& s, Side side, BlockId b) {
  if (s.event.stage == EventStage::Start) {
    s.event = EventState{EventStage::Victuals, s.blocks.loc[b]};
    add_log(s, LogKind::VictualsArea, Audience::Public, index_of(side), s.event.area);  // 7.6.3
  }
  ++s.event.count;
  ++s.blocks.strength[b];
  add_log(s, LogKind::StepAdded, only(side), b, 0, 0, s.blocks.strength[b]);
}

void start_legal(const State& s, Side side, ActionList& out) {
  switch (event_of(s, side)) {
    case EventKind::Herald:
      out.push_back(simple(ActionKind::Roll));
      break;
    case EventKind::Pillage:
      pillage_legal(s, side, out);
      break;
    case EventKind::SeaMove:
      sea_move_legal(s, side, out);
      break;
    case EventKind::Truce:
      out.push_back(simple(ActionKind::Truce));
      break;
    case EventKind::Victuals:
      victuals_legal(s, side, out);
      break;
    case EventKind::None:
      break;
  }
  coronation_legal(s, side, out);  // 7.1.2, 14 #2
  out.push_back(simple(ActionKind::Decline));
}

}  // namespace

void end_event(State& s) {
  s.event = EventState{};
  end_player_turn(s);
}

void event_legal(const State& s, Side side, ActionList& out) {
  if (s.active != index_of(side)) return;
  switch (s.event.stage) {
    case EventStage::Start:
      start_legal(s, side, out);
      return;
    case EventStage::HeraldName:
      for (auto noble : herald_targets(s, side)) out.push_back({ActionKind::Herald, noble, kNone});
      return;
    case EventStage::PillageLosses:
    case EventStage::PillageGains:
      pillage_legal(s, side, out);
      return;
    case EventStage::SeaMove:
      sea_move_legal(s, side, out);
      return;
    case EventStage::Victuals:
      victuals_legal(s, side, out);
      return;
  }
}

void event_apply(State& s, Side side, const Action& action) {
  switch (action.kind) {
    case ActionKind::Decline:
      add_log(s, LogKind::EventDeclined, Audience::Public, index_of(side), played_card(s, side));
      end_event(s);
      return;
    case ActionKind::Truce:
      // 7.5.2: for the rest of this game turn the opponent may not attack or enter England.
      s.truce_against = index_of(core::other_side(side));
      add_log(s, LogKind::TruceInForce, Audience::Public, s.truce_against);
      end_event(s);
      return;
    case ActionKind::Roll:
      herald_roll(s, side);
      return;
    case ActionKind::Herald:
      herald_convert(s, side, action.a);
      return;
    case ActionKind::SeaMove:
      sea_move(s, side, action.a, action.b);
      return;
    case ActionKind::Victual:
      victual(s, side, action.a);
      return;
    case ActionKind::Done:
      if (s.event.stage == EventStage::PillageLosses || s.event.stage == EventStage::PillageGains) {
        pillage_apply(s, side, action);
      } else {
        end_event(s);
      }
      return;
    case ActionKind::CrownBruce:
    case ActionKind::CrownComyn:
    case ActionKind::ReturnOfTheKing:
      crown(s, action);
      return;
    default:
      pillage_apply(s, side, action);
      return;
  }
}

}  // namespace blockfog::hots::detail
