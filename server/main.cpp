// blockfog-server: the authoritative Hammer of the Scots server (docs/server.md).

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "server/config.h"
#include "server/db_worker.h"
#include "server/housekeeping.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/net.h"

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
  try {
    const std::filesystem::path db_path(config.db_path);
    if (db_path.has_parent_path()) std::filesystem::create_directories(db_path.parent_path());
    DbWorker db(db_path, config.sync);
    start_housekeeping(db);
    Metrics metrics;
    const int code = run_server(config, db, metrics);
    db.stop();
    log_info("stopped");
    return code;
  } catch (const std::exception& e) {
    log_error(std::string("cannot run: ") + e.what());
    return 1;
  }
}
