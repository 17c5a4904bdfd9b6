#pragma once

// The HTTP API (docs/protocol.md): accounts, lobby, records, health and metrics. Every
// /api/ request goes through one Router (router.h), which checks the method, the origin of a
// state change and the login a route needs before any handler runs. Handlers block (on the
// storage thread and on scrypt), so the network layer runs them on worker pools, never on a
// network thread: password hashing on a pool of its own (runs_kdf), within a KdfBudget.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "protocol/signature.h"
#include "server/api/api_common.h"
#include "server/api/http_types.h"
#include "server/api/replay.h"
#include "server/api/router.h"
#include "server/api/static_files.h"
#include "server/auth/kdf_budget.h"
#include "server/auth/login_throttle.h"
#include "server/auth/session_sockets.h"
#include "server/config.h"
#include "server/crypto.h"
#include "server/limits.h"
#include "server/notices/confirmation_limits.h"
#include "server/notices/notice_channels.h"
#include "server/play/room.h"
#include "server/records/signing.h"
#include "server/tournaments/tournaments.h"

namespace blockfog::server {

class DbWorker;
class Metrics;
class RoomRegistry;

using api::kSessionCookie;

// What a WebSocket upgrade resolved to: the room and the seat to join it as; or, when
// another node holds the game (docs/multi-node.md, section 3), no room and the `moved` frame
// to send before closing.
struct WebSocketTicket {
  std::int64_t game_id = 0;
  std::shared_ptr<Room> room;
  std::optional<protocol::MovedMessage> moved;
  core::Role role = core::Role::Observer;
  std::optional<Player> player;
  std::string session;  // the login session's token hash, "" for a guest
  std::int64_t chat_since = 0;
  ViewUpdates updates = ViewUpdates::Views;
};

// Where a request arrived: the public port, or the operator's (--metrics-listen).
enum class Port { Public, Operator };

class Api {
 public:
  // Sessions an account may hold at once; the oldest end when a new one would pass it.
  static constexpr int kMaxSessionsPerAccount = 20;

  Api(const Config& config, DbWorker& db, RoomRegistry& rooms, Metrics& metrics);

  // Any request that is not a WebSocket upgrade.
  HttpResponse handle(const HttpRequest& request, Port port = Port::Public);
  // A WebSocket upgrade of /ws/games/{id}[?observe=1][&chat_since=N][&patches=1]: the ticket, or
  // the HTTP answer that refuses it (503 storage_unavailable, as `handle`'s, while the store
  // cannot be read).
  std::variant<WebSocketTicket, HttpResponse> resolve_websocket(const HttpRequest& request);

  // True when the request hashes a password (login, register): the network layer runs it on
  // the hashing pool, once admit_kdf gave it a ticket.
  bool runs_kdf(const HttpRequest& request) const;
  // A place in the hashing budget for `request`, or null with the 429 to answer in `refusal`.
  std::unique_ptr<KdfBudget::Ticket> admit_kdf(const HttpRequest& request, HttpResponse& refusal);

  // Where the links in e-mails point (--public-url, else the listener's URL) and how e-mails
  // leave (notice_channels.h's send_email, throwing DeliveryError): set before the server
  // takes requests.
  using Mailer = std::function<void(const Email&)>;
  void set_notices(std::string public_url, Mailer mailer) {
    public_url_ = std::move(public_url);
    mailer_ = std::move(mailer);
  }

  // True when the request may change state: its Origin (if any) is this server or allowed.
  bool is_same_origin(const HttpRequest& request) const;
  // The WebSockets of each login session, closed when the session ends.
  SessionSockets& session_sockets() { return session_sockets_; }
  // The key records and bundles are signed with now (server/periodic/signing_key_checks.h).
  CurrentSigningKey& signing_key() { return signing_key_; }

 private:
  std::vector<Route> routes();
  // The answer to an API request over its address's rate, or nothing when it may go on.
  std::optional<HttpResponse> refuse_over_rate(const HttpRequest& request);
  // GET /healthz: 200 while the store can write, 503 `degraded` while it cannot; with the
  // node's name and the games it holds.
  HttpResponse health() const;
  // Before a game-scoped request that changes the game or needs its room (docs/multi-node.md,
  // section 3): nothing when this node serves it (it holds the game's lease or took it now, or
  // runs alone on SQLite), else the answer that sends the client to the node holding it.
  // `by_invite`: the body may carry the invite game's link token (a join), which lets a
  // stranger reach the game.
  std::optional<HttpResponse> send_to_holder(const RouteCall& call, bool by_invite);
  // Whether the caller may reach the game: he may see it, or (`by_invite`) the body's invite
  // token is the game's.
  bool may_reach(const RouteCall& call, bool by_invite);
  // First in the transaction of such a request's write, on the storage thread: nothing while
  // this node still holds the game (RoomRegistry::may_write: the lease row stays locked until
  // the transaction ends), else the refusal to answer, 503 `game_moving`, with nothing written
  // (the game was taken since send_to_holder looked; the client's next try is sent on).
  std::optional<HttpResponse> refuse_unless_held(storage::Store& store, std::int64_t game_id);
  std::optional<Identity> authenticate(const HttpRequest& request);
  HttpResponse count_errors(HttpResponse response);
  std::variant<WebSocketTicket, HttpResponse> resolve_websocket_unguarded(
      const HttpRequest& request);
  // The answer to a request the store failed (logged with `what`): 503 storage_unavailable with
  // Retry-After while it cannot be reached or written, else 500.
  HttpResponse storage_failure(const storage::StorageError& e, const std::string& what);

