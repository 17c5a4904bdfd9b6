#include "server/play/room.h"

#include <algorithm>
#include <array>
#include <thread>

#include "games/registry.h"
#include "protocol/view_frame.h"
#include "rules/core/rule_error.h"
#include "server/clock.h"
#include "server/clocks/game_clocks.h"
#include "server/db_worker.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/notices/turn_notices.h"
#include "server/play/action_commit.h"
#include "server/play/computer_players.h"
#include "server/play/game_loader.h"
#include "server/play/presence.h"

namespace blockfog::server {

using core::Role;
using nlohmann::json;
using protocol::ErrorCode;

// An applied action on its way to the store, and what became of it.
struct Room::Commit {
  const RoomClient* client = nullptr;  // null for the computer's action
  std::optional<std::string> ref;
  std::shared_ptr<core::Game> next;
  ViewChange views;
  DecisionMark mark;  // the actor's, once the action is stored
  SteadyTime arrived;
  ActionCommitRequest request;
  ActionCommitResult result;
};

namespace {

// How often an action's commit stores the state with it (and the last action always): a game
// is loaded from its latest snapshot and the actions after it.
constexpr std::int64_t kActionsPerSnapshot = 64;

ErrorCode error_for(core::RuleErrorCode code) {
  switch (code) {
    case core::RuleErrorCode::MalformedAction:
      return ErrorCode::MalformedAction;
    case core::RuleErrorCode::NotYourTurn:
      return ErrorCode::NotYourTurn;
    case core::RuleErrorCode::IllegalAction:
      return ErrorCode::IllegalAction;
    case core::RuleErrorCode::GameOver:
      return ErrorCode::GameOver;
  }
  return ErrorCode::IllegalAction;
}

std::shared_ptr<const std::string> frame(const protocol::ServerMessage& message) {
  return std::make_shared<const std::string>(protocol::encode(message));
}

// The actor's decision mark after `change` (notice_lines.h): the log sizes of the views it
// wrote, and a parked role's (whose view it did not write) from the engine.
DecisionMark mark_after(const ViewChange& change, const core::Game& next, Role actor) {
  const auto size = [&](Role role) {
    const auto& view = change.next[RoleViews::index(role)];
    return view.parked ? view_log_size(next, role) : view.log_size;
  };
  return {size(actor), size(Role::Observer)};
}

}  // namespace

Room::Room(storage::GameRow row, Seats seats, std::shared_ptr<core::Game> game,
           std::int64_t actions, const storage::ViewVersions& versions, Strand strand, DbWorker& db,
           Metrics& metrics, RoomHost& host, const DecisionMarks& marks)
    : id_(row.id),
      row_(std::move(row)),
      seats_(std::move(seats)),
      game_(std::move(game)),
      actions_(actions),
      marks_(marks),
      strand_(std::move(strand)),
      db_(db),
      metrics_(metrics),
      host_(host),
      chat_(id_, db) {
  if (game_) views_.reset(*game_, versions);
  if (row_.status == storage::GameStatus::Active) {
    ++metrics_.games_live;
    counted_live_ = true;
  }
  update_summary();
}

Room::~Room() {
  if (counted_live_) --metrics_.games_live;
}

void Room::join(std::shared_ptr<RoomClient> client, Role role, std::optional<Player> player,
                std::int64_t chat_since, ViewUpdates updates) {
  strand_([self = shared_from_this(), client = std::move(client), role, player = std::move(player),
           chat_since, updates]() mutable {
    const RoomClient* key = client.get();
    if (self->draining_) {
      self->send_error(key, ErrorCode::Restarting, "the server is restarting");
      client->send(frame(protocol::RestartingMessage{}));
      client->close();
      return;
    }
    if (self->moved_) {
      client->send(frame(*self->moved_));
      ++self->metrics_.moved_sent;
      client->close();
      return;
    }
    if (self->evicted_) {
      // The last client left between this client's open() and now. The room goes back to the
      // host; if a newer room of the game was loaded meanwhile, this one would never hear
      // of the game's start, so the client is sent to reconnect (to that room).
      if (!self->host_.reinstate(self)) {
        self->send_error(key, ErrorCode::Restarting, "the game was reloaded; reconnect");
        client->close();
        return;
      }
      self->evicted_ = false;
    }
    auto& member = self->members_[key];
    if (member.player) self->host_.presence().depart(self->id_, member.player->account_id);
    member = Member{std::move(client), role, std::move(player), updates};
    if (member.player) self->host_.presence().arrive(self->id_, member.player->account_id);
    self->send_welcome(member);
    if (self->game_) self->send_view(key);
    self->send_chat_since(key, chat_since);
  });
}

void Room::leave(const RoomClient* client) {
  strand_([self = shared_from_this(), client] {
    if (const auto it = self->members_.find(client); it != self->members_.end()) {
      if (it->second.player)
        self->host_.presence().depart(self->id_, it->second.player->account_id);
      self->members_.erase(it);
    }
    std::erase_if(self->pending_, [client](const Pending& p) { return p.client == client; });
    // Nothing changes in a finished game any more, and an open one holds no game yet: either
    // leaves memory when its last client goes (a later client loads it again from the store).
    // An active game stays, for the lobby's summary of whose turn it is.
    const auto status = self->row_.status;
    if (self->members_.empty() && !self->committing_ &&
        (status == storage::GameStatus::Finished || status == storage::GameStatus::Open)) {
      self->evicted_ = true;
      self->host_.evict(self->id_, self.get());
    }
  });
}

void Room::receive(const RoomClient* client, protocol::ClientMessage message, SteadyTime arrived) {
  strand_([self = shared_from_this(), client, message = std::move(message), arrived]() mutable {
    self->handle(client, std::move(message), arrived);
  });
}

bool Room::is_connected(std::int64_t account_id) const {
  return host_.presence().present(id_, account_id);
}

void Room::seated(Seats seats, json dice) {
  strand_([self = shared_from_this(), seats = std::move(seats), dice = std::move(dice)]() mutable {
    if (self->row_.status != storage::GameStatus::Open) return;  // started or ended meanwhile
    self->seats_ = std::move(seats);
    self->dice_ = std::move(dice);
    for (auto& [key, member] : self->members_) {
      self->take_seat_of(member);
      self->send_welcome(member);
    }
  });
}

void Room::take_seat_of(Member& member) const {
  for (Role role : {Role::Scotland, Role::England}) {
    const auto& seat = seats_.of(role);
    if (member.player && seat && seat->account_id == member.player->account_id) {
      member.role = role;
    }
  }
}

void Room::start(std::shared_ptr<core::Game> game, Seats seats, json dice) {
  strand_([self = shared_from_this(), game = std::move(game), seats = std::move(seats),
           dice = std::move(dice)]() mutable {
    if (self->game_) return;  // loaded from the store after the start was committed
    if (self->evicted_) {
      // Evicted while the start was on its way: an active game keeps a room, so this one goes
      // back unless a client loaded a newer one meanwhile (which holds the start already).
      self->evicted_ = false;
      if (!self->host_.reinstate(self)) return;
    }
    self->game_ = std::move(game);
    self->seats_ = std::move(seats);
    self->dice_ = std::move(dice);
    self->actions_ = 0;
    self->views_.reset(*self->game_, {});
    self->row_.status = storage::GameStatus::Active;
    if (!self->counted_live_) {
      ++self->metrics_.games_live;
      self->counted_live_ = true;
    }
    self->update_summary();
    for (auto& [key, member] : self->members_) {
      // An account that took the second seat while watching now plays it.
      self->take_seat_of(member);
      self->send_welcome(member);
      self->send_view(key);
    }
    self->ask_computer();
  });
}

void Room::drain() {
  strand_([self = shared_from_this()] {
    self->draining_ = true;
    self->computer_.cancel();
    self->pending_.clear();
    self->broadcast(protocol::RestartingMessage{});
    for (auto& [key, member] : self->members_) {
      member.client->close();
      if (member.player) self->host_.presence().depart(self->id_, member.player->account_id);
    }
    self->members_.clear();
  });
}

void Room::move_away(std::optional<Elsewhere> where) {
  strand_([self = shared_from_this(), where = std::move(where)] { self->move_here(where); });
}

void Room::move_here(const std::optional<Elsewhere>& where) {
  if (moved_) return;
  moved_ = moved_message(id_, where);
  computer_.cancel();
  pending_.clear();
  broadcast(*moved_);
  metrics_.moved_sent += static_cast<std::int64_t>(members_.size());
  for (auto& [key, member] : members_) {
    member.client->close();
    if (member.player) host_.presence().depart(id_, member.player->account_id);
  }
  members_.clear();
  if (counted_live_) --metrics_.games_live;
  counted_live_ = false;
  evicted_ = true;
  host_.evict(id_, this);
}

void Room::end(storage::GameStatus status, std::optional<std::string> result_json) {
  strand_([self = shared_from_this(), status, result = std::move(result_json)]() mutable {
    self->end_here(status, std::move(result));
  });
}

void Room::notify(protocol::ServerMessage message) {
  strand_([self = shared_from_this(), message = std::move(message)] { self->broadcast(message); });
}

void Room::end_here(storage::GameStatus status, std::optional<std::string> result_json) {
  if (row_.status == storage::GameStatus::Finished || row_.status == storage::GameStatus::Aborted) {
    return;
  }
  row_.status = status;
  row_.result_json = result_json;
  computer_.cancel();
  if (counted_live_) --metrics_.games_live;
  counted_live_ = false;
  update_summary();
  json result = result_json ? json::parse(*result_json, nullptr, false) : json();
  broadcast(protocol::GameEndedMessage{std::string(storage::status_name(status)), result});
}

void Room::handle(const RoomClient* client, protocol::ClientMessage message, SteadyTime arrived) {
  if (!members_.contains(client)) return;  // left meanwhile
  if (auto* action = std::get_if<protocol::ActionMessage>(&message)) {
    const Role role = members_.at(client).role;
    if (committing_) {
      pending_.push_back({client, std::move(*action), arrived, role});
    } else {
      handle_action(client, role, std::move(*action), arrived);
    }
  } else if (auto* chat = std::get_if<protocol::ChatMessage>(&message)) {
    handle_chat(client, *chat);
  } else if (auto* sync = std::get_if<protocol::SyncMessage>(&message)) {
    if (game_) send_view(client);
    send_chat_since(client, sync->chat_since);
  } else {
    send(client, protocol::PongMessage{});
  }
}

void Room::handle_action(const RoomClient* client, Role role, protocol::ActionMessage message,
                         SteadyTime arrived) {
  if (draining_) {
    return send_error(client, ErrorCode::Restarting, "the server is restarting", message.ref);
  }
  if (moved_) return;  // its clients were told where the game is now
  if (role == Role::Observer) {
    return send_error(client, ErrorCode::NotSeated, "observers cannot act", message.ref);
  }
  if (const auto& acting = seats_.of(role); client && acting && acting->computer) {
    return send_error(client, ErrorCode::NotSeated, "the computer plays this seat now",
                      message.ref);
  }
  if (!game_) {
    return send_error(client, ErrorCode::GameNotStarted, "the game has not started", message.ref);
  }
  if (row_.status != storage::GameStatus::Active || game_->outcome().finished) {
    return send_error(client, ErrorCode::GameOver, "the game is over", message.ref);
  }
  // A client that has not seen its role's latest view gets it instead of a ruling on a stale
  // action. A version that has not moved means the same legal actions, so the action stands.
  // (A connected role is never parked by now: its view was sent, which unparked it.)
  if (views_.parked(role)) return write_view_to(client, true, message.ref, true);
  if (message.seq != views_.version(role)) {
    if (!client) return ask_computer();  // its view moved on: think again
    return answer_with_view(client, message.ref, true);
  }

  // The engine's apply checks the seat and membership in its own legal actions
  // (docs/architecture.md, "The engine contract") and leaves the state unchanged when it refuses;
  // the copy keeps the room's state as it was committed until the store has the action.
  std::shared_ptr<core::Game> next = game_->clone();
  if (auto error = next->apply(role, message.action)) {
    if (!client) {
      // The computer chose from its view's legal actions: a refusal is a fault, logged, and
      // this view is not asked about again.
      log_error("game " + std::to_string(id_) +
                ": the computer's action was refused: " + error->message);
      computer_.refused(role, views_.version(role));
    }
    return send_error(client, error_for(error->code), error->message, message.ref);
  }

  auto commit = std::make_shared<Commit>();
  commit->client = client;
  commit->ref = message.ref;
  auto& request = commit->request;
  request.game_id = id_;
  request.seq = actions_ + 1;
  request.actor = role;
  request.action_json = message.action.dump();
  request.state_hash = next->state_hash();
  const auto outcome = next->outcome();
  // A snapshot every kActionsPerSnapshot actions and at the end: a cache for loading (at most
  // that many actions are replayed), never the truth (the log is).
  if (outcome.finished || request.seq % kActionsPerSnapshot == 0) {
    next->write_snapshot(request.snapshot.emplace());
  }
  if (outcome.finished) request.result_json = result_json(outcome);
  request.notices = turn_notices(id_, game_.get(), *next, seats_, marks_,
                                 [this](std::int64_t account) { return is_connected(account); });
  park_unwatched_roles();
  RoleViews::PatchRoles patches{};
  for (const auto& [key, other] : members_) {
    if (other.updates == ViewUpdates::Patches) patches[RoleViews::index(other.role)] = true;
  }
  commit->views = views_.change_to(*next, patches);
  commit->mark = mark_after(commit->views, *next, role);
  request.versions = commit->views.stored_versions();
  request.awaiting_before = public_awaiting(*game_);
  request.awaiting_after = public_awaiting(*next);
  request.seats = seats_;
  request.lease = lease_;
  commit->next = std::move(next);
  commit->arrived = arrived;
  committing_ = true;

  const auto room_thread = std::this_thread::get_id();
  db_.post_or_run(
      id_,
      [commit](storage::Store& store) {
        commit->result = commit_action(store, commit->request, now_ms());
      },
      [self = shared_from_this(), commit, room_thread](bool stored) {
        // Only now is the action durable (its group's COMMIT returned), so only now may anyone
        // hear of it.
        if (!stored) unstored_by_group_commit(commit->result);
        // Run inline by post_or_run, this is still the room's strand, inside handle_action:
        // going on here saves a post, and with it a wake-up of another thread.
        if (std::this_thread::get_id() == room_thread) return self->committed(commit);
        self->strand_([self, commit] { self->committed(commit); });
      });
}

void Room::committed(const std::shared_ptr<Commit>& commit) {
  committing_ = false;
  const auto& result = commit->result;
  if (!result.error.empty() && result.outcome != CommitOutcome::Moved &&
      result.outcome != CommitOutcome::Reload) {
    log_error_throttled("action", "game " + std::to_string(id_) + " action " +
                                      std::to_string(commit->request.seq) + ": " + result.error);
  }
  if (result.stand_in &&
      (result.outcome == CommitOutcome::Stored || result.outcome == CommitOutcome::StandIn)) {
    // Stored (with the action, or alone when the actor was the side out of time).
    auto& player = result.stand_in->role == Role::Scotland ? seats_.scotland : seats_.england;
    if (player) player->computer = result.stand_in->seat;
    for (const auto& [key, member] : members_) send_welcome(member);
  }
  switch (result.outcome) {
    case CommitOutcome::Stored:
      game_ = std::move(commit->next);
      actions_ = commit->request.seq;
      views_.accept(commit->views);
      if (commit->request.actor != Role::Observer) {
        marks_[static_cast<std::size_t>(commit->request.actor)] = commit->mark;
      }
      if (commit->request.result_json) {
        row_.status = storage::GameStatus::Finished;
        if (counted_live_) --metrics_.games_live;
        counted_live_ = false;
      }
      ++metrics_.actions_applied;
      update_summary();
      publish_views(commit->views, commit->client, commit->ref);
      if (!result.clocks.is_null()) broadcast(protocol::ClocksMessage{result.clocks});
      metrics_.observe_action_latency(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - commit->arrived)
              .count());
      break;
    case CommitOutcome::TimedOut:
      send_error(commit->client, ErrorCode::GameOver, "your time ran out: the game is over",
                 commit->ref);
      end_here(storage::GameStatus::Finished, result.timed_out_result);
      break;
    case CommitOutcome::StandIn:
      send_error(commit->client, ErrorCode::NotSeated,
                 "your time ran out: the computer plays your seat now", commit->ref);
      break;
    case CommitOutcome::GameOver:
      send_error(commit->client, ErrorCode::GameOver, "the game is over", commit->ref);
      break;
    case CommitOutcome::Moved:
      // Not stored: the game is another node's now, and so are its clients (the action's
      // sender resends it there, against the view it gets).
      log_info("game " + std::to_string(id_) + " moved to another node");
      ++metrics_.leases_lost;
      move_here(result.moved_to);
      return;
    case CommitOutcome::Reload:
      // Not stored, and this room is behind the log: it lets go (releasing its lease), and its
      // clients, told to come back at once, get the game as the log has it.
      log_warn("game " + std::to_string(id_) + ": the log is ahead of the room (" + result.error +
               "); loading it again");
      move_here(std::nullopt);
      return;
    case CommitOutcome::StorageUnavailable:
    case CommitOutcome::Failed:
      refuse_unstored(*commit);
      break;
  }
  send_deferred_views();
  run_pending();
}

