#include "server/api/api.h"

#include <algorithm>
#include <charconv>

#include "protocol/http.h"
#include "rules/core/hex.h"
#include "server/api/host_names.h"
#include "server/clock.h"
#include "server/cluster/node_leases.h"
#include "server/crypto.h"
#include "server/db_worker.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/play/room_registry.h"
#include "server/records/signing.h"
#include "storage/faults.h"

namespace blockfog::server {
namespace {

using nlohmann::json;
using protocol::ErrorCode;
using namespace api;

constexpr std::int64_t kTouchEveryMs = 60 * 1000;  // last_seen to a minute; slides the expiry
// Password hashings admitted at once (running or waiting for the hashing pool), in all and
// per client address.
constexpr std::size_t kKdfBudget = 4;
constexpr std::size_t kKdfPerAddress = 1;
// Requests to create a game one account may send at once; then --games-per-hour.
constexpr double kGameBurst = 20;

// A game between two nodes (docs/multi-node.md, section 3): nothing was done; come back.
HttpResponse game_moving(std::int64_t retry_ms) {
  auto r = error(503, ErrorCode::GameMoving,
                 "this game is moving to another node; try again in a moment");
  // Whole seconds, rounded up: coming back early would meet the same answer.
  r.headers.emplace_back("Retry-After",
                         std::to_string(std::max<std::int64_t>((retry_ms + 999) / 1000, 1)));
  return r;
}

}  // namespace

Api::Api(const Config& config, DbWorker& db, RoomRegistry& rooms, Metrics& metrics)
    : config_(config),
      db_(db),
      rooms_(rooms),
      metrics_(metrics),
      static_files_(config.web_root),
      replays_(db),
      signing_key_(load_signing_key(db)),
      node_name_(config.node_name.empty() ? default_node_name() : config.node_name),
      kdf_budget_(kKdfBudget, kKdfPerAddress),
      password_params_{std::uint64_t{1} << config.password_cost},
      dummy_hash_(hash_password("not a password of anybody", password_params_)),
      router_(routes(), RouteChecks{[this](const HttpRequest& r) { return is_same_origin(r); },
                                    [this](const HttpRequest& r) { return authenticate(r); }}) {
  if (config.games_per_hour > 0) {
    create_limiter_ =
        std::make_unique<AddressRateLimiter>(config.games_per_hour / 3600.0, kGameBurst);
  }
  if (config.http_requests_per_second > 0) {
    request_limiter_ =
        std::make_unique<AddressRateLimiter>(config.http_requests_per_second, config.http_burst);
  }
}

// Every API route: the router reaches a handler only through this table.
std::vector<Route> Api::routes() {
  auto bind = [this](HttpResponse (Api::*handler)(const RouteCall&)) -> RouteHandler {
    return [this, handler](const RouteCall& call) { return (this->*handler)(call); };
  };
  auto plain = [this](HttpResponse (Api::*handler)()) -> RouteHandler {
    return [this, handler](const RouteCall&) { return (this->*handler)(); };
  };
  // Served by the node holding the game (docs/multi-node.md, section 3): the request changes
  // the game's rows or tells its room's clients, who are all on that node.
  auto at_holder = [this](HttpResponse (Api::*handler)(const RouteCall&),
                          bool by_invite = false) -> RouteHandler {
    return [this, handler, by_invite](const RouteCall& call) {
      if (auto elsewhere = send_to_holder(call, by_invite)) return std::move(*elsewhere);
      return (this->*handler)(call);
    };
  };
  using enum Access;
  return {
      {"POST", "/api/register", Anyone, bind(&Api::register_account)},
      {"POST", "/api/login", Anyone, bind(&Api::login)},
      {"POST", "/api/logout", Anyone, bind(&Api::logout)},
      {"GET", "/api/me", Account, bind(&Api::me)},
      {"GET", "/api/scenarios", Anyone, plain(&Api::scenarios)},
      {"GET", "/api/games", Anyone, plain(&Api::list_open_games)},
      {"POST", "/api/games", Account, bind(&Api::create_game)},
      {"GET", "/api/games/mine", Account, bind(&Api::my_games)},
      {"GET", "/api/games/live", Anyone, plain(&Api::list_live_games)},
      {"GET", "/api/games/{id}", Anyone, bind(&Api::game_details)},
      {"POST", "/api/games/{id}/join", Account, at_holder(&Api::join_game, true)},
      {"POST", "/api/games/{id}/dice", Account, at_holder(&Api::roll_dice)},
      {"GET", "/api/games/{id}/invite", Account, bind(&Api::game_invite)},
      {"GET", "/api/games/{id}/notes", Account, bind(&Api::game_notes)},
      {"PUT", "/api/games/{id}/notes", Account, bind(&Api::game_notes)},
      {"GET", "/api/games/{id}/record", Anyone, bind(&Api::game_record)},
      {"GET", "/api/games/{id}/replay/{rest}", Anyone, bind(&Api::replay_step)},
      {"GET", "/api/server-key", Anyone, plain(&Api::server_key)},
      {"GET", "/api/invites/{token}", Anyone, bind(&Api::invite)},
      {"GET", "/api/notices", Account, bind(&Api::notice_settings)},
      {"POST", "/api/notices", Account, bind(&Api::save_notice_settings)},
      {"POST", "/api/notices/email", Account, bind(&Api::set_notice_email)},
      {"GET", "/api/notices/confirm/{token}", Anyone, bind(&Api::confirm_notice_email)},
      {"GET", "/api/notices/unsubscribe/{token}", Anyone, bind(&Api::unsubscribe_notices)},
      {"POST", "/api/notices/unsubscribe/{token}", Anyone, bind(&Api::unsubscribe_notices),
       "no such game", true},
      {"POST", "/api/games/{id}/resign", Account, at_holder(&Api::resign)},
      {"POST", "/api/games/{id}/cancel", Account, at_holder(&Api::cancel)},
      {"POST", "/api/games/{id}/rematch/{token}", Account, at_holder(&Api::rematch)},
      {"GET", "/api/me/vacation", Account, bind(&Api::vacation)},
      {"GET", "/api/ratings", Anyone, bind(&Api::leaderboard)},
      {"GET", "/api/players/{token}/ratings", Anyone, bind(&Api::player_ratings)},
      {"POST", "/api/me/vacation", Account, bind(&Api::vacation)},
      {"GET", "/api/tournaments", Anyone, plain(&Api::list_tournaments)},
      {"POST", "/api/tournaments", Account, bind(&Api::create_tournament)},
      {"GET", "/api/tournaments/{id}", Anyone, bind(&Api::show_tournament), "no such tournament"},
      {"GET", "/api/tournaments/{id}/export", Anyone, bind(&Api::export_tournament),
       "no such tournament"},
      {"POST", "/api/tournaments/{id}/{token}", Account, bind(&Api::tournament_action),
       "no such tournament"},
  };
}

bool Api::runs_kdf(const HttpRequest& request) const {
  if (request.method != "POST") return false;
  const auto path = target_path(request.target);
  return path == "/api/login" || path == "/api/register";
}

std::unique_ptr<KdfBudget::Ticket> Api::admit_kdf(const HttpRequest& request,
                                                  HttpResponse& refusal) {
  auto ticket = kdf_budget_.admit(request.remote_address);
  if (!ticket) {
    metrics_.count_error(ErrorCode::RateLimited);
    refusal =
        too_many(ErrorCode::RateLimited, "the server is busy signing people in; try again", 1);
  }
  return ticket;
}

std::optional<HttpResponse> Api::refuse_over_rate(const HttpRequest& request) {
  // remote_address is the client's, also behind a trusted proxy (forwarded.h).
  if (!request_limiter_ || request_limiter_->allow(request.remote_address)) return std::nullopt;
  // One token comes back within a second at any rate of 1/s or more.
  return too_many(ErrorCode::RateLimited, "too many requests; slow down", 1);
}

bool Api::is_same_origin(const HttpRequest& request) const {
  const auto* origin = request.header("origin");
  if (!origin) {
    // Browsers send Origin on every cross-site POST and WebSocket; Sec-Fetch-Site backs it up.
    const auto* site = request.header("sec-fetch-site");
    return !site || *site != "cross-site";
  }
  // The Host was checked against the allowed names first (host_names.h), so an Origin equal
  // to it is this server's own.
  const auto* host = request.header("host");
  if (host && *origin == (request.tls ? "https://" : "http://") + *host) return true;
  return std::find(config_.allowed_origins.begin(), config_.allowed_origins.end(), *origin) !=
         config_.allowed_origins.end();
}

HttpResponse Api::count_errors(HttpResponse response) {
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

HttpResponse Api::handle(const HttpRequest& request, Port port) {
  ++metrics_.http_requests;
  const std::string path = target_path(request.target);
  try {
    if (!is_allowed_host(request.header("host"), config_.allowed_hosts)) {
      return count_errors(
          error(421, ErrorCode::Forbidden, "this server does not answer that name"));
    }
    if (path == "/healthz") return health();
    // The counters move with every action, hidden ones too: a seat reading them would count
    // the other's hidden decisions (RULES 13.1.4). Only the operator's port serves them.
    if (port == Port::Operator) {
      if (path == "/metrics" && is_safe_method(request.method)) {
        return {200, "text/plain; version=0.0.4", metrics_.render(), {}};
      }
      return error(404, ErrorCode::NotFound, "this port serves /metrics and /healthz only");
    }
    if (path.rfind("/api/", 0) != 0) return static_files_.serve(request);
    if (auto refused = refuse_over_rate(request)) return count_errors(*refused);
    return count_errors(router_.dispatch(request));
  } catch (const storage::StorageError& e) {
    return storage_failure(e, "HTTP " + request.method + " " + path);
  } catch (const std::exception& e) {
    log_error_throttled("http", "HTTP " + request.method + " " + path + ": " + e.what());
    return count_errors(error(500, ErrorCode::Internal, "internal error"));
  }
}

HttpResponse Api::storage_failure(const storage::StorageError& e, const std::string& what) {
  log_error_throttled("http", what + ": " + e.what());
  if (!storage::is_unavailable(e.kind())) {
    return count_errors(error(500, ErrorCode::Internal, "internal error"));
  }
  auto r = error(503, ErrorCode::StorageUnavailable,
                 db_.health() == StorageHealth::ReadOnly
                     ? "the server is serving read-only for maintenance; try again later"
                     : "the server cannot store anything right now; try again later");
  // Whole seconds, rounded up: the next probe may find the store writable again.
  const auto probe = std::chrono::ceil<std::chrono::seconds>(db_.probe_every());
  r.headers.emplace_back("Retry-After", std::to_string(probe.count()));
  return count_errors(std::move(r));
}

HttpResponse Api::health() const {
  // 503 while the store cannot write, so that a load balancer or monitor sees it (docs/server.md).
  int status = 503;
  json body;
  switch (db_.health()) {
    case StorageHealth::Ok:
      status = 200;
      body = {{"status", "ok"}};
      break;
    case StorageHealth::Degraded:
      body = {{"status", "degraded"}, {"storage", "cannot write now"}};
      break;
    case StorageHealth::Failed:
      body = {{"status", "degraded"}, {"storage", "failed; restarting"}};
      break;
    case StorageHealth::ReadOnly:
      body = {{"status", "read_only"}, {"storage", "serving without writes"}};
      break;
  }
  // Which node answered, and what it plays: behind a proxy spreading requests over several
  // nodes, each is asked by its own path (/n/<name>/healthz).
  const auto* leases = rooms_.leases();
  body["node"] = leases ? leases->name() : node_name_;
  body["games_held"] = rooms_.games_held();
  if (leases) body["heartbeat"] = leases->heartbeat_current() ? "current" : "late";
  return json_response(status, body);
}

std::optional<HttpResponse> Api::send_to_holder(const RouteCall& call, bool by_invite) {
  if (!rooms_.leases()) return std::nullopt;  // one node serves every game
  // A game the caller cannot reach is refused by the handler as if it did not exist, before
  // any lease is taken or room loaded: a stranger's request costs nothing and learns nothing
  // of where the game lives (as resolve_websocket).
  if (!may_reach(call, by_invite)) return std::nullopt;
  const auto located = rooms_.locate(call.id);
  if (!located.elsewhere) return std::nullopt;  // held here now, or no game to hold
  const auto& where = *located.elsewhere;
  if (where.name.empty()) {
    // Its holder looks dead (a heartbeat over 2 s old), is committing a write, or let it go
    // just now: any node may take it once retry_ms have passed.
    return game_moving(where.retry_ms);
  }
  // The same path and query under the holder's prefix, which the proxy strips; fetch follows
  // a 307 with the method, the body and the cookie.
  const auto& target = call.request.target;
  const std::string location =
      "/n/" + where.name + (target.rfind('/', 0) == 0 ? target : "/" + target);
  ++metrics_.redirects_sent;
  HttpResponse r = json_response(307, {{"location", location}});
  r.headers.emplace_back("Location", location);
  return r;
}

std::optional<HttpResponse> Api::refuse_unless_held(storage::Store& store, std::int64_t game_id) {
  if (rooms_.may_write(store, game_id)) return std::nullopt;
  // Taken by another node (this node let go of it), or being taken now: either way the game's
  // holder is known in a moment.
  return game_moving(0);
}

bool Api::may_reach(const RouteCall& call, bool by_invite) {
  if (find_visible(db_, call.id, call.identity)) return true;
  if (!by_invite) return false;
  const auto decoded = protocol::decode_join(call.request.body);
  const auto* join = std::get_if<protocol::JoinRequest>(&decoded);
  if (!join || !join->invite) return false;
  const auto token_hash = sha256_hex(*join->invite);
  return db_.call([&](storage::Store& store) {
    const auto row = store.find_game(call.id);
    return row && row->invite_token_hash == token_hash;
  });
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
      // Sliding the expiry can wait for a store that cannot write now (or --read-only): the
      // session is valid either way.
      try {
        store.touch_session(token_hash, now, now + kSessionMs);
      } catch (const storage::StorageError& e) {
        if (!storage::is_unavailable(e.kind())) throw;
      }
    }
    return Identity{account->id, account->username};
  });
}

