#pragma once

// The game log (RULES 13.1.3): compact structured lines, each with an audience, turned into
// text only when a view is made. A private event is logged twice: a full line for its owner
// and a redacted one for everybody else.

#include <cstdint>
#include <string>

#include "rules/core/role.h"

namespace blockfog::hots {

enum class Audience : std::uint8_t {
  Public,
  ScotlandOnly,
  EnglandOnly,
  NotScotland,  // England and observers (the redacted twin of a Scotland-only line)
  NotEngland,   // Scotland and observers
};

// Inline: a view scans the whole log with it.
inline bool can_read(Audience audience, core::Role role) {
  // Bit per role (Scotland, England, Observer) that reads each audience, in enum order.
  constexpr std::uint8_t kReaders[] = {0b111, 0b001, 0b010, 0b110, 0b101};
  const auto a = static_cast<std::size_t>(audience);
  return a < sizeof kReaders && ((kReaders[a] >> static_cast<int>(role)) & 1U);
}
std::string_view audience_name(Audience audience);  // "public", "scotland_only", ...
Audience only(core::Role side);                     // the owner's full line
Audience all_but(core::Role side);                  // everybody else's redacted line

enum class LogKind : std::uint8_t {
  YearStart,           // n = year
  TurnStart,           // n = turn
  CardsDealt,          // n = cards per hand
  CardChosen,          // a = side
  CardTakenBack,       // a = side
  CardsRevealed,       // a = Scotland's card, b = England's card, c = P1 side
  DoubleEvent,         //
  LevyBlock,           // a = block, b = area (owner only)
  LevyCount,           // n = blocks, b = area (redacted)
  EventDeclined,       // a = side, b = card
  TruceInForce,        // a = side restricted
  MovePhaseStart,      // a = side, n = move points
  MoveStep,            // a = block, b = from, c = to (owner only)
  MoveStepAnon,        // a = side, b = from, c = to (redacted)
  BattleCreated,       // a = attacker side, b = area
  ReserveArrived,      // a = side, b = area, c = border or kEntryBySea
  NorseMove,           // b = from, c = to
  MovePhaseEnd,        // a = side, n = move points left unused
  BattlePhase,         // n = contested areas
  BattleBegins,        // a = attacker side, b = area
  RoundBegins,         // b = area, n = round
  BlockRevealed,       // a = block, n = strength
  ControlChange,       // a = new attacker side, b = area
  CelticRoll,          // a = block, c = 1 if it left, n = die
  Fired,               // a = block, c = hits, d = dice count, n = dice packed 3 bits each
  Passed,              // a = block
  HitTaken,            // a = block, n = strength left
  EliminatedToPool,    // a = block
  EliminatedDead,      // a = block
  EliminatedAnon,      // a = side, b = area: a hidden block went to its pool
  NobleCaptured,       // a = block now in play, b = area
  EdwardBecomesII,     //
  Retreated,           // a = block, b = from (others: the block left the battle)
  RetreatedTo,         // a = block, b = from, c = to (owner only)
  NorseRetreat,        // b = from, c = to (public, 13.4.3)
  Regrouped,           // a = block, b = from, c = to (owner only)
  ArrivalsShown,       // a = side, b = area, n = blocks (others: where retreats/regroups went)
  BattleWon,           // a = victor side, b = area
  MandatoryRetreat,    // a = side, b = area
  CouldNotRetreat,     // a = side, b = area, n = blocks eliminated
  BorderRaidDue,       //
  RaidVictim,          // a = block, b = area (England only)
  RaidVictimAnon,      // b = area (others)
  WinterStart,         // n = year
  NobleHome,           // a = block, b = home area
  WinterDefection,     // a = block now in play, b = area
  MorayHome,           // b = area
  KingToCathedral,     // b = from, c = to
  EdwardWinters,       // b = area
  Disbanded,           // a = block, b = area (owner only)
  DisbandedAnon,       // a = side, b = area (others)
  WallaceSelkirk,      // Wallace goes to or winters in Selkirk
  FrenchKnightsAdded,  //
  StepAdded,           // a = block, n = strength (owner only)
  Drew,                // a = block, b = area (owner only)
  DrewAnon,            // a = side, b = area (others)
  ScenarioEnd,         // n = year; b = English nobles, c = Scottish nobles
  HeraldRoll,          // a = side, n = die
  HeraldConverts,      // a = block now in play, b = area
  PillageTarget,       // a = side pillaging, b = area
  PillageHit,          // a = block, n = strength left (owner only)
  PillageInflicted,    // a = side pillaging, b = area, n = hits
  PillageGainArea,     // a = side, b = area receiving the steps
  SeaMoved,            // a = block, b = from, c = to (owner only)
  SeaMovedAnon,        // a = side, b = from, c = to (others)
  VictualsArea,        // a = side, b = area
  Coronation,          // a = candidate (0 Bruce, 1 Comyn, 2 Balliol), b = King's area
  CoronationDefects,   // a = block now English, b = area
  GameEnd,             // a = winner side, b = EndReason
  Count,               // not a kind: the number of kinds
};

struct LogEntry {
  LogKind kind;
  Audience audience;
  std::uint8_t a = 0;
  std::uint8_t b = 0;
  std::uint8_t c = 0;
  std::uint8_t d = 0;
  std::int16_t n = 0;

  bool operator==(const LogEntry&) const = default;
};

std::string log_text(const LogEntry& entry);
// The same text appended to `out` (no allocation once `out` has room).
void append_log_text(std::string& out, const LogEntry& entry);

}  // namespace blockfog::hots
