#include "storage/gathering_vfs.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>

#include "storage/faults.h"

namespace blockfog::storage {
namespace {

constexpr int kFrameHeaderSize = 24;               // the WAL format's frame header
constexpr std::size_t kMaxGathered = 1u << 20;     // a spilling transaction's frames go out early
constexpr std::size_t kFirstCapacity = 64u << 10;  // a group commit of ~5 actions: ~40 KiB
// The most handed to the unix VFS in one call: it keeps only the low 17 bits of a write's
// length (seekAndWriteFd in os_unix.c; SQLite itself never writes more than a frame at a
// time), so a longer write fails with SQLITE_FULL.
constexpr std::size_t kMaxWrite = 96u << 10;

// One open file: ours, with SQLite's default VFS's file after it (at `real`).
struct GatherFile {
  sqlite3_file base;  // first: SQLite sees this object as a sqlite3_file
  sqlite3_file* real;
  GatherFile* wal;        // on a database file: its WAL file while that is open
  GatherFile* database;   // on a WAL file: the database file it belongs to
  bool gathers;           // a WAL file
  bool commit_page_next;  // the last write was a commit frame's header: its page comes next
  unsigned char* data;
  std::size_t size;
  std::size_t capacity;
  sqlite3_int64 offset;  // where data[0] goes in the file
  GatheringStats stats;
};

constexpr std::size_t kFileHeaderSize = (sizeof(GatherFile) + 7) & ~std::size_t{7};

sqlite3_vfs* real_vfs(sqlite3_vfs* vfs) { return static_cast<sqlite3_vfs*>(vfs->pAppData); }
GatherFile* gather_file(sqlite3_file* file) { return reinterpret_cast<GatherFile*>(file); }
sqlite3_file* real_file(sqlite3_file* file) { return gather_file(file)->real; }
const sqlite3_io_methods& real_methods(sqlite3_file* file) { return *real_file(file)->pMethods; }

// A write that failed for another reason than a full disk, or a failed sync, leaves the file's
// bytes on disk unknown: latched for the server to stop on (storage/faults.h).
int checked_write(const GatherFile* file, int rc) {
  if (rc != SQLITE_OK && (rc & 0xff) != SQLITE_FULL) {
    note_lost_write(rc, file->gathers ? "a write to the WAL" : "a write to a database file");
  }
  return rc;
}

// Writes what was gathered; on failure it is dropped (SQLite treats the write as failed: the
// commit fails and its frames are never published).
int flush(GatherFile* file) {
  int rc = SQLITE_OK;
  for (std::size_t done = 0; done < file->size && rc == SQLITE_OK; done += kMaxWrite) {
    const std::size_t length = std::min(kMaxWrite, file->size - done);
    rc = checked_write(
        file, file->real->pMethods->xWrite(file->real, file->data + done, static_cast<int>(length),
                                           file->offset + static_cast<sqlite3_int64>(done)));
    ++file->stats.flushes;
  }
  file->size = 0;
  file->commit_page_next = false;
  return rc;
}

bool reserve(GatherFile* file, std::size_t needed) {
  if (needed <= file->capacity) return true;
  std::size_t capacity = file->capacity == 0 ? kFirstCapacity : file->capacity;
  while (capacity < needed) capacity *= 2;
  auto* data = static_cast<unsigned char*>(std::realloc(file->data, capacity));
  if (data == nullptr) return false;
  file->data = data;
  file->capacity = capacity;
  return true;
}

// The WAL format: a frame header's bytes 4-7 hold the database's size in pages after the
// commit for a commit frame, and zero for every other frame.
bool is_commit_header(const void* header) {
  const auto* bytes = static_cast<const unsigned char*>(header);
  return (bytes[4] | bytes[5] | bytes[6] | bytes[7]) != 0;
}

// --- the methods of an open file ----------------------------------------------------------

int file_close(sqlite3_file* file) {
  auto* f = gather_file(file);
  const int flushed = flush(f);
  if (f->database != nullptr) f->database->wal = nullptr;
  if (f->wal != nullptr) f->wal->database = nullptr;
  std::free(f->data);
  f->data = nullptr;
  f->capacity = 0;
  const int rc = real_methods(file).xClose(f->real);
  return flushed != SQLITE_OK ? flushed : rc;
}

int file_read(sqlite3_file* file, void* out, int amount, sqlite3_int64 offset) {
  if (const int rc = flush(gather_file(file)); rc != SQLITE_OK) return rc;
  return real_methods(file).xRead(real_file(file), out, amount, offset);
}

int file_write(sqlite3_file* file, const void* in, int amount, sqlite3_int64 offset) {
  auto* f = gather_file(file);
  if (!f->gathers) return checked_write(f, real_methods(file).xWrite(f->real, in, amount, offset));
  ++f->stats.writes;
  const auto length = static_cast<std::size_t>(amount);
  // Only a run of writes each starting where the last ended is gathered.
  if (f->size > 0 && (offset != f->offset + static_cast<sqlite3_int64>(f->size) ||
                      f->size + length > kMaxGathered)) {
    if (const int rc = flush(f); rc != SQLITE_OK) return rc;
  }
  if (!reserve(f, f->size + length)) {  // out of memory: write it as it comes
    if (const int rc = flush(f); rc != SQLITE_OK) return rc;
    ++f->stats.flushes;
    return checked_write(f, real_methods(file).xWrite(f->real, in, amount, offset));
  }
  if (f->size == 0) f->offset = offset;
  std::memcpy(f->data + f->size, in, length);
  f->size += length;
  const bool commit_complete = f->commit_page_next;
  f->commit_page_next = amount == kFrameHeaderSize && is_commit_header(in);
  return commit_complete ? flush(f) : SQLITE_OK;
}

int file_truncate(sqlite3_file* file, sqlite3_int64 size) {
  if (const int rc = flush(gather_file(file)); rc != SQLITE_OK) return rc;
  return real_methods(file).xTruncate(real_file(file), size);
}

int file_sync(sqlite3_file* file, int flags) {
  if (const int rc = flush(gather_file(file)); rc != SQLITE_OK) return rc;
  const int rc = real_methods(file).xSync(real_file(file), flags);
  if (rc != SQLITE_OK) {
    note_lost_write(rc,
                    gather_file(file)->gathers ? "a sync of the WAL" : "a sync of a database file");
  }
  return rc;
}

int file_size(sqlite3_file* file, sqlite3_int64* size) {
  if (const int rc = flush(gather_file(file)); rc != SQLITE_OK) return rc;
  return real_methods(file).xFileSize(real_file(file), size);
}

int file_lock(sqlite3_file* file, int level) {
  if (const int rc = flush(gather_file(file)); rc != SQLITE_OK) return rc;
  return real_methods(file).xLock(real_file(file), level);
}

int file_unlock(sqlite3_file* file, int level) {
  if (const int rc = flush(gather_file(file)); rc != SQLITE_OK) return rc;
  return real_methods(file).xUnlock(real_file(file), level);
}

int file_check_reserved_lock(sqlite3_file* file, int* out) {
  return real_methods(file).xCheckReservedLock(real_file(file), out);
}

int file_control(sqlite3_file* file, int opcode, void* argument) {
  auto* f = gather_file(file);
  if (opcode == kGatheringStatsOpcode) {
    *static_cast<GatheringStats*>(argument) = f->wal != nullptr ? f->wal->stats : f->stats;
    return SQLITE_OK;
  }
  if (const int rc = flush(f); rc != SQLITE_OK) return rc;
  return real_methods(file).xFileControl(f->real, opcode, argument);
}

int file_sector_size(sqlite3_file* file) { return real_methods(file).xSectorSize(real_file(file)); }

int file_device_characteristics(sqlite3_file* file) {
  return real_methods(file).xDeviceCharacteristics(real_file(file));
}

// The shared-memory methods are called on the database file (the WAL index).
int file_shm_map(sqlite3_file* file, int page, int page_size, int extend, void volatile** out) {
  const auto& methods = real_methods(file);
  if (methods.iVersion < 2 || methods.xShmMap == nullptr) return SQLITE_IOERR_SHMMAP;
  return methods.xShmMap(real_file(file), page, page_size, extend, out);
}

int file_shm_lock(sqlite3_file* file, int offset, int count, int flags) {
  const auto& methods = real_methods(file);
  if (methods.iVersion < 2 || methods.xShmLock == nullptr) return SQLITE_IOERR_SHMLOCK;
  return methods.xShmLock(real_file(file), offset, count, flags);
}

void file_shm_barrier(sqlite3_file* file) {
  auto* f = gather_file(file);
  // The safety net: SQLite is about to publish a commit in the WAL index, so its frames must
  // be in the file now. Normally the commit frame's write flushed them already.
  if (f->wal != nullptr && f->wal->size > 0) {
    ++f->wal->stats.barrier_flushes;
    if (flush(f->wal) != SQLITE_OK) {
      std::fputs("blockfog storage: cannot write WAL frames before publishing them; stopping\n",
                 stderr);
      std::abort();
    }
  }
  const auto& methods = real_methods(file);
  if (methods.iVersion >= 2 && methods.xShmBarrier != nullptr) methods.xShmBarrier(f->real);
}

int file_shm_unmap(sqlite3_file* file, int remove) {
  const auto& methods = real_methods(file);
  if (methods.iVersion < 2 || methods.xShmUnmap == nullptr) return SQLITE_OK;
  return methods.xShmUnmap(real_file(file), remove);
}

int file_fetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out) {
  const auto& methods = real_methods(file);
  if (methods.iVersion < 3 || methods.xFetch == nullptr) {
    *out = nullptr;  // SQLite then reads the page
    return SQLITE_OK;
  }
  if (const int rc = flush(gather_file(file)); rc != SQLITE_OK) return rc;
  return methods.xFetch(real_file(file), offset, amount, out);
}

int file_unfetch(sqlite3_file* file, sqlite3_int64 offset, void* page) {
  const auto& methods = real_methods(file);
  if (methods.iVersion < 3 || methods.xUnfetch == nullptr) return SQLITE_OK;
  return methods.xUnfetch(real_file(file), offset, page);
}

const sqlite3_io_methods kFileMethods = {
    3,
    file_close,
    file_read,
    file_write,
    file_truncate,
    file_sync,
    file_size,
    file_lock,
    file_unlock,
    file_check_reserved_lock,
    file_control,
    file_sector_size,
    file_device_characteristics,
    file_shm_map,
    file_shm_lock,
    file_shm_barrier,
    file_shm_unmap,
    file_fetch,
    file_unfetch,
};

// --- the VFS: opens files as above, forwards everything else ----------------------------

int vfs_open(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* file, int flags,
             int* out_flags) {
  // SQLite hands over uninitialised memory of szOsFile bytes; GatherFile needs no destructor.
  auto* f = new (file) GatherFile{};
  f->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(file) + kFileHeaderSize);
  sqlite3_vfs* real = real_vfs(vfs);
  const int rc = real->xOpen(real, name, f->real, flags, out_flags);
  if (rc != SQLITE_OK) {
    if (f->real->pMethods != nullptr) f->real->pMethods->xClose(f->real);
    file->pMethods = nullptr;  // SQLite then does not close it
    return rc;
  }
  if ((flags & SQLITE_OPEN_WAL) != 0 && name != nullptr) {
    sqlite3_file* database = sqlite3_database_file_object(name);
    if (database != nullptr && database->pMethods == &kFileMethods) {
      f->gathers = true;
      f->database = gather_file(database);
      f->database->wal = f;
    }
  }
  file->pMethods = &kFileMethods;
  return SQLITE_OK;
}