void Room::refuse_unstored(const Commit& commit) {
  if (db_.health() == StorageHealth::Failed) {
    // A lost write (storage/faults.h): whether the action reached the disk is for the next
    // start's recovery to say, so the client is told neither way.
    return send_error(commit.client, ErrorCode::StorageUnavailable,
                      "the server cannot store moves right now and restarts; reconnect to see "
                      "whether this action was kept",
                      commit.ref);
  }
  if (db_.health() == StorageHealth::ReadOnly) {
    return send_error(commit.client, ErrorCode::StorageUnavailable,
                      "the server is serving read-only for maintenance: games can be watched, "
                      "not played; try again later",
                      commit.ref);
  }
  if (commit.result.outcome == CommitOutcome::StorageUnavailable) {
    return send_error(commit.client, ErrorCode::StorageUnavailable,
                      "the server cannot store moves right now; try again later", commit.ref);
  }
  send_error(commit.client, ErrorCode::Internal, "the action could not be stored; try again",
             commit.ref);
}

void Room::run_pending() {
  while (!committing_ && !pending_.empty()) {
    auto p = std::move(pending_.front());
    pending_.pop_front();
    if (!p.client || members_.contains(p.client)) {
      handle_action(p.client, p.role, std::move(p.action), p.arrived);
    }
  }
  ask_computer();
}

