#pragma once

// Actions of Hammer of the Scots (RULES 14) and their JSON form, which the protocol carries
// as is, e.g. {"kind":"move","block":"sco_wallace","to":"lothian"}.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "rules/hots/data.h"

namespace blockfog::hots {

enum class ActionKind : std::uint8_t {
  PlayCard,      // card: choose a card in secret (RULES 3.1)
  TakeBack,      // take the chosen card back while the opponent has not chosen (3.1.2)
  Decline,       // decline the event card played (7.1.1)
  Truce,         // put the Truce in force (7.5)
  Move,          // block, to: select a block and take its first step (4.3.7)
  Step,          // to: the moving block's next step
  Stop,          // the moving block stops where it is
  NorseMove,     // to: the Norse move by sea (4.10)
  EndMovePhase,  // end the move phase (4.11)
  Undo,          // take back the last own decision (RULES 14, Undo)
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

std::string_view action_kind_name(ActionKind kind);
nlohmann::json action_to_json(const Action& action);
// Parses the JSON form; on failure returns nullopt and says why in `error`.
std::optional<Action> action_from_json(const nlohmann::json& json, std::string& error);

}  // namespace blockfog::hots
