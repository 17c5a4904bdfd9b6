#include "server/api/replay.h"

#include <algorithm>
#include <cassert>
#include <charconv>

#include "protocol/http.h"
#include "rules/core/role.h"
#include "server/api/api_common.h"
#include "server/db_worker.h"
#include "server/log.h"
#include "server/play/game_loader.h"

namespace blockfog::server {
namespace {

using nlohmann::json;
using protocol::ErrorCode;

using api::error;
using api::json_response;

std::optional<std::size_t> parse_seq(std::string_view text) {
  std::size_t seq = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), seq);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return seq;
}

}  // namespace

std::shared_ptr<const ReplayedGame> ReplayedGame::build(
    const storage::GameRow& row, const std::vector<storage::ActionRow>& actions, std::size_t every,
    std::string& error) {
  auto loaded = setup_game(row);
  if (!loaded.game) {
    error = loaded.error;
    return nullptr;
  }
  auto replayed = std::make_shared<ReplayedGame>();
  replayed->game_id_ = row.id;
  replayed->every_ = std::max<std::size_t>(every, 1);
  replayed->actions_.reserve(actions.size());
  // A checkpoint after setup and after every multiple of `every_` actions.
  auto& r = *replayed;
  r.checkpoints_.push_back(loaded.game->clone());
  const auto failure =
      apply_logged_actions(row.id, *loaded.game, actions,
                           [&r](core::Role role, const json& action, const core::Game& after) {
                             r.actions_.emplace_back(role, action);
                             if (r.actions_.size() % r.every_ == 0)
                               r.checkpoints_.push_back(after.clone());
                           });
  if (failure) {
    error = *failure;
    return nullptr;
  }
  return replayed;
}

std::unique_ptr<core::Game> ReplayedGame::at(std::size_t seq) const {
  seq = std::min(seq, actions_.size());
  const std::size_t k = seq / every_;
  auto game = checkpoints_.at(k)->clone();
  for (std::size_t i = k * every_; i < seq; ++i) {
    // Each of these was applied when the game was built, from the same state.
    [[maybe_unused]] const auto refused = game->apply(actions_[i].first, actions_[i].second);
    assert(!refused);
  }
  return game;
}

Replays::Replays(DbWorker& db, std::size_t max_games, std::size_t checkpoint_every)
    : db_(db), max_games_(std::max<std::size_t>(max_games, 1)), every_(checkpoint_every) {}

std::int64_t Replays::builds() const {
  std::lock_guard lock(mutex_);
  return builds_;
}

std::shared_ptr<const ReplayedGame> Replays::find(std::int64_t game_id) {
  std::lock_guard lock(mutex_);
  const auto it = std::find_if(recent_.begin(), recent_.end(),
                               [&](const auto& g) { return g->game_id() == game_id; });
  if (it == recent_.end()) return nullptr;
  recent_.splice(recent_.begin(), recent_, it);
  return recent_.front();
}

void Replays::remember(std::shared_ptr<const ReplayedGame> game) {
  std::lock_guard lock(mutex_);
  ++builds_;
  // Two requests may have built the same game at once: keep one.
  recent_.remove_if([&](const auto& g) { return g->game_id() == game->game_id(); });
  recent_.push_front(std::move(game));
  while (recent_.size() > max_games_) recent_.pop_back();
}

HttpResponse Replays::handle(const storage::GameRow& row, std::string_view seq_text,
                             std::string_view role_text) {
  const auto game_id = row.id;
  const auto seq = parse_seq(seq_text);
  if (!seq) return error(400, ErrorCode::BadField, "the step must be a number of actions");
  if (role_text.empty()) {
    return error(400, ErrorCode::MissingField, "role is scotland, england, observer or all");
  }
  const bool all = role_text == "all";
  const auto named = core::role_from_name(role_text);
  if (!all && !named) {
    return error(400, ErrorCode::BadField, "role is scotland, england, observer or all");
  }
  // Nobody steps through a game under way, its organiser included: a step shows facts that
  // some seat may not know yet (RULES 13.1.1), and its views only once the game has ended
  // (RULES 13.1.6).
  if (row.status != storage::GameStatus::Finished) {
    return error(409, ErrorCode::GameNotFinished,
                 "a game can be stepped through once it has ended");
  }
  // A finished game's log never changes: its replay is found without reading it again.
  auto replayed = find(game_id);
  if (!replayed) {
    const auto actions =
        db_.call([&](storage::Store& store) { return store.load_actions(game_id); });
    std::string failure;
    replayed = ReplayedGame::build(row, actions, every_, failure);
    if (!replayed) {
      log_error("replay: " + failure);
      return error(500, ErrorCode::Internal, "the game's log does not replay");
    }
    remember(replayed);
  }
  if (*seq > replayed->size()) {
    return error(400, ErrorCode::BadField,
                 "the game has " + std::to_string(replayed->size()) + " actions");
  }
  const core::Role role = named.value_or(core::Role::Observer);
  const auto game = replayed->at(*seq);
  json body = {{"game_id", game_id},
               {"seq", *seq},
               {"actions", replayed->size()},
               {"role", all ? std::string("all") : std::string(core::role_name(role))}};
  if (all) {
    body["views"] = {{"scotland", game->view(core::Role::Scotland)},
                     {"england", game->view(core::Role::England)}};
  } else {
    body["view"] = game->view(role);
  }
  auto response = json_response(200, body);
  // A finished game's steps never change. An invite game's are for its players only
  // (api.cpp checks who asks), so no shared cache may keep them for others.
  const bool is_public = row.visibility == storage::Visibility::Public;
  response.headers.emplace_back("Cache-Control", std::string(is_public ? "public" : "private") +
                                                     ", max-age=86400, immutable");
  return response;
}

}  // namespace blockfog::server
