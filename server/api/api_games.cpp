// The lobby: scenarios, creating, listing, describing and joining games, and invitations.

#include "games/registry.h"
#include "protocol/http.h"
#include "rules/core/hex.h"
#include "server/api/api.h"
#include "server/api/invite_tokens.h"
#include "server/clock.h"
#include "server/clocks/time_control.h"
#include "server/crypto.h"
#include "server/db_worker.h"
#include "server/log.h"
#include "server/play/dice.h"
#include "server/play/game_loader.h"
#include "server/play/room_registry.h"
#include "storage/computer_seats.h"
#include "storage/play_by_web.h"

namespace blockfog::server {

using nlohmann::json;
using protocol::ErrorCode;
using namespace api;

namespace {
// Games one account may have waiting for an opponent at once.
constexpr int kMaxOpenGames = 10;

// The one place of the rule: the computer stands in in casual games only, a rated game's
// result is the players' own (docs/ratings.md). A seat's consent is recorded only when this
// allows it, so storage::stand_in_allowed needs only count consents.
std::optional<HttpResponse> stand_in_refusal(bool rated, bool stand_in) {
  if (!rated || !stand_in) return std::nullopt;
  return error(400, ErrorCode::BadField,
               "the computer stands in in casual games only, not rated ones");
}

// A computer seat, or a stand-in, only in a game the computer plays.
std::optional<HttpResponse> computer_refusal(const games::GameKind& kind, bool computer,
                                             bool stand_in) {
  if (kind.choose_action || (!computer && !stand_in)) return std::nullopt;
  return error(400, ErrorCode::NoComputer,
               "the computer does not play " + std::string(kind.display_name) + " yet");
}

json describe_game_kind(const games::GameKind& kind) {
  json j = json::object();
  games::describe_kind(kind.kind, j);
  json list = json::array();
  for (const auto& s : kind.module->scenarios()) list.push_back(s);
  j["rules_version"] = std::string(kind.module->rules_version());
  j["scenarios"] = std::move(list);
  j["options"] = kind.options;
  j["computer"] = kind.choose_action != nullptr;
  return j;
}
}  // namespace

// Every game served (`games`); the default game's members also at the top level, as the
// answer was before there was a choice.
HttpResponse Api::scenarios() {
  json body = describe_game_kind(games::default_game_kind());
  json list = json::array();
  for (const auto& kind : games::game_kinds()) list.push_back(describe_game_kind(kind));
  body["games"] = std::move(list);
  return json_response(200, body);
}

std::optional<HttpResponse> Api::refuse_over_game_quota(std::int64_t account_id) {
  if (create_limiter_ && !create_limiter_->allow("account:" + std::to_string(account_id))) {
    return too_many(ErrorCode::RateLimited, "you are creating games too fast; wait a minute", 60);
  }
  return std::nullopt;
}

HttpResponse Api::create_game(const RouteCall& call) {
  const auto& request = call.request;
  const auto& identity = call.identity;
  if (auto refused = refuse_over_game_quota(identity->account_id)) return *refused;
  const auto decoded = protocol::decode_create_game(request.body);
  if (auto* e = std::get_if<protocol::DecodeError>(&decoded)) return decode_error(*e);
  const auto& r = std::get<protocol::CreateGameRequest>(decoded);
  if (auto refused = stand_in_refusal(r.rated, r.stand_in)) return *refused;
  const auto* kind = games::find_game_kind(r.kind.value_or(std::string(games::kDefaultKind)));
  if (!kind) return error(400, ErrorCode::UnknownGame, "no such game: '" + *r.kind + "'");
  if (auto refused = computer_refusal(*kind, r.computer.has_value(), r.stand_in)) return *refused;
  const auto& module = *kind->module;
  storage::NewGame game;
  game.kind = std::string(kind->kind);
  game.rules_version = std::string(module.rules_version());
  game.scenario = r.scenario;
  game.options_json = r.options.dump();
  game.seed_hex = random_hex(32);
  game.seed_sha256 = seed_commitment(game.seed_hex);
  // The options are checked by setting the game up once; the seed stays secret.
  if (auto setup = module.setup(*core::seed_from_hex(game.seed_hex), r.scenario, r.options);
      !setup.game) {
    return error(400, ErrorCode::BadField, setup.error);
  }
  const auto time_control = parse_time_control(&r.time_control);
  if (auto* e = std::get_if<std::string>(&time_control)) {
    return error(400, ErrorCode::BadField, *e);
  }
  const auto& tc = std::get<TimeControl>(time_control);
  std::string side;
  switch (r.side) {
    case protocol::SideChoice::Scotland:
      side = "scotland";
      break;
    case protocol::SideChoice::England:
      side = "england";
      break;
    case protocol::SideChoice::Random:
      side = (core::from_hex(random_hex(1))->front() & 1) ? "scotland" : "england";
      break;
  }
  game.creator_role = side;
  game.created_by = identity->account_id;
  game.observer_chat = r.observer_chat;
  game.rated = r.rated;
  std::optional<std::string> invite_token;
  if (r.visibility == protocol::VisibilityChoice::Invite) {
    // A placeholder until the game has its id: the token is derived from it (invite_tokens.h).
    game.visibility = storage::Visibility::Invite;
    game.invite_token_hash = sha256_hex(random_hex(16));
  }
  // One storage task: the count of waiting games and the new one cannot interleave with another.
  const auto info = db_.call([&](storage::Store& store) -> std::optional<GameInfo> {
    const auto waiting = store.count_open_games_created_by(identity->account_id);
    if (!r.computer && waiting >= kMaxOpenGames) return std::nullopt;
    // The game, its time control, and against the computer its seat and start, stand or fall
    // together.
    storage::Transaction transaction(store.database());
    const auto now = now_ms();
    const auto row = store.create_game(game, now);
    if (game.visibility == storage::Visibility::Invite) {
      invite_token = invite_token_of_new_game(store, row.id, now);
    }
    if (tc.timed()) storage::set_time_control(store, row.id, tc.to_json().dump());
    if (r.stand_in) storage::add_stand_in_consent(store, row.id, side);
    if (r.computer) {
      const std::string computer_role = side == "scotland" ? "england" : "scotland";
      const auto account = storage::computer_account(store, now);
      if (store.take_seat(row.id, computer_role, account, now) != storage::SeatOutcome::Seated) {
        throw std::runtime_error("the computer's seat could not be taken");
      }
      storage::add_computer_seat(store, row.id, {computer_role, *r.computer, false, now});
      await_dice(store, row.id, now, identity->account_id, nullptr);
    }
    transaction.commit();
    return load_info(store, *store.find_game(row.id));
  });
  if (!info) {
    return error(409, ErrorCode::Conflict,
                 "you have " + std::to_string(kMaxOpenGames) +
                     " games waiting for an opponent; cancel or start one first");
  }
  log_info("game " + std::to_string(info->row.id) + " created by " + identity->username +
           (r.computer ? " against the computer (" + *r.computer + ")" : ""));
  json body = {
      {"game", describe(*info, rooms_.summary(info->row.id), identity, &rooms_.presence())}};
  if (invite_token) body["invite"] = *invite_token;
  return json_response(201, body);
}

HttpResponse Api::list_open_games() {
  const auto infos = db_.call([](storage::Store& store) {
    std::vector<GameInfo> list;
    for (const auto& row : store.list_open_public_games(100)) {
      list.push_back(load_info(store, row));
    }
    return list;
  });
  json games = json::array();
  for (const auto& info : infos)
    games.push_back(describe(info, std::nullopt, std::nullopt, &rooms_.presence()));
  return json_response(200, {{"games", games}});
}

// The lobby's games to watch: public games under way, with whose turn it is. Read-only;
// observers see only what the observer view shows (RULES 13).
HttpResponse Api::list_live_games() {
  const auto infos = db_.call([](storage::Store& store) {
    std::vector<GameInfo> list;
    for (const auto& row : store.list_live_public_games(100)) {
      list.push_back(load_info(store, row));
    }
    return list;
  });
  json games = json::array();
  for (const auto& info : infos) {
    games.push_back(describe(info, rooms_.summary(info.row.id), std::nullopt, &rooms_.presence()));
  }
  return json_response(200, {{"games", games}});
}

HttpResponse Api::my_games(const RouteCall& call) {
  const auto& identity = call.identity;
  const auto infos = db_.call([&](storage::Store& store) {
    std::vector<GameInfo> list;
    for (const auto& row : store.list_games_of_account(identity->account_id, 200)) {
      list.push_back(load_info(store, row));
    }
    return list;
  });
  std::vector<json> games;
  for (const auto& info : infos) {
    games.push_back(describe(info, rooms_.summary(info.row.id), identity, &rooms_.presence()));
  }
  // The games waiting for this player come first.
  std::stable_sort(games.begin(), games.end(), [](const json& a, const json& b) {
    return a["your_turn"].get<bool>() && !b["your_turn"].get<bool>();
  });
  return json_response(200, {{"games", games}});
}

HttpResponse Api::game_details(const RouteCall& call) {
  const auto game_id = call.id;
  const auto& identity = call.identity;
  const auto info = find_visible(db_, game_id, identity);
  if (!info) return error(404, ErrorCode::NotFound, "no such game");
  return json_response(
      200, {{"game", describe(*info, rooms_.summary(game_id), identity, &rooms_.presence())}});
}

HttpResponse Api::join_game(const RouteCall& call) {
  const auto& request = call.request;
  const auto game_id = call.id;
  const auto& identity = call.identity;
  const auto decoded = protocol::decode_join(request.body);
  if (auto* e = std::get_if<protocol::DecodeError>(&decoded)) return decode_error(*e);
  const auto& join = std::get<protocol::JoinRequest>(decoded);
  struct Joined {
    std::optional<HttpResponse> refusal;
    std::optional<GameInfo> info;
  };
  // One storage task: nobody else can take the seat between the check and the take.
  auto joined = db_.call([&](storage::Store& store) -> Joined {
    const auto row = store.find_game(game_id);
    if (!row) return {error(404, ErrorCode::NotFound, "no such game"), {}};
    if (row->visibility == storage::Visibility::Invite &&
        (!join.invite || sha256_hex(*join.invite) != row->invite_token_hash)) {
      return {error(404, ErrorCode::NotFound, "no such game"), {}};
    }
    if (row->status != storage::GameStatus::Open) {
      return {error(409, ErrorCode::SeatTaken, "the game is not open"), {}};
    }
    if (auto refused = stand_in_refusal(row->rated, join.stand_in)) return {*refused, {}};
    if (const auto* kind = games::find_game_kind(row->kind)) {
      if (auto refused = computer_refusal(*kind, false, join.stand_in)) return {*refused, {}};
    }
    const auto seats = load_seats(store, game_id);
    if (role_of(seats, identity->account_id)) {
      return {error(409, ErrorCode::SeatTaken, "you already have a seat in this game"), {}};
    }
    const char* free_role = !seats.scotland ? "scotland" : !seats.england ? "england" : nullptr;
    if (!free_role) return {error(409, ErrorCode::SeatTaken, "both seats are taken"), {}};
    const auto now = now_ms();
    // The seat and, with both taken, the dice deadline stand or fall together.
    storage::Transaction transaction(store.database());
    if (auto moving = refuse_unless_held(store, game_id)) return {std::move(moving), {}};
    if (store.take_seat(game_id, free_role, identity->account_id, now) !=
        storage::SeatOutcome::Seated) {
      return {error(409, ErrorCode::SeatTaken, "the seat was taken"), {}};
    }
    if (join.stand_in) storage::add_stand_in_consent(store, game_id, free_role);
    // Both seats taken: the game starts once both players' dice are revealed (dice.h).
    if (seats.of(core::other_side(*core::role_from_name(free_role)))) {
      await_dice(store, game_id, now, identity->account_id, &rooms_.presence());
    }
    transaction.commit();
    return {std::nullopt, load_info(store, *store.find_game(game_id))};
  });
  if (joined.refusal) return *joined.refusal;
  rooms_.seated(game_id, joined.info->seats, joined.info->dice);
  return json_response(
      200,
      {{"game", describe(*joined.info, rooms_.summary(game_id), identity, &rooms_.presence())}});
}

HttpResponse Api::roll_dice(const RouteCall& call) {
  const auto game_id = call.id;
  const auto& identity = call.identity;
  const auto decoded = protocol::decode_dice(call.request.body);
  if (auto* e = std::get_if<protocol::DecodeError>(&decoded)) return decode_error(*e);
  const auto& r = std::get<protocol::DiceRequest>(decoded);
  struct Rolled {
    std::optional<HttpResponse> refusal;
    std::optional<GameInfo> info;
    std::shared_ptr<core::Game> started;
  };
  auto rolled = db_.call([&](storage::Store& store) -> Rolled {
    const auto row = store.find_game(game_id);
    if (!row) return {error(404, ErrorCode::NotFound, "no such game"), {}, {}};
    const auto role = role_of(load_seats(store, game_id), identity->account_id);
    if (!role) {
      if (row->visibility == storage::Visibility::Invite) {
        return {error(404, ErrorCode::NotFound, "no such game"), {}, {}};
      }
      return {error(403, ErrorCode::NotSeated, "only the game's players roll its dice"), {}, {}};
    }
    // The step's own transaction is a savepoint of this one, which holds the game's lease.
    storage::Transaction fenced(store.database());
    if (auto moving = refuse_unless_held(store, game_id)) return {std::move(moving), {}, {}};
    auto outcome = take_dice_step(store, game_id, *role, identity->account_id,
                                  {r.commitment, r.contribution}, now_ms(), &rooms_.presence());
    if (const auto& no = outcome.refusal) return {error(no->status, no->code, no->message), {}, {}};
    fenced.commit();
    return {std::nullopt, load_info(store, *store.find_game(game_id)), std::move(outcome.started)};
  });
  if (rolled.refusal) return *rolled.refusal;
  if (!rolled.started) {
    rooms_.seated(game_id, rolled.info->seats, rolled.info->dice);
  } else {
    log_info("game " + std::to_string(game_id) + " started");
    rooms_.start(game_id, rolled.started, rolled.info->seats, rolled.info->dice);
    // The clocks start with the game: its clients are told, after the first views.
    if (!rolled.info->clocks.is_null()) {
      rooms_.broadcast(game_id, protocol::ClocksMessage{rolled.info->clocks});
    }
  }
  return json_response(
      200,
      {{"game", describe(*rolled.info, rooms_.summary(game_id), identity, &rooms_.presence())}});
}

HttpResponse Api::game_invite(const RouteCall& call) {
  const auto game_id = call.id;
  const auto account = call.identity->account_id;
  const auto token = db_.call([&](storage::Store& store) -> std::optional<std::string> {
    const auto row = store.find_game(game_id);
    // Only the creator and the seated players may have it; to anybody else an invite game is
    // as absent as an unused id (find_visible).
    if (!row || row->visibility != storage::Visibility::Invite) return std::nullopt;
    if (row->created_by != account && !role_of(load_seats(store, game_id), account)) {
      return std::nullopt;
    }
    auto derived = invite_token(store, game_id, now_ms());
    if (sha256_hex(derived) != row->invite_token_hash) return std::string();  // a random one
    return derived;
  });
  if (!token) return error(404, ErrorCode::NotFound, "no such game");
  if (token->empty()) {
    return error(404, ErrorCode::NotFound,
                 "this game's invitation link was shown once, when it was created, and is not "
                 "kept");
  }
  return json_response(200, {{"invite", *token}});
}

HttpResponse Api::invite(const RouteCall& call) {
  const auto& token = call.token;
  const auto info = db_.call([&](storage::Store& store) -> std::optional<GameInfo> {
    const auto row = store.find_game_by_invite(sha256_hex(token));
    if (!row) return std::nullopt;
    return load_info(store, *row);
  });
  if (!info) return error(404, ErrorCode::NotFound, "no such invitation");
  return json_response(
      200,
      {{"game", describe(*info, rooms_.summary(info->row.id), std::nullopt, &rooms_.presence())}});
}

}  // namespace blockfog::server
