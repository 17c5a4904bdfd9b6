#include <algorithm>

#include "rules/hots/fixed_list.h"
#include "rules/hots/phases.h"

// Year and game-turn sequencing: RULES 2.2 and 2.3.

namespace blockfog::hots::detail {
namespace {

constexpr int kHandSize = 5;  // RULES 1.7

bool hands_empty(const Position& p) { return p.cards.at(CardPlace::Hand) == 0; }

// RULES 2.3: what is cleared at the start of every game turn.
void clear_turn_markers(Position& p) {
  p.truce_against = kNone;
  for (auto& side : p.crossings) side.fill(0);
  p.border_use.fill(kNone);
  p.battles.fill(BattleMarker{});
  p.blocks.moved = {};
  p.blocks.reserve = {};
  p.blocks.entry.fill(kNone);
  p.blocks.acted = {};
  p.blocks.arrival_hidden = {};
}

// RULES 9.1: the border raid is due when Scots alone hold England and England has a non-noble
// on the map to give up.
bool border_raid_due(const Position& p) {
  const auto england = game_data().england;
  if (count_in_area(p, england, Side::Scotland) == 0) return false;
  if (count_in_area(p, england, Side::England) > 0) return false;
  const auto& blocks = game_data().blocks;
  for (int b = 0; b < kBlockCount; ++b) {
    if (blocks[b].owner == Side::England && blocks[b].type != BlockType::Noble && on_map(p, b)) {
      return true;
    }
  }
  return false;
}

}  // namespace

// RULES 12.2.3: checked at the end of every game turn, after the border raid (and, as an
// Interpretation, after every winter).
bool sudden_death_all_nobles(State& s) {
  if (nobles_controlled(s, Side::England) == 0) {
    end_game(s, Side::Scotland, EndReason::AllNoblesScotland);
    return true;
  }
  if (nobles_controlled(s, Side::Scotland) == 0) {
    end_game(s, Side::England, EndReason::AllNoblesEngland);
    return true;
  }
  return false;
}

void end_turn(State& s) {
  if (sudden_death_all_nobles(s)) return;
  if (s.double_event || hands_empty(s)) {
    enter_winter(s);
  } else {
    start_turn(s);
  }
}

void end_battle_phase(State& s) {
  if (border_raid_due(s)) {
    s.phase = Phase::BorderRaid;
    s.active = index_of(Side::England);
    add_log(s, LogKind::BorderRaidDue, Audience::Public);
    return;
  }
  end_turn(s);
}

void add_log(State& s, LogKind kind, Audience audience, int a, int b, int c, int n) {
  s.log.push_back(LogEntry{kind, audience, static_cast<std::uint8_t>(a),
                           static_cast<std::uint8_t>(b), static_cast<std::uint8_t>(c), 0,
                           static_cast<std::int16_t>(n)});
}

void add_private_log(State& s, Side owner, LogKind kind, int a, int b, int c, LogKind anon,
                     int anon_a, int anon_b, int anon_c, int n) {
  add_log(s, kind, only(owner), a, b, c, n);
  add_log(s, anon, all_but(owner), anon_a, anon_b, anon_c, n);
}

void start_year(State& s) {
  // RULES 2.2.1: shuffle all 25 cards and deal 5 to each player.
  s.cards = CardTable{};
  DeckList deck;  // in place: no heap per year
  for (int card = 0; card < kCardCount; ++card) deck.push_back(card);
  for (Side side : {Side::Scotland, Side::England}) {
    for (int i = 0; i < kHandSize; ++i) {
      const int card = s.rng.pick(deck.items());
      deck.erase_value(card);
      s.cards.set(card, CardState{CardPlace::Hand, index_of(side), 0});
    }
  }
  clear_undo(s);
  s.turn = 0;
  s.double_event = false;
  add_log(s, LogKind::YearStart, Audience::Public, 0, 0, 0, s.year);
  add_log(s, LogKind::CardsDealt, Audience::Public, 0, 0, 0, kHandSize);
  start_turn(s);
}

void start_turn(State& s) {
  clear_turn_markers(s);
  ++s.turn;
  s.p1 = kNone;
  s.player_turn = 0;
  s.active = kNone;
  s.phase = Phase::CardChoice;
  add_log(s, LogKind::TurnStart, Audience::Public, 0, 0, 0, s.turn);
}

void start_player_turn(State& s) {
  const Side side = side_of(s.player_turn == 0 ? s.p1 : 1 - s.p1);
  // RULES 2.3.3: every player turn is a fresh limit window for both players.
  for (auto& counters : s.crossings) counters.fill(0);
  s.active = index_of(side);
  const auto& card = game_data().cards[played_card(s, side)];
  if (card.kind == CardKind::Event) {
    s.phase = Phase::Event;  // RULES 3.4
    return;
  }
  enter_move_phase(s, side, card.value);
}

void end_player_turn(State& s) {
  s.moving = MovingBlock{};
  s.mp = 0;
  s.activated = 0;
  if (s.player_turn == 0) {
    s.player_turn = 1;
    start_player_turn(s);
    return;
  }
  enter_battle_phase(s);
}

void end_game(State& s, Side winner, EndReason reason) {
  s.phase = Phase::GameOver;
  s.active = kNone;
  s.winner = index_of(winner);
  s.end_reason = reason;
  clear_undo(s);
  add_log(s, LogKind::GameEnd, Audience::Public, index_of(winner), static_cast<int>(reason));
}

CardId played_card(const Position& p, Side side) {
  const std::uint32_t now =
      p.cards.held(CardPlace::Played, index_of(side)) & card_bytes_equal(p.cards.turn, p.turn);
  return now == 0 ? kNone : static_cast<CardId>(std::countr_zero(now));
}

}  // namespace blockfog::hots::detail
