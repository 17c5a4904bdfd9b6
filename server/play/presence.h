#pragma once

// Which players have a client at which game, readable from any thread. The rooms write it on
// their strands as players' connections join and leave (Room::join, Room::leave); whoever
// decides that a player is away and must be told it is his turn (docs/server.md, "Turn
// notices") reads it at the moment of deciding: a room before an action, and the start of a
// game inside the very transaction that writes the start's notices (api::start_in_store), so
// that a player watching the game when it starts is never told by e-mail or webhook.

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

namespace blockfog::server {

class Presence {
 public:
  // A connection of `account_id` joined the game's room / left it. Counted: a player with two
  // tabs open stays present until both are gone.
  void arrive(std::int64_t game_id, std::int64_t account_id);
  void depart(std::int64_t game_id, std::int64_t account_id);
  // Whether `account_id` has at least one connection at the game.
  bool present(std::int64_t game_id, std::int64_t account_id) const;
  // Whether `account_id` has a connection at any game: "online now" in the lobby.
  bool online(std::int64_t account_id) const;
  // When `account_id`'s last connection to any game closed (ms), since this server started.
  std::optional<std::int64_t> last_left(std::int64_t account_id) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::pair<std::int64_t, std::int64_t>, int> connections_;  // (game, account) -> n
  std::map<std::int64_t, int> online_;                                // account -> n
  std::map<std::int64_t, std::int64_t> left_at_;                      // account -> ms
};

}  // namespace blockfog::server
