#pragma once

// The server's side of signed records (docs/records.md, "Signatures"): its Ed25519 keys as
// stored (storage/signing_keys.h), the public document GET /api/server-key serves, and
// --rotate-signing-key. The signing itself is protocol/signature.h, shared with hots-replay.

#include <filesystem>
#include <mutex>
#include <optional>
#include <ostream>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/signature.h"
#include "storage/signing_keys.h"

namespace blockfog::server {

class DbWorker;

// A new key pair as a row to store.
storage::SigningKeyRow new_signing_key_row();

// The key that signs now: the stored current one, made and stored at the first start. Nothing
// when there is none and none can be stored (a --read-only server of a database that never had
// one): records are then served unsigned, and the log says so.
std::optional<protocol::SigningKey> load_signing_key(DbWorker& db);

// The key that signs now, for the threads that sign records and bundles. It follows the stored
// current key (server/periodic/signing_key_checks.h), so that a rotation by --rotate-signing-key,
// run against the database while nodes serve it, reaches every node without a restart.
class CurrentSigningKey {
 public:
  explicit CurrentSigningKey(std::optional<protocol::SigningKey> key) : key_(std::move(key)) {}
  CurrentSigningKey(const CurrentSigningKey&) = delete;
  CurrentSigningKey& operator=(const CurrentSigningKey&) = delete;

  std::optional<protocol::SigningKey> get() const {
    std::lock_guard lock(mutex_);
    return key_;
  }
  // Whether `key` differs from the one held.
  bool set(protocol::SigningKey key);

 private:
  mutable std::mutex mutex_;
  std::optional<protocol::SigningKey> key_;
};

// {"algorithm":"Ed25519","current":ID,"keys":[{"key_id","public_key","created_at",
// "retired_at"}]}: every key the server ever signed with, oldest first, public halves only.
nlohmann::json server_key_document(const std::vector<storage::SigningKeyRow>& keys);

// --rotate-signing-key: retires the current key of the database at `path` and makes a new one;
// prints the new key's id (and the retired one's) to `out`. Returns the exit status.
int rotate_signing_key_command(const std::filesystem::path& path, std::ostream& out);

}  // namespace blockfog::server
