// Finished games for verifiers: GET /api/games/{id}/record and /api/games/{id}/replay/{seq};
// and a tournament game under way, stepped through by its organiser.

#include "server/api.h"
#include "server/db_worker.h"
#include "server/game_loader.h"
#include "storage/tournament_store.h"

namespace blockfog::server {

using protocol::ErrorCode;
using namespace api;

HttpResponse Api::game_record(const RouteCall& call) {
  // Only those who may see an invite game get its record. Anybody else gets the answer for a
  // missing game first, so that a 409 does not tell it exists.
  const auto info = find_visible(db_, call.id, call.identity);
  if (!info) return error(404, ErrorCode::NotFound, "no such game");
  const auto& row = info->row;
  if (row.status != storage::GameStatus::Finished) {
    return error(409, ErrorCode::GameNotFinished, "the record is published when the game ends");
  }
  // A finished game never changes, so its row as read for the visibility check still holds.
  const auto actions = db_.call([&](storage::Store& store) { return store.load_actions(row.id); });
  auto response = json_response(200, server::game_record(row, actions));
  response.headers.emplace_back("Content-Disposition", "attachment; filename=\"blockfog-game-" +
                                                           std::to_string(row.id) + ".json\"");
  return response;
}

namespace {

// Whether `viewer` organises the tournament the game belongs to and holds none of its seats:
// he may step through it with everything revealed before it ends (docs/tournaments.md,
// "Replays"). A seated player never may: his own game's hidden facts stay hidden from him
// until its end (RULES 13.1.1, 13.1.6).
bool reveals_to_organiser(DbWorker& db, const GameInfo& info,
                          const std::optional<Identity>& viewer) {
  if (!viewer) return false;
  for (const auto role : {core::Role::Scotland, core::Role::England}) {
    const auto& seat = info.seats.of(role);
    if (seat && seat->account_id == viewer->account_id) return false;
  }
  return db.call([&](storage::Store& store) {
    const auto tournament_id = storage::tournament_of_game(store, info.row.id);
    if (!tournament_id) return false;
    const auto tournament = storage::find_tournament(store, *tournament_id);
    return tournament && tournament->organiser == viewer->account_id;
  });
}

}  // namespace

HttpResponse Api::replay_step(const RouteCall& call) {
  // As for the record: a game hidden from the asker is missing, before any other answer.
  const auto info = find_visible(db_, call.id, call.identity);
  if (!info) return error(404, ErrorCode::NotFound, "no such game");
  const bool under_way = info->row.status != storage::GameStatus::Finished;
  const auto access = under_way && reveals_to_organiser(db_, *info, call.identity)
                          ? ReplayAccess::Organiser
                          : ReplayAccess::Finished;
  return replays_.handle(info->row, call.rest, query_param(call.request.target, "role"), access);
}

}  // namespace blockfog::server
