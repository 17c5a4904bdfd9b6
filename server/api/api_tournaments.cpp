// Tournaments (docs/tournaments.md, docs/protocol.md "Tournaments"): creating, registering,
// the organiser's actions, the tournament's page and its bundle of records.

#include <algorithm>

#include "games/registry.h"
#include "protocol/fields.h"
#include "protocol/tar.h"
#include "rules/core/hex.h"
#include "server/api/api.h"
#include "server/clock.h"
#include "server/clocks/time_control.h"
#include "server/crypto.h"
#include "server/db_worker.h"
#include "server/log.h"
#include "server/play/game_loader.h"
#include "server/play/room_registry.h"
#include "server/records/game_record.h"
#include "server/records/signing.h"
#include "server/tournaments/tournaments.h"
#include "storage/game_dice.h"
#include "storage/signing_keys.h"
#include "storage/tournament_store.h"

namespace blockfog::server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::Need;
using namespace api;

namespace {

constexpr std::size_t kMaxTournamentBody = 16 * 1024;
constexpr std::int64_t kTournamentMinuteMs = 60 * 1000;
constexpr std::int64_t kMaxDeadlineMinutes = 60 * 24 * 60;  // 60 days
constexpr std::int64_t kMaxSwissRounds = 20;

// What an action decided in its storage task.
struct TournamentDone {
  std::optional<HttpResponse> refusal;
  RoundStart round;  // games created or ended by the action
  json tournament;
};

TournamentDone refuse_tournament(int status, ErrorCode code, const std::string& message) {
  return {error(status, code, message), {}, {}};
}

void merge(RoundStart& into, RoundStart&& more) {
  into.created.insert(into.created.end(), more.created.begin(), more.created.end());
  for (auto& g : more.ended) into.ended.push_back(std::move(g));
}

}  // namespace

void Api::tell_rooms(const RoundStart& round) {
  for (const auto& g : round.ended) {
    rooms_.end(g.game_id, storage::GameStatus::Finished, g.result_json);
  }
}

HttpResponse Api::list_tournaments() {
  const auto list = db_.call([](storage::Store& store) {
    json tournaments = json::array();
    const auto now = now_ms();
    for (const auto& row : storage::list_tournaments(store, 200)) {
      tournaments.push_back(describe_tournament(store, row, false, now));
    }
    return tournaments;
  });
  return json_response(200, {{"tournaments", list}});
}