std::variant<WebSocketTicket, HttpResponse> Api::resolve_websocket(const HttpRequest& request) {
  try {
    return resolve_websocket_unguarded(request);
  } catch (const storage::StorageError& e) {
    return storage_failure(e, "WebSocket upgrade " + target_path(request.target));
  }
}

std::variant<WebSocketTicket, HttpResponse> Api::resolve_websocket_unguarded(
    const HttpRequest& request) {
  if (!is_allowed_host(request.header("host"), config_.allowed_hosts)) {
    return count_errors(error(421, ErrorCode::Forbidden, "this server does not answer that name"));
  }
  if (!is_same_origin(request)) {
    return count_errors(error(403, ErrorCode::Forbidden, "cross-site WebSocket refused"));
  }
  const std::string path = target_path(request.target);
  const std::string prefix = "/ws/games/";
  std::optional<std::int64_t> id;
  if (path.rfind(prefix, 0) == 0) {
    const std::string rest = path.substr(prefix.size());
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
    if (ec == std::errc() && end == rest.data() + rest.size() && value > 0) id = value;
  }
  if (!id) return error(404, ErrorCode::NotFound, "no such game");
  const auto identity = authenticate(request);
  // Whether the asker may see the game is decided before its room is loaded: a stranger's
  // upgrade to an invite game must cost the server nothing.
  const auto info = find_visible(db_, *id, identity);
  if (!info) return error(404, ErrorCode::NotFound, "no such game");
  auto located = rooms_.locate(*id);
  WebSocketTicket ticket;
  ticket.game_id = *id;
  if (located.elsewhere) {
    // Accepted, told where the game is, and closed: a browser follows no redirect of an
    // upgrade, and fails the handshake on any answer but 101.
    ticket.moved = moved_message(*id, located.elsewhere);
    ++metrics_.moved_sent;
    return ticket;
  }
  if (!located.room) return error(404, ErrorCode::NotFound, "no such game");
  ticket.room = std::move(located.room);
  if (identity) {
    ticket.player = Player{identity->account_id, identity->username, std::nullopt};
    ticket.session = sha256_hex(cookie_value(request, kSessionCookie));
    const auto role = role_of(info->seats, identity->account_id);
    if (role && query_param(request.target, "observe") != "1") ticket.role = *role;
  }
  const auto since = query_param(request.target, "chat_since");
  if (!since.empty()) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(since.data(), since.data() + since.size(), value);
    if (ec == std::errc() && end == since.data() + since.size() && value > 0) {
      ticket.chat_since = value;
    }
  }
  if (query_param(request.target, "patches") == "1") ticket.updates = ViewUpdates::Patches;
  return ticket;
}

}  // namespace blockfog::server
