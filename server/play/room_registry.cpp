#include "server/play/room_registry.h"

#include "server/db_worker.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/play/computer_players.h"
#include "server/play/dice.h"
#include "server/play/game_loader.h"

namespace blockfog::server {

RoomRegistry::RoomRegistry(DbWorker& db, Metrics& metrics, StrandMaker make_strand)
    : db_(db), metrics_(metrics), make_strand_(std::move(make_strand)) {}

// Runs on the storage thread.
std::shared_ptr<Room> RoomRegistry::load(storage::Store& store, const storage::GameRow& row) {
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
  auto room = std::make_shared<Room>(row, load_seats(store, row.id), std::move(game), seq, versions,
                                     make_strand_(row.id), db_, metrics_, *this, marks);
  room->set_dice(dice_json(row, storage::list_dice(store, row.id)));
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
  std::lock_guard lock(mutex_);
  const auto it = rooms_.find(game_id);
  if (it == rooms_.end() || it->second.get() != room) return;  // already replaced
  rooms_.erase(it);
  summaries_.erase(game_id);
  --metrics_.rooms_loaded;
}

bool RoomRegistry::reinstate(const std::shared_ptr<Room>& room) { return insert(room) == room; }

bool RoomRegistry::allow_chat(std::int64_t account_id) {
  return chat_per_account_.allow(std::to_string(account_id));
}

std::size_t RoomRegistry::resume_all() {
  const auto rooms = db_.call([this](storage::Store& store) {
    std::vector<std::shared_ptr<Room>> loaded;
    for (const auto& row : store.list_unfinished_games()) {
      try {
        if (auto room = load(store, row)) loaded.push_back(std::move(room));
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

std::shared_ptr<Room> RoomRegistry::open(std::int64_t game_id) {
  {
    std::lock_guard lock(mutex_);
    if (const auto it = rooms_.find(game_id); it != rooms_.end()) return it->second;
  }
  auto room = db_.call([this, game_id](storage::Store& store) -> std::shared_ptr<Room> {
    const auto row = store.find_game(game_id);
    if (!row || row->status == storage::GameStatus::Aborted) return nullptr;
    return load(store, *row);
  });
  return room ? insert(std::move(room)) : nullptr;
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
  const auto it = summaries_.find(game_id);
  if (it == summaries_.end()) return std::nullopt;
  return it->second;
}

void RoomRegistry::set_summary(std::int64_t game_id, RoomSummary summary) {
  std::lock_guard lock(mutex_);
  summaries_[game_id] = std::move(summary);
}

}  // namespace blockfog::server