int vfs_delete(sqlite3_vfs* vfs, const char* name, int sync_dir) {
  return real_vfs(vfs)->xDelete(real_vfs(vfs), name, sync_dir);
}

int vfs_access(sqlite3_vfs* vfs, const char* name, int flags, int* out) {
  return real_vfs(vfs)->xAccess(real_vfs(vfs), name, flags, out);
}

int vfs_full_pathname(sqlite3_vfs* vfs, const char* name, int size, char* out) {
  return real_vfs(vfs)->xFullPathname(real_vfs(vfs), name, size, out);
}

void* vfs_dl_open(sqlite3_vfs* vfs, const char* name) {
  return real_vfs(vfs)->xDlOpen(real_vfs(vfs), name);
}

void vfs_dl_error(sqlite3_vfs* vfs, int size, char* out) {
  real_vfs(vfs)->xDlError(real_vfs(vfs), size, out);
}

void (*vfs_dl_sym(sqlite3_vfs* vfs, void* library, const char* symbol))(void) {
  return real_vfs(vfs)->xDlSym(real_vfs(vfs), library, symbol);
}

void vfs_dl_close(sqlite3_vfs* vfs, void* library) {
  real_vfs(vfs)->xDlClose(real_vfs(vfs), library);
}

int vfs_randomness(sqlite3_vfs* vfs, int size, char* out) {
  return real_vfs(vfs)->xRandomness(real_vfs(vfs), size, out);
}