void Room::wake_computer() {
  strand_([self = shared_from_this()] { self->ask_computer(); });
}

void Room::stand_in(Role role, ComputerSeat seat) {
  strand_([self = shared_from_this(), role, seat = std::move(seat)] {
    auto& player = role == Role::Scotland ? self->seats_.scotland : self->seats_.england;
    if (!player) return;
    player->computer = seat;
    // Every client hears who plays now, as on joining.
    for (const auto& [key, member] : self->members_) self->send_welcome(member);
    self->ask_computer();
  });
}

void Room::ask_computer() {
  if (!game_ || draining_ || moved_ || committing_ || row_.status != storage::GameStatus::Active ||
      game_->outcome().finished) {
    return;
  }
  auto* players = host_.computer_players();
  if (!players) return;
  // A game whose kind no computer plays has no computer seat (refused when it was created).
  const auto* kind = games::find_game_kind(row_.kind);
  if (!kind || !kind->choose_action) return;
  const auto decided = [self = shared_from_this()](Role role, std::int64_t version,
                                                   std::optional<json> action) {
    self->strand_([self, role, version, action = std::move(action)]() mutable {
      self->computer_decided(role, version, std::move(action));
    });
  };
  if (computer_.ask(*game_, kind->choose_action, views_, seats_, *players, decided)) {
    update_summary();
  }
}

