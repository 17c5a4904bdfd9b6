#pragma once

// The table of migration 17 (docs/records.md, "Signatures"): the server's signing keys, the
// current one and those retired by a rotation. Free functions over the Store's connection; they
// make no key (the caller does, storage depends on SQLite only), read no clock and throw
// StorageError on infrastructure failures.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "storage/store.h"

namespace blockfog::storage {

struct SigningKeyRow {
  std::string key_id;
  std::string public_key;   // hex
  std::string private_key;  // hex; never leaves the server
  std::int64_t created_at = 0;
  std::optional<std::int64_t> retired_at;
};

// The current key: the stored one, or `make()`'s, stored now (at `now`) when there is none.
// Two calls never see different keys.
SigningKeyRow current_signing_key(Store& store, const std::function<SigningKeyRow()>& make,
                                  std::int64_t now);
// Retires the current key (if any) and makes `make()`'s the current one, in one transaction.
SigningKeyRow rotate_signing_key(Store& store, const std::function<SigningKeyRow()>& make,
                                 std::int64_t now);
// Every key, oldest first.
std::vector<SigningKeyRow> list_signing_keys(Store& store);

}  // namespace blockfog::storage
