#include "server/play/room_registry.h"

#include "server/clock.h"
#include "server/db_worker.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/play/computer_players.h"
#include "server/play/dice.h"
#include "server/play/game_loader.h"
#include "storage/game_leases.h"
#include "storage/game_summaries.h"

namespace blockfog::server {

RoomRegistry::RoomRegistry(DbWorker& db, Metrics& metrics, StrandMaker make_strand)
    : db_(db), metrics_(metrics), make_strand_(std::move(make_strand)) {}

// Runs on the storage thread.
std::shared_ptr<Room> RoomRegistry::load(storage::Store& store, storage::GameRow row,
                                         const std::optional<storage::GameLease>& lease) {
  std::shared_ptr<core::Game> game;
  std::int64_t seq = 0;
  storage::ViewVersions versions;
  DecisionMarks marks;
  if (row.status != storage::GameStatus::Open) {
    auto loaded = replay_game(store, row);
    if (!loaded.game) {
      log_error("cannot load " + loaded.error);
      return nullptr;
    }
    game = std::move(loaded.game);
    seq = loaded.seq;
    versions = loaded.versions;
    marks = loaded.marks;
  }
  if (game && row.status == storage::GameStatus::Active && game->outcome().finished) {
    // Its last action ended it but its status was not written (a crash between the two): the
    // replay finishes it, a write to the game fenced like an action's.
    try {
      storage::Transaction transaction(store.database());
      if (lease) storage::check_game_lease(store, row.id, *lease);
      store.set_game_status(row.id, storage::GameStatus::Finished, now_ms(),
                            result_json(game->outcome()));
      transaction.commit();
    } catch (const storage::LeaseLost& e) {
      log_info(std::string("not loaded: ") + e.what());
      return nullptr;
    }
    row.status = storage::GameStatus::Finished;
  }
  auto room = std::make_shared<Room>(row, load_seats(store, row.id), std::move(game), seq, versions,
                                     make_strand_(row.id), db_, metrics_, *this, marks);
  room->set_dice(dice_json(row, storage::list_dice(store, row.id)));
  if (lease) room->set_lease(*lease);
  return room;
}

std::shared_ptr<Room> RoomRegistry::insert(std::shared_ptr<Room> room) {
  std::shared_ptr<Room> kept;
  {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = rooms_.emplace(room->id(), room);
    if (inserted) ++metrics_.rooms_loaded;
    kept = it->second;  // another thread may have loaded it first: keep one room per game
  }
  // A loaded game whose computer seat is awaited (after a restart too) gets its action.
  kept->wake_computer();
  return kept;
}

void RoomRegistry::stand_in(std::int64_t game_id, core::Role role, ComputerSeat seat) {
  // Never loads (this may run on the storage thread): an active game's room stays loaded, and
  // a room loaded later reads the computer's seat from the store.
  std::shared_ptr<Room> room;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = rooms_.find(game_id); it != rooms_.end()) room = it->second;
  }
  if (room) room->stand_in(role, std::move(seat));
}

void RoomRegistry::evict(std::int64_t game_id, const Room* room) {
  std::optional<storage::GameLease> lease;
  {
    std::lock_guard lock(mutex_);
    const auto it = rooms_.find(game_id);
    if (it == rooms_.end() || it->second.get() != room) return;  // already replaced
    lease = it->second->lease();
    if (const auto h = held_.find(game_id); lease && h != held_.end() && h->second == *lease) {
      held_.erase(h);
    }
    rooms_.erase(it);
    summaries_.erase(game_id);
    --metrics_.rooms_loaded;
  }
  // Let go: another node may take the game at once. Only this room's lease: a newer take
  // (a room loaded since, here or elsewhere) is left alone.
  if (leases_ && lease) {
    db_.post([game_id, lease = *lease](storage::Store& store) {
      try {
        storage::Transaction transaction(store.database());
        storage::release_game_lease(store, game_id, lease);
        transaction.commit();
      } catch (const storage::StorageError& e) {
        // Unreleased, it runs out with the node's heartbeat, or is taken back by this node.
        log_error_throttled("lease release", std::string("lease not released: ") + e.what());
      }
    });
  }
}

void RoomRegistry::let_go(std::int64_t game_id, const storage::GameLease& lost) {
  std::shared_ptr<Room> room;
  {
    std::lock_guard lock(mutex_);
    if (const auto h = held_.find(game_id); h != held_.end() && h->second == lost) held_.erase(h);
    if (const auto it = rooms_.find(game_id); it != rooms_.end() && it->second->lease() == lost) {
      room = std::move(it->second);
      rooms_.erase(it);
      summaries_.erase(game_id);
      --metrics_.rooms_loaded;
    }
  }
  if (room) room->move_away(std::nullopt);
}

