#pragma once

// The table of migration 14 (docs/storage.md, "Server secrets"): secrets the server creates
// once and keeps with its data. Free functions over the Store's connection; they read no clock
// and throw StorageError on infrastructure failures.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "storage/store.h"

namespace blockfog::storage {

// The secret called `name`: the stored one, or `make()`'s, stored now (at `now`) when there is
// none. Two calls never see different values.
std::string server_secret(Store& store, std::string_view name,
                          const std::function<std::string()>& make, std::int64_t now);

// Replaces an invite game's invitation token hash (games.invite_token_hash).
void set_invite_token_hash(Store& store, std::int64_t game_id, std::string_view hash);

}  // namespace blockfog::storage
