#pragma once

// Games written straight into a store, as the server would have logged them, for tests that
// start a real server on a database made beforehand.

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <string_view>

#include "rules/hots/engine.h"
#include "storage/store.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {

inline constexpr std::int64_t kNow = 1'700'000'000'000;

enum class StoredEnd {
  Open,              // set up and started, no action
  Finished,          // played to the end, status finished
  FinishedUnmarked,  // played to the end, but the server died before writing the status
};

// Two accounts, stored_player(rng_seed, "scotland") and (rng_seed, "england"), and a Braveheart
// game between them with a seed drawn from `rng`, started (active) with no action yet.
// `rules_version`: hots-1 for a game created before hots-2 (it keeps hots-1 state hashes).
storage::GameRow start_stored_game(storage::Store& store, std::uint64_t rng_seed,
                                   std::mt19937_64& rng, storage::Visibility visibility,
                                   std::string_view rules_version = hots::kRulesVersion);
storage::GameRow start_stored_game(storage::Store& store, std::uint64_t rng_seed);

// A game played with random legal actions into the store at `db`: accounts, seats, the
// action log with state hashes (and view versions from none). Returns the game's id. Its
// players are stored_player(rng_seed, "scotland") (the creator) and (rng_seed, "england").
std::int64_t store_game(const std::filesystem::path& db, std::uint64_t rng_seed, StoredEnd end,
                        storage::Visibility visibility = storage::Visibility::Public,
                        std::string_view rules_version = hots::kRulesVersion);
std::string stored_player(std::uint64_t rng_seed, const std::string& role);

// A finished game (or, with GameStatus::Active, one just started): see store_game.
std::int64_t store_finished_game(const std::filesystem::path& db, std::uint64_t rng_seed,
                                 storage::GameStatus status = storage::GameStatus::Finished);

// A session of the account `username` in the store at `db`, valid for a day from now: the
// Cookie header value that logs a client in as that account (its password is unknown).
std::string store_session(const std::filesystem::path& db, const std::string& username);

// Where ServerProcess keeps the database of a server started in `dir`.
std::filesystem::path server_db(const TempDir& dir);

}  // namespace blockfog::server::testing
