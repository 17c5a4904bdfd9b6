#include "server/api/invite_tokens.h"

#include "server/crypto.h"
#include "storage/server_secrets.h"

namespace blockfog::server {

std::string invite_token(storage::Store& store, std::int64_t game_id, std::int64_t now) {
  const auto key = storage::server_secret(
      store, "invite_key", [] { return random_hex(32); }, now);
  return hmac_sha256_hex(key, "invite:" + std::to_string(game_id)).substr(0, 32);
}

std::string invite_token_of_new_game(storage::Store& store, std::int64_t game_id,
                                     std::int64_t now) {
  auto token = invite_token(store, game_id, now);
  storage::set_invite_token_hash(store, game_id, sha256_hex(token));
  return token;
}

}  // namespace blockfog::server