HttpResponse Api::create_tournament(const RouteCall& call) {
  const auto& identity = call.identity;
  if (!config_.tournament_organisers.empty()) {
    const auto name = lower(identity->username);
    const auto& list = config_.tournament_organisers;
    if (std::none_of(list.begin(), list.end(),
                     [&](const std::string& n) { return lower(n) == name; })) {
      return error(403, ErrorCode::NotOrganiser,
                   "this server lets only its organisers create "
                   "tournaments");
    }
  }
  const auto parsed = protocol::parse_object(call.request.body, kMaxTournamentBody);
  if (auto* e = std::get_if<protocol::DecodeError>(&parsed)) return decode_error(*e);
  const auto& body = std::get<json>(parsed);
  protocol::FieldReader fields(body);
  storage::NewTournament t;
  t.organiser = identity->account_id;
  const auto now = now_ms();
  t.name = fields.string("name", Need::Required, 100).value_or("");
  t.description = fields.string("description", Need::Optional, 4000).value_or("");
  const auto kind_name =
      fields.string("kind", Need::Optional, 64).value_or(std::string(games::kDefaultKind));
  t.scenario = fields.string("scenario", Need::Required, 64).value_or("");
  const auto* options = fields.value("options", Need::Optional);
  const auto format = fields.string("format", Need::Required, 32);
  const auto rounds = fields.integer("rounds", Need::Optional, 1, kMaxSwissRounds);
  t.sides = fields.string("sides", Need::Required, 16).value_or("");
  t.round_deadline_ms =
      fields.integer("round_deadline_minutes", Need::Required, 1, kMaxDeadlineMinutes).value_or(1) *
      kTournamentMinuteMs;
  t.rated = fields.boolean("rated", Need::Optional).value_or(false);
  t.registration_opens_at =
      fields.integer("registration_opens_at", Need::Optional, 0).value_or(now);
  t.registration_closes_at =
      fields.integer("registration_closes_at", Need::Required, 0).value_or(0);
  t.max_players = fields.integer("max_players", Need::Required, 2, 256).value_or(2);
  const auto* time_control = fields.value("time_control", Need::Optional);
  t.vacation = fields.boolean("vacation", Need::Optional).value_or(true);
  t.rounds_by_hand = fields.boolean("rounds_by_hand", Need::Optional).value_or(false);
  fields.reject_unread();
  if (fields.error()) return decode_error(*fields.error());
  if (t.name.empty()) return error(400, ErrorCode::BadField, "name: give the tournament a name");
  const auto* kind = games::find_game_kind(kind_name);
  if (!kind) return error(400, ErrorCode::UnknownGame, "kind: no such game '" + kind_name + "'");
  t.kind = std::string(kind->kind);
  const auto parsed_format = format ? tournament::format_from_name(*format) : std::nullopt;
  if (!parsed_format) {
    return error(400, ErrorCode::BadField, "format: one of round_robin, swiss, single_elimination");
  }
  t.format = *format;
  if (*parsed_format == tournament::Format::Swiss) {
    if (!rounds) return error(400, ErrorCode::MissingField, "rounds: a Swiss tournament needs it");
    t.rounds = *rounds;
  } else if (rounds) {
    return error(400, ErrorCode::BadField,
                 "rounds: only a Swiss tournament sets them; the others follow from the players");
  }
  if (t.sides != "swapped" && t.sides != "lot") {
    return error(400, ErrorCode::BadField, "sides: \"swapped\" (two games) or \"lot\" (one game)");
  }
  if (options && !options->is_object()) {
    return error(400, ErrorCode::BadField, "options: an object");
  }
  const json game_options = options ? *options : json::object();
  t.options_json = game_options.dump();
  // The scenario and options are checked by setting a game up once.
  if (auto setup =
          kind->module->setup(*core::seed_from_hex(random_hex(32)), t.scenario, game_options);
      !setup.game) {
    return error(400, ErrorCode::BadField, setup.error);
  }
  // The same time controls as a casual game's, checked by the same parser; whether vacations
  // pause the games is the tournament's own `vacation` flag.
  if (time_control && time_control->is_object() && time_control->contains("vacation")) {
    return error(400, ErrorCode::BadField,
                 "time_control.vacation: a tournament allows or forbids vacations with its own "
                 "\"vacation\" flag");
  }
  auto parsed_tc = parse_time_control(time_control);
  if (auto* e = std::get_if<std::string>(&parsed_tc)) return error(400, ErrorCode::BadField, *e);
  auto& tc = std::get<TimeControl>(parsed_tc);
  tc.vacation = t.vacation;
  if (tc.timed()) t.time_control_json = tc.to_json().dump();
  if (t.registration_closes_at <= std::max(now, t.registration_opens_at)) {
    return error(400, ErrorCode::BadField,
                 "registration_closes_at: after now and after registration opens");
  }
  const auto created = db_.call([&](storage::Store& store) {
    storage::Transaction transaction(store.database());
    const auto row = storage::create_tournament(store, t, now);
    storage::log_tournament(store, row.id, identity->account_id, "create", row.name, now);
    transaction.commit();
    return describe_tournament(store, row, true, now);
  });
  log_info("tournament " + std::to_string(created["id"].get<std::int64_t>()) + " created by " +
           identity->username);
  return json_response(201, {{"tournament", created}});
}

HttpResponse Api::show_tournament(const RouteCall& call) {
  const auto found = db_.call([&](storage::Store& store) -> std::optional<json> {
    const auto row = storage::find_tournament(store, call.id);
    if (!row) return std::nullopt;
    auto j = describe_tournament(store, *row, true, now_ms());
    bool registered = false;
    if (call.identity) {
      for (const auto& p : storage::list_tournament_players(store, call.id)) {
        registered = registered || p.account_id == call.identity->account_id;
      }
    }
    j["you"] = {{"registered", registered},
                {"organiser", call.identity && call.identity->account_id == row->organiser}};
    return j;
  });
  if (!found) return error(404, ErrorCode::NotFound, "no such tournament");
  return json_response(200, {{"tournament", *found}});
}

