#pragma once

// Helpers for the tournament tests: a tournament's players as HTTP clients, random legal play
// in an existing game, and reading the export's ustar archive.

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/server/test_client.h"

namespace blockfog::server::testing {

// The body of POST /api/tournaments for a Swiss tournament of `rounds` rounds, Braveheart,
// registration open for an hour from `now` (ms; the system clock's when 0).
nlohmann::json swiss_request(int rounds, int max_players, const std::string& sides = "lot",
                             std::int64_t now = 0);
// "/api/tournaments/{id}" + rest.
std::string tournament_path(std::int64_t id, const std::string& rest = "");
// The tournament once its round moved past `round` (the server advances within seconds).
nlohmann::json await_round_after(HttpClient& client, std::int64_t id, std::int64_t round);

struct RandomPlay {
  int actions = 0;     // applied
  bool ended = false;  // by the rules: both seats' views hold the game's outcome
};
// Plays up to `actions` random legal actions in an active game through both seats'
// WebSockets (every frame checked for the fog of war, as Connection does), fewer when the
// game ends first. Only actions that go forward (random_walk.h): never undo or take_back, so
// that a walk "to the end" gets there. A refused action or a lost connection is a test failure and
// stops it.
RandomPlay play_random_actions(int port, std::int64_t game_id, const std::string& scotland_cookie,
                               const std::string& england_cookie, int actions,
                               std::mt19937_64& rng);
// The same to the game's end (or `max_actions`), for many whole games: each frame is read only
// for the seat's legal actions and the outcome, not checked as Connection checks it (the fog
// of war and view versions are the play tests' concern, tests/server/game_test.cpp).
RandomPlay play_random_to_end(int port, std::int64_t game_id, const std::string& scotland_cookie,
                              const std::string& england_cookie, int max_actions,
                              std::mt19937_64& rng);

// Ends an active tournament game before the rules do, the `kind`-th of the three ways in turn
// (kind % 3): the loser resigns, the organiser awards a forfeit to `winner`, or the organiser
// adjudicates it by the noble count. `scotland`/`england` name the seats' players in `players`.
HttpResult decide_early(int kind, std::map<std::string, HttpClient>& players, HttpClient& organiser,
                        std::int64_t tournament_id, std::int64_t game_id,
                        const std::string& scotland, const std::string& england,
                        const std::string& winner);

// The files of an exported bundle by name, read with the bundle's own reader (protocol/tar.h:
// each header's magic and checksum checked); `order`, when given, gets their names in the
// archive's order. An archive that does not read is a test failure and no files.
std::map<std::string, std::string> bundle_files(const std::string& archive,
                                                std::vector<std::string>* order = nullptr);

}  // namespace blockfog::server::testing
