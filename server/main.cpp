// blockfog-server: the authoritative server of the games in games/registry.h (docs/server.md).

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "server/clock.h"
#include "server/config.h"
#include "server/db_worker.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/net/net.h"
#include "server/periodic/housekeeping.h"
#include "server/periodic/integrity_monitor.h"
#include "server/records/signing.h"
#include "storage/file_access.h"
#include "storage/postgres.h"

namespace {

std::unique_ptr<blockfog::server::DbWorker> open_database(const std::filesystem::path& path,
                                                          blockfog::storage::Sync sync) {
  try {
    return std::make_unique<blockfog::server::DbWorker>(path, sync);
  } catch (const blockfog::storage::StorageError& e) {
    if (e.kind() != blockfog::storage::ErrorKind::Corrupt) throw;
    throw blockfog::storage::StorageError(
        e.code(), e.kind(),
        std::string(e.what()) +
            "\nTo serve what can be read, start with --read-only; --check-db prints "
            "the whole report; or restore a backup (docs/storage.md, Integrity).");
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace blockfog::server;
  const std::vector<std::string> args(argv + 1, argv + argc);
  const auto parsed = parse_config(args, [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    return value ? std::optional<std::string>(value) : std::nullopt;
  });
  if (parsed.help) {
    std::cout << usage_text();
    return 0;
  }
  if (!parsed.config) {
    std::cerr << "blockfog-server: " << parsed.error << "\n" << usage_text();
    return 2;
  }
  const Config& config = *parsed.config;
  set_log_level(config.log_level);
  // Test servers only: a clock the test moves (server/clock.h).
  std::unique_ptr<FileClock> test_clock;
  std::unique_ptr<ScopedClock> installed_clock;
  if (const char* file = std::getenv("BLOCKFOG_TEST_CLOCK_FILE"); file && *file) {
    test_clock = std::make_unique<FileClock>(file);
    installed_clock = std::make_unique<ScopedClock>(*test_clock);
    log_warn(std::string("the time is read from ") + file + " (BLOCKFOG_TEST_CLOCK_FILE)");
  }
  const std::filesystem::path db_path(config.db_path);
  if (config.check_db) return check_database(db_path, std::cout);
  if (config.rotate_signing_key) return rotate_signing_key_command(db_path, std::cout);
  try {
    Metrics metrics;
    std::unique_ptr<DbWorker> db;
    if (config.read_only) {
      db = std::make_unique<DbWorker>(db_path, DbWorker::ReadOnly{});
      log_warn("serving " + db_path.string() + " read-only: every write is refused");
      // Reported, not refused: serving what can be read is what --read-only is for.
      try {
        const auto start_check = db->call([](blockfog::storage::Store& store) {
          return blockfog::storage::check_integrity(store.database(),
                                                    blockfog::storage::IntegrityDepth::Quick);
        });
        IntegrityMonitor::report(db_path, start_check, "quick check at start", metrics);
      } catch (const blockfog::storage::StorageError& e) {
        log_error("quick check at start of " + db_path.string() + " could not run: " + e.what());
      }
    } else {
      if (!blockfog::storage::is_postgres_uri(config.db_path)) {
        blockfog::storage::create_database_folder(db_path);
      }
      // Refuses a foreign or damaged file (storage::Store), saying what the operator can do.
      db = open_database(db_path, config.sync);
      if (blockfog::storage::is_postgres_uri(config.db_path)) {
        IntegrityMonitor::check_postgres_at_start(config.db_path, metrics);
      } else {
        // The Store's quick check of an existing file passed (a new one has nothing to check).
        metrics.db_integrity_checks.fetch_add(1);
        metrics.db_integrity_ok.store(1);
      }
      start_housekeeping(*db);
    }
    const IntegrityMonitor monitor(
        db_path,
        config.read_only ? blockfog::storage::OpenMode::ReadOnly
                         : blockfog::storage::OpenMode::ReadBesideWriter,
        // quick_check is SQLite's; PostgreSQL checks its own pages
        std::chrono::seconds(blockfog::storage::is_postgres_uri(config.db_path)
                                 ? 0
                                 : config.integrity_check_every_seconds),
        metrics);
    const int code = run_server(config, *db, metrics);
    db->stop();
    log_info("stopped");
    return code;
  } catch (const std::exception& e) {
    log_error(std::string("cannot run: ") + e.what());
    return 1;
  }
}