void Room::computer_decided(Role role, std::int64_t version, std::optional<json> action) {
  auto message = computer_.decided(role, version, std::move(action));
  if (!message) return;
  const auto now = std::chrono::steady_clock::now();
  if (committing_) {
    pending_.push_back({nullptr, std::move(*message), now, role});
  } else {
    handle_action(nullptr, role, std::move(*message), now);
  }
}

void Room::handle_chat(const RoomClient* client, const protocol::ChatMessage& message) {
  const Member& member = members_.at(client);
  if (draining_) return send_error(client, ErrorCode::Restarting, "the server is restarting");
  const auto refusal =
      chat_.refusal(member.player, member.role, row_.observer_chat,
                    [this](std::int64_t account) { return host_.allow_chat(account); });
  if (refusal) return send_error(client, refusal->code, refusal->message);
  chat_.write(*member.player, member.role, message.text, lease_,
              [self = shared_from_this(), client](RoomChat::Written written) {
                self->strand_([self, client, written = std::move(written)] {
                  if (const auto* line = std::get_if<protocol::ChatLine>(&written)) {
                    self->broadcast(*line);
                  } else if (const auto* moved = std::get_if<RoomChat::Moved>(&written)) {
                    // Not stored: the game and its clients belong to another node now.
                    self->move_here(moved->where);
                  } else {
                    const auto& error = std::get<protocol::ErrorMessage>(written);
                    self->send_error(client, error.code, error.message);
                  }
                });
              });
}

