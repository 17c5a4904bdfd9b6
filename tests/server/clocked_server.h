#pragma once

// A test server whose clock the test drives (BLOCKFOG_TEST_CLOCK_FILE, server/clock.h): days
// of play by correspondence pass in a moment.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/server/server_process.h"

namespace blockfog::server::testing {

// 2026-05-28: the fixed "now" a clocked server starts at.
inline constexpr std::int64_t kClockStart = 1780000000000;

// The server's clock: a file the test writes.
class TestClock {
 public:
  explicit TestClock(const std::filesystem::path& dir) : path_(dir / "clock") { set(kClockStart); }
  void set(std::int64_t ms) {
    now_ = ms;
    std::ofstream(path_.string() + ".tmp") << ms;
    std::filesystem::rename(path_.string() + ".tmp", path_);
  }
  void advance(std::int64_t ms) { set(now_ + ms); }
  std::int64_t now() const { return now_; }
  std::vector<std::pair<std::string, std::string>> env() const {
    return {{"BLOCKFOG_TEST_CLOCK_FILE", path_.string()}};
  }

 private:
  std::filesystem::path path_;
  std::int64_t now_ = 0;
};

// A server process on a TestClock; restart() kills it (-9) and starts it again on the store.
struct ClockedServer {
  TempDir dir;
  TestClock clock{dir.path()};
  std::unique_ptr<ServerProcess> process =
      std::make_unique<ServerProcess>(dir.path(), std::vector<std::string>{}, clock.env());
  int port() const { return process->port(); }
  void restart() {
    process->kill9();
    process = std::make_unique<ServerProcess>(dir.path(), std::vector<std::string>{}, clock.env());
  }
};

}  // namespace blockfog::server::testing
