#include "rules/hots/phases.h"

// Move phase: RULES 4 (group moves, paths, limits, the Anglo-Scottish border, battles created
// by movement, pinning, border-use record, Truce restrictions, the Norse).

namespace blockfog::hots::detail {
namespace {

bool is_activated(const Position& p, AreaId area) { return (p.activated >> area) & 1U; }

// RULES 4.7: a block may leave an area holding enemy blocks only while the side's non-reserve
// blocks there outnumber all enemy blocks there (reserves included). Asked only for an area
// holding enemy blocks, which is rare in the move phase, so it counts there and then.
bool pin_allows_leaving(const Position& p, AreaId area, Side side) {
  return !pin_count(p, area, side).pins();
}

// The step rules of RULES 4.3.2 for one side in one position, with what every check reads
// gathered once per query: a move query asks them for every border of every unmoved block.
class StepRules {
 public:
  StepRules(const Position& p, Side side)
      : p_(p),
        data_(game_data()),
        side_(index_of(side)),
        enemy_(index_of(core::other_side(side))),
        enemy_areas_(Presence::areas_of(p, core::other_side(side))),
        scotland_(side == Side::Scotland),
        truce_(p.truce_against == index_of(side)),
        mp_left_(p.mp >= 1) {}

  bool has_enemy(AreaId area) const { return (enemy_areas_ >> area) & 1U; }

  // May a block of the side in `from` (having come from `previous`) cross into `n`?
  // `enemy_here` is has_enemy(from), asked once per block by the caller.
  bool can_step(bool enemy_here, AreaId previous, const Neighbor& n) const {
    const auto& border = data_.borders[n.border];
    if (n.area == previous) return false;                               // 4.3.2.5
    if (p_.crossings[side_][n.border] >= border.limit) return false;    // 4.4
    if (border.anglo_scottish && !mp_left_) return false;               // 4.1.4
    if (enemy_here && p_.border_use[n.border] == enemy_) return false;  // 4.3.2.3
    if (truce_) {                                                       // 4.9
      if (has_enemy(n.area)) return false;
      if (scotland_ && n.area == data_.england) return false;
    }
    return true;
  }

  // RULES 4.2 and 4.1.4: the side's blocks that may begin a land move now, a bit per block.
  std::uint64_t startable() const {
    const Side side = side_of(side_);
    // On the map, in an activated area once no MP is left; unmoved, no reserve, not the Norse.
    const std::uint64_t from =
        mp_left_ ? p_.blocks.on_map() & blocks_of(side) : blocks_in_areas(p_, p_.activated, side);
    std::uint64_t can = from & ~p_.blocks.moved.bits & ~p_.blocks.reserve.bits &
                        ~(std::uint64_t{1} << data_.norse);  // 4.10
    // Pinned (4.7): asked for the few blocks in an area holding enemy blocks.
    for (auto facing = blocks_in_areas(p_, enemy_areas_, side) & can; facing != 0;
         facing &= facing - 1) {
      const int b = std::countr_zero(facing);
      if (!pin_allows_leaving(p_, p_.blocks.loc[b], side)) can &= ~(std::uint64_t{1} << b);
    }
    return can;
  }

  bool norse_can_move() const {
    const BlockId norse = data_.norse;
    const AreaId at = p_.blocks.loc[norse];
    return scotland_ && at < kAreaCount && !p_.blocks.moved[norse] && !p_.blocks.reserve[norse] &&
           mp_left_ && (!has_enemy(at) || pin_allows_leaving(p_, at, Side::Scotland));
  }

  // RULES 4.10.1: any other coastal area but England, unless a Truce forbids an attack.
  bool norse_destination(AreaId to) const {
    if (!data_.areas[to].coastal || to == data_.england) return false;
    if (to == p_.blocks.loc[data_.norse]) return false;
    return !(truce_ && has_enemy(to));
  }

