#pragma once

// The tables of migration 10 (docs/storage.md, "Computer seats"): the seats the computer
// opponent plays and the players' consent to a stand-in. Free functions over the Store's
// connection; like the Store they read no clock and throw StorageError on infrastructure
// failures.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/store.h"

namespace blockfog::storage {

// The account that holds the seat of a game created against the computer. Its name is one no
// registration accepts (protocol/http.h, is_valid_username) and its password hash no KDF string,
// so nobody signs in as it. Created on first use.
inline constexpr std::string_view kComputerUsername = "~computer";
std::int64_t computer_account(Store& store, std::int64_t now);

struct ComputerSeatRow {
  std::string role;   // "scotland" or "england"
  std::string level;  // "easy", "normal", "hard"
  bool stand_in = false;
  std::int64_t since = 0;
  friend bool operator==(const ComputerSeatRow&, const ComputerSeatRow&) = default;
};

// The computer takes the seat (throws ConstraintError if it already plays it).
void add_computer_seat(Store& store, std::int64_t game_id, const ComputerSeatRow& seat);
std::vector<ComputerSeatRow> list_computer_seats(Store& store, std::int64_t game_id);

// The player of `role` allowed the computer to stand in for him if his time runs out.
void add_stand_in_consent(Store& store, std::int64_t game_id, std::string_view role);
// The roles whose players allowed it.
std::vector<std::string> stand_in_consents(Store& store, std::int64_t game_id);
// Both seats allowed it (only a casual game's seats can: Api's stand_in_refusal).
bool stand_in_allowed(Store& store, std::int64_t game_id);

}  // namespace blockfog::storage