  // api_accounts.cpp
  HttpResponse register_account(const RouteCall& call);
  HttpResponse login(const RouteCall& call);
  HttpResponse logout(const RouteCall& call);
  HttpResponse me(const RouteCall& call);
  HttpResponse start_session(int status, const Identity& identity, const HttpRequest& request);

  // api_games.cpp
  // The 429 for an account over its game-creation quota (--games-per-hour), or nothing after
  // taking one game from it. Creating a game and accepting a rematch both count.
  std::optional<HttpResponse> refuse_over_game_quota(std::int64_t account_id);
  HttpResponse scenarios();
  HttpResponse create_game(const RouteCall& call);
  HttpResponse list_open_games();
  HttpResponse list_live_games();
  HttpResponse my_games(const RouteCall& call);
  HttpResponse game_details(const RouteCall& call);
  HttpResponse join_game(const RouteCall& call);
  HttpResponse roll_dice(const RouteCall& call);  // POST: one dice step (server/play/dice.h)
  HttpResponse invite(const RouteCall& call);
  // GET /api/games/{id}/invite: an invite game's link token, for its creator and its players.
  HttpResponse game_invite(const RouteCall& call);
  // GET and PUT /api/games/{id}/notes: the caller's own seat's private notes (api_notes.cpp).
  HttpResponse game_notes(const RouteCall& call);

  // api_notices.cpp
  HttpResponse notice_settings(const RouteCall& call);
  HttpResponse save_notice_settings(const RouteCall& call);
  HttpResponse set_notice_email(const RouteCall& call);
  HttpResponse confirm_notice_email(const RouteCall& call);
  HttpResponse unsubscribe_notices(const RouteCall& call);
  // api_play.cpp
  HttpResponse resign(const RouteCall& call);
  HttpResponse cancel(const RouteCall& call);
  HttpResponse rematch(const RouteCall& call);   // {token}: offer, accept, decline
  HttpResponse vacation(const RouteCall& call);  // GET and POST /api/me/vacation

  // api_tournaments.cpp
  HttpResponse list_tournaments();
  HttpResponse create_tournament(const RouteCall& call);
  HttpResponse show_tournament(const RouteCall& call);
  HttpResponse tournament_action(const RouteCall& call);  // {token}: register, start, ...
  HttpResponse export_tournament(const RouteCall& call);
  // The rooms of the games a tournament's round started or its organiser ended.
  void tell_rooms(const RoundStart& round);

  // api_records.cpp
  HttpResponse game_record(const RouteCall& call);
  HttpResponse replay_step(const RouteCall& call);
  HttpResponse server_key();  // GET /api/server-key: every public signing key

  // api_ratings.cpp
  HttpResponse leaderboard(const RouteCall& call);
  HttpResponse player_ratings(const RouteCall& call);  // {token}: the user name

  const Config& config_;
  DbWorker& db_;
  RoomRegistry& rooms_;
  Metrics& metrics_;
  StaticFiles static_files_;
  Replays replays_;  // finished games stepped through
  // Signs records and bundles (server/records/signing.h); none on a --read-only server of a
  // database that never had one.
  CurrentSigningKey signing_key_;
  const std::string node_name_;                          // --node-name, or the host's name
  std::unique_ptr<AddressRateLimiter> request_limiter_;  // null: no limit
  std::unique_ptr<AddressRateLimiter> create_limiter_;   // games created, per account (or none)
  LoginThrottle login_throttle_;
  KdfBudget kdf_budget_;
  SessionSockets session_sockets_;
  ConfirmationLimits confirmation_limits_;  // confirmation e-mails per recipient and address
  std::string public_url_;
  Mailer mailer_;                 // null: no e-mail (no --smtp-host)
  ScryptParams password_params_;  // for new hashes: Config::password_cost
  std::string dummy_hash_;        // verified against when the account does not exist (same timing)
  Router router_;
};

}  // namespace blockfog::server
