#include "server/periodic/integrity_monitor.h"

#include <string>
#include <utility>

#include "server/log.h"
#include "storage/file_access.h"
#include "storage/identity.h"
#include "storage/postgres.h"

namespace blockfog::server {

namespace {

// --check-db of a PostgreSQL store: amcheck's full check on a connection of its own.
int check_postgres_database(const std::string& uri, std::ostream& out) {
  const auto where = storage::redacted_uri(uri);
  try {
    storage::PgDatabase db(uri);
    const auto result = storage::check_integrity(db, storage::IntegrityDepth::Full);
    out << where << ": " << (result.ok ? "ok" : "damaged") << "\n";
    if (!result.ok) out << result.text() << "\n";
    return result.ok ? 0 : 1;
  } catch (const std::exception& e) {
    out << where << ": cannot check it (this says nothing about damage): " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

int check_database(const std::filesystem::path& path, std::ostream& out) {
  if (storage::is_postgres_uri(path.string())) return check_postgres_database(path.string(), out);
  try {
    if (storage::identify_database(path) == storage::FileIdentity::Absent) {
      out << path.string() << ": no database there\n";
      return 1;
    }
    storage::SqliteDatabase db(path, storage::OpenMode::ReadOnly);
    const auto result = storage::check_integrity(db, storage::IntegrityDepth::Full);
    out << path.string() << ": " << (result.ok ? "ok" : "damaged") << "\n";
    if (!result.ok) out << result.text() << "\n";
    return result.ok ? 0 : 1;
  } catch (const storage::ForeignDatabase& e) {
    out << path.string() << ": " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    // Not a verdict on the file: the operator must not take it for damage and restore a backup.
    const auto problem = storage::read_problem(path);
    out << path.string() << ": cannot check it (this says nothing about damage): " << e.what()
        << (problem.empty() || std::string(e.what()).find(problem) != std::string::npos
                ? ""
                : " (" + problem + ")")
        << "\n";
    return 2;
  }
}

IntegrityMonitor::IntegrityMonitor(std::filesystem::path path, storage::OpenMode mode,
                                   std::chrono::seconds interval, Metrics& metrics)
    : path_(std::move(path)), mode_(mode), interval_(interval), metrics_(metrics) {
  if (interval_.count() > 0) thread_ = std::thread([this] { run(); });
}

IntegrityMonitor::~IntegrityMonitor() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void IntegrityMonitor::check_postgres_at_start(const std::string& uri, Metrics& metrics) {
  const auto where = storage::redacted_uri(uri);
  try {
    storage::PgDatabase db(uri);
    report(where, storage::check_integrity(db, storage::IntegrityDepth::Quick),
           "index check at start", metrics);
  } catch (const std::exception& e) {
    // No verdict: the metrics say no check ran rather than that one passed.
    log_warn("index check at start of " + where + " did not run: " + e.what());
  }
}

void IntegrityMonitor::report(const std::filesystem::path& path,
                              const storage::IntegrityReport& result, const char* kind,
                              Metrics& metrics) {
  metrics.db_integrity_checks.fetch_add(1);
  metrics.db_integrity_ok.store(result.ok ? 1 : 0);
  if (result.ok) {
    log_info(std::string(kind) + " of " + path.string() + ": ok");
  } else {
    log_error(std::string(kind) + " of " + path.string() +
              " found damage (docs/storage.md, Integrity):\n" + result.text());
  }
}

void IntegrityMonitor::run() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, interval_, [this] { return stopping_; })) {
    lock.unlock();
    try {
      // A connection per check: nothing is held open, and no snapshot outlives the check.
      storage::SqliteDatabase db(path_, mode_);
      report(path_, storage::check_integrity(db, storage::IntegrityDepth::Full), "integrity check",
             metrics_);
    } catch (const std::exception& e) {
      // No verdict: the metrics keep the last one.
      log_error("integrity check of " + path_.string() + " could not run: " + e.what());
    }
    lock.lock();
  }
}

}  // namespace blockfog::server