void Room::send_chat_since(const RoomClient* client, std::int64_t since) {
  chat_.history(since, [self = shared_from_this(), client](std::vector<protocol::ChatLine> rows) {
    self->strand_([self, client, rows = std::move(rows)] {
      for (const auto& line : rows) self->send(client, line);
    });
  });
}

void Room::send(const RoomClient* client, const protocol::ServerMessage& message) {
  const auto it = members_.find(client);
  if (it != members_.end()) it->second.client->send(frame(message));
}

void Room::send_error(const RoomClient* client, ErrorCode code, std::string message,
                      std::optional<std::string> ref) {
  metrics_.count_error(code);
  send(client, protocol::ErrorMessage{code, std::move(message), std::move(ref)});
}

void Room::send_view(const RoomClient* client) { write_view_to(client, true, std::nullopt, false); }

void Room::answer_with_view(const RoomClient* client, std::optional<std::string> ref, bool stale) {
  write_view_to(client, false, std::move(ref), stale);
}

void Room::write_view_to(const RoomClient* client, bool whole_log, std::optional<std::string> ref,
                         bool stale) {
  const auto it = members_.find(client);
  if (it == members_.end() || !game_) return;
  const Role role = it->second.role;
  if (views_.parked(role)) {
    // Unparked only against the game the views were last accepted for: not while a commit
    // (whose change left the role parked) is in flight.
    if (committing_) {
      deferred_views_.push_back(client);
      return;
    }
    views_.unpark(role, *game_);
    update_summary();
  }
  // Without the whole log: from the role's log_size on, no lines, and no walk through a long
  // log to write them.
  const std::size_t from = whole_log ? 0 : views_.log_size(role);
  game_->write_view(role, from, view_text_);
  it->second.client->send(std::make_shared<const std::string>(protocol::encode_view(
      views_.version(role), view_text_, static_cast<std::int64_t>(from), ref, stale)));
}

