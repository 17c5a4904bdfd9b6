// Per-address request limits through the real server: API requests over an address's rate are
// refused with a typed error and change nothing; the address is the client's, also behind a
// trusted proxy, and cannot be forged past the limit otherwise.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

// Sends GET `target` until refused (at most 50 times); returns the refusal and how many went
// through before it.
std::pair<HttpResult, int> until_refused(HttpClient& client, const std::string& target,
                                         const std::map<std::string, std::string>& headers = {}) {
  for (int i = 0; i < 50; ++i) {
    auto r = client.request("GET", target, "", headers);
    if (r.status != 200) return {r, i};
  }
  return {{}, 50};
}

TEST(ServerLimits, ApiRequestsOverAnAddresssRateAreRefusedWithATypedError) {
  TempDir dir;
  ServerProcess server(dir.path(), {"--http-rate", "1", "--http-burst", "5"});
  HttpClient client(server.port());
  const auto [refused, allowed] = until_refused(client, "/api/scenarios");
  // The burst, and at most a token or two refilled meanwhile.
  EXPECT_GE(allowed, 5);
  EXPECT_LE(allowed, 8);
  EXPECT_EQ(refused.status, 429) << refused.body;
  EXPECT_EQ(refused.error_code(), "rate_limited");
  EXPECT_EQ(refused.headers.at("retry-after"), "1");
  // A refused request changes nothing: this registration never happened.
  const auto signup =
      client.post("/api/register", {{"username", "hasty"}, {"password", "quick-signup-1297"}});
  EXPECT_EQ(signup.error_code(), "rate_limited");
  // Static files and health checks are not API requests.
  EXPECT_EQ(client.get("/healthz").status, 200);
  // A token comes back each second.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  const auto later =
      client.post("/api/register", {{"username", "hasty"}, {"password", "quick-signup-1297"}});
  EXPECT_EQ(later.status, 201) << later.body;
  // The refusals are counted.
  const auto metrics = metrics_text(server.port());
  EXPECT_NE(metrics.find("blockfog_errors_total{kind=\"rate_limited\"}"), std::string::npos);
}

TEST(ServerLimits, EachClientBehindATrustedProxyHasItsOwnBucket) {
  TempDir dir;
  ServerProcess server(dir.path(),
                       {"--http-rate", "1", "--http-burst", "3", "--trusted-proxy", "127.0.0.1"});
  HttpClient proxy(server.port());
  const std::map<std::string, std::string> alice = {{"X-Forwarded-For", "198.51.100.1"}};
  const std::map<std::string, std::string> bob = {{"X-Forwarded-For", "198.51.100.2"}};
  const auto [refused, allowed] = until_refused(proxy, "/api/scenarios", alice);
  EXPECT_EQ(refused.error_code(), "rate_limited");
  EXPECT_GE(allowed, 3);
  // Another client of the same proxy is not held back by the first.
  EXPECT_EQ(proxy.request("GET", "/api/scenarios", "", bob).status, 200);
  // A forged entry left of the proxy's does not give the first client a new bucket.
  EXPECT_EQ(
      proxy.request("GET", "/api/scenarios", "", {{"X-Forwarded-For", "10.9.9.9, 198.51.100.1"}})
          .error_code(),
      "rate_limited");
}

TEST(ServerLimits, WithoutATrustedProxyForwardedHeadersDoNotEscapeTheLimit) {
  TempDir dir;
  ServerProcess server(dir.path(), {"--http-rate", "1", "--http-burst", "3"});
  HttpClient client(server.port());
  const auto [refused, allowed] = until_refused(client, "/api/scenarios");
  EXPECT_EQ(refused.error_code(), "rate_limited");
  EXPECT_EQ(client.request("GET", "/api/scenarios", "", {{"X-Forwarded-For", "198.51.100.7"}})
                .error_code(),
            "rate_limited");
}

}  // namespace
}  // namespace blockfog::server::testing