void RoomRegistry::let_go_all() {
  std::map<std::int64_t, std::shared_ptr<Room>> rooms;
  {
    std::lock_guard lock(mutex_);
    rooms.swap(rooms_);
    held_.clear();
    for (const auto& [id, room] : rooms) summaries_.erase(id);
    metrics_.rooms_loaded -= static_cast<std::int64_t>(rooms.size());
  }
  for (const auto& [id, room] : rooms) room->move_away(std::nullopt);
}

std::int64_t RoomRegistry::games_held() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::int64_t>(leases_ ? held_.size() : rooms_.size());
}

bool RoomRegistry::reinstate(const std::shared_ptr<Room>& room) { return insert(room) == room; }

bool RoomRegistry::allow_chat(std::int64_t account_id) {
  return chat_per_account_.allow(std::to_string(account_id));
}

void RoomRegistry::set_leases(NodeLeases* leases) {
  leases_ = leases;
  if (leases_) leases_->on_lapse([this] { let_go_all(); });
}

std::size_t RoomRegistry::resume_all() {
  // With leases, only the games nobody holds are resumed here (another live node plays the
  // others), each taken and committed before it is loaded.
  std::map<std::int64_t, storage::GameLease> taken;
  if (leases_) {
    taken = db_.call([this](storage::Store& store) {
      std::map<std::int64_t, storage::GameLease> held;
      for (const auto& row : store.list_unfinished_games()) {
        try {
          // A savepoint each: on PostgreSQL a failed statement fails the transaction.
          storage::Transaction transaction(store.database());
          if (auto lease = leases_->take(store, row.id)) held.emplace(row.id, std::move(*lease));
          transaction.commit();
          if (held.count(row.id)) ++metrics_.leases_taken;
          std::lock_guard lock(mutex_);
          if (const auto it = held.find(row.id); it != held.end()) held_[row.id] = it->second;
        } catch (const storage::StorageError& e) {
          // Its holder is writing it (a lock held past lock_timeout): that node plays it.
          if (e.kind() != storage::ErrorKind::Busy) throw;
        }
      }
      return held;
    });
  }
  const auto rooms = db_.call([this, &taken](storage::Store& store) {
    std::vector<std::shared_ptr<Room>> loaded;
    for (const auto& row : store.list_unfinished_games()) {
      const auto lease = taken.find(row.id);
      if (leases_ && lease == taken.end()) continue;
      try {
        auto room = load(store, row, leases_ ? std::optional(lease->second) : std::nullopt);
        if (room) loaded.push_back(std::move(room));
      } catch (const storage::StorageError& e) {
        // Only --read-only serves a damaged file (docs/storage.md, Integrity): the games it
        // can read are resumed, the others say why when asked for.
        if (e.kind() != storage::ErrorKind::Corrupt) throw;
        log_error("game " + std::to_string(row.id) + " cannot be resumed: " + e.what());
      }
    }
    return loaded;
  });
  for (const auto& room : rooms) insert(room);
  return rooms.size();
}

std::shared_ptr<Room> RoomRegistry::open(std::int64_t game_id) { return locate(game_id).room; }

RoomRegistry::Located RoomRegistry::locate(std::int64_t game_id) {
  {
    std::lock_guard lock(mutex_);
    if (const auto it = rooms_.find(game_id); it != rooms_.end()) return {it->second, {}};
  }
  std::optional<storage::GameLease> lease;
  if (leases_) {
    // The take commits before the game is loaded (docs/multi-node.md, section 2).
    struct Take {
      std::optional<storage::GameLease> lease;
      std::optional<Elsewhere> elsewhere;
      bool game = true;
    };
    const auto take = db_.call([this, game_id](storage::Store& store) {
      Take result;
      const auto row = store.find_game(game_id);
      if (!row || row->status == storage::GameStatus::Aborted) {
        result.game = false;
        return result;
      }
      {
        std::lock_guard lock(mutex_);
        if (const auto it = held_.find(game_id); it != held_.end()) {
          result.lease = it->second;  // taken for a room being loaded now
          return result;
        }
      }
      storage::Transaction transaction(store.database());
      try {
        result.lease = leases_->take(store, game_id);
      } catch (const storage::StorageError& e) {
        // The holder's write that checked the lease has not committed within lock_timeout:
        // it is still alive enough to write; the client comes back in a moment.
        if (e.kind() != storage::ErrorKind::Busy) throw;
        result.elsewhere = Elsewhere{"", 500};
        return result;
      }
      if (!result.lease) {
        result.elsewhere = locate_game(store, game_id);
        // Let go between the take and the look: at once, through any node.
        if (!result.elsewhere) result.elsewhere = Elsewhere{"", 1};
      }
      transaction.commit();
      if (result.lease) {
        ++metrics_.leases_taken;
        std::lock_guard lock(mutex_);
        held_[game_id] = *result.lease;
      }
      return result;
    });
    if (!take.game) return {};
    if (!take.lease) return {nullptr, take.elsewhere};
    lease = take.lease;
  }
  auto room = db_.call([this, game_id, lease](storage::Store& store) -> std::shared_ptr<Room> {
    const auto row = store.find_game(game_id);
    if (!row || row->status == storage::GameStatus::Aborted) return nullptr;
    return load(store, *row, lease);
  });
  return {room ? insert(std::move(room)) : nullptr, {}};
}

