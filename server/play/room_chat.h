#pragma once

// A game's chat (docs/protocol.md, "Chat"): who may write, the game's quotas, and the lines
// stored and read on the storage thread. The room owns one and delegates its chat messages to it;
// every call is made on the room's strand, and the answers come back through `done` on the
// storage thread, for the room to take back to its strand.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "protocol/messages.h"
#include "rules/core/game.h"
#include "server/cluster/node_leases.h"
#include "server/limits.h"
#include "server/seats.h"
#include "storage/game_leases.h"

namespace blockfog::server {

class DbWorker;

class RoomChat {
 public:
  static constexpr double kLinesPerSecond = 2;  // per game, all writers together
  static constexpr double kBurst = 15;
  static constexpr std::int64_t kMaxLines = 5000;  // stored per game

  // Nothing stored: another node holds the game now (`where`, if known), and its clients go
  // there (Room::move_away).
  struct Moved {
    std::optional<Elsewhere> where;
  };
  // A written line for every client, the error for its writer alone, or the game moved.
  using Written = std::variant<protocol::ChatLine, protocol::ErrorMessage, Moved>;

  RoomChat(std::int64_t game_id, DbWorker& db) : game_id_(game_id), db_(db) {}

  // Why `writer` (an anonymous visitor: none) may not write as `role` now, before anything is
  // stored: a line names its account; observers write only where the game allows it; the
  // account's quota (`account_allows`, the host's: across games) and the game's.
  std::optional<protocol::ErrorMessage> refusal(
      const std::optional<Player>& writer, core::Role role, bool observer_chat,
      const std::function<bool(std::int64_t)>& account_allows);
  // Stores the line (unless the game's chat is full) and calls `done` once committed. `lease`:
  // the room's, when several nodes share the database; the line is written only while it
  // still holds the game (storage::check_game_lease, as for an action).
  void write(const Player& writer, core::Role role, std::string text,
             std::optional<storage::GameLease> lease, std::function<void(Written)> done);
  // The stored lines after `since` (at most 500), once committed; nothing when there are none.
  void history(std::int64_t since, std::function<void(std::vector<protocol::ChatLine>)> done);

 private:
  const std::int64_t game_id_;
  DbWorker& db_;
  // Chat quotas of the whole game, on top of each connection's message limit and each
  // account's chat limit: several sockets or accounts together cannot flood one game or grow
  // its stored chat without bound.
  RateLimiter rate_{kLinesPerSecond, kBurst};
};

}  // namespace blockfog::server
