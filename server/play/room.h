#pragma once

// One game room per game (docs/architecture.md, "One action, end to end"). Every member function
// posts its work onto the room's strand, so the room's state has one writer and needs no lock. An
// action is checked (seat, seq, the engine's legality), applied to a copy of the state, and
// committed by the storage thread; only when the commit is back does the copy become the
// room's state and each connected client whose role's view changed get that view (a client's
// seq is its role's view version: role_views.h).

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "rules/core/game.h"
#include "server/cluster/node_leases.h"
#include "server/limits.h"
#include "server/notices/notice_lines.h"
#include "server/play/computer_seats.h"
#include "server/play/role_views.h"
#include "server/play/room_chat.h"
#include "server/seats.h"
#include "storage/store.h"

namespace blockfog::server {

class ComputerPlayers;
class DbWorker;
class Presence;
class Metrics;
class Room;

// Runs a task on the room's strand (never inline: tasks of one strand never overlap).
using Strand = std::function<void(std::function<void()>)>;
using SteadyTime = std::chrono::steady_clock::time_point;

// A connection as the room sees it. Both calls may come from any thread.
class RoomClient {
 public:
  virtual ~RoomClient() = default;
  virtual void send(std::shared_ptr<const std::string> frame) = 0;
  // A view frame in parts, written as one message: `head` (protocol::encode_view_head or
  // encode_view_patch_head), the role's view text or patch (shared by all that role's
  // connections, never copied into a frame of its own), then protocol::kViewFrameTail.
  virtual void send_view(std::shared_ptr<const std::string> head,
                         std::shared_ptr<const std::string> view) = 0;
  // Closes the connection once the frames queued so far are written.
  virtual void close() = 0;
};

// What a connection gets after each accepted action that changed its role's view: the view
// (with its new log lines only), or a view_patch (docs/protocol.md, `?patches=1`).
enum class ViewUpdates { Views, Patches };

// What the lobby shows about a loaded game without entering its strand.
struct RoomSummary {
  storage::GameStatus status = storage::GameStatus::Open;
  storage::ViewVersions versions;  // never the action count: see role_views.h
  std::vector<core::Role> awaiting;
};

// What a room needs from whoever holds it (RoomRegistry): to let go of it when nobody is at a
// game that will not change, to take it back, the per-account chat quota, the lobby's
// summary of the game, and the record of which players are at which game (server/play/presence.h).
// Called from the room's strand.
class RoomHost {
 public:
  virtual ~RoomHost() = default;
  virtual void evict(std::int64_t game_id, const Room* room) = 0;
  // True if `room` is the game's room now (no other room of its game was loaded meanwhile).
  virtual bool reinstate(const std::shared_ptr<Room>& room) = 0;
  virtual bool allow_chat(std::int64_t account_id) = 0;
  virtual void set_summary(std::int64_t game_id, RoomSummary summary) = 0;
  virtual Presence& presence() = 0;
  // Where computer seats think (server/play/computer_players.h); null: the computer does not play.
  virtual ComputerPlayers* computer_players() { return nullptr; }
};

class Room : public std::enable_shared_from_this<Room> {
 public:
  // `game` is null for an open game (no seat free: see start()). `actions` were applied to it,
  // leaving each role's view at `versions`, and each seat's last decision at `marks`.
  Room(storage::GameRow row, Seats seats, std::shared_ptr<core::Game> game, std::int64_t actions,
       const storage::ViewVersions& versions, Strand strand, DbWorker& db, Metrics& metrics,
       RoomHost& host, const DecisionMarks& marks = {});
  ~Room();

  std::int64_t id() const { return id_; }

  // Sends the client a welcome, the view of `role` (once the game has started) and the chat
  // after `chat_since`; from then on it gets every new view (as `updates` says) and chat line.
  void join(std::shared_ptr<RoomClient> client, core::Role role, std::optional<Player> player,
            std::int64_t chat_since, ViewUpdates updates = ViewUpdates::Views);
  void leave(const RoomClient* client);
  void receive(const RoomClient* client, protocol::ClientMessage message, SteadyTime arrived);
  // The open game's seats or dice changed (a seat taken, a dice step made; already committed):
  // every client is told (welcome), and one that took a seat while watching now holds it.
  void seated(Seats seats, nlohmann::json dice);
  // The dice (server/play/dice.h, dice_json) as loaded with the room, before anybody joins it.
  void set_dice(nlohmann::json dice) { dice_ = std::move(dice); }
  // Both seats' dice were revealed and the start committed: the game begins with `game`, and
  // every client gets one welcome (saying `dice`, all revealed) and its first view.
  void start(std::shared_ptr<core::Game> game, Seats seats, nlohmann::json dice);
  // The server is stopping: refuse new actions, tell every client, close them.
  void drain();
  // The lease the room was loaded under, when several nodes share the database
  // (server/cluster/node_leases.h): set before the room is shared, never changed after. Every
  // action's commit is fenced by it.
  void set_lease(storage::GameLease lease) { lease_ = std::move(lease); }
  const std::optional<storage::GameLease>& lease() const { return lease_; }
  // Another node holds the game now (`where`; none: unknown, or this node let go of all its
  // games): refuse everything, tell every client where to go (moved), close them, and leave
  // the host.
  void move_away(std::optional<Elsewhere> where);
  // The game ended (resigned, timeout) or was cancelled, as already committed: no more
  // actions; every client is told (GameEndedMessage).
  void end(storage::GameStatus status, std::optional<std::string> result_json);
  // Sends `message` to every client (clocks, rematch offers).
  void notify(protocol::ServerMessage message);
  // Asks the computer for its action if it plays a seat the game awaits (after loading: a
  // restart resumes computer games).
  void wake_computer();
  // The computer stands in for `role` (its player's time ran out; already committed): it plays
  // the seat from now on and every client is told (welcome).
  void stand_in(core::Role role, ComputerSeat seat);