int vfs_sleep(sqlite3_vfs* vfs, int microseconds) {
  return real_vfs(vfs)->xSleep(real_vfs(vfs), microseconds);
}

int vfs_current_time(sqlite3_vfs* vfs, double* out) {
  return real_vfs(vfs)->xCurrentTime(real_vfs(vfs), out);
}

int vfs_get_last_error(sqlite3_vfs* vfs, int size, char* out) {
  return real_vfs(vfs)->xGetLastError(real_vfs(vfs), size, out);
}

int vfs_current_time_int64(sqlite3_vfs* vfs, sqlite3_int64* out) {
  sqlite3_vfs* real = real_vfs(vfs);
  if (real->iVersion >= 2 && real->xCurrentTimeInt64 != nullptr) {
    return real->xCurrentTimeInt64(real, out);
  }
  double days = 0;
  const int rc = real->xCurrentTime(real, &days);
  *out = static_cast<sqlite3_int64>(days * 86400000.0);
  return rc;
}

sqlite3_vfs make_vfs(sqlite3_vfs* real) {
  sqlite3_vfs vfs{};
  vfs.iVersion = 2;  // the system-call overrides (version 3) are for SQLite's own tests
  vfs.szOsFile = static_cast<int>(kFileHeaderSize) + real->szOsFile;
  vfs.mxPathname = real->mxPathname;
  vfs.zName = "blockfog-gathering";
  vfs.pAppData = real;
  vfs.xOpen = vfs_open;
  vfs.xDelete = vfs_delete;
  vfs.xAccess = vfs_access;
  vfs.xFullPathname = vfs_full_pathname;
  vfs.xDlOpen = vfs_dl_open;
  vfs.xDlError = vfs_dl_error;
  vfs.xDlSym = vfs_dl_sym;
  vfs.xDlClose = vfs_dl_close;
  vfs.xRandomness = vfs_randomness;
  vfs.xSleep = vfs_sleep;
  vfs.xCurrentTime = vfs_current_time;
  vfs.xGetLastError = vfs_get_last_error;
  vfs.xCurrentTimeInt64 = vfs_current_time_int64;
  return vfs;
}

}  // namespace

const char* gathering_vfs_name() {
  static sqlite3_vfs vfs;
  static std::once_flag registered;
  std::call_once(registered, [] {
    sqlite3_initialize();
    vfs = make_vfs(sqlite3_vfs_find(nullptr));
    sqlite3_vfs_register(&vfs, 0);
  });
  return vfs.zName;
}

}  // namespace blockfog::storage
