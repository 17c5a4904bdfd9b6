#pragma once

// Helpers for the tournament tests: a tournament's players as HTTP clients, random legal play
// in an existing game, and reading the export's ustar archive.

#include <cstdint>
#include <map>
#include <random>
#include <string>

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

// Plays up to `actions` random legal actions in an active game through both seats'
// WebSockets; returns how many were applied (fewer when the game ended first).
int play_random_actions(int port, std::int64_t game_id, const std::string& scotland_cookie,
                        const std::string& england_cookie, int actions, std::mt19937_64& rng);

// The files of an uncompressed ustar archive by name, each header's magic and checksum
// checked (a failure is reported and the archive's files so far returned).
std::map<std::string, std::string> read_ustar(const std::string& archive);

}  // namespace blockfog::server::testing
