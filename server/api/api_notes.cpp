// A seat's private notes on a game (docs/protocol.md, "Private notes"): the notepad of the
// player who holds the seat, and of nobody else. No other route, view, record, export or
// bundle reads them.

#include <variant>

#include "protocol/http.h"
#include "server/api/api.h"
#include "server/clock.h"
#include "server/db_worker.h"
#include "storage/game_notes.h"

namespace blockfog::server {

using nlohmann::json;
using protocol::ErrorCode;
using namespace api;

namespace {

json notes_body(const std::optional<storage::GameNotes>& notes) {
  if (!notes) return {{"text", ""}, {"updated_at", nullptr}};
  return {{"text", notes->text}, {"updated_at", notes->updated_at}};
}

}  // namespace

HttpResponse Api::game_notes(const RouteCall& call) {
  std::optional<protocol::NotesRequest> wanted;
  if (call.request.method == "PUT") {
    auto decoded = protocol::decode_notes(call.request.body);
    if (auto* e = std::get_if<protocol::DecodeError>(&decoded)) return decode_error(*e);
    wanted = std::move(std::get<protocol::NotesRequest>(decoded));
  }
  const auto account = call.identity->account_id;
  // The seat is checked and the notes read or written in one storage task.
  auto outcome = db_.call([&](storage::Store& store) -> std::variant<json, HttpResponse> {
    const auto row = store.find_game(call.id);
    if (!row) return error(404, ErrorCode::NotFound, "no such game");
    const auto role = role_of(load_seats(store, call.id), account);
    if (!role) {
      // As everywhere: a stranger cannot tell an invite game from an unused id.
      if (row->visibility == storage::Visibility::Invite) {
        return error(404, ErrorCode::NotFound, "no such game");
      }
      return error(403, ErrorCode::NotSeated, "only a player of the game has notes in it");
    }
    const auto seat = core::role_name(*role);
    if (wanted) storage::save_game_notes(store, call.id, seat, wanted->text, now_ms());
    return notes_body(storage::find_game_notes(store, call.id, seat));
  });
  if (auto* refusal = std::get_if<HttpResponse>(&outcome)) return *refusal;
  return json_response(200, std::get<json>(outcome));
}

}  // namespace blockfog::server
