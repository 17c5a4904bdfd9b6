#include "server/records/signing.h"

#include <string>

#include "server/clock.h"
#include "server/db_worker.h"
#include "server/log.h"
#include "storage/identity.h"
#include "storage/postgres.h"
#include "storage/store.h"

namespace blockfog::server {

using nlohmann::json;

storage::SigningKeyRow new_signing_key_row() {
  const auto key = protocol::make_signing_key();
  storage::SigningKeyRow row;
  row.key_id = key.key_id;
  row.public_key = key.public_hex;
  row.private_key = key.private_hex;
  return row;
}

std::optional<protocol::SigningKey> load_signing_key(DbWorker& db) {
  try {
    const auto row = db.call([](storage::Store& store) {
      return storage::current_signing_key(store, new_signing_key_row, now_ms());
    });
    return protocol::SigningKey{row.key_id, row.public_key, row.private_key};
  } catch (const std::exception& e) {
    log_warn(std::string("no signing key: records and bundles are served unsigned (") + e.what() +
             ")");
    return std::nullopt;
  }
}

bool CurrentSigningKey::set(protocol::SigningKey key) {
  std::lock_guard lock(mutex_);
  if (key_ && key_->key_id == key.key_id) return false;
  key_ = std::move(key);
  return true;
}

json server_key_document(const std::vector<storage::SigningKeyRow>& keys) {
  json list = json::array();
  json current;
  for (const auto& key : keys) {
    list.push_back({{"key_id", key.key_id},
                    {"public_key", key.public_key},
                    {"created_at", key.created_at},
                    {"retired_at", key.retired_at ? json(*key.retired_at) : json()}});
    if (!key.retired_at) current = key.key_id;
  }
  return {{"algorithm", protocol::kSignatureAlgorithm}, {"current", current}, {"keys", list}};
}

int rotate_signing_key_command(const std::filesystem::path& path, std::ostream& out) {
  try {
    if (!storage::is_postgres_uri(path.string()) &&
        storage::identify_database(path) == storage::FileIdentity::Absent) {
      out << path.string() << ": no database there\n";
      return 1;
    }
    const auto opened = storage::open_store(path.string(), now_ms());
    storage::Store& store = *opened;
    std::optional<std::string> retired;
    for (const auto& key : storage::list_signing_keys(store)) {
      if (!key.retired_at) retired = key.key_id;
    }
    const auto made = storage::rotate_signing_key(store, new_signing_key_row, now_ms());
    out << "signing key " << made.key_id << " made";
    if (retired) out << "; " << *retired << " retired (still published for verifying)";
    out << "\n";
    return 0;
  } catch (const std::exception& e) {
    out << path.string() << ": cannot rotate the signing key: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace blockfog::server
