#pragma once

// Finds, loads and starts game rooms. Loading runs on the storage thread, so open() and
// resume_all() block: call them from the HTTP worker pool or at start-up, never from a strand.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "server/play/presence.h"
#include "server/play/room.h"

namespace blockfog::server {

class RoomRegistry : public RoomHost {
 public:
  // `make_strand(game_id)` gives a game's room its strand (the server puts it on the network
  // thread that serves the game's connections: server/net/net.cpp).
  using StrandMaker = std::function<Strand(std::int64_t game_id)>;
  RoomRegistry(DbWorker& db, Metrics& metrics, StrandMaker make_strand);

  // Loads every open and active game by replaying its log. Returns how many were loaded; a
  // game that cannot be replayed is logged and left out.
  std::size_t resume_all();
  // The game's room, loaded if needed; null when there is no such game or it cannot be loaded
  // (or another node holds it: see locate).
  std::shared_ptr<Room> open(std::int64_t game_id);
  // The same, or, when several nodes share the database and another one holds the game
  // (docs/multi-node.md, section 3), where it is: then `room` is null and `elsewhere` set.
  // With leases a game is loaded only once this node took its lease (committed): it then
  // reads every write of the previous holder.
  struct Located {
    std::shared_ptr<Room> room;
    std::optional<Elsewhere> elsewhere;
  };
  Located locate(std::int64_t game_id);
  // Several nodes share the database: rooms are loaded under leases, released when let go.
  // Set before resume_all and before the server takes requests; null on SQLite.
  void set_leases(NodeLeases* leases);
  NodeLeases* leases() const { return leases_; }
  // The games this node plays: with leases, those it holds a lease of; else the rooms loaded.
  std::int64_t games_held() const;
  // On the storage thread, inside the transaction of a write to `game_id` made outside its
  // room's play (a clock that ran out, a deadline, a game-scoped HTTP request): whether this
  // node may write the game, as the lease rule says. A game it holds is fenced by its lease
  // (the lease row stays locked until the caller's transaction ends); a game nobody holds is
  // taken (and released again in the same transaction, once written: a later client loads it
  // from the log); a game another live node holds is that node's to write. A game whose lease
  // was taken from this node is let go at once: its room moves away (its clients go to the
  // holder) and the next request for it is sent there. Always true without leases.
  bool may_write(storage::Store& store, std::int64_t game_id);
  // The open game's seats or dice changed (committed): its room, if loaded, tells its clients.
  void seated(std::int64_t game_id, Seats seats, nlohmann::json dice);
  // The start of a game was committed (both dice revealed): hand its room the game.
  void start(std::int64_t game_id, std::shared_ptr<core::Game> game, Seats seats,
             nlohmann::json dice);
  // The game ended or was cancelled outside its room's play (resigned, timeout, cancel),
  // committed already: its room, if loaded, tells its clients (GameEndedMessage).
  void end(std::int64_t game_id, storage::GameStatus status,
           std::optional<std::string> result_json);
  // Sends `message` to every client of the game's room, if loaded.
  void broadcast(std::int64_t game_id, const protocol::ServerMessage& message);
  void drain_all();
  // This node lost its heartbeat (server/cluster/node_leases.h): every room moves away (its
  // clients are sent to reconnect) and leaves memory. Any thread.
  void let_go_all();
  // Another node took the game from this one (the fence `lost` failed): its room, if loaded
  // under that lease, moves away and leaves memory. Any thread.
  void let_go(std::int64_t game_id, const storage::GameLease& lost);
  // A finished game's room whose last client left: nothing will change in it any more, so it
  // leaves memory (a later client loads it again from the store).
  void evict(std::int64_t game_id, const Room* room) override;
  // An evicted room takes its place again, unless another room of its game was loaded since.
  // True if `room` is the game's room now.
  bool reinstate(const std::shared_ptr<Room>& room) override;
  // A chat line of `account_id`, in any game, fits its quota (a token bucket of its own).
  bool allow_chat(std::int64_t account_id) override;
  static constexpr double kChatLinesPerAccountPerSecond = 1;
  static constexpr double kChatBurstPerAccount = 10;

  // The computer took `role`'s seat as a stand-in (committed already): the room is told.
  void stand_in(std::int64_t game_id, core::Role role, ComputerSeat seat);
  // Where computer seats think; set before the server takes requests (null: nowhere).
  void set_computer_players(ComputerPlayers* players) { computer_ = players; }
  ComputerPlayers* computer_players() override { return computer_; }

  // Which players have a client at which game; the start of a game reads it in its
  // transaction (api::start_in_store).
  Presence& presence() override { return presence_; }

  // The lobby's summary of a game: its room's, if this node holds it; else, with several
  // nodes, the one its holder last shared (at most about a second old).
  std::optional<RoomSummary> summary(std::int64_t game_id) const;
  // Several nodes (docs/multi-node.md, section 4), on the storage thread: writes the summaries
  // of the games this node holds that changed since the last call (`all`: every one, as after
  // PostgreSQL lost its unlogged tables), and reads the other nodes'. Nothing without leases.
  void share_summaries(storage::Store& store, bool all);
  void set_summary(std::int64_t game_id, RoomSummary summary) override;

 private:
  // The game's room as its log leaves it, under `lease` when several nodes share the database
  // (none: SQLite, or none could be taken). Null if it cannot be loaded, or another node took
  // it since.
  std::shared_ptr<Room> load(storage::Store& store, storage::GameRow row,
                             const std::optional<storage::GameLease>& lease);
  std::shared_ptr<Room> insert(std::shared_ptr<Room> room);

  DbWorker& db_;
  Metrics& metrics_;
  StrandMaker make_strand_;
  ComputerPlayers* computer_ = nullptr;
  NodeLeases* leases_ = nullptr;
  // The leases this node took and has not let go of, by game (under mutex_): a room being
  // loaded is under one before it is in rooms_, and two clients loading one game at once share
  // the first take instead of fencing each other out.
  std::map<std::int64_t, storage::GameLease> held_;
  mutable std::mutex mutex_;
  std::map<std::int64_t, std::shared_ptr<Room>> rooms_;
  // Written after every action of every game (Room::update_summary): hashed, not ordered.
  std::unordered_map<std::int64_t, RoomSummary> summaries_;
  // With leases: the games whose summary changed since it was last shared, and the summaries
  // of the games other nodes hold, as last read (both under mutex_).
  std::unordered_set<std::int64_t> summaries_changed_;
  std::unordered_map<std::int64_t, RoomSummary> remote_summaries_;
  Presence presence_;
  AddressRateLimiter chat_per_account_{kChatLinesPerAccountPerSecond, kChatBurstPerAccount};
};

}  // namespace blockfog::server
