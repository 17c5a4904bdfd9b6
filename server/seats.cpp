#include "server/seats.h"

#include "storage/computer_seats.h"

namespace blockfog::server {

const std::optional<Player>& Seats::of(core::Role role) const {
  return role == core::Role::Scotland ? scotland : england;
}

Seats load_seats(storage::Store& store, std::int64_t game_id) {
  Seats seats;
  const auto computer = storage::list_computer_seats(store, game_id);
  for (const auto& seat : store.list_seats(game_id)) {
    const auto account = store.find_account_by_id(seat.account_id);
    Player player{seat.account_id, account ? account->username : "?", std::nullopt};
    for (const auto& c : computer) {
      if (c.role != seat.role) continue;
      player.computer = ComputerSeat{c.level, c.stand_in};
      if (!c.stand_in) player.username = computer_name(c.level);
    }
    if (seat.role == "scotland") seats.scotland = player;
    if (seat.role == "england") seats.england = player;
  }
  return seats;
}

std::string computer_name(std::string_view level) {
  return "Computer (" + std::string(level) + ")";
}

}  // namespace blockfog::server
