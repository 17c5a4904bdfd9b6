#pragma once

// Whether a file is Blockfog's database, decided before anything is written to it
// (docs/storage.md, Identity). Blockfog writes its application id into the header of every
// database it creates; a database written by a Blockfog older than that is recognised by its
// migration bookkeeping. Anything else (another program's database, a file that is not SQLite)
// is refused and left exactly as it was, so that a wrong --db never alters someone's data.

#include <cstdint>
#include <filesystem>

#include "storage/sqlite.h"

namespace blockfog::storage {

// "BlFg" in ASCII: PRAGMA application_id of a Blockfog database.
inline constexpr std::int32_t kApplicationId = 0x426c4667;

enum class FileIdentity {
  Absent,          // no file, or an empty one: a new database is made there
  Blockfog,        // carries kApplicationId
  LegacyBlockfog,  // application id 0 and Blockfog's schema_migrations, accounts, games, actions
};

// The file is not Blockfog's database; what() says what it is and that it was left untouched.
class ForeignDatabase : public StorageError {
 public:
  explicit ForeignDatabase(const std::string& message);
};

// Reads `path` without writing a byte to it or beside it (storage/read_only_open.h): no -wal or
// -shm file is made, and an existing -shm is only read (when the file has a WAL, it is read
// through it, since the newest header and schema may be there). Throws ForeignDatabase for a
// file that is not Blockfog's, and StorageError if the file cannot be read, or whether it exists
// cannot be told (a folder this process may not search).
FileIdentity identify_database(const std::filesystem::path& path);

// Makes an empty Blockfog database at `path` (which must be absent or empty) that carries
// kApplicationId from its first byte on disk: it is written beside `path` and renamed over it,
// so that a crash leaves either no database or one that is recognisably Blockfog's.
void create_database(const std::filesystem::path& path);

// Writes kApplicationId into the header of a legacy Blockfog database.
void stamp_application_id(Database& db);

}  // namespace blockfog::storage
