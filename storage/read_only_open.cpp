#include "storage/read_only_open.h"

#include <sqlite3.h>

#include <array>
#include <cstdio>
#include <system_error>

namespace blockfog::storage {
namespace {

std::filesystem::path sibling(const std::filesystem::path& path, const char* suffix) {
  auto other = path;
  other += suffix;
  return other;
}

// A file: URI for `path`, read-only, with `parameters` appended.
std::string read_only_uri(const std::filesystem::path& path, const char* parameters) {
  std::string uri = "file:";
  for (const unsigned char ch : std::filesystem::absolute(path).string()) {
    const bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                       (ch >= '0' && ch <= '9') || ch == '-' || ch == '.' || ch == '_' ||
                       ch == '~' || ch == '/';
    if (plain) {
      uri += static_cast<char>(ch);
    } else {
      std::array<char, 4> escaped{};
      std::snprintf(escaped.data(), escaped.size(), "%%%02X", ch);
      uri += escaped.data();
    }
  }
  return uri + "?mode=ro" + parameters;
}

}  // namespace

ReadOnlyWay read_only_way(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(sibling(path, "-wal"), error)) return ReadOnlyWay::Immutable;
  if (!std::filesystem::exists(sibling(path, "-shm"), error)) return ReadOnlyWay::PrivateIndex;
  return ReadOnlyWay::SharedIndex;
}

int open_read_only(const std::filesystem::path& path, int flags, sqlite3** db) {
  flags |= SQLITE_OPEN_READONLY;
  if (path.empty() || path == ":memory:") return sqlite3_open_v2(path.c_str(), db, flags, nullptr);
  const auto way = read_only_way(path);
  const char* parameters = way == ReadOnlyWay::Immutable     ? "&immutable=1"
                           : way == ReadOnlyWay::SharedIndex ? "&readonly_shm=1"
                                                             : "";
  const char* vfs = way == ReadOnlyWay::PrivateIndex ? "unix-none" : nullptr;
  const auto uri = read_only_uri(path, parameters);
  int rc = sqlite3_open_v2(uri.c_str(), db, flags | SQLITE_OPEN_URI, vfs);
  if (rc != SQLITE_OK) return rc;
  // A read-only connection has nothing of its own to checkpoint; a checkpoint at close would
  // only try to write.
  sqlite3_db_config(*db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
  // Before the first read: without shared memory SQLite reads a WAL only in EXCLUSIVE locking
  // mode, keeping its index in the connection's memory (unix-none makes every lock a no-op).
  if (way == ReadOnlyWay::PrivateIndex) {
    rc = sqlite3_exec(*db, "PRAGMA locking_mode = EXCLUSIVE", nullptr, nullptr, nullptr);
  }
  return rc;
}

}  // namespace blockfog::storage
