// The Dockerfile's ENV is a valid server configuration: listening on all interfaces at the
// EXPOSEd port, the database on the /data volume, a drain that fits in `docker stop`. (The
// rest of the image is checked by deploy/check-image.sh: ctest deploy.image.)

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "server/config.h"
#include "tests/deploy/shell.h"

namespace blockfog::server::testing {
namespace {

TEST(Image, TheEnvironmentIsAValidConfiguration) {
  std::map<std::string, std::string> env;
  std::istringstream lines(read_file(source_path("Dockerfile")));
  std::string line;
  const std::regex env_line(R"(^ENV ([A-Z_]+)=(\S*)$)");
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_match(line, m, env_line)) env[m[1]] = m[2];
  }
  const auto parsed = parse_config({}, [&](const std::string& name) -> std::optional<std::string> {
    const auto it = env.find(name);
    return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
  });
  ASSERT_TRUE(parsed.config) << parsed.error;
  EXPECT_EQ(parsed.config->host, "0.0.0.0");
  EXPECT_EQ(parsed.config->port, 8080);
  EXPECT_EQ(parsed.config->db_path.rfind("/data/", 0), 0u);
  // `docker stop` waits 10 s by default before SIGKILL.
  EXPECT_LE(parsed.config->drain_timeout_seconds, 5);
}

}  // namespace
}  // namespace blockfog::server::testing
