#pragma once

// What went wrong below the store, counted for the whole process, so that the server can say
// whether it can store anything (docs/storage.md, Faults):
// - an *unavailable* store refused a statement for a reason outside the data: a full disk, a
//   read-only file, a file it cannot open, a lock it could not get. Nothing was written; the
//   same statement may succeed later.
// - a *lost write*: the OS failed a sync or a write (other than for a full disk). What such a
//   file holds on disk is unknown from then on, and a sync cannot be retried safely: the page
//   cache may have dropped the pages it failed to write. The first one is latched; the server
//   stops storing and restarts, and recovery decides from what is on disk.

#include <cstdint>
#include <string>

#include "storage/database.h"

namespace blockfog::storage {

// True for SQLite result codes that mean "cannot store now" rather than "this is wrong".
bool is_unavailable(int sqlite_code);

// Called where SQLite errors are raised (every one passes through), and by the VFS.
void note_error(int sqlite_code);
void note_lost_write(int sqlite_code, const char* operation);
// The same for errors of any backend, by kind (storage/database.h).
void note_error(ErrorKind kind);

struct FaultCounts {
  std::uint64_t unavailable = 0;  // statements refused for is_unavailable() reasons
  std::uint64_t lost_writes = 0;  // failed syncs and writes
};
FaultCounts fault_counts();

// The first lost write ("fsync of /path/x.db-wal failed: disk I/O error"), or "" if none.
std::string first_lost_write();

}  // namespace blockfog::storage
