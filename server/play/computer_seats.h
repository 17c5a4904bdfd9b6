#pragma once

// The room's side of the computer opponent (docs/ai.md, "In the product"): for each seat the
// computer plays, the decision in flight, the views it was given, and the view version whose
// decision the engine refused (not asked again). The thinking itself runs on the computer's
// thread (server/play/computer_players.h); every call here is made on the room's strand.

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "games/registry.h"
#include "protocol/messages.h"
#include "rules/core/game.h"
#include "server/play/role_views.h"
#include "server/seats.h"

namespace blockfog::server {

class ComputerPlayers;
class SeatHistory;

class ComputerSeats {
 public:
  // Called on the computer's thread with the decision for `role`'s view `version`.
  using Decided = std::function<void(core::Role role, std::int64_t version,
                                     std::optional<nlohmann::json> action)>;

  // Asks `players` for each computer seat `game` awaits whose current view has no decision in
  // flight (and was not refused), unparking its view first: the decision takes the seat's view
  // as the one view writer gives it to that seat. True if a view was unparked (the versions the
  // lobby shows may have moved).
  // `choose_action` is the game's kind's computer opponent (games::GameKind), not null.
  bool ask(const core::Game& game, games::ChooseAction choose_action, RoleViews& views,
           const Seats& seats, ComputerPlayers& players, const Decided& decided);
  // The action to play for a decision that came back, or nothing: cancelled or overtaken
  // meanwhile, or no action (that view is not asked about again).
  std::optional<protocol::ActionMessage> decided(core::Role role, std::int64_t version,
                                                 std::optional<nlohmann::json> action);
  // The engine refused the computer's action for `role`'s view `version`: a fault (logged by
  // the room); that view is not asked about again.
  void refused(core::Role role, std::int64_t version);
  // Drops every decision in flight (the game ended, the server drains).
  void cancel();

 private:
  struct Thinking {
    std::shared_ptr<std::atomic<bool>> cancelled;
    std::int64_t version = 0;
  };
  // Per seat (Scotland, England).
  std::array<std::optional<Thinking>, 2> thinking_;
  std::array<std::shared_ptr<SeatHistory>, 2> history_;
  std::array<std::int64_t, 2> refused_version_{-1, -1};
};

}  // namespace blockfog::server
