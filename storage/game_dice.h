#pragma once

// The tables of migration 18 (docs/storage.md, "Dice"): each seat's commitment to its dice
// contribution and, later, the contribution; the game's dice deadline and the seed made from
// them. Free functions over the Store's connection; like the Store they read no clock and throw
// StorageError on infrastructure failures. The order of the exchange (who may reveal when) is
// the server's (server/play/dice.h); the triggers only keep a commitment and a revealed
// contribution from ever changing.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/store.h"

namespace blockfog::storage {

struct DiceRow {
  std::string role;                         // "scotland" or "england"
  std::string commitment;                   // 64 hex: SHA-256 of the contribution's 32 bytes
  std::optional<std::string> contribution;  // 64 hex, once revealed (held before, by_server)
  std::int64_t committed_at = 0;
  std::optional<std::int64_t> revealed_at;
  bool by_server = false;  // a computer seat's contribution
  friend bool operator==(const DiceRow&, const DiceRow&) = default;
};

// The game's rows, ordered by role.
std::vector<DiceRow> list_dice(Store& store, std::int64_t game_id);
// Records `role`'s commitment (throws ConstraintError if it committed already). A computer
// seat's row holds the server's contribution from the start (`held`), unrevealed.
void commit_dice(Store& store, std::int64_t game_id, std::string_view role,
                 std::string_view commitment, const std::optional<std::string>& held,
                 std::int64_t now);
// Reveals `role`'s contribution (throws ConstraintError if it was revealed already).
void reveal_dice(Store& store, std::int64_t game_id, std::string_view role,
                 std::string_view contribution, std::int64_t now);

// Both seats are taken: the dice must be revealed by `deadline`.
void set_dice_deadline(Store& store, std::int64_t game_id, std::int64_t deadline);
// The seed made from the revealed dice (written once: a trigger refuses a second).
void set_play_seed(Store& store, std::int64_t game_id, std::string_view play_seed_hex);
// Open games whose dice deadline is at or before `now`, by id.
std::vector<std::int64_t> list_games_past_dice_deadline(Store& store, std::int64_t now);

}  // namespace blockfog::storage
