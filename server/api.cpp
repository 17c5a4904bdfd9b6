#include "server/api.h"

#include <algorithm>
#include <charconv>

#include "protocol/http.h"
#include "rules/core/hex.h"
#include "rules/hots/module.h"
#include "server/clock.h"
#include "server/crypto.h"
#include "server/db_worker.h"
#include "server/game_loader.h"
#include "server/housekeeping.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/room_registry.h"

namespace blockfog::server {
namespace {

using nlohmann::json;
using protocol::ErrorCode;

constexpr std::int64_t kSessionMs = 30LL * 24 * 3600 * 1000;  // a seat may be away for days
constexpr std::int64_t kTouchEveryMs = 3600 * 1000;           // slide the expiry hourly
constexpr std::int64_t kLoginWindowMs = 15 * 60 * 1000;
constexpr std::int64_t kFailuresPerAccount = 10;
constexpr std::int64_t kFailuresPerAddress = 50;
constexpr std::int64_t kRegistrationWindowMs = 3600 * 1000;
constexpr std::int64_t kRegistrationsPerAddress = 200;
static_assert(kLoginWindowMs <= kFailedLoginRetentionMs &&
                  kRegistrationWindowMs <= kFailedLoginRetentionMs,
              "housekeeping would delete failed-login windows that are still open");

HttpResponse json_response(int status, const json& body) {
  return {
      status, "application/json", body.dump(-1, ' ', false, json::error_handler_t::replace), {}};
}

HttpResponse error(int status, ErrorCode code, const std::string& message) {
  return json_response(status, protocol::error_body(code, message));
}

HttpResponse decode_error(const protocol::DecodeError& e) {
  return error(e.code == ErrorCode::FrameTooLarge ? 413 : 400, e.code, e.message);
}

std::optional<std::int64_t> parse_id(std::string_view text) {
  std::int64_t id = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc() || ptr != text.data() + text.size() || id < 1) return std::nullopt;
  return id;
}

std::string cookie_value(const HttpRequest& request, std::string_view name) {
  const auto* header = request.header("cookie");
  if (!header) return "";
  std::string_view rest = *header;
  while (!rest.empty()) {
    auto end = rest.find(';');
    std::string_view pair = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    const auto eq = pair.find('=');
    if (eq != std::string_view::npos && pair.substr(0, eq) == name) {
      return std::string(pair.substr(eq + 1));
    }
  }
  return "";
}

std::string cookie(const std::string& value, std::int64_t max_age_seconds, bool secure) {
  return std::string(kSessionCookie) + "=" + value +
         "; Path=/; Max-Age=" + std::to_string(max_age_seconds) + "; HttpOnly; SameSite=Lax" +
         (secure ? "; Secure" : "");
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

json nullable(const std::optional<std::int64_t>& v) { return v ? json(*v) : json(); }

json role_list(const std::vector<core::Role>& roles) {
  json list = json::array();
  for (auto r : roles) list.push_back(core::role_name(r));
  return list;
}

// A game as the lobby describes it to `viewer`. Never holds the seed before the game ends.
struct GameInfo {
  storage::GameRow row;
  Seats seats;
  std::string creator;
};

GameInfo load_info(storage::Store& store, const storage::GameRow& row) {
  const auto creator = store.find_account_by_id(row.created_by);
  return {row, load_seats(store, row.id), creator ? creator->username : "?"};
}

std::optional<core::Role> role_of(const Seats& seats, std::int64_t account_id) {
  for (auto role : {core::Role::Scotland, core::Role::England}) {
    if (seats.of(role) && seats.of(role)->account_id == account_id) return role;
  }
  return std::nullopt;
}

bool may_see(const GameInfo& info, const std::optional<Identity>& viewer) {
  if (info.row.visibility == storage::Visibility::Public) return true;
  return viewer && (viewer->account_id == info.row.created_by ||
                    role_of(info.seats, viewer->account_id).has_value());
}

// The game if `viewer` may see it. Nothing for a game that does not exist and for one hidden
// from `viewer` alike, so that a stranger cannot tell an invite game from an unused id.
std::optional<GameInfo> find_visible(DbWorker& db, std::int64_t game_id,
                                     const std::optional<Identity>& viewer) {
  auto info = db.call([&](storage::Store& store) -> std::optional<GameInfo> {
    const auto row = store.find_game(game_id);
    if (!row) return std::nullopt;
    return load_info(store, *row);
  });
  if (!info || !may_see(*info, viewer)) return std::nullopt;
  return info;
}

json describe(const GameInfo& info, const std::optional<RoomSummary>& summary,
              const std::optional<Identity>& viewer) {
  const auto& row = info.row;
  auto player = [&](core::Role role) -> json {
    const auto& seat = info.seats.of(role);
    return seat ? json(seat->username) : json();
  };
  json j = {
      {"id", row.id},
      {"game", row.kind},
      {"rules_version", row.rules_version},
      {"scenario", row.scenario},
      {"options", json::parse(row.options_json, nullptr, false)},
      {"status", storage::status_name(row.status)},
      {"visibility", storage::visibility_name(row.visibility)},
      {"observer_chat", row.observer_chat},
      {"created_by", info.creator},
      {"created_at", row.created_at},
      {"started_at", nullable(row.started_at)},
      {"finished_at", nullable(row.finished_at)},
      {"seed_sha256", row.seed_sha256},
      {"players",
       {{"scotland", player(core::Role::Scotland)}, {"england", player(core::Role::England)}}},
      {"awaiting", json::array()}};
  std::optional<core::Role> viewer_role;
  if (viewer) viewer_role = role_of(info.seats, viewer->account_id);
  // `seq` is the viewer's own view version, as on the WebSocket: the number of actions would
  // tell a seat how many hidden decisions the other made (role_views.h). A finished game has
  // no secrets left (RULES 13.1.6), so its record's length is shown.
  if (row.status == storage::GameStatus::Finished) {
    j["seq"] = row.next_seq - 1;
  } else if (summary && summary->status == storage::GameStatus::Active) {
    const auto& v = summary->versions;
    const auto role = viewer_role.value_or(core::Role::Observer);
    j["seq"] = role == core::Role::Scotland  ? v.scotland
               : role == core::Role::England ? v.england
                                             : v.observer;
    j["awaiting"] = role_list(summary->awaiting);
  } else {
    j["seq"] = 0;
  }
  if (row.result_json) j["result"] = json::parse(*row.result_json, nullptr, false);
  // Promise 3: the seed is published when the game ends, so anyone can verify the dice.
  if (row.status == storage::GameStatus::Finished) j["seed"] = row.seed_hex;
  json your_role;
  bool your_turn = false;
  if (viewer_role) {
    your_role = core::role_name(*viewer_role);
    const auto& awaiting = j["awaiting"];
    your_turn = std::find(awaiting.begin(), awaiting.end(), your_role) != awaiting.end();
  }
  j["your_role"] = your_role;
  j["your_turn"] = your_turn;
  return j;
}

}  // namespace

Api::Api(const Config& config, DbWorker& db, RoomRegistry& rooms, Metrics& metrics)
    : config_(config),
      db_(db),
      rooms_(rooms),
      metrics_(metrics),
      static_files_(config.web_root),
      replays_(db),
      dummy_hash_(hash_password("not a password of anybody")) {
  if (config.http_requests_per_second > 0) {
    request_limiter_ =
        std::make_unique<AddressRateLimiter>(config.http_requests_per_second, config.http_burst);
  }
}

std::optional<HttpResponse> Api::refuse_over_rate(const HttpRequest& request) {
  // remote_address is the client's, also behind a trusted proxy (forwarded.h).
  if (!request_limiter_ || request_limiter_->allow(request.remote_address)) return std::nullopt;
  auto r = error(429, ErrorCode::RateLimited, "too many requests; slow down");
  // One token comes back within a second at any rate of 1/s or more.
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

bool Api::is_same_origin(const HttpRequest& request) const {
  const auto* origin = request.header("origin");
  if (!origin) {
    // Browsers send Origin on every cross-site POST and WebSocket; Sec-Fetch-Site backs it up.
    const auto* site = request.header("sec-fetch-site");
    return !site || *site != "cross-site";
  }
  const auto* host = request.header("host");
  if (host && *origin == (request.tls ? "https://" : "http://") + *host) return true;
  return std::find(config_.allowed_origins.begin(), config_.allowed_origins.end(), *origin) !=
         config_.allowed_origins.end();
}

HttpResponse Api::handle(const HttpRequest& request) {
  ++metrics_.http_requests;
  HttpResponse response;
  try {
    response = route(request);
  } catch (const std::exception& e) {
    log_error("HTTP " + request.method + " " + target_path(request.target) + ": " + e.what());
    response = error(500, ErrorCode::Internal, "internal error");
  }
  if (response.status >= 400 && response.content_type == "application/json") {
    const auto body = json::parse(response.body, nullptr, false);
    if (body.is_object() && body.contains("error")) {
      if (auto code = protocol::error_code_from_name(body["error"].value("code", ""))) {
        metrics_.count_error(*code);
      }
    }
  }
  return response;
}

HttpResponse Api::route(const HttpRequest& request) {
  const std::string path = target_path(request.target);
  const std::string& method = request.method;
  if (path == "/healthz") return json_response(200, {{"status", "ok"}});
  if (path == "/metrics") return {200, "text/plain; version=0.0.4", metrics_.render(), {}};
  if (path.rfind("/api/", 0) != 0) return static_files_.serve(request);
  if (auto refused = refuse_over_rate(request)) return *refused;

  const bool changes = method != "GET" && method != "HEAD";
  if (changes) {
    if (!is_same_origin(request)) {
      return error(403, ErrorCode::Forbidden, "cross-site request refused");
    }
    // A cross-site form cannot send application/json without a CORS preflight, which this
    // server never grants.
    const auto* type = request.header("content-type");
    if (!request.body.empty() && (!type || lower(*type).rfind("application/json", 0) != 0)) {
      return error(415, ErrorCode::BadField, "the body must be application/json");
    }
  }
  auto only = [&](const char* allowed) -> std::optional<HttpResponse> {
    if (method == allowed) return std::nullopt;
    auto r = error(405, ErrorCode::MethodNotAllowed, std::string("use ") + allowed);
    r.headers.emplace_back("Allow", allowed);
    return r;
  };

  if (path == "/api/register") return only("POST").value_or(register_account(request));
  if (path == "/api/login") return only("POST").value_or(login(request));
  if (path == "/api/logout") return only("POST").value_or(logout(request));
  if (path == "/api/me") return only("GET").value_or(me(request));
  if (path == "/api/scenarios") return only("GET").value_or(scenarios());
  if (path == "/api/games") {
    if (method == "GET") return list_open_games();
    return only("POST").value_or(create_game(request));
  }
  if (path == "/api/games/mine") return only("GET").value_or(my_games(request));
  const std::string games = "/api/games/";
  if (path.rfind(games, 0) == 0) {
    std::string_view rest = std::string_view(path).substr(games.size());
    const auto slash = rest.find('/');
    const auto id = parse_id(rest.substr(0, slash));
    if (!id) return error(404, ErrorCode::NotFound, "no such game");
    const auto sub = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
    if (sub.empty()) return only("GET").value_or(game_details(request, *id));
    if (sub == "/join") return only("POST").value_or(join_game(request, *id));
    const std::string_view replay = "/replay/";
    const bool is_replay = sub.substr(0, replay.size()) == replay;
    if (sub == "/record" || is_replay) {
      if (auto refused = only("GET")) return *refused;
      // Only those who may see an invite game get its record and steps. Anybody else gets the
      // answer for a missing game first, so that neither a 409 nor a 400 tells it exists.
      const auto info = find_visible(db_, *id, authenticate(request));
      if (!info) return error(404, ErrorCode::NotFound, "no such game");
      if (!is_replay) return game_record(info->row);
      return replays_.handle(info->row, sub.substr(replay.size()),
                             query_param(request.target, "role"));
    }
  }
  const std::string invites = "/api/invites/";
  if (path.rfind(invites, 0) == 0) return only("GET").value_or(invite(path.substr(invites.size())));
  return error(404, ErrorCode::NotFound, "no such API endpoint");
}

std::optional<Identity> Api::authenticate(const HttpRequest& request) {
  const auto token = cookie_value(request, kSessionCookie);
  if (token.size() != 64) return std::nullopt;
  const auto token_hash = sha256_hex(token);
  return db_.call([&](storage::Store& store) -> std::optional<Identity> {
    const auto now = now_ms();
    const auto session = store.find_session(token_hash, now);
    if (!session) return std::nullopt;
    const auto account = store.find_account_by_id(session->account_id);
    if (!account) return std::nullopt;
    if (now - session->last_seen > kTouchEveryMs) {
      store.touch_session(token_hash, now, now + kSessionMs);
    }
    return Identity{account->id, account->username};
  });
}

HttpResponse Api::start_session(int status, const Identity& identity, const HttpRequest& request) {
  const auto token = random_hex(32);
  const auto token_hash = sha256_hex(token);
  db_.call([&](storage::Store& store) {
    const auto now = now_ms();
    store.create_session(token_hash, identity.account_id, now, now + kSessionMs);
  });
  auto response = json_response(
      status, {{"account", {{"id", identity.account_id}, {"username", identity.username}}}});
  response.headers.emplace_back("Set-Cookie", cookie(token, kSessionMs / 1000, request.tls));
  return response;
}

HttpResponse Api::register_account(const HttpRequest& request) {
  const auto decoded = protocol::decode_credentials(request.body);
  if (auto* e = std::get_if<protocol::DecodeError>(&decoded)) return decode_error(*e);
  const auto& credentials = std::get<protocol::Credentials>(decoded);
  const std::string address_key = "register:" + request.remote_address;
  const auto recent = db_.call([&](storage::Store& store) {
    return store.record_failed_login(address_key, now_ms(), kRegistrationWindowMs);
  });
  if (recent > kRegistrationsPerAddress) {
    auto r = error(429, ErrorCode::TooManyAttempts, "too many accounts from this address");
    r.headers.emplace_back("Retry-After", std::to_string(kRegistrationWindowMs / 1000));
    return r;
  }
  const auto hash = hash_password(credentials.password);
  const auto account = db_.call([&](storage::Store& store) {
    return store.create_account(credentials.username, hash, now_ms());
  });
  if (!account) return error(409, ErrorCode::NameTaken, "that user name is taken");
  log_info("account " + account->username + " registered");
  return start_session(201, {account->id, account->username}, request);
}

HttpResponse Api::login(const HttpRequest& request) {
  const auto decoded = protocol::decode_credentials(request.body);
  if (auto* e = std::get_if<protocol::DecodeError>(&decoded)) return decode_error(*e);
  const auto& credentials = std::get<protocol::Credentials>(decoded);
  const std::string user_key = "user:" + lower(credentials.username);
  const std::string address_key = "ip:" + request.remote_address;
  struct Lookup {
    std::optional<storage::AccountRow> account;
    std::int64_t user_failures = 0;
    std::int64_t address_failures = 0;
  };
  const auto lookup = db_.call([&](storage::Store& store) {
    const auto now = now_ms();
    return Lookup{store.find_account_by_name(credentials.username),
                  store.failed_login_count(user_key, now, kLoginWindowMs),
                  store.failed_login_count(address_key, now, kLoginWindowMs)};
  });
  if (lookup.user_failures >= kFailuresPerAccount ||
      lookup.address_failures >= kFailuresPerAddress) {
    auto r = error(429, ErrorCode::TooManyAttempts, "too many failed logins; try again later");
    r.headers.emplace_back("Retry-After", std::to_string(kLoginWindowMs / 1000));
    return r;
  }
  const bool ok = verify_password(credentials.password,
                                  lookup.account ? lookup.account->password_hash : dummy_hash_) &&
                  lookup.account.has_value();
  if (!ok) {
    db_.call([&](storage::Store& store) {
      const auto now = now_ms();
      store.record_failed_login(user_key, now, kLoginWindowMs);
      store.record_failed_login(address_key, now, kLoginWindowMs);
    });
    return error(401, ErrorCode::BadCredentials, "wrong user name or password");
  }
  db_.call([&](storage::Store& store) { store.reset_failed_logins(user_key); });
  return start_session(200, {lookup.account->id, lookup.account->username}, request);
}

HttpResponse Api::logout(const HttpRequest& request) {
  const auto token = cookie_value(request, kSessionCookie);
  if (!token.empty()) {
    db_.call([&](storage::Store& store) { store.delete_session(sha256_hex(token)); });
  }
  auto response = json_response(200, {{"ok", true}});
  response.headers.emplace_back("Set-Cookie", cookie("", 0, request.tls));
  return response;
}

HttpResponse Api::me(const HttpRequest& request) {
  const auto identity = authenticate(request);
  if (!identity) return error(401, ErrorCode::Unauthorized, "not logged in");
  return json_response(
      200, {{"account", {{"id", identity->account_id}, {"username", identity->username}}}});
}

HttpResponse Api::scenarios() {
  json list = json::array();
  for (const auto& s : hots::module().scenarios()) list.push_back(s);
  return json_response(200, {{"game", "hots"},
                             {"rules_version", hots::module().rules_version()},
                             {"scenarios", list},
                             {"options", {{"schiltroms", "boolean"}}}});
}

HttpResponse Api::create_game(const HttpRequest& request) {
  const auto identity = authenticate(request);
  if (!identity) return error(401, ErrorCode::Unauthorized, "log in to create a game");
  const auto decoded = protocol::decode_create_game(request.body);
  if (auto* e = std::get_if<protocol::DecodeError>(&decoded)) return decode_error(*e);
  const auto& r = std::get<protocol::CreateGameRequest>(decoded);
  const auto& module = hots::module();
  storage::NewGame game;
  game.kind = std::string(module.id());
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
  std::optional<std::string> invite_token;
  if (r.visibility == protocol::VisibilityChoice::Invite) {
    invite_token = random_hex(16);
    game.visibility = storage::Visibility::Invite;
    game.invite_token_hash = sha256_hex(*invite_token);
  }
  const auto info = db_.call(
      [&](storage::Store& store) { return load_info(store, store.create_game(game, now_ms())); });
  log_info("game " + std::to_string(info.row.id) + " created by " + identity->username);
  json body = {{"game", describe(info, std::nullopt, identity)}};
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
  for (const auto& info : infos) games.push_back(describe(info, std::nullopt, std::nullopt));
  return json_response(200, {{"games", games}});
}

HttpResponse Api::my_games(const HttpRequest& request) {
  const auto identity = authenticate(request);
  if (!identity) return error(401, ErrorCode::Unauthorized, "not logged in");
  const auto infos = db_.call([&](storage::Store& store) {
    std::vector<GameInfo> list;
    for (const auto& row : store.list_games_of_account(identity->account_id, 200)) {
      list.push_back(load_info(store, row));
    }
    return list;
  });
  std::vector<json> games;
  for (const auto& info : infos) {
    games.push_back(describe(info, rooms_.summary(info.row.id), identity));
  }
  // The games waiting for this player come first.
  std::stable_sort(games.begin(), games.end(), [](const json& a, const json& b) {
    return a["your_turn"].get<bool>() && !b["your_turn"].get<bool>();
  });
  return json_response(200, {{"games", games}});
}

HttpResponse Api::game_details(const HttpRequest& request, std::int64_t game_id) {
  const auto identity = authenticate(request);
  const auto info = find_visible(db_, game_id, identity);
  if (!info) return error(404, ErrorCode::NotFound, "no such game");
  return json_response(200, {{"game", describe(*info, rooms_.summary(game_id), identity)}});
}

HttpResponse Api::join_game(const HttpRequest& request, std::int64_t game_id) {
  const auto identity = authenticate(request);
  if (!identity) return error(401, ErrorCode::Unauthorized, "log in to join a game");
  const auto decoded = protocol::decode_join(request.body);
  if (auto* e = std::get_if<protocol::DecodeError>(&decoded)) return decode_error(*e);
  const auto& join = std::get<protocol::JoinRequest>(decoded);
  struct Joined {
    std::optional<HttpResponse> refusal;
    std::optional<GameInfo> info;
    std::shared_ptr<core::Game> started;
  };
  // One storage task: nobody else can take the seat between the check and the take.
  auto joined = db_.call([&](storage::Store& store) -> Joined {
    const auto row = store.find_game(game_id);
    if (!row) return {error(404, ErrorCode::NotFound, "no such game"), {}, {}};
    if (row->visibility == storage::Visibility::Invite &&
        (!join.invite || sha256_hex(*join.invite) != row->invite_token_hash)) {
      return {error(404, ErrorCode::NotFound, "no such game"), {}, {}};
    }
    if (row->status != storage::GameStatus::Open) {
      return {error(409, ErrorCode::SeatTaken, "the game is not open"), {}, {}};
    }
    const auto seats = load_seats(store, game_id);
    if (role_of(seats, identity->account_id)) {
      return {error(409, ErrorCode::SeatTaken, "you already have a seat in this game"), {}, {}};
    }
    const char* free_role = !seats.scotland ? "scotland" : !seats.england ? "england" : nullptr;
    if (!free_role) return {error(409, ErrorCode::SeatTaken, "both seats are taken"), {}, {}};
    const auto now = now_ms();
    if (store.take_seat(game_id, free_role, identity->account_id, now) !=
        storage::SeatOutcome::Seated) {
      return {error(409, ErrorCode::SeatTaken, "the seat was taken"), {}, {}};
    }
    Joined result;
    auto info = load_info(store, *store.find_game(game_id));
    if (info.seats.scotland && info.seats.england) {
      auto loaded = setup_game(info.row);
      if (!loaded.game) throw std::runtime_error(loaded.error);
      // Seq 0 is the state right after setup; the game's log starts after it.
      storage::Transaction transaction(store.database());
      store.set_game_status(game_id, storage::GameStatus::Active, now);
      std::string snapshot;
      loaded.game->write_snapshot(snapshot);  // as the room writes the later ones
      store.save_snapshot(game_id, 0, snapshot, loaded.game->state_hash(), now);
      transaction.commit();
      info.row = *store.find_game(game_id);
      result.started = std::move(loaded.game);
    }
    result.info = std::move(info);
    return result;
  });
  if (joined.refusal) return *joined.refusal;
  if (joined.started) {
    log_info("game " + std::to_string(game_id) + " started");
    rooms_.start(game_id, joined.started, joined.info->seats);
  }
  return json_response(200, {{"game", describe(*joined.info, rooms_.summary(game_id), identity)}});
}

HttpResponse Api::game_record(const storage::GameRow& row) {
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

HttpResponse Api::invite(const std::string& token) {
  const auto info = db_.call([&](storage::Store& store) -> std::optional<GameInfo> {
    const auto row = store.find_game_by_invite(sha256_hex(token));
    if (!row) return std::nullopt;
    return load_info(store, *row);
  });
  if (!info) return error(404, ErrorCode::NotFound, "no such invitation");
  return json_response(200,
                       {{"game", describe(*info, rooms_.summary(info->row.id), std::nullopt)}});
}

std::variant<WebSocketTicket, HttpResponse> Api::resolve_websocket(const HttpRequest& request) {
  if (!is_same_origin(request))
    return error(403, ErrorCode::Forbidden, "cross-site WebSocket refused");
  const std::string path = target_path(request.target);
  const std::string prefix = "/ws/games/";
  const auto id = path.rfind(prefix, 0) == 0
                      ? parse_id(std::string_view(path).substr(prefix.size()))
                      : std::nullopt;
  if (!id) return error(404, ErrorCode::NotFound, "no such game");
  const auto identity = authenticate(request);
  auto room = rooms_.open(*id);
  if (!room) return error(404, ErrorCode::NotFound, "no such game");
  const auto info = find_visible(db_, *id, identity);
  if (!info) return error(404, ErrorCode::NotFound, "no such game");
  WebSocketTicket ticket;
  ticket.room = std::move(room);
  if (identity) {
    ticket.player = Player{identity->account_id, identity->username};
    const auto role = role_of(info->seats, identity->account_id);
    if (role && query_param(request.target, "observe") != "1") ticket.role = *role;
  }
  const auto since = query_param(request.target, "chat_since");
  if (!since.empty()) ticket.chat_since = parse_id(since).value_or(0);
  if (query_param(request.target, "patches") == "1") ticket.updates = ViewUpdates::Patches;
  return ticket;
}

}  // namespace blockfog::server
