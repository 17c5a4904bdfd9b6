#pragma once

// The format number and the names the JSON state format (serialize.cpp) writes for enumerations
// and places: by name, so that saved states stay readable and stable.

#include <array>
#include <cstdint>
#include <string_view>

#include "rules/hots/data.h"
#include "rules/hots/state.h"

namespace blockfog::hots {

inline constexpr int kStateFormat = 1;  // the JSON state's "format"

inline constexpr std::array kPhaseNames = {
    "card_choice",       "event",   "move",        "battle_choice", "combat",   "hit_allocation",
    "mandatory_retreat", "regroup", "border_raid", "winter",        "game_over"};
inline constexpr std::array kCardPlaces = {"deck", "hand", "chosen", "played"};

// A block's place: an area's id, or the pool, out of play, dead.
inline std::string_view place_name(std::uint8_t loc) {
  if (loc == kPool) return "pool";
  if (loc == kNotInPlay) return "not_in_play";
  if (loc == kDead) return "dead";
  return game_data().areas.at(loc).id;
}

}  // namespace blockfog::hots
