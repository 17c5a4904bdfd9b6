// Playing over days: resigning, cancelling an unstarted game, rematches and vacations
// (docs/protocol.md, "Resign, cancel, rematch" and "Vacations").

#include "games/registry.h"
#include "protocol/fields.h"
#include "protocol/http.h"
#include "rules/core/hex.h"
#include "server/api/api.h"
#include "server/api/invite_tokens.h"
#include "server/clock.h"
#include "server/clocks/game_clocks.h"
#include "server/crypto.h"
#include "server/db_worker.h"
#include "server/log.h"
#include "server/play/dice.h"
#include "server/play/game_loader.h"
#include "server/play/room_registry.h"
#include "storage/play_by_web.h"

namespace blockfog::server {

using nlohmann::json;
using protocol::ErrorCode;
using namespace api;

namespace {

core::Role other(core::Role role) {
  return role == core::Role::Scotland ? core::Role::England : core::Role::Scotland;
}

// What a handler that changes a game decided inside its storage task.
struct Outcome {
  std::optional<HttpResponse> refusal;
  std::optional<GameInfo> info;
};

Outcome refuse(int status, ErrorCode code, const std::string& message) {
  return {error(status, code, message), std::nullopt};
}

}  // namespace

HttpResponse Api::resign(const RouteCall& call) {
  const auto& identity = call.identity;
  const auto done = db_.call([&](storage::Store& store) -> Outcome {
    const auto row = store.find_game(call.id);
    if (!row) return refuse(404, ErrorCode::NotFound, "no such game");
    auto info = load_info(store, *row);
    const auto role = role_of(info.seats, identity->account_id);
    if (!role) {
      if (row->visibility == storage::Visibility::Invite) {
        return refuse(404, ErrorCode::NotFound, "no such game");
      }
      return refuse(403, ErrorCode::NotSeated, "only a player of the game can resign");
    }
    if (row->status == storage::GameStatus::Open) {
      return refuse(409, ErrorCode::GameNotStarted,
                    "the game has not started; its creator can cancel it");
    }
    if (row->status != storage::GameStatus::Active) {
      return refuse(409, ErrorCode::GameOver, "the game is over");
    }
    const auto now = now_ms();
    storage::Transaction transaction(store.database());
    if (auto moving = refuse_unless_held(store, call.id)) return {std::move(moving), {}};
    stop_clocks(store, call.id, load_time_control(store, call.id), info.seats, now);
    store.set_game_status(call.id, storage::GameStatus::Finished, now,
                          result_against(*role, "resigned"));
    transaction.commit();
    info.row = *store.find_game(call.id);
    return {std::nullopt, std::move(info)};
  });
  if (done.refusal) return *done.refusal;
  log_info("game " + std::to_string(call.id) + ": " + identity->username + " resigned");
  rooms_.end(call.id, storage::GameStatus::Finished, done.info->row.result_json);
  return json_response(200, {{"game", describe(*done.info, rooms_.summary(call.id), identity)}});
}

HttpResponse Api::cancel(const RouteCall& call) {
  const auto& identity = call.identity;
  const auto done = db_.call([&](storage::Store& store) -> Outcome {
    const auto row = store.find_game(call.id);
    if (!row) return refuse(404, ErrorCode::NotFound, "no such game");
    auto info = load_info(store, *row);
    if (row->created_by != identity->account_id) {
      if (row->visibility == storage::Visibility::Invite &&
          !role_of(info.seats, identity->account_id)) {
        return refuse(404, ErrorCode::NotFound, "no such game");
      }
      return refuse(403, ErrorCode::Forbidden, "only the game's creator can cancel it");
    }
    if (row->status != storage::GameStatus::Open) {
      return refuse(409, ErrorCode::Conflict,
                    "only a game that has not started can be cancelled; resign instead");
    }
    storage::Transaction transaction(store.database());
    if (auto moving = refuse_unless_held(store, call.id)) return {std::move(moving), {}};
    store.set_game_status(call.id, storage::GameStatus::Aborted, now_ms());
    transaction.commit();
    info.row = *store.find_game(call.id);
    return {std::nullopt, std::move(info)};
  });
  if (done.refusal) return *done.refusal;
  log_info("game " + std::to_string(call.id) + " cancelled by " + identity->username);
  rooms_.end(call.id, storage::GameStatus::Aborted, std::nullopt);
  return json_response(200, {{"game", describe(*done.info, rooms_.summary(call.id), identity)}});
}

HttpResponse Api::rematch(const RouteCall& call) {
  const auto& identity = call.identity;
  const auto& answer = call.token;  // "offer", "accept" or "decline"
  if (answer != "offer" && answer != "accept" && answer != "decline") {
    return error(404, ErrorCode::NotFound, "no such path");
  }
  struct Done {
    std::optional<HttpResponse> refusal;
    json rematch;
    std::optional<std::int64_t> new_game;
  };
  auto done = db_.call([&](storage::Store& store) -> Done {
    const auto row = store.find_game(call.id);
    if (!row) return {error(404, ErrorCode::NotFound, "no such game"), {}, {}};
    const auto info = load_info(store, *row);
    const auto role = role_of(info.seats, identity->account_id);
    if (!role) {
      if (row->visibility == storage::Visibility::Invite) {
        return {error(404, ErrorCode::NotFound, "no such game"), {}, {}};
      }
      return {error(403, ErrorCode::NotSeated, "only a player of the game can ask for a rematch"),
              {},
              {}};
    }
    if (row->status != storage::GameStatus::Finished) {
      return {error(409, ErrorCode::GameNotFinished, "a rematch is offered once the game ends"),
              {},
              {}};
    }
    const auto now = now_ms();
    // Every answer below writes the game's rematch row: under the game's lease.
    storage::Transaction fenced(store.database());
    if (auto moving = refuse_unless_held(store, call.id)) return {std::move(moving), {}, {}};
    auto offer = storage::find_rematch(store, call.id);
    Done result;
    if (answer == "offer") {
      if (offer) {
        return {error(409, ErrorCode::Conflict,
                      offer->offered_by == identity->account_id
                          ? "you offered a rematch already"
                          : "your opponent offered a rematch already: accept or decline it"),
                {},
                {}};
      }
      storage::offer_rematch(store, call.id, identity->account_id, now);
      fenced.commit();
      result.rematch = {
          {"state", "offered"}, {"offered_by", identity->username}, {"game_id", nullptr}};
      return result;
    }
    if (!offer || offer->state != storage::RematchState::Offered) {
      return {error(409, ErrorCode::Conflict, "no rematch is on offer"), {}, {}};
    }
    if (offer->offered_by == identity->account_id) {
      return {error(409, ErrorCode::Conflict, "your opponent answers your offer, not you"), {}, {}};
    }
    const auto& offerer = info.seats.of(other(*role));
    const std::string offered_by = offerer ? offerer->username : "?";
    if (answer == "decline") {
      storage::settle_rematch(store, call.id, storage::RematchState::Declined, std::nullopt);
      fenced.commit();
      result.rematch = {{"state", "declined"}, {"offered_by", offered_by}, {"game_id", nullptr}};
      return result;
    }
    // The acceptance creates a game: it counts against the acceptor's quota as creating one
    // does, else a resign-offer-accept loop would start games without bound.
    if (auto refused = refuse_over_game_quota(identity->account_id)) {
      return {std::move(refused), {}, {}};
    }
    // The same scenario, options and time control with the sides swapped: the one who offered
    // now plays the side the acceptor played.
    // The same game: its kind's rules as they are now.
    const auto* kind = games::find_game_kind(row->kind);
    if (!kind) {
      return {error(409, ErrorCode::UnknownGame, "this server no longer plays '" + row->kind + "'"),
              {},
              {}};
    }
    storage::NewGame game;
    game.kind = row->kind;
    game.rules_version = std::string(kind->module->rules_version());
    game.scenario = row->scenario;
    game.options_json = row->options_json;
    game.seed_hex = random_hex(32);
    game.seed_sha256 = seed_commitment(game.seed_hex);
    game.visibility = row->visibility;
    if (game.visibility == storage::Visibility::Invite) {
      game.invite_token_hash = sha256_hex(random_hex(16));  // until it has its id, below
    }
    game.created_by = offer->offered_by;
    game.creator_role = std::string(core::role_name(*role));
    game.observer_chat = row->observer_chat;
    game.rated = row->rated;
    storage::Transaction transaction(store.database());
    const auto created = store.create_game(game, now);
    if (game.visibility == storage::Visibility::Invite) {
      invite_token_of_new_game(store, created.id, now);
    }
    if (const auto tc = storage::time_control(store, call.id)) {
      storage::set_time_control(store, created.id, *tc);
    }
    store.take_seat(created.id, core::role_name(other(*role)), identity->account_id, now);
    // The new game starts once both players' dice are revealed (server/play/dice.h).
    await_dice(store, created.id, now, identity->account_id, &rooms_.presence());
    storage::settle_rematch(store, call.id, storage::RematchState::Accepted, created.id);
    transaction.commit();
    fenced.commit();
    result.new_game = created.id;
    result.rematch = {{"state", "accepted"}, {"offered_by", offered_by}, {"game_id", created.id}};
    return result;
  });
  if (done.refusal) return *done.refusal;
  const auto& r = done.rematch;
  rooms_.broadcast(call.id,
                   protocol::RematchMessage{r["state"].get<std::string>(),
                                            r["offered_by"].get<std::string>(), done.new_game});
  return json_response(200, {{"rematch", r}});
}

HttpResponse Api::vacation(const RouteCall& call) {
  const auto& identity = call.identity;
  const auto listing = [&](storage::Store& store, std::int64_t now) {
    json list = json::array();
    for (const auto& v : storage::list_vacations(store, identity->account_id, now)) {
      list.push_back(
          {{"starts_at", v.starts_at}, {"ends_at", v.ends_at}, {"automatic", v.automatic}});
    }
    return json{{"days_per_year", kVacationDaysPerYear},
                {"days_left", vacation_days_left(store, identity->account_id, now)},
                {"vacations", list}};
  };
  if (call.request.method == "GET") {
    return json_response(200,
                         db_.call([&](storage::Store& store) { return listing(store, now_ms()); }));
  }
  const auto parsed = protocol::parse_object(call.request.body, 4096);
  if (auto* e = std::get_if<protocol::DecodeError>(&parsed)) return decode_error(*e);
  protocol::FieldReader fields(std::get<json>(parsed));
  const auto days = fields.integer("days", protocol::Need::Required, 1, kMaxVacationDays);
  const auto starts_at = fields.integer("starts_at", protocol::Need::Optional, 0);
  fields.reject_unread();
  if (fields.error()) return decode_error(*fields.error());
  struct Done {
    std::optional<HttpResponse> refusal;
    json body;
  };
  const auto done = db_.call([&](storage::Store& store) -> Done {
    const auto now = now_ms();
    const auto start = std::max(now, starts_at.value_or(now));
    if (start > now + 365 * kDayMs) {
      return {error(400, ErrorCode::BadField, "a vacation starts within a year"), {}};
    }
    const auto end = start + *days * kDayMs;
    for (const auto& v : storage::list_vacations(store, identity->account_id, start)) {
      if (v.starts_at < end) {
        return {error(409, ErrorCode::Conflict, "you are on vacation then already"), {}};
      }
    }
    const auto left = vacation_days_left(store, identity->account_id, start);
    if (*days > left) {
      return {error(409, ErrorCode::Conflict,
                    "you have " + std::to_string(left) + " vacation days left this year"),
              {}};
    }
    storage::add_vacation(store, identity->account_id, start, end, false, now);
    return {std::nullopt, listing(store, now)};
  });
  if (done.refusal) return *done.refusal;
  log_info(identity->username + " takes " + std::to_string(*days) + " vacation days");
  return json_response(200, done.body);
}

}  // namespace blockfog::server
