// Ratings (docs/ratings.md), kept per game: GET /api/ratings?game=KIND (the leaderboard of one
// game) and GET /api/players/{name}/ratings (one player's ratings and history).

#include <charconv>
#include <optional>
#include <string>

#include "games/registry.h"
#include "server/api/api.h"
#include "server/api/api_common.h"
#include "server/db_worker.h"
#include "storage/ratings.h"

namespace blockfog::server {

using nlohmann::json;
using protocol::ErrorCode;
using namespace api;

namespace {

constexpr std::int64_t kDefaultLimit = 50;
constexpr std::int64_t kMaxLimit = 100;
constexpr std::int64_t kMaxOffset = 1'000'000;

// A query number in [low, high]; `fallback` when absent; nothing when malformed.
std::optional<std::int64_t> query_number(const std::string& target, const std::string& name,
                                         std::int64_t fallback, std::int64_t low,
                                         std::int64_t high) {
  const auto text = query_param(target, name);
  if (text.empty()) return fallback;
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < low || value > high) {
    return std::nullopt;
  }
  return value;
}

json rating_json(const storage::glicko2::Rating& r) {
  return {{"rating", r.rating}, {"deviation", r.deviation}, {"volatility", r.volatility}};
}

// The game named by the query's `game` (the default game without one); none when unknown.
const games::GameKind* queried_kind(const std::string& target) {
  const auto name = query_param(target, "game");
  return games::find_game_kind(name.empty() ? games::kDefaultKind : std::string_view(name));
}

}  // namespace

HttpResponse Api::leaderboard(const RouteCall& call) {
  const auto& target = call.request.target;
  const auto limit = query_number(target, "limit", kDefaultLimit, 1, kMaxLimit);
  if (!limit) {
    return error(400, ErrorCode::BadField,
                 "limit must be a whole number from 1 to " + std::to_string(kMaxLimit));
  }
  const auto offset = query_number(target, "offset", 0, 0, kMaxOffset);
  if (!offset) {
    return error(400, ErrorCode::BadField,
                 "offset must be a whole number from 0 to " + std::to_string(kMaxOffset));
  }
  const auto* kind = queried_kind(target);
  if (!kind) return error(400, ErrorCode::UnknownGame, "game: no such game");
  const auto [rows, total] = db_.call([&](storage::Store& store) {
    return std::pair(storage::list_ratings(store, kind->kind, static_cast<std::size_t>(*limit),
                                           static_cast<std::size_t>(*offset)),
                     storage::count_ratings(store, kind->kind));
  });
  json list = json::array();
  std::int64_t rank = *offset;
  for (const auto& row : rows) {
    json entry = rating_json(row.rating);
    entry["rank"] = ++rank;
    entry["username"] = row.username;
    entry["games"] = row.games;
    entry["updated_at"] = row.updated_at;
    list.push_back(std::move(entry));
  }
  json body = {{"total", total}, {"offset", *offset}, {"limit", *limit}, {"ratings", list}};
  games::describe_kind(kind->kind, body);
  return json_response(200, body);
}

HttpResponse Api::player_ratings(const RouteCall& call) {
  struct Found {
    storage::AccountRow account;
    std::vector<storage::RatingRow> ratings;
    std::vector<storage::RatingChange> history;
  };
  const auto* kind = queried_kind(call.request.target);
  if (!kind) return error(400, ErrorCode::UnknownGame, "game: no such game");
  const auto found = db_.call([&](storage::Store& store) -> std::optional<Found> {
    auto account = store.find_account_by_name(call.token);
    if (!account) return std::nullopt;
    return Found{*account, storage::find_ratings(store, account->id),
                 storage::rating_history(store, account->id)};
  });
  if (!found) return error(404, ErrorCode::NotFound, "no such player");
  json history = json::array();
  for (const auto& change : found->history) {
    // An invite game is its players' business: its id is not published.
    history.push_back({{"game_id", change.public_game ? json(change.game_id) : json()},
                       {"game", change.kind},
                       {"finished_at", change.created_at},
                       {"role", change.role},
                       {"opponent", change.opponent},
                       {"score", change.score},
                       {"before", rating_json(change.before)},
                       {"after", rating_json(change.after)}});
  }
  // `rating` and `games`: in the game asked for (the default game without one); `ratings`:
  // every game the player was rated in.
  const storage::RatingRow* asked = nullptr;
  json ratings = json::array();
  for (const auto& row : found->ratings) {
    if (row.kind == kind->kind) asked = &row;
    json entry = rating_json(row.rating);
    games::describe_kind(row.kind, entry);
    entry["games"] = row.games;
    ratings.push_back(std::move(entry));
  }
  json player = {{"username", found->account.username},
                 {"rating", asked ? rating_json(asked->rating) : json()},
                 {"games", asked ? asked->games : 0},
                 {"ratings", ratings}};
  games::describe_kind(kind->kind, player);
  return json_response(200, {{"player", player}, {"history", history}});
}

}  // namespace blockfog::server
