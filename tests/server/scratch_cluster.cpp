#include "tests/server/scratch_cluster.h"

#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "tests/server/command.h"

namespace blockfog::server::testing {

std::unique_ptr<ScratchCluster> ScratchCluster::start(std::string& why) {
  const char* script = std::getenv("BLOCKFOG_PG_SCRATCH");
  if (script == nullptr || *script == '\0') {
    why = "BLOCKFOG_PG_SCRATCH does not name scripts/pg-scratch.sh";
    return nullptr;
  }
  const auto started = run_program(script, {"start"});
  std::string dir;
  std::string uri;
  std::istringstream lines(started.output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("PGSCRATCH_DIR=", 0) == 0) dir = line.substr(14);
    if (line.rfind("PGSCRATCH_URI=", 0) == 0) uri = line.substr(14);
  }
  if (started.status != 0 || dir.empty() || uri.empty()) {
    why = "pg-scratch.sh start failed: " + started.output;
    return nullptr;
  }
  return std::unique_ptr<ScratchCluster>(new ScratchCluster(script, dir, uri));
}

ScratchCluster::~ScratchCluster() { run_program(script_, {"destroy", dir_}); }

void ScratchCluster::stop(bool immediate) {
  std::vector<std::string> args = {"stop"};
  if (immediate) args.emplace_back("--immediate");
  args.push_back(dir_);
  const auto stopped = run_program(script_, args);
  if (stopped.status != 0) throw std::runtime_error("pg-scratch.sh stop failed: " + stopped.output);
}

void ScratchCluster::start_again() {
  const auto started = run_program(script_, {"start", dir_});
  if (started.status != 0) {
    throw std::runtime_error("pg-scratch.sh start failed: " + started.output);
  }
}

}  // namespace blockfog::server::testing
