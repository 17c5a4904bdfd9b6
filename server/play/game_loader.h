#pragma once

// Rebuilding a game from the store: the state is the replay of the log from the seed
// (docs/architecture.md, "Promises", 3); snapshots are only a cache that can be checked against it.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/game.h"
#include "server/notices/notice_lines.h"
#include "storage/store.h"

namespace blockfog::server {

struct LoadedGame {
  std::shared_ptr<core::Game> game;  // null on error
  std::int64_t seq = 0;              // actions applied
  storage::ViewVersions versions;    // each role's view version after them
  DecisionMarks marks;               // where each seat's log stood at its last decision
  std::string error;
};

// The game right after setup, from the row's play seed (else, in a game started before shared
// dice, its secret seed), scenario and options.
LoadedGame setup_game(const storage::GameRow& row);

// Told of each logged action once it is applied: who acted, the action, the game after it.
using OnApplied =
    std::function<void(core::Role role, const nlohmann::json& action, const core::Game& after)>;

// The one replay loop: applies `actions` (the log from seq 1) to `game`, set up and untouched.
// Each must be readable, numbered 1, 2, 3, ..., accepted by the engine, and leave the state
// hash it recorded. Returns what went wrong (the game is then half-way), or nothing.
std::optional<std::string> apply_logged_actions(std::int64_t game_id, core::Game& game,
                                                const std::vector<storage::ActionRow>& actions,
                                                const OnApplied& on_applied = {});

// Setup, then every logged action in order; each action's recorded state hash must match.
// Each seat's decision mark is taken after its last action, as the room took it.
LoadedGame replay_game(storage::Store& store, const storage::GameRow& row);

// The result stored with a game the rules ended (games.result): {"winner", "reason"}.
std::string result_json(const core::Outcome& outcome);

// The seed commitment published at creation: SHA-256 of the seed's 32 bytes, in hex.
std::string seed_commitment(std::string_view seed_hex);

}  // namespace blockfog::server
