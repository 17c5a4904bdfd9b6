#pragma once

// Actions of Hammer of the Scots (RULES 14) and their JSON form, which the protocol carries
// as is, e.g. {"kind":"move","block":"sco_wallace","to":"lothian"}.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "rules/core/json_writer.h"
#include "rules/hots/data.h"

namespace blockfog::hots {

enum class ActionKind : std::uint8_t {
  PlayCard,         // card: choose a card in secret (RULES 3.1)
  TakeBack,         // take the chosen card back while the opponent has not chosen (3.1.2)
  Decline,          // decline the event card played (7.1.1)
  Truce,            // put the Truce in force (7.5)
  Move,             // block, to: select a block and take its first step (4.3.7)
  Step,             // to: the moving block's next step
  Stop,             // the moving block stops where it is
  NorseMove,        // to: the Norse move by sea (4.10)
  EndMovePhase,     // end the move phase (4.11)
  ChooseBattle,     // area: the next battle to fight (RULES 5.1)
  Fire,             // block: its combat turn is to fire (5.6)
  Pass,             // block: its combat turn is to do nothing (5.5.3)
  Retreat,          // block, to: retreat in a combat turn or the mandatory retreat (5.10, 5.11)
  TakeHit,          // block: which of the tied strongest blocks takes the next hit (5.7.2)
  FinishRetreat,    // no remaining attacker can retreat: they are eliminated (5.11.3)
  Regroup,          // block, to (5.12)
  EndRegroup,       //
  RaidVictim,       // block: the English block given up to a border raid (9.1)
  Home,             // area: where Bruce or Comyn goes home (10.1.2)
  GoHome,           // Moray goes home (10.3)
  MoveKing,         // area: the King to a cathedral (10.5)
  Winter,           // Edward I winters in Scotland (10.6)
  Disband,          // block: disband to the pool (10.6, 10.7, 10.9)
  ToSelkirk,        // Wallace to Selkirk (10.8)
  AddStep,          // block: spend a replacement point on a step (10.11, 10.12)
  Draw,             // area: spend a replacement point on a draw (10.11)
  Done,             // end an opaque winter step (13.1.4)
  Roll,             // Herald: roll the die (7.2.1)
  Herald,           // noble: the enemy noble named after a successful roll (7.2.2)
  Pillage,          // area: the target of a Pillage (7.3.1)
  Gain,             // block: receives one pillaged step (7.3.3)
  SeaMove,          // block, to: by sea (7.4)
  Victual,          // block: one step from Victuals (7.6)
  CrownBruce,       // coronations instead of the event (8)
  CrownComyn,       //
  ReturnOfTheKing,  //
  Undo,             // take back the last own decision (RULES 14, Undo)
  Stay,             // Wallace stays where he is (10.8.2, 14 #23)
};

// Parameters are small ids whose meaning depends on the kind (card, block, area).
struct Action {
  ActionKind kind = ActionKind::EndMovePhase;
  std::uint8_t a = kNone;
  std::uint8_t b = kNone;

  bool operator==(const Action&) const = default;
};

inline Action play_card(CardId card) { return {ActionKind::PlayCard, card, kNone}; }
inline Action move(BlockId block, AreaId to) { return {ActionKind::Move, block, to}; }
inline Action step(AreaId to) { return {ActionKind::Step, to, kNone}; }
inline Action norse_move(AreaId to) { return {ActionKind::NorseMove, to, kNone}; }
inline Action simple(ActionKind kind) { return {kind, kNone, kNone}; }
inline Action with_block(ActionKind kind, BlockId block) { return {kind, block, kNone}; }
inline Action with_area(ActionKind kind, AreaId area) { return {kind, area, kNone}; }
inline Action to_area(ActionKind kind, BlockId block, AreaId to) { return {kind, block, to}; }

// A fixed-capacity list of actions, so that listing the legal actions never touches the heap.
// The capacity is above any decision of the game: the largest, a Sea Move's first choice, is at
// most every block of a side times every area (RULES 7.4).
class ActionList {
 public:
  static constexpr std::size_t kCapacity = 1024;

  ActionList() {}  // the slots stay uninitialised until written

  void push_back(const Action& action) {
    if (size_ == kCapacity) overflow();
    slots_[size_++].action = action;
  }
  void clear() { size_ = 0; }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  const Action& operator[](std::size_t i) const { return slots_[i].action; }
  bool contains(const Action& action) const;
  // The same actions in the same order (the order decides what a seeded random player picks).
  bool operator==(const ActionList& other) const {
    if (size_ != other.size_) return false;
    for (std::size_t i = 0; i < size_; ++i) {
      if (!((*this)[i] == other[i])) return false;
    }
    return true;
  }

  class Iterator {
   public:
    explicit Iterator(const ActionList* list, std::size_t i) : list_(list), i_(i) {}
    const Action& operator*() const { return (*list_)[i_]; }
    Iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const Iterator&) const = default;

   private:
    const ActionList* list_;
    std::size_t i_;
  };
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, size_); }

 private:
  [[noreturn]] static void overflow();

  union Slot {
    Slot() {}
    Action action;
  };
  Slot slots_[kCapacity];
  std::size_t size_ = 0;
};

std::string_view action_kind_name(ActionKind kind);
nlohmann::json action_to_json(const Action& action);
// The same JSON, written as text (exactly action_to_json(action).dump()).
void write_action(core::JsonWriter& out, const Action& action);
// Parses the JSON form; on failure returns nullopt and says why in `error`. A field the kind
// does not have is refused, so an accepted action's JSON is its canonical form: it equals
// action_to_json() of the result, which is what the server stores and publishes.
std::optional<Action> action_from_json(const nlohmann::json& json, std::string& error);

}  // namespace blockfog::hots
