#pragma once

// The table of migration 19: each seated player's private notes on a game (docs/protocol.md,
// "Private notes"). Free functions over the Store's connection; the caller checks who asks
// (server/api/api_notes.cpp): these read and write whatever seat they are given.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "storage/store.h"

namespace blockfog::storage {

struct GameNotes {
  std::string text;
  std::int64_t updated_at = 0;
};

// The notes of `role` ("scotland" or "england") in the game, if that seat wrote any.
std::optional<GameNotes> find_game_notes(Store& store, std::int64_t game_id, std::string_view role);
// Replaces the seat's notes with `text`.
void save_game_notes(Store& store, std::int64_t game_id, std::string_view role,
                     std::string_view text, std::int64_t now);

}  // namespace blockfog::storage
