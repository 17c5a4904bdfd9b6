#pragma once

// Invitation links their players can get again on any device (docs/protocol.md, "Invitation
// links"): an invite game's token is derived from the game's id under the server's invite key
// (storage/server_secrets.h, created on first use), so it is never stored; the games table
// keeps only its hash, as for tokens made before (random, shown once, still joining).

#include <cstdint>
#include <string>

#include "storage/store.h"

namespace blockfog::server {

// HMAC-SHA256(invite key, "invite:" + game id), its first 16 bytes as 32 lowercase hex digits
// (the length of the random tokens before it). `now` stamps the key if this call creates it.
std::string invite_token(storage::Store& store, std::int64_t game_id, std::int64_t now);

// For an invite game just created (in the caller's transaction, with a placeholder hash): stores
// the hash of its derived token and returns the token.
std::string invite_token_of_new_game(storage::Store& store, std::int64_t game_id, std::int64_t now);

}  // namespace blockfog::server