 private:
  struct Member {
    std::shared_ptr<RoomClient> client;
    core::Role role = core::Role::Observer;
    std::optional<Player> player;
    ViewUpdates updates = ViewUpdates::Views;
  };
  struct Pending {
    const RoomClient* client;  // null for the computer's action
    protocol::ActionMessage action;
    SteadyTime arrived;
    core::Role role = core::Role::Observer;
  };
  struct Commit;

  void handle(const RoomClient* client, protocol::ClientMessage message, SteadyTime arrived);
  // `client` is null for the computer's action (for a computer seat `role`).
  void handle_action(const RoomClient* client, core::Role role, protocol::ActionMessage message,
                     SteadyTime arrived);
  // See wake_computer(): on the strand.
  void ask_computer();
  void computer_decided(core::Role role, std::int64_t version,
                        std::optional<nlohmann::json> action);
  void handle_chat(const RoomClient* client, const protocol::ChatMessage& message);
  // The commit came back (action_commit.h): its outcome becomes the room's state and messages.
  void committed(const std::shared_ptr<Commit>& commit);
  // An action that was not stored: the sender hears why, as far as the storage can tell.
  void refuse_unstored(const Commit& commit);
  void run_pending();
  void send_chat_since(const RoomClient* client, std::int64_t since);

  void send(const RoomClient* client, const protocol::ServerMessage& message);
  void send_error(const RoomClient* client, protocol::ErrorCode code, std::string message,
                  std::optional<std::string> ref = std::nullopt);
  // The whole current view of the client's role (log from line 0): on joining and on sync.
  void send_view(const RoomClient* client);
  // The current view of the client's role, answering an action (`ref`, `stale`), without the
  // log lines: every connection of a role was sent each of its versions (on joining, then with
  // every change), so it holds them all already.
  void answer_with_view(const RoomClient* client, std::optional<std::string> ref, bool stale);
  // The two above: the client's role's current view, with the whole log or none of it.
  void write_view_to(const RoomClient* client, bool whole_log, std::optional<std::string> ref,
                     bool stale);
  // Whether `account_id` has a client at the game (RoomHost::presence, which the start of a
  // game reads too).
  bool is_connected(std::int64_t account_id) const;
  // Parks the view of each role nobody is connected as (role_views.h), before an action.
  void park_unwatched_roles();
  // The clients that joined as a parked role while a commit was in flight get their view once
  // it is done: the role is unparked against the game that commit leaves.
  void send_deferred_views();
  void send_welcome(const Member& member);
  // A member whose account holds a seat plays it (it may have taken it while watching).
  void take_seat_of(Member& member) const;
  // After an action: each role whose view changed gets the new lines and view; the acting
  // client always hears back, if only its unchanged view.
  void publish_views(const ViewChange& change, const RoomClient* actor,
                     const std::optional<std::string>& ref);
  void broadcast(const protocol::ServerMessage& message);
  void update_summary();
  // See move_away(): on the strand.
  void move_here(const std::optional<Elsewhere>& where);
  // See end(): on the strand.
  void end_here(storage::GameStatus status, std::optional<std::string> result_json);

  const std::int64_t id_;
  storage::GameRow row_;
  Seats seats_;
  nlohmann::json dice_;  // what welcomes say of the dice exchange
  std::shared_ptr<core::Game> game_;
  std::int64_t actions_;  // in the log: the store's sequence, never shown to a client
  RoleViews views_;
  // Where each seat's view log stood at its last decision: a turn notice tells the lines after
  // it (notice_lines.h).
  DecisionMarks marks_;
  Strand strand_;
  DbWorker& db_;
  Metrics& metrics_;
  RoomHost& host_;

  std::map<const RoomClient*, Member> members_;
  std::deque<Pending> pending_;  // actions that arrived while a commit was in flight
  std::vector<const RoomClient*> deferred_views_;  // see send_deferred_views
  bool committing_ = false;
  bool draining_ = false;
  std::optional<storage::GameLease> lease_;
  // Set once another node holds the game (move_here): what every late client is told.
  std::optional<protocol::MovedMessage> moved_;
  bool counted_live_ = false;
  // Set on the strand when its host let go of this room (an open or finished game nobody
  // is at): a start that reaches it afterwards hands the room back (Room::start).
  bool evicted_ = false;
  RoomChat chat_;
  std::string view_text_;  // reused for whole views, so that a buffer is not grown per send
  ComputerSeats computer_;
};

}  // namespace blockfog::server
