#pragma once

// A VFS over SQLite's default one that gathers each commit's writes to the WAL into one write
// system call (docs/storage.md, Durability).
//
// SQLite appends a commit to the WAL one frame at a time, and each frame with two writes: its
// 24-byte header, then its page. A group commit of the server's storage thread dirties about
// two pages per action, so the thread made ~2.7 `pwrite` calls per action, ~6% of the server's
// CPU. Here the frames are kept in memory as they come, in the
// order and at the offsets SQLite gave them, and written with one `pwrite` when the commit's
// last frame is complete. So a COMMIT still returns only after every byte of it was handed to
// the OS, and an acknowledged commit survives kill -9 exactly as before.
//
// The frames reach the file no later than:
// - the write of a commit frame's page (a frame header whose "database size" field is set: the
//   WAL format's commit marker, https://sqlite.org/fileformat2.html#walformat);
// - any other call on the WAL file (a read, sync, truncate, size, lock, close), or a write
//   that does not continue the gathered ones;
// - 1 MiB gathered (a large transaction spills frames before its commit);
// - the database file's xShmBarrier, which SQLite calls before it publishes a commit in the
//   WAL index (after which other connections read its frames): a safety net should a later
//   SQLite write its frames in other shapes. A failure there cannot be reported to SQLite, so
//   the process stops rather than publish frames that are not in the file; the commit was not
//   acknowledged, and recovery at the next start ignores it.
//
// Only WAL files gather; the database file and every other file go straight through.

#include <cstdint>

namespace blockfog::storage {

// The VFS's name for sqlite3_open_v2; registered on the first call (not as the default).
const char* gathering_vfs_name();

// What a connection's WAL file did since it was opened (the SQLite file control
// kGatheringStatsOpcode on the "main" database; tests/storage/gathering_vfs_test.cpp).
struct GatheringStats {
  std::uint64_t writes = 0;           // xWrite calls SQLite made
  std::uint64_t flushes = 0;          // writes made to the file
  std::uint64_t barrier_flushes = 0;  // of those, made by the safety net (see above)
};

// sqlite3_file_control(db, "main", kGatheringStatsOpcode, &stats): fills a GatheringStats.
// Far above SQLite's own opcodes (SQLITE_FCNTL_*, below 100).
inline constexpr int kGatheringStatsOpcode = 0x62660001;

}  // namespace blockfog::storage
