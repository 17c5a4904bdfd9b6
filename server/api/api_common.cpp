#include "server/api/api_common.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "games/registry.h"
#include "protocol/http.h"
#include "server/clock.h"
#include "server/clocks/game_clocks.h"
#include "server/db_worker.h"
#include "server/play/dice.h"
#include "server/play/room_registry.h"
#include "storage/computer_seats.h"
#include "storage/game_dice.h"
#include "storage/play_by_web.h"

namespace blockfog::server::api {

using nlohmann::json;
using protocol::ErrorCode;

namespace {

json nullable(const std::optional<std::int64_t>& v) { return v ? json(*v) : json(); }

json role_list(const std::vector<core::Role>& roles) {
  json list = json::array();
  for (auto r : roles) list.push_back(core::role_name(r));
  return list;
}

bool may_see(const GameInfo& info, const std::optional<Identity>& viewer) {
  if (info.row.visibility == storage::Visibility::Public) return true;
  return viewer && (viewer->account_id == info.row.created_by ||
                    role_of(info.seats, viewer->account_id).has_value());
}

}  // namespace

HttpResponse json_response(int status, const json& body) {
  return {
      status, "application/json", body.dump(-1, ' ', false, json::error_handler_t::replace), {}};
}

HttpResponse error(int status, ErrorCode code, const std::string& message) {
  return json_response(status, protocol::error_body(code, message));
}

HttpResponse too_many(ErrorCode code, const std::string& message,
                      std::int64_t retry_after_seconds) {
  auto r = error(429, code, message);
  r.headers.emplace_back("Retry-After",
                         std::to_string(std::max<std::int64_t>(1, retry_after_seconds)));
  return r;
}

HttpResponse decode_error(const protocol::DecodeError& e) {
  return error(e.code == ErrorCode::FrameTooLarge ? 413 : 400, e.code, e.message);
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

std::string session_cookie(const std::string& value, std::int64_t max_age_seconds, bool secure) {
  return std::string(kSessionCookie) + "=" + value +
         "; Path=/; Max-Age=" + std::to_string(max_age_seconds) + "; HttpOnly; SameSite=Lax" +
         (secure ? "; Secure" : "");
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

GameInfo load_info(storage::Store& store, const storage::GameRow& row) {
  const auto creator = store.find_account_by_id(row.created_by);
  GameInfo info;
  info.row = row;
  info.seats = load_seats(store, row.id);
  info.creator = creator ? creator->username : "?";
  const auto tc = load_time_control(store, row.id);
  info.time_control = tc.to_json();
  const auto now = now_ms();
  if (row.status == storage::GameStatus::Active) {
    info.clocks = clocks_json(store, row.id, tc, info.seats, now);
  }
  for (auto role : {core::Role::Scotland, core::Role::England}) {
    const auto& seat = info.seats.of(role);
    const auto at = seat ? storage::last_activity(store, seat->account_id) : std::nullopt;
    info.last_active[core::role_name(role)] = at ? json(*at) : json();
  }
  for (const auto& role : storage::stand_in_consents(store, row.id)) info.stand_in[role] = true;
  info.dice = dice_json(row, storage::list_dice(store, row.id));
  return info;
}

std::optional<core::Role> role_of(const Seats& seats, std::int64_t account_id) {
  for (auto role : {core::Role::Scotland, core::Role::England}) {
    if (seats.of(role) && seats.of(role)->account_id == account_id) return role;
  }
  return std::nullopt;
}

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

namespace {

// The seats whose dice step the start of a game with both seats taken awaits: one that has not
// committed, or has not revealed once the other committed (server/play/dice.h). A computer
// seat's steps are the server's.
json dice_awaiting(const GameInfo& info) {
  json awaiting = json::array();
  const auto& dice = info.dice;
  if (info.row.status != storage::GameStatus::Open || !info.row.dice_deadline) return awaiting;
  for (auto role : {core::Role::Scotland, core::Role::England}) {
    const auto& seat = info.seats.of(role);
    if (!seat || seat->computer) continue;
    const auto& own = dice[core::role_name(role)];
    const auto& other = dice[core::role_name(core::other_side(role))];
    if (own["commitment"].is_null() ||
        (own["contribution"].is_null() && !other["commitment"].is_null())) {
      awaiting.push_back(core::role_name(role));
    }
  }
  return awaiting;
}

// Never the time of an action, which may be a hidden decision (RULES 13.1.4): while connected
// a player is "online", and otherwise his last request or closed connection shows.
json last_active(const GameInfo& info, const Presence* presence) {
  json active = info.last_active;
  if (!presence) return active;
  for (auto role : {core::Role::Scotland, core::Role::England}) {
    const auto& seat = info.seats.of(role);
    if (!seat || seat->computer) continue;
    const auto name = std::string(core::role_name(role));
    if (presence->online(seat->account_id)) {
      active[name] = "online";
    } else if (const auto left = presence->last_left(seat->account_id)) {
      const auto stored = active.value(name, json());
      if (!stored.is_number_integer() || stored.get<std::int64_t>() < *left) active[name] = *left;
    }
  }
  return active;
}

}  // namespace

json describe(const GameInfo& info, const std::optional<RoomSummary>& summary,
              const std::optional<Identity>& viewer, const Presence* presence) {
  const auto& row = info.row;
  auto player = [&](core::Role role) -> json {
    const auto& seat = info.seats.of(role);
    return seat ? json(seat->username) : json();
  };
  // {"level", "stand_in"} while the computer plays the seat, else null.
  auto computer = [&](core::Role role) -> json {
    const auto& seat = info.seats.of(role);
    if (!seat || !seat->computer) return json();
    return {{"level", seat->computer->level}, {"stand_in", seat->computer->stand_in}};
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
      {"rated", row.rated},
      {"created_by", info.creator},
      {"created_at", row.created_at},
      {"started_at", nullable(row.started_at)},
      {"finished_at", nullable(row.finished_at)},
      {"seed_sha256", row.seed_sha256},
      {"players",
       {{"scotland", player(core::Role::Scotland)}, {"england", player(core::Role::England)}}},
      {"computer",
       {{"scotland", computer(core::Role::Scotland)}, {"england", computer(core::Role::England)}}},
      {"stand_in", info.stand_in},
      {"awaiting", json::array()},
      {"time_control", info.time_control},
      {"clocks", info.clocks},
      {"last_active", last_active(info, presence)},
      {"dice", info.dice}};
  games::describe_kind(row.kind, j);
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
    j["awaiting"] = dice_awaiting(info);
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

}  // namespace blockfog::server::api