void Room::park_unwatched_roles() {
  std::array<bool, kViewRoles> watched{};
  for (const auto& [key, member] : members_) watched[RoleViews::index(member.role)] = true;
  // A computer seat reads its view whenever it is awaited: its versions are kept.
  for (Role role : {Role::Scotland, Role::England}) {
    const auto& seat = seats_.of(role);
    if (seat && seat->computer) watched[RoleViews::index(role)] = true;
  }
  for (Role role : {Role::Scotland, Role::England, Role::Observer}) {
    if (!watched[RoleViews::index(role)]) views_.park(role, *game_);
  }
}

void Room::send_deferred_views() {
  auto clients = std::move(deferred_views_);
  deferred_views_.clear();
  for (const RoomClient* client : clients) send_view(client);
}

void Room::send_welcome(const Member& member) {
  protocol::WelcomeMessage welcome;
  welcome.game_id = id_;
  welcome.role = std::string(core::role_name(member.role));
  welcome.status = std::string(storage::status_name(row_.status));
  welcome.seed_sha256 = row_.seed_sha256;
  welcome.dice = dice_;
  if (seats_.scotland) welcome.scotland = seats_.scotland->username;
  if (seats_.england) welcome.england = seats_.england->username;
  for (Role role : {Role::Scotland, Role::England}) {
    const auto& seat = seats_.of(role);
    if (seat && seat->computer) {
      welcome.computer[core::role_name(role)] = {{"level", seat->computer->level},
                                                 {"stand_in", seat->computer->stand_in}};
    }
  }
  member.client->send(frame(welcome));
}