HttpResponse Api::tournament_action(const RouteCall& call) {
  const auto& action = call.token;
  static const std::vector<std::string> kActions = {"register", "withdraw", "start",  "next_round",
                                                    "remove",   "forfeit",  "extend", "note"};
  if (std::find(kActions.begin(), kActions.end(), action) == kActions.end()) {
    return error(404, ErrorCode::NotFound, "no such tournament action");
  }
  const auto& identity = *call.identity;
  // The body, read before the storage task: bad input changes nothing.
  json body = json::object();
  if (!call.request.body.empty()) {
    auto parsed = protocol::parse_object(call.request.body, kMaxTournamentBody);
    if (auto* e = std::get_if<protocol::DecodeError>(&parsed)) return decode_error(*e);
    body = std::get<json>(std::move(parsed));
  }
  protocol::FieldReader fields(body);
  std::optional<std::string> player;
  std::optional<std::int64_t> game_id;
  std::optional<std::string> winner;
  std::string reason = "forfeit";
  std::optional<std::int64_t> minutes;
  std::optional<std::string> text;
  if (action == "remove") {
    player = fields.string("player", Need::Required, 64);
  } else if (action == "forfeit") {
    game_id = fields.integer("game_id", Need::Required, 1);
    reason = fields.string("reason", Need::Optional, 16).value_or("forfeit");
    // An adjudication's winner is the engine's count, never the organiser's word.
    winner = fields.string("winner", reason == "adjudicated" ? Need::Optional : Need::Required, 16);
    if (reason == "adjudicated" && winner) {
      return error(400, ErrorCode::BadField, "an adjudication's winner is counted, not named");
    }
  } else if (action == "extend") {
    minutes = fields.integer("minutes", Need::Required, 1, kMaxDeadlineMinutes);
  } else if (action == "note") {
    text = fields.string("text", Need::Required, 2000);
  }
  fields.reject_unread();
  if (fields.error()) return decode_error(*fields.error());
  if (winner && *winner != "scotland" && *winner != "england") {
    return error(400, ErrorCode::BadField, "winner: \"scotland\" or \"england\"");
  }
  if (reason != "forfeit" && reason != "adjudicated") {
    return error(400, ErrorCode::BadField, "reason: \"forfeit\" or \"adjudicated\"");
  }
  if (text && text->empty()) return error(400, ErrorCode::BadField, "text: write something");

  auto done = db_.call([&](storage::Store& store) -> TournamentDone {
    // Decided under the tournament's row lock: another node's registration or start waits.
    storage::Transaction decision(store.database());
    storage::lock_row(store.database(), storage::LockedRow::Tournament, call.id);
    const auto row = storage::find_tournament(store, call.id);
    if (!row) return refuse_tournament(404, ErrorCode::NotFound, "no such tournament");
    const auto now = now_ms();
    const auto players = storage::list_tournament_players(store, call.id);
    const bool is_player = std::any_of(players.begin(), players.end(), [&](const auto& p) {
      return p.account_id == identity.account_id;
    });
    TournamentDone result;
    if (action == "register" || action == "withdraw") {
      if (row->status != "registering" || now < row->registration_opens_at ||
          now >= row->registration_closes_at) {
        return refuse_tournament(409, ErrorCode::RegistrationClosed,
                                 row->status != "registering" ? "the tournament has started"
                                 : now < row->registration_opens_at
                                     ? "registration has not opened yet"
                                     : "registration has closed");
      }
      if (action == "register") {
        if (is_player)
          return refuse_tournament(409, ErrorCode::Conflict, "you are registered already");
        if (static_cast<std::int64_t>(players.size()) >= row->max_players) {
          return refuse_tournament(
              409, ErrorCode::TournamentFull,
              "the tournament is full (" + std::to_string(row->max_players) + " players)");
        }
        storage::add_tournament_player(store, call.id, identity.account_id, now);
      } else {
        if (!is_player)
          return refuse_tournament(409, ErrorCode::Conflict, "you are not registered");
        storage::delete_tournament_player(store, call.id, identity.account_id);
      }
    } else {
      // The organiser's actions.
      if (identity.account_id != row->organiser) {
        return refuse_tournament(403, ErrorCode::NotOrganiser,
                                 "only the tournament's organiser can do that");
      }
      storage::Transaction transaction(store.database());
      if (action == "start") {
        if (row->status != "registering") {
          return refuse_tournament(409, ErrorCode::Conflict, "the tournament has started already");
        }
        auto started = start_tournament(store, *row, now);
        if (auto* why = std::get_if<std::string>(&started)) {
          return refuse_tournament(409, ErrorCode::Conflict, *why);
        }
        result.round = std::get<RoundStart>(std::move(started));
        storage::log_tournament(store, call.id, identity.account_id, "start",
                                std::to_string(players.size()) + " players", now);
      } else if (action == "next_round") {
        if (row->status == "registering") {
          return refuse_tournament(409, ErrorCode::Conflict, "the tournament has not started");
        }
        if (row->status == "finished" || row->current_round >= row->rounds) {
          return refuse_tournament(409, ErrorCode::TournamentOver, "the tournament is over");
        }
        if (!round_finished(store, *row)) {
          return refuse_tournament(
              409, ErrorCode::RoundNotFinished,
              "a game of round " + std::to_string(row->current_round) + " is not finished");
        }
        auto started = start_next_round(store, *row, now);
        if (auto* why = std::get_if<std::string>(&started)) {
          return refuse_tournament(409, ErrorCode::Conflict, *why);
        }
        result.round = std::get<RoundStart>(std::move(started));
        storage::log_tournament(store, call.id, identity.account_id, "next_round",
                                "round " + std::to_string(row->current_round + 1), now);
      } else if (action == "remove") {
        const auto it = std::find_if(players.begin(), players.end(), [&](const auto& p) {
          return lower(p.username) == lower(*player);
        });
        if (it == players.end() || it->removed_at) {
          return refuse_tournament(409, ErrorCode::Conflict,
                                   *player + " is not a player of the tournament");
        }
        if (row->status == "finished") {
          return refuse_tournament(409, ErrorCode::Conflict, "the tournament is over");
        }
        if (row->status == "registering") {
          storage::delete_tournament_player(store, call.id, it->account_id);
        } else {
          storage::mark_tournament_player_removed(store, call.id, it->account_id, now);
          // His games under way are forfeited.
          for (const auto& g : storage::list_tournament_games(store, call.id)) {
            const auto seats = load_seats(store, g.game_id);
            const auto role = role_of(seats, it->account_id);
            if (!role) continue;
            const auto other =
                *role == core::Role::Scotland ? core::Role::England : core::Role::Scotland;
            if (auto r = end_game_by_organiser(store, g.game_id, other, "forfeit", now)) {
              result.round.ended.push_back({g.game_id, *r});
            }
          }
        }
        storage::log_tournament(store, call.id, identity.account_id, "remove", it->username, now);
      } else if (action == "forfeit") {
        if (storage::tournament_of_game(store, *game_id) != call.id) {
          return refuse_tournament(404, ErrorCode::NotFound, "no such game in this tournament");
        }
        std::optional<std::string> r;
        if (reason == "adjudicated") {
          const auto* kind = games::find_game_kind(row->kind);
          if (!kind || !kind->adjudicate) {
            return refuse_tournament(400, ErrorCode::NotAdjudicable,
                                     "the rules of " +
                                         (kind ? std::string(kind->display_name) : row->kind) +
                                         " decide no game before its end: forfeit it instead");
          }
          r = adjudicate_game(store, *game_id, now);
        } else {
          const auto role = *winner == "scotland" ? core::Role::Scotland : core::Role::England;
          r = end_game_by_organiser(store, *game_id, role, reason, now);
        }
        if (!r) return refuse_tournament(409, ErrorCode::GameOver, "the game is not under way");
        result.round.ended.push_back({*game_id, *r});
        const auto stored = json::parse(*r);
        storage::log_tournament(
            store, call.id, identity.account_id, reason,
            "game " + std::to_string(*game_id) + " to " + stored.at("winner").get<std::string>() +
                (stored.contains("text") ? " (" + stored.at("text").get<std::string>() + ")" : ""),
            now);
      } else if (action == "extend") {
        if (row->status != "running" || !row->deadline_at) {
          return refuse_tournament(409, ErrorCode::Conflict, "no round is under way");
        }
        const auto deadline = std::max(*row->deadline_at, now) + *minutes * kTournamentMinuteMs;
        storage::set_tournament_deadline(store, call.id, deadline);
        storage::log_tournament(store, call.id, identity.account_id, "extend",
                                "round " + std::to_string(row->current_round) + " by " +
                                    std::to_string(*minutes) + " minutes",
                                now);
      } else if (action == "note") {
        storage::log_tournament(store, call.id, identity.account_id, "note", *text, now);
      }
      transaction.commit();
    }
    // A forfeit or removal may have ended the round.
    merge(result.round, advance_tournament(store, call.id, now));
    result.tournament =
        describe_tournament(store, *storage::find_tournament(store, call.id), true, now);
    decision.commit();
    return result;
  });
  if (done.refusal) return *done.refusal;
  log_info("tournament " + std::to_string(call.id) + ": " + action + " by " + identity.username);
  tell_rooms(done.round);
  return json_response(200, {{"tournament", done.tournament}});
}

