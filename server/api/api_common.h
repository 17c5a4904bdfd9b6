#pragma once

// What the API's handlers (api_accounts.cpp, api_games.cpp, api_records.cpp) share: JSON
// answers and errors, the session cookie, and a game as the lobby describes it. Internal to
// the API.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/errors.h"
#include "protocol/messages.h"
#include "server/api/http_types.h"
#include "server/api/router.h"
#include "server/play/game_start.h"
#include "server/play/room.h"
#include "storage/store.h"

namespace blockfog::server {

class DbWorker;
class Presence;

namespace api {

inline constexpr const char* kSessionCookie = "blockfog_session";
// How long a session lives after sign-in or its last hourly touch: a seat may be away for days.
inline constexpr std::int64_t kSessionMs = 30LL * 24 * 3600 * 1000;

HttpResponse json_response(int status, const nlohmann::json& body);
HttpResponse error(int status, protocol::ErrorCode code, const std::string& message);
HttpResponse decode_error(const protocol::DecodeError& e);
// 429 with Retry-After (whole seconds, at least 1).
HttpResponse too_many(protocol::ErrorCode code, const std::string& message,
                      std::int64_t retry_after_seconds);

std::string cookie_value(const HttpRequest& request, std::string_view name);
// The Set-Cookie value of the session cookie (an empty value with max age 0 ends it).
std::string session_cookie(const std::string& value, std::int64_t max_age_seconds, bool secure);
std::string lower(std::string s);

// A game as the lobby describes it. Never holds the seed before the game ends.
struct GameInfo {
  storage::GameRow row;
  Seats seats;
  std::string creator;
  nlohmann::json time_control;  // TimeControl::to_json
  nlohmann::json clocks;        // game_clocks.h clocks_json: null without clocks
  // Per role, when its player last made a request or had a connection close (ms), as the store
  // knows it (sessions.last_seen, kept to a minute), or null.
  nlohmann::json last_active = nlohmann::json::object();
  // Per role: its player allowed the computer to stand in for him if his time runs out.
  nlohmann::json stand_in = {{"scotland", false}, {"england", false}};
  nlohmann::json dice;  // server/play/dice.h, dice_json
};

GameInfo load_info(storage::Store& store, const storage::GameRow& row);
std::optional<core::Role> role_of(const Seats& seats, std::int64_t account_id);
// The game if `viewer` may see it. Nothing for a game that does not exist and for one hidden
// from `viewer` alike, so that a stranger cannot tell an invite game from an unused id.
std::optional<GameInfo> find_visible(DbWorker& db, std::int64_t game_id,
                                     const std::optional<Identity>& viewer);
// The game's public description for `viewer` (docs/protocol.md "Lobby"). With `presence`, a
// player connected to any game is "online" in `last_active`, and one who left since the
// server started was last active when his last connection closed.
nlohmann::json describe(const GameInfo& info, const std::optional<RoomSummary>& summary,
                        const std::optional<Identity>& viewer, const Presence* presence = nullptr);

}  // namespace api
}  // namespace blockfog::server
