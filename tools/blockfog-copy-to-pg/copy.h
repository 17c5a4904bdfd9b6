#pragma once

// Copies Blockfog's SQLite database into an empty PostgreSQL one and checks the copy by counting
// each table's rows on both sides (docs/storage.md, "Copying SQLite into PostgreSQL").

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "storage/sqlite.h"
#include "storage/store.h"

namespace blockfog::copy_to_pg {

struct TableCount {
  std::string table;
  std::int64_t sqlite = 0;
  std::int64_t postgres = 0;
};

// The tables in the order their foreign keys allow.
const std::vector<std::string>& tables_in_key_order();

// Copies every row of `from` (an SQLite database at the newest schema) into `to` (a PostgreSQL
// store at the same schema version with no rows in any table), in one transaction: games that
// ended are copied as active, given their log and snapshots, then ended, so that the triggers
// check every row as they would a live server's writes. Identities continue after the copied
// ids. Throws StorageError (nothing is kept) if `to` is not empty, the versions differ or a
// row is refused. `check`, when given, reads the copy inside the copy's transaction after every
// row is written and before COMMIT: it throws to keep nothing. Returns each table's count on
// both sides, read after the commit.
using CopyCheck = std::function<void(storage::Store& copy)>;
std::vector<TableCount> copy_database(storage::SqliteDatabase& from, storage::Store& to,
                                      const CopyCheck& check = {});

}  // namespace blockfog::copy_to_pg