HttpResponse Api::export_tournament(const RouteCall& call) {
  struct Bundle {
    storage::TournamentRow row;
    std::string organiser;
    // Per round, its finished games with their row, seats and actions.
    struct Game {
      std::int64_t round = 0;
      storage::GameRow row;
      Seats seats;
      std::vector<storage::ActionRow> actions;
      std::vector<storage::DiceRow> dice;
    };
    std::vector<Game> games;
    std::vector<storage::SigningKeyRow> keys;
  };
  const auto bundle = db_.call([&](storage::Store& store) -> std::optional<Bundle> {
    const auto row = storage::find_tournament(store, call.id);
    if (!row) return std::nullopt;
    Bundle b{*row, "", {}, storage::list_signing_keys(store)};
    const auto organiser = store.find_account_by_id(row->organiser);
    b.organiser = organiser ? organiser->username : "?";
    for (const auto& g : storage::list_tournament_games(store, call.id)) {
      const auto game = store.find_game(g.game_id);
      if (!game || game->status != storage::GameStatus::Finished) continue;
      b.games.push_back({g.round, *game, load_seats(store, g.game_id),
                         store.load_actions(g.game_id), storage::list_dice(store, g.game_id)});
    }
    return b;
  });
  if (!bundle) return error(404, ErrorCode::NotFound, "no such tournament");
  // One key for the records and the manifest, even if a rotation comes in between.
  const auto key = signing_key_.get();
  std::vector<protocol::TarEntry> files;  // the records, by path
  json rounds = json::array();
  const auto mtime = (bundle->row.finished_at.value_or(now_ms())) / 1000;
  for (const auto& g : bundle->games) {
    // The record's bytes exactly as GET /api/games/{id}/record serves them.
    const RecordContext context{bundle->row.id, bundle->organiser, g.dice};
    const auto record = json_response(200, signed_game_record(g.row, g.actions, context, key)).body;
    const auto path = "games/" + std::to_string(g.row.id) + ".json";
    while (static_cast<std::int64_t>(rounds.size()) < g.round) {
      rounds.push_back(json{{"round", rounds.size() + 1}, {"games", json::array()}});
    }
    const auto result = json::parse(g.row.result_json.value_or("{}"), nullptr, false);
    const auto player = [&](core::Role role) {
      const auto& seat = g.seats.of(role);
      return seat ? json(seat->username) : json();
    };
    rounds[g.round - 1]["games"].push_back(
        json{{"game_id", std::to_string(g.row.id)},
             {"scotland", player(core::Role::Scotland)},
             {"england", player(core::Role::England)},
             {"result", result.is_object() ? result.value("reason", json()) : json()},
             {"winner", result.is_object() ? result.value("winner", json()) : json()},
             {"record", path},
             {"record_sha256", sha256_hex(record)},
             {"seed_commitment", g.row.seed_sha256}});
    files.push_back({path, record});
  }
  json manifest = {{"format", "blockfog-tournament-bundle"},
                   {"version", 1},
                   {"tournament",
                    {{"id", bundle->row.id},
                     {"name", bundle->row.name},
                     {"format", bundle->row.format},
                     {"organiser", bundle->organiser}}},
                   {"rounds", rounds}};
  // Signed, the manifest binds each record (by its SHA-256) to this tournament: a record moved
  // in from another bundle, or a result edited in both, fails verification (docs/records.md).
  if (key) protocol::sign_document(manifest, protocol::kSignedManifest, *key);
  // The manifest first, then the server's public keys (for convenience: a verifier trusts only
  // a key it got elsewhere or pinned by id), then the records.
  files.insert(files.begin(), {"server-key.json", server_key_document(bundle->keys).dump(2)});
  files.insert(files.begin(), {"manifest.json", manifest.dump(2)});
  HttpResponse response{200, "application/x-tar", protocol::write_tar(files, mtime), {}};
  response.headers.emplace_back(
      "Content-Disposition",
      "attachment; filename=\"blockfog-tournament-" + std::to_string(bundle->row.id) + ".tar\"");
  return response;
}

}  // namespace blockfog::server
