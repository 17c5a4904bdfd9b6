#pragma once

// Finished games stepped through action by action (GET /api/games/{id}/replay/{seq}): the view
// after the first `seq` actions of the stored log, as a seat, the observer, or both seats at
// once ("all") would have seen it. A finished game's record (its seed and actions) is published
// to whoever may see the game: anybody for a public game, its players for an invite game. So
// nothing here is secret from them any more; each seat's view still hides what that seat did
// not know at that step.
//
// A game under way is stepped through by nobody, its tournament's organiser included: its
// views with everything revealed would show what a seat may not know yet (RULES 13.1).
//
// Stepping must not cost a replay from the start per request: a game is replayed once into
// checkpoints (a copy of the state every `checkpoint_every` actions), kept for the few most
// recently stepped games, and a step is a checkpoint plus fewer than `checkpoint_every` actions.

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/game.h"
#include "server/api/http_types.h"
#include "storage/store.h"

namespace blockfog::server {

class DbWorker;

// A finished game replayed once: its actions and the state every `every` actions.
class ReplayedGame {
 public:
  // Replays `actions` from the row's seed, checking each recorded state hash. Null (with
  // `error` set) when the log does not replay.
  static std::shared_ptr<const ReplayedGame> build(const storage::GameRow& row,
                                                   const std::vector<storage::ActionRow>& actions,
                                                   std::size_t every, std::string& error);

  std::int64_t game_id() const { return game_id_; }
  std::size_t size() const { return actions_.size(); }
  // The game after the first `seq` actions (seq <= size()).
  std::unique_ptr<core::Game> at(std::size_t seq) const;
  std::size_t checkpoints() const { return checkpoints_.size(); }

 private:
  std::int64_t game_id_ = 0;
  std::size_t every_ = 1;
  std::vector<std::pair<core::Role, nlohmann::json>> actions_;
  std::vector<std::unique_ptr<const core::Game>> checkpoints_;  // [k]: after k * every_ actions
};

// The replay endpoint and its small LRU of replayed games. Thread-safe: HTTP handlers call it
// from the API's worker pool.
class Replays {
 public:
  Replays(DbWorker& db, std::size_t max_games = 8, std::size_t checkpoint_every = 64);

  // GET /api/games/{id}/replay/{seq_text}?role=role_text for the game `row`, once the caller
  // has read it and checked that the asker may see it (an invite game's steps are its players'
  // alone). A game under way is refused (409 game_not_finished) to everybody.
  HttpResponse handle(const storage::GameRow& row, std::string_view seq_text,
                      std::string_view role_text);

  // How many times a game was replayed from its log (a miss of the cache): for tests.
  std::int64_t builds() const;

 private:
  // The replay of the finished game `game_id`, if kept.
  std::shared_ptr<const ReplayedGame> find(std::int64_t game_id);
  void remember(std::shared_ptr<const ReplayedGame> game);

  DbWorker& db_;
  const std::size_t max_games_;
  const std::size_t every_;
  mutable std::mutex mutex_;
  std::list<std::shared_ptr<const ReplayedGame>> recent_;  // most recently used first
  std::int64_t builds_ = 0;
};

}  // namespace blockfog::server
