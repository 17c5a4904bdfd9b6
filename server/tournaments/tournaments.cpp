#include "server/tournaments/tournaments.h"

#include <algorithm>
#include <map>
#include <set>

#include "games/registry.h"
#include "server/clocks/game_clocks.h"
#include "server/clocks/time_control.h"
#include "server/crypto.h"
#include "server/play/dice.h"
#include "server/play/game_loader.h"
#include "server/play/game_start.h"
#include "server/play/room_registry.h"
#include "server/tournaments/standings.h"
#include "storage/play_by_web.h"

namespace blockfog::server {

using nlohmann::json;
using storage::TournamentRow;

namespace {

tournament::GameOutcome outcome_of(const storage::GameRow& row) {
  if (row.status == storage::GameStatus::Aborted) return tournament::GameOutcome::NoWinner;
  if (row.status != storage::GameStatus::Finished) return tournament::GameOutcome::Pending;
  const auto result = json::parse(row.result_json.value_or("{}"), nullptr, false);
  const auto winner = result.is_object() ? result.value("winner", json()) : json();
  if (winner == "scotland") return tournament::GameOutcome::ScotlandWon;
  if (winner == "england") return tournament::GameOutcome::EnglandWon;
  return tournament::GameOutcome::NoWinner;
}

std::int64_t seat_of(const Seats& seats, core::Role role) {
  const auto& seat = seats.of(role);
  return seat ? seat->account_id : 0;
}

// The players still in (not removed), in seed order.
std::vector<tournament::PlayerId> active_players(storage::Store& store, std::int64_t id) {
  std::vector<tournament::PlayerId> players;
  for (const auto& p : storage::list_tournament_players(store, id)) {
    if (!p.removed_at) players.push_back(p.account_id);
  }
  return players;
}

std::vector<tournament::PlayerId> all_players(storage::Store& store, std::int64_t id) {
  std::vector<tournament::PlayerId> players;
  for (const auto& p : storage::list_tournament_players(store, id)) players.push_back(p.account_id);
  return players;
}

std::string name_of(storage::Store& store, std::int64_t account_id) {
  const auto account = store.find_account_by_id(account_id);
  return account ? account->username : "?";
}

// Creates one game of the tournament, seats taken. It starts once both players' dice are
// revealed (server/play/dice.h).
std::int64_t create_game(storage::Store& store, const TournamentRow& row, std::int64_t round,
                         std::int64_t scotland, std::int64_t england,
                         const std::optional<std::string>& lot, std::int64_t now) {
  const auto* kind = games::find_game_kind(row.kind);
  if (!kind)
    throw std::runtime_error("tournament " + std::to_string(row.id) + ": no game '" + row.kind +
                             "' is served");
  storage::NewGame game;
  game.kind = row.kind;
  game.rules_version = std::string(kind->module->rules_version());
  game.scenario = row.scenario;
  game.options_json = row.options_json;
  game.seed_hex = random_hex(32);
  game.seed_sha256 = seed_commitment(game.seed_hex);
  game.created_by = row.organiser;
  game.rated = row.rated;  // a rated tournament's games move the ratings (docs/ratings.md)
  const auto created = store.create_game(game, now);
  // The tournament's time control (with its vacation rule), started with the game.
  if (row.time_control_json) storage::set_time_control(store, created.id, *row.time_control_json);
  store.take_seat(created.id, "scotland", scotland, now);
  store.take_seat(created.id, "england", england, now);
  storage::add_tournament_game(store, row.id, round, created.id, lot);
  await_dice(store, created.id, now, 0, nullptr);
  return created.id;
}

// Pairs round `round` and starts its games.
std::variant<RoundStart, std::string> start_round(storage::Store& store, const TournamentRow& row,
                                                  std::int64_t round, std::int64_t now) {
  const auto format = format_of(row);
  tournament::RoundPairings pairings;
  if (format == tournament::Format::RoundRobin) {
    pairings = tournament::round_robin_round(all_players(store, row.id), static_cast<int>(round));
  } else {
    const auto history = load_history(store, row);
    auto result = format == tournament::Format::Swiss
                      ? tournament::swiss_round(active_players(store, row.id), history)
                      : tournament::elimination_round(all_players(store, row.id), history,
                                                      static_cast<int>(round));
    if (auto* e = std::get_if<tournament::PairingError>(&result)) return e->message;
    pairings = std::get<tournament::RoundPairings>(result);
  }
  std::set<std::int64_t> removed;
  for (const auto& p : storage::list_tournament_players(store, row.id)) {
    if (p.removed_at) removed.insert(p.account_id);
  }
  RoundStart start;
  // Claimed before any game is created: of two sweeps (or nodes) that read the previous round
  // finished, one starts this round and the other creates nothing.
  if (!storage::claim_tournament_round(store, row.id, round, now + row.round_deadline_ms)) {
    start.already_started = true;
    return start;
  }
  std::string detail = "round " + std::to_string(round) + ":";
  for (const auto& pair : pairings.pairs) {
    std::vector<std::pair<std::int64_t, std::int64_t>> games;
    std::optional<std::string> lot;
    if (row.sides == "swapped") {
      games = {{pair.scotland, pair.england}, {pair.england, pair.scotland}};
    } else {
      // One game, sides by lot: the byte drawn is stored with the game and logged.
      lot = random_hex(1);
      const bool swap = (std::stoi(*lot, nullptr, 16) & 1) != 0;
      games = {swap ? std::pair{pair.england, pair.scotland}
                    : std::pair{pair.scotland, pair.england}};
    }
    for (const auto& [scotland, england] : games) {
      // A removed player forfeits the games he would have played.
      const bool scotland_out = removed.contains(scotland);
      const bool england_out = removed.contains(england);
      const auto game_id = create_game(store, row, round, scotland, england, lot, now);
      detail += " " + name_of(store, scotland) + " (Scotland) v " + name_of(store, england) +
                " (England), game " + std::to_string(game_id) +
                (lot ? ", sides by lot " + *lot : "") + ";";
      if (scotland_out || england_out) {
        const auto winner = scotland_out ? core::Role::England : core::Role::Scotland;
        if (auto result = end_game_by_organiser(store, game_id, winner, "forfeit", now)) {
          start.ended.push_back({game_id, *result});
        }
      } else {
        start.created.push_back(game_id);
      }
    }
  }
  for (const auto bye : pairings.byes) {
    storage::add_tournament_bye(store, row.id, round, bye);
    detail += " bye to " + name_of(store, bye) + ";";
  }
  storage::log_tournament(store, row.id, std::nullopt, "round", detail, now);
  return start;
}

}  // namespace

tournament::Format format_of(const TournamentRow& row) {
  return tournament::format_from_name(row.format).value_or(tournament::Format::Swiss);
}

int games_per_pairing(const TournamentRow& row) { return row.sides == "swapped" ? 2 : 1; }

tournament::History load_history(storage::Store& store, const TournamentRow& row) {
  tournament::History history;
  history.games_per_pairing = games_per_pairing(row);
  for (const auto& g : storage::list_tournament_games(store, row.id)) {
    const auto game = store.find_game(g.game_id);
    if (!game) continue;
    const auto seats = load_seats(store, g.game_id);
    history.games.push_back({static_cast<int>(g.round), seat_of(seats, core::Role::Scotland),
                             seat_of(seats, core::Role::England), outcome_of(*game)});
  }
  for (const auto& b : storage::list_tournament_byes(store, row.id)) {
    history.byes.push_back({static_cast<int>(b.round), b.account_id});
  }
  return history;
}

std::variant<RoundStart, std::string> start_tournament(storage::Store& store,
                                                       const TournamentRow& row, std::int64_t now) {
  const auto players = storage::list_tournament_players(store, row.id);
  const int n = static_cast<int>(players.size());
  if (n < 2) return std::string("a tournament needs two players at least");
  std::int64_t rounds = row.rounds;
  switch (format_of(row)) {
    case tournament::Format::RoundRobin:
      rounds = tournament::round_robin_rounds(n);
      break;
    case tournament::Format::SingleElimination:
      rounds = tournament::elimination_rounds(n);
      break;
    case tournament::Format::Swiss:
      if (rounds > tournament::round_robin_rounds(n)) {
        return std::to_string(rounds) + " Swiss rounds need " +
               std::to_string(rounds % 2 == 0 ? rounds + 1 : rounds) + " players at least";
      }
      break;
  }
  storage::Transaction transaction(store.database());
  std::int64_t seed = 1;
  for (const auto& p : players) storage::set_tournament_seed(store, row.id, p.account_id, seed++);
  storage::set_tournament_started(store, row.id, rounds, now);
  auto started = start_round(store, *storage::find_tournament(store, row.id), 1, now);
  if (std::holds_alternative<std::string>(started)) return started;  // rolled back
  transaction.commit();
  return started;
}

bool round_finished(storage::Store& store, const TournamentRow& row) {
  for (const auto& g : storage::list_tournament_games(store, row.id)) {
    if (g.round != row.current_round) continue;
    const auto game = store.find_game(g.game_id);
    if (game && (game->status == storage::GameStatus::Active ||
                 game->status == storage::GameStatus::Open)) {
      return false;
    }
  }
  return true;
}

std::variant<RoundStart, std::string> start_next_round(storage::Store& store,
                                                       const TournamentRow& row, std::int64_t now) {
  storage::Transaction transaction(store.database());
  auto started = start_round(store, row, row.current_round + 1, now);
  if (std::holds_alternative<std::string>(started)) return started;  // rolled back
  if (std::get<RoundStart>(started).already_started) {
    return "round " + std::to_string(row.current_round + 1) + " has started already";
  }
  transaction.commit();
  return started;
}

RoundStart advance_tournament(storage::Store& store, std::int64_t tournament_id, std::int64_t now) {
  const auto row = storage::find_tournament(store, tournament_id);
  if (!row || row->status != "running" || !round_finished(store, *row)) return {};
  if (row->rounds_by_hand && row->current_round < row->rounds) return {};
  storage::Transaction transaction(store.database());
  if (row->current_round >= row->rounds) {
    if (!storage::set_tournament_finished(store, tournament_id, now)) return {};
    storage::log_tournament(store, tournament_id, std::nullopt, "finish", "the last round ended",
                            now);
    transaction.commit();
    return {};
  }
  auto started = start_round(store, *row, row->current_round + 1, now);
  if (auto* reason = std::get_if<std::string>(&started)) {
    const auto log = storage::list_tournament_log(store, tournament_id);
    if (log.empty() || log.back().detail != *reason) {
      storage::log_tournament(store, tournament_id, std::nullopt, "stalled", *reason, now);
    }
    transaction.commit();
    return {};
  }
  transaction.commit();
  return std::get<RoundStart>(std::move(started));
}

namespace {

// Finishes the active game `row` with `result`, its clocks stopped.
void finish_by_organiser(storage::Store& store, std::int64_t game_id, const std::string& result,
                         std::int64_t now) {
  const auto seats = load_seats(store, game_id);
  storage::Transaction transaction(store.database());
  stop_clocks(store, game_id, load_time_control(store, game_id), seats, now);
  store.set_game_status(game_id, storage::GameStatus::Finished, now, result);
  transaction.commit();
}

// Whether the organiser may decide the game now: it is under way, or its dice are still being
// rolled. Such a game is started from the server's secret alone, only to be ended at once:
// nobody plays it, so no die of it is ever cast.
bool under_way_for_decision(storage::Store& store, const storage::GameRow& row, std::int64_t now) {
  if (row.status == storage::GameStatus::Open && row.dice_deadline) {
    start_in_store(store, row.id, 0, now);
    return true;
  }
  return row.status == storage::GameStatus::Active;
}

}  // namespace

std::optional<std::string> end_game_by_organiser(storage::Store& store, std::int64_t game_id,
                                                 core::Role winner, std::string_view reason,
                                                 std::int64_t now) {
  const auto row = store.find_game(game_id);
  if (!row) return std::nullopt;
  storage::Transaction transaction(store.database());
  if (!under_way_for_decision(store, *row, now)) return std::nullopt;
  const auto loser = winner == core::Role::Scotland ? core::Role::England : core::Role::Scotland;
  auto result = result_against(loser, reason);
  finish_by_organiser(store, game_id, result, now);
  transaction.commit();
  return result;
}

std::optional<std::string> adjudicate_game(storage::Store& store, std::int64_t game_id,
                                           std::int64_t now) {
  auto row = store.find_game(game_id);
  if (!row) return std::nullopt;
  storage::Transaction transaction(store.database());
  if (!under_way_for_decision(store, *row, now)) return std::nullopt;
  row = store.find_game(game_id);
  // The true state is the replay of the stored log (every acknowledged action is stored).
  const auto loaded = replay_game(store, *row);
  if (!loaded.game)
    throw std::runtime_error("game " + std::to_string(game_id) + ": " + loaded.error);
  const auto* kind = games::find_game_kind(row->kind);
  const auto a = kind && kind->adjudicate ? kind->adjudicate(*loaded.game) : std::nullopt;
  if (!a) throw std::runtime_error("game " + std::to_string(game_id) + " has no victory count");
  json fields = a->fields;
  fields["winner"] = core::role_name(a->winner);
  fields["reason"] = "adjudicated";
  fields["text"] = fields.value("text", std::string("adjudicated")) + ", adjudicated";
  const auto result = fields.dump();
  finish_by_organiser(store, game_id, result, now);
  transaction.commit();
  return result;
}

json describe_tournament(storage::Store& store, const TournamentRow& row, bool full,
                         std::int64_t now) {
  const auto nullable = [](const std::optional<std::int64_t>& v) { return v ? json(*v) : json(); };
  const auto players = storage::list_tournament_players(store, row.id);
  json j = {{"id", row.id},
            {"name", row.name},
            {"description", row.description},
            {"organiser", name_of(store, row.organiser)},
            {"scenario", row.scenario},
            {"options", json::parse(row.options_json, nullptr, false)},
            {"format", row.format},
            {"rounds", row.rounds},
            {"sides", row.sides},
            {"round_deadline_ms", row.round_deadline_ms},
            {"rated", row.rated},
            {"time_control", stored_time_control(row.time_control_json).to_json()},
            {"vacation", row.vacation},
            {"rounds_by_hand", row.rounds_by_hand},
            {"registration_opens_at", row.registration_opens_at},
            {"registration_closes_at", row.registration_closes_at},
            {"max_players", row.max_players},
            {"status", row.status},
            {"current_round", row.current_round},
            {"deadline_at", nullable(row.deadline_at)},
            {"created_at", row.created_at},
            {"started_at", nullable(row.started_at)},
            {"finished_at", nullable(row.finished_at)},
            {"player_count", players.size()}};
  games::describe_kind(row.kind, j);
  if (!full) return j;
  std::map<std::int64_t, std::string> names;
  json list = json::array();
  for (const auto& p : players) {
    names[p.account_id] = p.username;
    list.push_back({{"name", p.username},
                    {"seed", nullable(p.seed)},
                    {"registered_at", p.registered_at},
                    {"removed", p.removed_at.has_value()}});
  }
  j["players"] = list;
  const auto name = [&](std::int64_t id) {
    const auto it = names.find(id);
    return it == names.end() ? name_of(store, id) : it->second;
  };
  json rounds = json::array();
  for (std::int64_t r = 1; r <= row.current_round; ++r) {
    rounds.push_back({{"round", r}, {"games", json::array()}, {"byes", json::array()}});
  }
  for (const auto& g : storage::list_tournament_games(store, row.id)) {
    const auto game = store.find_game(g.game_id);
    if (!game || g.round < 1 || g.round > row.current_round) continue;
    const auto seats = load_seats(store, g.game_id);
    const bool active = game->status == storage::GameStatus::Active;
    json result = game->result_json ? json::parse(*game->result_json, nullptr, false) : json();
    rounds[g.round - 1]["games"].push_back(
        {{"game_id", g.game_id},
         {"scotland", name(seat_of(seats, core::Role::Scotland))},
         {"england", name(seat_of(seats, core::Role::England))},
         {"status", storage::status_name(game->status)},
         {"result", result},
         {"lot", g.lot ? json(*g.lot) : json()},
         // Past the deadline the game waits for the organiser's decision, never a default.
         {"overdue",
          active && g.round == row.current_round && row.deadline_at && now > *row.deadline_at}});
  }
  for (const auto& b : storage::list_tournament_byes(store, row.id)) {
    if (b.round >= 1 && b.round <= row.current_round) {
      rounds[b.round - 1]["byes"].push_back(name(b.account_id));
    }
  }
  j["rounds_played"] = rounds;
  json standings = json::array();
  std::vector<tournament::PlayerId> seeded;
  for (const auto& p : players) seeded.push_back(p.account_id);
  for (const auto& s : tournament::standings(format_of(row), seeded, load_history(store, row))) {
    standings.push_back({{"rank", s.rank},
                         {"player", name(s.player)},
                         {"points", s.points},
                         {"wins", s.wins},
                         {"losses", s.losses},
                         {"no_winner", s.no_winner},
                         {"byes", s.byes},
                         {"buchholz", s.buchholz},
                         {"sonneborn_berger", s.sonneborn_berger},
                         {"head_to_head", s.head_to_head},
                         {"wins_as_scotland", s.wins_as_scotland},
                         {"out_in_round", s.out_in_round}});
  }
  j["standings"] = standings;
  json log = json::array();
  for (const auto& l : storage::list_tournament_log(store, row.id)) {
    log.push_back({{"at", l.created_at},
                   {"author", l.author ? json(*l.author) : json()},
                   {"action", l.action},
                   {"detail", l.detail}});
  }
  j["log"] = log;
  return j;
}

}  // namespace blockfog::server
