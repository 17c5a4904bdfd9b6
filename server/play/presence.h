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
#include <unordered_set>
#include <utility>
#include <vector>

namespace blockfog::server {

class Presence {
 public:
  // A connection of `account_id` joined the game's room / left it. Counted: a player with two
  // tabs open stays present until both are gone.
  void arrive(std::int64_t game_id, std::int64_t account_id);
  void depart(std::int64_t game_id, std::int64_t account_id);
  // Whether `account_id` has at least one connection at the game.
  bool present(std::int64_t game_id, std::int64_t account_id) const;
  // Whether `account_id` has a connection at any game: "online now" in the lobby. With several
  // nodes, at any of them (as last shared: about a second old for another node's).
  bool online(std::int64_t account_id) const;
  // When `account_id`'s last connection to any game closed (ms), since this server started.
  std::optional<std::int64_t> last_left(std::int64_t account_id) const;

  // Several nodes on one database (server/periodic/presence_sharing.h). From now on, keep the
  // accounts whose being online here changes, for take_changes (alone, nobody asks).
  void track_changes();
  // The accounts whose being online at this node changed since the last call, as they stand
  // now.
  struct Changes {
    std::vector<std::int64_t> arrived;
    std::vector<std::int64_t> departed;
  };
  Changes take_changes();
  // Every account with a connection at this node now.
  std::vector<std::int64_t> online_here() const;
  // The accounts with a connection at another node, as last read: replaces the last set.
  void set_online_elsewhere(std::unordered_set<std::int64_t> accounts);

 private:
  mutable std::mutex mutex_;
  std::map<std::pair<std::int64_t, std::int64_t>, int> connections_;  // (game, account) -> n
  std::map<std::int64_t, int> online_;                                // account -> n
  std::map<std::int64_t, std::int64_t> left_at_;                      // account -> ms
  bool tracking_ = false;
  std::unordered_set<std::int64_t> changed_;  // online_ gained or lost them since (tracking_)
  std::unordered_set<std::int64_t> online_elsewhere_;
};

}  // namespace blockfog::server
