#pragma once

// The HTTP API (docs/protocol.md): accounts, lobby, records, health and metrics. Handlers
// block (on the storage thread and on scrypt), so the network layer runs them on a worker
// pool, never on a network thread.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "server/config.h"
#include "server/http_types.h"
#include "server/limits.h"
#include "server/replay.h"
#include "server/room.h"
#include "server/static_files.h"

namespace blockfog::server {

class DbWorker;
class Metrics;
class RoomRegistry;

struct Identity {
  std::int64_t account_id = 0;
  std::string username;
};

// What a WebSocket upgrade resolved to: the room and the seat to join it as.
struct WebSocketTicket {
  std::shared_ptr<Room> room;
  core::Role role = core::Role::Observer;
  std::optional<Player> player;
  std::int64_t chat_since = 0;
  ViewUpdates updates = ViewUpdates::Views;
};

inline constexpr const char* kSessionCookie = "blockfog_session";

class Api {
 public:
  Api(const Config& config, DbWorker& db, RoomRegistry& rooms, Metrics& metrics);

  // Any request that is not a WebSocket upgrade.
  HttpResponse handle(const HttpRequest& request);
  // A WebSocket upgrade of /ws/games/{id}[?observe=1][&chat_since=N][&patches=1]: the ticket, or
  // the HTTP answer that refuses it.
  std::variant<WebSocketTicket, HttpResponse> resolve_websocket(const HttpRequest& request);

  // True when the request may change state: its Origin (if any) is this server or allowed.
  bool is_same_origin(const HttpRequest& request) const;

 private:
  HttpResponse route(const HttpRequest& request);
  // The answer to an API request over its address's rate, or nothing when it may go on.
  std::optional<HttpResponse> refuse_over_rate(const HttpRequest& request);
  std::optional<Identity> authenticate(const HttpRequest& request);

  HttpResponse register_account(const HttpRequest& request);
  HttpResponse login(const HttpRequest& request);
  HttpResponse logout(const HttpRequest& request);
  HttpResponse me(const HttpRequest& request);
  HttpResponse scenarios();
  HttpResponse create_game(const HttpRequest& request);
  HttpResponse list_open_games();
  HttpResponse my_games(const HttpRequest& request);
  HttpResponse game_details(const HttpRequest& request, std::int64_t game_id);
  HttpResponse join_game(const HttpRequest& request, std::int64_t game_id);
  HttpResponse game_record(const storage::GameRow& row);  // of a game the asker may see
  HttpResponse invite(const std::string& token);

  HttpResponse start_session(int status, const Identity& identity, const HttpRequest& request);

  const Config& config_;
  DbWorker& db_;
  RoomRegistry& rooms_;
  Metrics& metrics_;
  StaticFiles static_files_;
  Replays replays_;                                      // finished games stepped through
  std::unique_ptr<AddressRateLimiter> request_limiter_;  // null: no limit
  std::string dummy_hash_;  // verified against when the account does not exist (same timing)
};

}  // namespace blockfog::server
