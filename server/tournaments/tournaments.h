#pragma once

// Running a tournament inside a storage task (docs/tournaments.md): pairing and starting a
// round with ordinary stored games, advancing when a round's games all ended, an organiser's
// forfeit, and the tournament as the API describes it. Every function runs on the storage
// thread, in the caller's transaction where it writes.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/game.h"
#include "server/play/room.h"
#include "server/tournaments/pairing.h"
#include "storage/tournament_store.h"

namespace blockfog::server {

// A game the server ended (a forfeit): the rooms are told once committed.
struct EndedTournamentGame {
  std::int64_t game_id = 0;
  std::string result_json;
};

struct RoundStart {
  // Games a round created: each starts once its players' dice are revealed.
  std::vector<std::int64_t> created;
  std::vector<EndedTournamentGame> ended;  // games against removed players, forfeited
  // Another writer started the round first (storage::claim_tournament_round): nothing created.
  bool already_started = false;
};

tournament::Format format_of(const storage::TournamentRow& row);
// Games each pairing plays: 2 with sides swapped, 1 with sides by lot.
int games_per_pairing(const storage::TournamentRow& row);
// The games and byes so far as the pairing library reads them.
tournament::History load_history(storage::Store& store, const storage::TournamentRow& row);

// Seeds the players in order of registration, sets the rounds and starts round 1.
std::variant<RoundStart, std::string> start_tournament(storage::Store& store,
                                                       const storage::TournamentRow& row,
                                                       std::int64_t now);

// Whether every game of the tournament's current round has ended (none still open or active).
bool round_finished(storage::Store& store, const storage::TournamentRow& row);

// If the current round of a running tournament has no game left to end, the next round starts
// (or, after the last, the tournament finishes). A tournament whose rounds start by hand
// (`rounds_by_hand`) only finishes here: its next round waits for start_next_round. Returns
// what started; nothing otherwise. A round whose next pairing is impossible stays as it is,
// with the reason in the log once.
RoundStart advance_tournament(storage::Store& store, std::int64_t tournament_id, std::int64_t now);

// The organiser starts the next round of a running tournament whose current round has ended
// and is not its last (the caller checks both): paired and its games started, or why it
// cannot be paired (nothing changed).
std::variant<RoundStart, std::string> start_next_round(storage::Store& store,
                                                       const storage::TournamentRow& row,
                                                       std::int64_t now);

// Ends a game under way, or one whose dice are being rolled, with `winner` winning by `reason`
// ("forfeit", "adjudicated"): the result JSON, or nothing if the game is neither.
std::optional<std::string> end_game_by_organiser(storage::Store& store, std::int64_t game_id,
                                                 core::Role winner, std::string_view reason,
                                                 std::int64_t now);

// Ends a game under way (or whose dice are being rolled) by adjudication: the winner by its
// game's adjudication of the true state (games::GameKind::adjudicate; docs/tournaments.md),
// the result JSON with the counts (for Hammer of the Scots, RULES 12.1.2: {"winner","reason":
// "adjudicated","nobles":{"scotland","england"},"tie_broken","text"}), or nothing if the game
// is neither. The caller refuses a game whose kind has no adjudication.
std::optional<std::string> adjudicate_game(storage::Store& store, std::int64_t game_id,
                                           std::int64_t now);

// docs/protocol.md, "Tournaments": the summary of the list, or everything (players, rounds,
// standings, log) for the tournament's page.
nlohmann::json describe_tournament(storage::Store& store, const storage::TournamentRow& row,
                                   bool full, std::int64_t now);

}  // namespace blockfog::server
