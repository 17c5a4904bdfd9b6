#pragma once

// The tables of migration 10 (docs/storage.md, "Tournaments"): tournaments, their players,
// games, byes and the organiser's log. Free functions over the Store's connection; like the
// Store they read no clock (`now` is passed in) and throw StorageError on infrastructure
// failures. The rules of what may change when are the server's (server/tournaments/tournaments.h).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/store.h"

namespace blockfog::storage {

struct NewTournament {
  std::string name;
  std::string description;
  std::int64_t organiser = 0;
  std::string kind = "hots";  // migration 21: the game every game of it is of (games.kind)
  std::string scenario;
  std::string options_json = "{}";
  std::string format;  // "round_robin", "swiss", "single_elimination"
  std::int64_t rounds = 0;
  std::string sides;  // "swapped", "lot"
  std::int64_t round_deadline_ms = 0;
  bool rated = false;
  std::int64_t registration_opens_at = 0;
  std::int64_t registration_closes_at = 0;
  std::int64_t max_players = 0;
  // Migration 14: every game's time control (server/clocks/time_control.h; none without it),
  // whether vacations pause the games' clocks, and whether the organiser starts each round by hand.
  std::optional<std::string> time_control_json;
  bool vacation = true;
  bool rounds_by_hand = false;
};

struct TournamentRow : NewTournament {
  std::int64_t id = 0;
  std::string status;  // "registering", "running", "finished"
  std::int64_t current_round = 0;
  std::optional<std::int64_t> deadline_at;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> started_at;
  std::optional<std::int64_t> finished_at;
};

struct TournamentPlayerRow {
  std::int64_t account_id = 0;
  std::string username;
  std::int64_t registered_at = 0;
  std::optional<std::int64_t> seed;
  std::optional<std::int64_t> removed_at;
};

struct TournamentGameRow {
  std::int64_t game_id = 0;
  std::int64_t round = 0;
  std::optional<std::string> lot;
};

struct TournamentByeRow {
  std::int64_t round = 0;
  std::int64_t account_id = 0;
};

struct TournamentLogRow {
  std::int64_t id = 0;
  std::optional<std::string> author;  // the organiser's name; none for the server's own steps
  std::string action;
  std::string detail;
  std::int64_t created_at = 0;
};

TournamentRow create_tournament(Store& store, const NewTournament& tournament, std::int64_t now);
std::optional<TournamentRow> find_tournament(Store& store, std::int64_t id);
std::vector<TournamentRow> list_tournaments(Store& store, std::size_t limit);  // newest first
std::vector<std::int64_t> list_running_tournaments(Store& store);

// Players by seed once seeded, else by registration.
std::vector<TournamentPlayerRow> list_tournament_players(Store& store, std::int64_t id);
// False if the account is registered already.
bool add_tournament_player(Store& store, std::int64_t id, std::int64_t account_id,
                           std::int64_t now);
// False if the account was not registered.
bool delete_tournament_player(Store& store, std::int64_t id, std::int64_t account_id);
void set_tournament_seed(Store& store, std::int64_t id, std::int64_t account_id, std::int64_t seed);
void mark_tournament_player_removed(Store& store, std::int64_t id, std::int64_t account_id,
                                    std::int64_t now);

void set_tournament_started(Store& store, std::int64_t id, std::int64_t rounds, std::int64_t now);
// Claims round `round` of the running tournament: its current round becomes `round` only if
// it is `round` - 1 now. False when another writer claimed it first (each node's tournament
// sweep may try the same round; on PostgreSQL the second waits for the first's COMMIT and then
// finds the round moved on). Taken before the round's games are created, in their transaction.
bool claim_tournament_round(Store& store, std::int64_t id, std::int64_t round,
                            std::int64_t deadline_at);
void set_tournament_deadline(Store& store, std::int64_t id, std::int64_t deadline_at);
// Finishes the running tournament; false if it was finished already (by another writer).
bool set_tournament_finished(Store& store, std::int64_t id, std::int64_t now);

void add_tournament_game(Store& store, std::int64_t id, std::int64_t round, std::int64_t game_id,
                         const std::optional<std::string>& lot);
std::vector<TournamentGameRow> list_tournament_games(Store& store, std::int64_t id);  // by id
std::optional<std::int64_t> tournament_of_game(Store& store, std::int64_t game_id);
void add_tournament_bye(Store& store, std::int64_t id, std::int64_t round, std::int64_t account_id);
std::vector<TournamentByeRow> list_tournament_byes(Store& store, std::int64_t id);

void log_tournament(Store& store, std::int64_t id, std::optional<std::int64_t> author,
                    std::string_view action, std::string_view detail, std::int64_t now);
std::vector<TournamentLogRow> list_tournament_log(Store& store, std::int64_t id);  // oldest first

}  // namespace blockfog::storage