bool RoomRegistry::may_write(storage::Store& store, std::int64_t game_id) {
  if (!leases_) return true;
  std::optional<storage::GameLease> held;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = held_.find(game_id); it != held_.end()) held = it->second;
  }
  // Each in a savepoint of its own: on PostgreSQL a failed statement fails the transaction.
  try {
    storage::Transaction transaction(store.database());
    if (held) {
      storage::check_game_lease(store, game_id, *held);
    } else {
      // A plain read first: a take locks the row even when it fails, and the holder's own
      // writes would wait for that.
      if (locate_game(store, game_id)) return false;
      held = leases_->take(store, game_id);
      if (!held) return false;
      ++metrics_.leases_taken;
      // Held only for this write: released when it commits, so that any node loads it later.
      storage::release_game_lease(store, game_id, *held);
    }
    transaction.commit();
    return true;
  } catch (const storage::LeaseLost&) {
    ++metrics_.leases_lost;
    let_go(game_id, *held);
    return false;
  } catch (const storage::StorageError& e) {
    if (e.kind() != storage::ErrorKind::Busy) throw;
    return false;  // its holder is writing it now; the next sweep looks again
  }
}

void RoomRegistry::seated(std::int64_t game_id, Seats seats, nlohmann::json dice) {
  std::shared_ptr<Room> room;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = rooms_.find(game_id); it != rooms_.end()) room = it->second;
  }
  // A room loaded later reads both from the store.
  if (room) room->seated(std::move(seats), std::move(dice));
}

void RoomRegistry::start(std::int64_t game_id, std::shared_ptr<core::Game> game, Seats seats,
                         nlohmann::json dice) {
  std::shared_ptr<Room> room;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = rooms_.find(game_id); it != rooms_.end()) room = it->second;
  }
  if (room) {
    room->start(std::move(game), std::move(seats), std::move(dice));
  } else {
    open(game_id);  // replays the committed start, so the lobby knows whose turn it is
  }
}

void RoomRegistry::end(std::int64_t game_id, storage::GameStatus status,
                       std::optional<std::string> result_json) {
  std::shared_ptr<Room> room;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = rooms_.find(game_id); it != rooms_.end()) room = it->second;
  }
  if (room) {
    room->end(status, std::move(result_json));
  } else {
    std::lock_guard lock(mutex_);
    if (const auto it = summaries_.find(game_id); it != summaries_.end()) {
      it->second.status = status;
      it->second.awaiting.clear();
    }
  }
}

void RoomRegistry::broadcast(std::int64_t game_id, const protocol::ServerMessage& message) {
  std::shared_ptr<Room> room;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = rooms_.find(game_id); it != rooms_.end()) room = it->second;
  }
  if (room) room->notify(message);
}

void RoomRegistry::drain_all() {
  std::lock_guard lock(mutex_);
  for (const auto& [id, room] : rooms_) room->drain();
}

std::optional<RoomSummary> RoomRegistry::summary(std::int64_t game_id) const {
  std::lock_guard lock(mutex_);
  if (const auto it = summaries_.find(game_id); it != summaries_.end()) return it->second;
  if (const auto it = remote_summaries_.find(game_id); it != remote_summaries_.end()) {
    return it->second;
  }
  return std::nullopt;
}

void RoomRegistry::set_summary(std::int64_t game_id, RoomSummary summary) {
  std::lock_guard lock(mutex_);
  summaries_[game_id] = std::move(summary);
  if (leases_) summaries_changed_.insert(game_id);
}

void RoomRegistry::share_summaries(storage::Store& store, bool all) {
  if (!leases_) return;
  std::vector<storage::GameSummaryRow> rows;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, summary] : summaries_) {
      if (!held_.contains(id) || (!all && !summaries_changed_.contains(id))) continue;
      storage::GameSummaryRow row{id, summary.status, {}, summary.versions};
      for (const auto role : summary.awaiting) row.awaiting.emplace_back(core::role_name(role));
      rows.push_back(std::move(row));
    }
    // A change whose write fails is shared again by the next pass with `all`.
    summaries_changed_.clear();
  }
  storage::write_game_summaries(store, leases_->node_id(), rows, all);
  std::unordered_map<std::int64_t, RoomSummary> others;
  for (const auto& row : storage::read_game_summaries(store, leases_->node_id())) {
    RoomSummary summary{row.status, row.versions, {}};
    for (const auto& name : row.awaiting) {
      if (const auto role = core::role_from_name(name)) summary.awaiting.push_back(*role);
    }
    others.emplace(row.game_id, std::move(summary));
  }
  std::lock_guard lock(mutex_);
  remote_summaries_ = std::move(others);
}

}  // namespace blockfog::server
