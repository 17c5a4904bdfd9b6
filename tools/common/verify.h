#pragma once

// Verifying finished games (docs/records.md): a single record as the server's record endpoint
// serves it, or a tournament bundle (a ustar archive of a manifest and records). A record
// passes when its seed hashes to the commitment published at the game's creation, every
// action is legal when replayed from that seed, the state hash after each action and at the
// end is the recorded one, and the recorded result is the replayed one.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace blockfog::tools {

struct GameVerdict {
  std::string game_id;
  bool ok = false;
  std::string reason;  // why it failed; empty when ok
  // What was checked, for the OK line.
  std::size_t actions = 0;
  std::string result;  // e.g. "scotland by nobles_majority"
  std::string final_state_hash;
};

// Checks one record. `fallback_id` names the game when the record has no "game_id".
GameVerdict verify_record(const nlohmann::json& record, const std::string& fallback_id);

// The ends a record may show that the action log cannot: the replayed game must then be
// unfinished by the rules, and the result must name a winner.
bool ended_outside_rules(std::string_view reason);

// Checks a bundle: every game the manifest lists (the file is there, its SHA-256, seed
// commitment, result and winner are the manifest's, and the record verifies), and every file
// of the archive is listed. Returns nothing (and says why in `error`) for an archive or
// manifest that cannot be read at all.
std::optional<std::vector<GameVerdict>> verify_bundle(std::string_view archive, std::string& error);

// "OK game-id ..." or "FAIL game-id: reason".
std::string verdict_line(const GameVerdict& verdict);

}  // namespace blockfog::tools
