#pragma once

// Verifying finished games (docs/records.md): a single record as the server's record endpoint
// serves it, or a tournament bundle (a ustar archive of a manifest and records). A record
// passes when its seed hashes to the commitment published at the game's creation, every
// action is legal when replayed from that seed, the state hash after each action and at the
// end is the recorded one, and the recorded result is the replayed one. Given keys to trust,
// the record must also carry the server's signature by one of them (docs/records.md,
// "Signatures"): what no replay can check (a resignation, a timeout, a tournament's decision,
// where the log stops) is then the server's word, not the sender's.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/signature.h"

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

// Whose signatures a verification accepts. With neither keys nor a pinned id, signatures are
// not checked (the records are checked for consistency only).
struct Trust {
  std::vector<protocol::PublicKey> keys;     // --key FILE: the server's public keys
  std::optional<std::string> pinned_key_id;  // --key-id ID: the one key accepted
  bool checks_signatures() const { return !keys.empty() || pinned_key_id.has_value(); }
};

// Checks one record. `fallback_id` names the game when the record has no "game_id".
GameVerdict verify_record(const nlohmann::json& record, const std::string& fallback_id,
                          const Trust& trust = {});

// The keys `trust` accepts a signature by, from its own keys and, for a pinned id only,
// `carried` (the server-key.json a bundle carries: a pinned id is the key's hash, so a carried
// key with that id is the key; an unpinned carried key proves nothing).
std::vector<protocol::PublicKey> accepted_keys(const Trust& trust,
                                               const std::vector<protocol::PublicKey>& carried);

// The ends a record may show that the action log cannot: the replayed game must then be
// unfinished by the rules, and the result must name a winner.
bool ended_outside_rules(std::string_view reason);

// Checks a bundle: every game the manifest lists (the file is there, its SHA-256, seed
// commitment, result and winner are the manifest's, and the record verifies), and every file
// of the archive is listed. Returns nothing (and says why in `error`) for an archive or
// manifest that cannot be read at all.
// With `trust`, the manifest's signature and every record's are checked too, and a record that
// belongs to another tournament fails.
std::optional<std::vector<GameVerdict>> verify_bundle(std::string_view archive, std::string& error,
                                                      const Trust& trust = {});

// "OK game-id ..." or "FAIL game-id: reason".
std::string verdict_line(const GameVerdict& verdict);

}  // namespace blockfog::tools
