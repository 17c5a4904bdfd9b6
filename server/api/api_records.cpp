// Finished games for verifiers: GET /api/games/{id}/record and /api/games/{id}/replay/{seq},
// and the keys their signatures are checked with, GET /api/server-key.

#include "server/api/api.h"
#include "server/db_worker.h"
#include "server/records/game_record.h"
#include "server/records/signing.h"
#include "storage/signing_keys.h"

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
  const auto record = db_.call([&](storage::Store& store) {
    return signed_game_record(row, store.load_actions(row.id), load_record_context(store, row),
                              signing_key_.get());
  });
  auto response = json_response(200, record);
  response.headers.emplace_back("Content-Disposition", "attachment; filename=\"blockfog-game-" +
                                                           std::to_string(row.id) + ".json\"");
  return response;
}

HttpResponse Api::server_key() {
  const auto keys =
      db_.call([](storage::Store& store) { return storage::list_signing_keys(store); });
  return json_response(200, server_key_document(keys));
}

HttpResponse Api::replay_step(const RouteCall& call) {
  // As for the record: a game hidden from the asker is missing, before any other answer.
  const auto info = find_visible(db_, call.id, call.identity);
  if (!info) return error(404, ErrorCode::NotFound, "no such game");
  return replays_.handle(info->row, call.rest, query_param(call.request.target, "role"));
}

}  // namespace blockfog::server
