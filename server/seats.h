#pragma once

// Who sits in which seat of a game, as the store holds it: read by rooms, clocks, notices and
// the API alike, so it depends on nothing of theirs.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rules/core/game.h"
#include "storage/store.h"

namespace blockfog::server {

// A seat the computer opponent plays (storage/computer_seats.h): a game created against the
// computer, or a stand-in for a player whose time ran out.
struct ComputerSeat {
  std::string level;  // "easy", "normal", "hard"
  bool stand_in = false;
};

struct Player {
  std::int64_t account_id = 0;
  std::string username;  // "Computer (normal)" for the seat of a game against the computer
  std::optional<ComputerSeat> computer;  // set while the computer plays the seat
};

// Who sits where; a seat is empty while the game is open.
struct Seats {
  std::optional<Player> scotland;
  std::optional<Player> england;
  const std::optional<Player>& of(core::Role role) const;
};

// Seats with user names and the computer's seats, read from the store.
Seats load_seats(storage::Store& store, std::int64_t game_id);
// How a seat of a game against the computer is named: "Computer (normal)".
std::string computer_name(std::string_view level);

}  // namespace blockfog::server
