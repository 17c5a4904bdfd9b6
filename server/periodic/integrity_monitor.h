#pragma once

// Checks the database's integrity while the server runs (storage/integrity.h, docs/storage.md
// Integrity): a full PRAGMA integrity_check every interval, on a thread and a read-only
// connection of its own, so that damage on disk is reported in the log and in /metrics
// (blockfog_db_integrity_ok, blockfog_db_integrity_checks_total) rather than found by a
// player whose game cannot be read. The check holds a read transaction while it runs, which
// only delays how far a WAL checkpoint can go meanwhile.

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <ostream>
#include <thread>

#include "server/metrics.h"
#include "storage/integrity.h"
#include "storage/sqlite.h"

namespace blockfog::server {

// --check-db: checks the database at `path` (or the postgresql:// URI: amcheck) in full without
// writing anything to it or beside it (storage/read_only_open.h), prints the report to `out`, and
// returns the exit status: 0 if it passed, 1 if it found damage, the file is not Blockfog's
// database or there is none, and 2 if it could not be checked (a file or folder this process may
// not read, a lock held, an I/O error): never "damaged" for what only keeps the check from running.
int check_database(const std::filesystem::path& path, std::ostream& out);

class IntegrityMonitor {
 public:
  // Checks every `interval` (the first one interval from now); a zero interval checks never.
  // `mode` is how each check opens the file: ReadBesideWriter beside this server's own writing
  // connection, ReadOnly when nothing may be written (--read-only).
  IntegrityMonitor(std::filesystem::path path, storage::OpenMode mode,
                   std::chrono::seconds interval, Metrics& metrics);
  ~IntegrityMonitor();  // stops, waiting for a check in progress
  IntegrityMonitor(const IntegrityMonitor&) = delete;
  IntegrityMonitor& operator=(const IntegrityMonitor&) = delete;

  // Reports a check made elsewhere (the quick check at start) as the monitor's own are.
  static void report(const std::filesystem::path& path, const storage::IntegrityReport& result,
                     const char* kind, Metrics& metrics);
  // A PostgreSQL store's check at start (amcheck's quick index check, on a connection of its
  // own), reported as above; when it cannot run (amcheck not installed) a warning says so and
  // the metrics show no check. PostgreSQL has no periodic check here: its data checksums
  // (initdb --data-checksums) check every page it reads.
  static void check_postgres_at_start(const std::string& uri, Metrics& metrics);

 private:
  void run();

  const std::filesystem::path path_;
  const storage::OpenMode mode_;
  const std::chrono::seconds interval_;
  Metrics& metrics_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace blockfog::server
