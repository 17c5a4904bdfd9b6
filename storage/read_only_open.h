#pragma once

// Opening a database for reading without writing anything to it or beside it (docs/storage.md,
// "Reading without writing"): for --check-db, --read-only and the checks made before a start, which
// must work on a file, folder or mount the process cannot write, and must leave a file that is not
// Blockfog's exactly as it was. A plain read-only SQLite connection to a WAL database makes a -wal
// and a -shm file beside it when they are missing (and leaves them), fails where it cannot make
// them, and rewrites a -shm that nobody else has open. So how the file is opened depends on what
// lies beside it:
//
// - no -wal file: `immutable=1`. SQLite reads the database file alone, takes no lock and opens
//   nothing beside it. No connection has the file open in WAL mode (each one keeps a -wal while
//   open), so every committed transaction is in the file. The caveat: SQLite trusts that nobody
//   changes the file while it is open, so a server that starts writing to it meanwhile (a
//   checkpoint copying pages into it) may show this reader a torn page.
// - a -wal and a -shm file: `readonly_shm=1`. SQLite maps the -shm read-only: beside a live
//   writer it shares the writer's index of the WAL under the usual locks; with nobody else, it
//   builds the index from the WAL in its own memory. The -shm is not written (unless this
//   process has the database open for writing too: SQLite maps a -shm once per process). The
//   caveat: beside a live writer in another process, a read that meets the writer rewriting
//   the index's header, or finds no read mark it can use, fails with "attempt to write a
//   readonly database" (SQLITE_READONLY_RECOVERY, _CANTINIT), since it may not set a mark or
//   wait for the header itself. A reader meant to run beside a server uses
//   OpenMode::ReadBesideWriter instead.
// - a -wal without a -shm: the `unix-none` VFS in EXCLUSIVE locking mode, which keeps the WAL's
//   index in this connection's memory and takes no lock. No other connection can be using the
//   WAL (every one maps the -shm), so there is nothing to lock against.
//
// Every such connection closes without a checkpoint (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE).

#include <filesystem>
#include <string>

struct sqlite3;

namespace blockfog::storage {

enum class ReadOnlyWay {
  Immutable,     // no -wal: the database file alone
  SharedIndex,   // -wal and -shm: the -shm read-only
  PrivateIndex,  // -wal only: the WAL's index in this connection's memory
};

// How `path` would be opened now, from the files beside it.
ReadOnlyWay read_only_way(const std::filesystem::path& path);

// Opens `path` read-only as above, with `flags` (SQLITE_OPEN_* besides READONLY and URI) added.
// Returns SQLite's result code; `*db` is set as by sqlite3_open_v2, and the caller closes it
// whatever the result. `:memory:` and "" open as they are.
int open_read_only(const std::filesystem::path& path, int flags, sqlite3** db);

}  // namespace blockfog::storage