// Each changed role's frame is made once and shared by that role's connections (its view text
// or patch with the head of the frame, sent in parts: no copy of the view per frame). Every
// connection of a role holds that role's previous version (it got each change, or a whole view
// on joining), so the same new lines, and the same patch, suit them all.
void Room::publish_views(const ViewChange& change, const RoomClient* actor,
                         const std::optional<std::string>& ref) {
  // Per role, the head of its view frame and of its patch frame (without a ref).
  std::array<std::array<std::shared_ptr<const std::string>, 2>, kViewRoles> heads;
  const auto publish = [&](const RoomClient* key, const Member& member) {
    const auto i = RoleViews::index(member.role);
    if (!change.increments[i]) {
      if (key == actor) answer_with_view(key, ref, false);
      return;
    }
    // A connection that joined while the action was committed may want a patch that was not
    // written: the view with its new lines suits it as well.
    const bool patch = member.updates == ViewUpdates::Patches && change.patches[i];
    const auto& body = patch ? change.patches[i] : change.increments[i];
    const auto head = [&](const std::optional<std::string>& answers) {
      const auto version = change.next[i].version;
      return std::make_shared<const std::string>(
          patch ? protocol::encode_view_patch_head(version, change.log_from[i], answers)
                : protocol::encode_view_head(version, change.log_from[i], answers, false));
    };
    if (key == actor && ref) {
      // The sender's own copy names its action.
      member.client->send_view(head(ref), body);
      return;
    }
    auto& h = heads[i][patch ? 1 : 0];
    if (!h) h = head(std::nullopt);
    member.client->send_view(h, body);
  };
  // The actor first: it waits on this answer to go on, and a send can wake the reader at the
  // other end and give it this thread's CPU before the later sends go out.
  if (const auto it = members_.find(actor); it != members_.end()) publish(it->first, it->second);
  for (const auto& [key, member] : members_) {
    if (key != actor) publish(key, member);
  }
}

void Room::broadcast(const protocol::ServerMessage& message) {
  const auto f = frame(message);
  for (const auto& [key, member] : members_) member.client->send(f);
}

void Room::update_summary() {
  RoomSummary summary;
  summary.status = row_.status;
  if (game_) summary.versions = views_.versions();
  if (game_ && row_.status == storage::GameStatus::Active) summary.awaiting = game_->active_roles();
  host_.set_summary(id_, std::move(summary));
}

}  // namespace blockfog::server
