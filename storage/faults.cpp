#include "storage/faults.h"

#include <sqlite3.h>

#include <atomic>
#include <mutex>

namespace blockfog::storage {
namespace {

std::atomic<std::uint64_t> unavailable_count{0};
std::atomic<std::uint64_t> lost_write_count{0};
std::mutex first_lost_mutex;
std::string first_lost;

}  // namespace

bool is_unavailable(int sqlite_code) {
  switch (sqlite_code & 0xff) {
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_NOLFS:
    case SQLITE_PERM:
      return true;
    default:
      return false;
  }
}

void note_error(int sqlite_code) {
  if (is_unavailable(sqlite_code)) unavailable_count.fetch_add(1, std::memory_order_relaxed);
}

void note_error(ErrorKind kind) {
  if (is_unavailable(kind)) unavailable_count.fetch_add(1, std::memory_order_relaxed);
}

void note_lost_write(int sqlite_code, const char* operation) {
  {
    std::lock_guard lock(first_lost_mutex);
    if (first_lost.empty())
      first_lost = std::string(operation) + ": " + sqlite3_errstr(sqlite_code);
  }
  lost_write_count.fetch_add(1, std::memory_order_release);
}

FaultCounts fault_counts() {
  return {unavailable_count.load(std::memory_order_relaxed),
          lost_write_count.load(std::memory_order_acquire)};
}

std::string first_lost_write() {
  std::lock_guard lock(first_lost_mutex);
  return first_lost;
}

}  // namespace blockfog::storage