 private:
  const Position& p_;
  const GameData& data_;
  std::uint8_t side_;
  std::uint8_t enemy_;
  std::uint32_t enemy_areas_;
  bool scotland_;
  bool truce_;
  bool mp_left_;
};

// After a step into an area without enemy blocks (take_step): may the block go on?
bool has_next_step(const Position& p, Side side, AreaId at, AreaId previous) {
  const StepRules rules(p, side);
  const bool enemy_here = rules.has_enemy(at);
  for (const auto& n : game_data().areas[at].neighbors) {
    if (rules.can_step(enemy_here, previous, n)) return true;
  }
  return false;
}

// RULES 4.6: the block entered an area holding enemy blocks.
void arrive_at_enemy(State& s, Side side, BlockId b, AreaId area, std::uint8_t origin,
                     std::uint8_t border) {
  auto& marker = s.battles[area];
  if (marker.attacker == kNone) {
    marker = BattleMarker{index_of(side), origin, border};  // 4.6.1.1
    add_log(s, LogKind::BattleCreated, Audience::Public, index_of(side), area);
  } else if (marker.attacker == index_of(side) && marker.main_border != kNone &&
             origin == marker.main_origin && border == marker.main_border) {
    // 4.6.1.2: same origin and border as the main attack: main attacker.
  } else {
    s.blocks.reserve.set(b, true);  // 4.6.1.2, 4.6.1.3, 4.10.4
    s.blocks.entry[b] = border == kNone ? kEntryBySea : border;
    add_log(s, LogKind::ReserveArrived, Audience::Public, index_of(side), area, s.blocks.entry[b]);
  }
  // 4.8.1: the border is recorded as last used by this side (never for sea moves, 4.8.2).
  if (border != kNone) s.border_use[border] = index_of(side);
}

// RULES 4.1.3: the move's cost, charged when it is complete.
void finish_move(State& s) {
  const auto origin = s.moving.origin;
  if (s.moving.crossed_anglo_scottish) {
    --s.mp;  // the crossing block pays its own MP and activates nothing
  } else if (!is_activated(s, origin)) {
    --s.mp;
    s.activated |= 1U << origin;
  }
  s.moving = MovingBlock{};
}

// Under hots-2's procedures the phase ends by itself when public facts alone show that
// nothing can move (no MP left and no unmoved block in an activated area), so that ending it
// tells the opponent nothing hidden (RULES 13.1.4). Under hots-3 it never ends by itself
// (4.11): with nothing left to move, the player is offered `end_move_phase` and `undo`, so
// that his last move can still be taken back.
bool nothing_can_move_publicly(const Position& p, Side side) {
  if (p.mp > 0) return false;
  const std::uint64_t unmoved =
      blocks_in_areas(p, p.activated, side) & ~p.blocks.moved.bits & ~p.blocks.reserve.bits;
  return unmoved == 0;
}

void end_move_phase(State& s, Side side) {
  add_log(s, LogKind::MovePhaseEnd, Audience::Public, index_of(side), 0, 0, s.mp);
  end_player_turn(s);
}

void end_if_done(State& s, Side side) {
  if (follows_hots3(s)) return;
  if (s.phase == Phase::Move && s.moving.block == kNone && nothing_can_move_publicly(s, side)) {
    end_move_phase(s, side);
  }
}

void take_step(State& s, Side side, AreaId to) {
  const auto& data = game_data();
  const BlockId b = s.moving.block;
  const AreaId from = s.blocks.loc[b];
  const BorderId border = data.border_between[from][to];
  ++s.crossings[index_of(side)][border];  // 4.3.3
  s.moving.crossed_anglo_scottish |= data.borders[border].anglo_scottish;
  s.moving.previous = from;
  ++s.moving.steps;
  s.blocks.loc[b] = to;
  // 13.2: the move is public as an anonymous block; its owner sees which block it is.
  add_private_log(s, side, LogKind::MoveStep, b, from, to, LogKind::MoveStepAnon, index_of(side),
                  from, to);
  if (has_enemy(s, to, side)) {  // 4.3.4, 4.6
    arrive_at_enemy(s, side, b, to, s.moving.origin, border);
    finish_move(s);
    return;
  }
  // 4.3.4: red border, England entered, or no further step. A spent movement allowance also
  // stops the block, but its owner says `stop` himself: stopping by itself would tell the
  // opponent the hidden block's allowance (RULES 13.1.4).
  if (data.borders[border].must_stop || to == data.england || !has_next_step(s, side, to, from)) {
    finish_move(s);
  }
}

void move_norse(State& s, Side side, AreaId to) {
  const auto norse = game_data().norse;
  const AreaId from = s.blocks.loc[norse];
  s.blocks.loc[norse] = to;
  s.blocks.moved.set(norse, true);
  --s.mp;  // 4.10.1: its own group, 1 MP, activates nothing
  // 4.10.5: Norse moves are announced, which reveals the block: no undo past this point.
  clear_undo(s);
  add_log(s, LogKind::NorseMove, Audience::Public, 0, from, to);
  if (has_enemy(s, to, side)) arrive_at_enemy(s, side, norse, to, kNone, kNone);  // 4.10.4
}

}  // namespace

PinCount pin_count(const Position& p, AreaId area, Side side) {
  const std::uint64_t here = p.blocks.at(area);
  return {count_bits(here & blocks_of(side) & ~p.blocks.reserve.bits),
          count_bits(here & blocks_of(core::other_side(side)))};
}

void enter_move_phase(State& s, Side side, int move_points) {
  s.phase = Phase::Move;
  s.active = index_of(side);
  s.mp = static_cast<std::uint8_t>(move_points);
  s.activated = 0;
  s.moving = MovingBlock{};
  add_log(s, LogKind::MovePhaseStart, Audience::Public, index_of(side), 0, 0, move_points);
  end_if_done(s, side);
}

void move_legal(const State& s, Side side, ActionList& out) {
  const auto& data = game_data();
  const StepRules rules(s, side);
  if (s.moving.block != kNone) {
    const AreaId at = s.blocks.loc[s.moving.block];
    const bool spent = s.moving.steps >= data.blocks[s.moving.block].movement;  // 4.3.4
    if (!spent) {
      const bool enemy_here = rules.has_enemy(at);
      for (const auto& n : data.areas[at].neighbors) {
        if (rules.can_step(enemy_here, s.moving.previous, n)) out.push_back(step(n.area));
      }
    }
    out.push_back(simple(ActionKind::Stop));
    return;
  }
  for (auto starts = rules.startable(); starts != 0; starts &= starts - 1) {  // in block order
    const int b = std::countr_zero(starts);
    const AreaId at = s.blocks.loc[b];
    const bool enemy_here = rules.has_enemy(at);
    for (const auto& n : data.areas[at].neighbors) {
      if (rules.can_step(enemy_here, kNone, n))
        out.push_back(move(static_cast<BlockId>(b), n.area));
    }
  }
  if (rules.norse_can_move()) {
    for (AreaId a = 0; a < kAreaCount; ++a) {
      if (rules.norse_destination(a)) out.push_back(norse_move(a));
    }
  }
  out.push_back(simple(ActionKind::EndMovePhase));
}

void move_apply(State& s, Side side, const Action& action) {
  switch (action.kind) {
    case ActionKind::Move:
      s.moving = MovingBlock{action.a, s.blocks.loc[action.a], kNone, 0, false};
      s.blocks.moved.set(action.a, true);  // 4.3.6
      take_step(s, side, action.b);
      break;
    case ActionKind::Step:
      take_step(s, side, action.a);
      break;
    case ActionKind::Stop:
      finish_move(s);
      break;
    case ActionKind::NorseMove:
      move_norse(s, side, action.a);
      break;
    case ActionKind::EndMovePhase:
      end_move_phase(s, side);
      return;
    default:
      return;
  }
  end_if_done(s, side);
}

}  // namespace blockfog::hots::detail
