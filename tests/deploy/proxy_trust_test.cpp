// The server believes a reverse proxy's X-Forwarded-For / X-Real-IP / X-Forwarded-Proto only
// from an address given with --trusted-proxy (docs/server.md): without it a client cannot
// escape the per-address limits by writing the headers itself; with it the limits apply to
// the client behind the proxy, not to the proxy.

#include <gtest/gtest.h>

#include <map>
#include <optional>

#include "server/api/forwarded.h"
#include "server/auth/login_throttle.h"
#include "server/config.h"
#include "server/limits.h"
#include "tests/deploy/web_client.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

HttpRequest from(const std::string& peer, std::map<std::string, std::string> headers) {
  HttpRequest r;
  r.remote_address = peer;
  r.headers = std::move(headers);
  return r;
}

std::string client_of(const HttpRequest& request, const std::vector<std::string>& trusted) {
  HttpRequest copy = request;
  apply_forwarded_headers(copy, trusted);
  return copy.remote_address;
}

TEST(ProxyTrust, HeadersCountOnlyFromATrustedPeer) {
  const std::vector<std::string> trusted = {"127.0.0.1", "10.0.0.2"};
  const auto spoofed = from(
      "198.51.100.9",
      {{"x-forwarded-for", "1.2.3.4"}, {"x-real-ip", "1.2.3.4"}, {"x-forwarded-proto", "https"}});
  EXPECT_EQ(client_of(spoofed, trusted), "198.51.100.9");
  EXPECT_EQ(client_of(spoofed, {}), "198.51.100.9");
  HttpRequest untouched = spoofed;
  apply_forwarded_headers(untouched, trusted);
  EXPECT_FALSE(untouched.tls);

  // nginx appends the address it saw: that right-most entry is the client, whatever the client
  // wrote to the left of it.
  EXPECT_EQ(client_of(from("127.0.0.1", {{"x-forwarded-for", "1.2.3.4, 203.0.113.5"}}), trusted),
            "203.0.113.5");
  // Proxies in a chain that are trusted themselves are skipped.
  EXPECT_EQ(client_of(from("127.0.0.1", {{"x-forwarded-for", "203.0.113.5,10.0.0.2"}}), trusted),
            "203.0.113.5");
  EXPECT_EQ(client_of(from("127.0.0.1", {{"x-forwarded-for", "10.0.0.2"}}), trusted), "10.0.0.2");
  EXPECT_EQ(client_of(from("127.0.0.1", {{"x-real-ip", " 203.0.113.6 "}}), trusted), "203.0.113.6");
  EXPECT_EQ(client_of(from("::ffff:127.0.0.1", {{"x-forwarded-for", "2001:db8::1"}}), trusted),
            "2001:db8::1");
  EXPECT_EQ(client_of(from("127.0.0.1", {}), trusted), "127.0.0.1");

  auto https = from("127.0.0.1", {{"x-forwarded-proto", "https"}});
  apply_forwarded_headers(https, trusted);
  EXPECT_TRUE(https.tls);
  auto http = from("127.0.0.1", {{"x-forwarded-proto", "http"}});
  http.tls = true;
  apply_forwarded_headers(http, trusted);
  EXPECT_FALSE(http.tls);
}

TEST(ProxyTrust, FlagsAndEnvironment) {
  auto parse = [](std::vector<std::string> args, std::map<std::string, std::string> env = {}) {
    return parse_config(args, [&](const std::string& name) -> std::optional<std::string> {
      const auto it = env.find(name);
      return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
    });
  };
  const auto defaults = parse({});
  ASSERT_TRUE(defaults.config);
  EXPECT_TRUE(defaults.config->trusted_proxies.empty());
  EXPECT_EQ(defaults.config->drain_timeout_seconds, 5);

  const auto flags = parse(
      {"--trusted-proxy", "127.0.0.1,::1", "--trusted-proxy=10.0.0.2", "--drain-timeout", "12"});
  ASSERT_TRUE(flags.config) << flags.error;
  EXPECT_EQ(flags.config->trusted_proxies,
            (std::vector<std::string>{"127.0.0.1", "::1", "10.0.0.2"}));
  EXPECT_EQ(flags.config->drain_timeout_seconds, 12);

  const auto env = parse({}, {{"BLOCKFOG_TRUSTED_PROXIES", "127.0.0.1"},
                              {"BLOCKFOG_DRAIN_TIMEOUT", "20"},
                              {"BLOCKFOG_MAX_CONNECTIONS", "50"},
                              {"BLOCKFOG_IDLE_TIMEOUT", "60"}});
  ASSERT_TRUE(env.config) << env.error;
  EXPECT_EQ(env.config->trusted_proxies, (std::vector<std::string>{"127.0.0.1"}));
  EXPECT_EQ(env.config->drain_timeout_seconds, 20);
  EXPECT_EQ(env.config->max_connections, 50);
  EXPECT_EQ(env.config->idle_timeout_seconds, 60);

  EXPECT_FALSE(parse({"--trusted-proxy", "127.0.0.1,,::1"}).config);
  EXPECT_FALSE(parse({"--trusted-proxy", ""}).config);
  EXPECT_FALSE(parse({"--drain-timeout", "0"}).config);
  EXPECT_FALSE(parse({}, {{"BLOCKFOG_DRAIN_TIMEOUT", "soon"}}).config);
}

TEST(ProxyTrust, APeerWithoutTheLimitPerAddressStillCountsInTheTotal) {
  ConnectionLimiter limiter(/*per_address=*/2, /*total=*/4);
  std::vector<std::unique_ptr<ConnectionLimiter::Slot>> slots;
  for (int i = 0; i < 3; ++i) {
    slots.push_back(limiter.acquire("127.0.0.1", /*limit_per_address=*/false));
    ASSERT_TRUE(slots.back()) << i;
  }
  EXPECT_FALSE(limiter.acquire("127.0.0.1"));  // over its own limit when it is not exempt
  slots.push_back(limiter.acquire("127.0.0.1", false));
  ASSERT_TRUE(slots.back());
  EXPECT_FALSE(limiter.acquire("127.0.0.1", false));  // the total
  EXPECT_FALSE(limiter.acquire("192.0.2.1"));
}

// Fails logins (each with a new user name, so that only the address limit can trip) until the
// server answers 429; returns how many were refused with 401 first (0 if it never throttled).
int fail_logins_until_throttled(Agent& agent, const std::string& forwarded_for, int max) {
  for (int i = 1; i <= max; ++i) {
    const auto r = agent.post(
        "/api/login", {{"username", "ghost" + std::to_string(i)}, {"password", "not-the-password"}},
        {{"X-Forwarded-For", forwarded_for}});
    if (r.status == 429) return i - 1;
    EXPECT_EQ(r.status, 401) << r.body;
  }
  return 0;
}

TEST(ProxyTrust, WithoutTheFlagForwardedHeadersAreIgnored) {
  TempDir dir;
  ServerProcess server(dir.path());
  Agent agent({server.port(), false, "127.0.0.1"});
  // Each attempt claims another address; the server counts them all against 127.0.0.1.
  int refused = 0;
  const int attempts = LoginThrottle::Limits{}.free_address_failures + 20;
  for (int i = 1; i <= attempts; ++i) {
    const auto r = agent.post(
        "/api/login", {{"username", "ghost" + std::to_string(i)}, {"password", "nope-nope"}},
        {{"X-Forwarded-For", "198.51.100." + std::to_string(i)}, {"X-Real-IP", "192.0.2.1"}});
    if (r.status == 429) break;
    ++refused;
  }
  EXPECT_LT(refused, attempts) << "the per-address limit never applied";
  EXPECT_GE(refused, 10) << "throttled per account instead of per address?";
  // Claiming to come through a TLS proxy does not make the cookie Secure either.
  const auto registered =
      agent.post("/api/register", {{"username", "plain"}, {"password", "pw-12345"}},
                 {{"X-Forwarded-Proto", "https"}});
  ASSERT_EQ(registered.status, 201) << registered.body;
  EXPECT_EQ(registered.headers.at("set-cookie").find("Secure"), std::string::npos);
  EXPECT_EQ(server.terminate(), 0);
}

TEST(ProxyTrust, WithTheFlagTheClientBehindTheProxyIsLimited) {
  TempDir dir;
  ServerProcess server(dir.path(), {"--trusted-proxy", "127.0.0.1"});
  Agent proxy({server.port(), false, "127.0.0.1"});
  const int refused = fail_logins_until_throttled(
      proxy, "203.0.113.7", LoginThrottle::Limits{}.free_address_failures + 20);
  EXPECT_GE(refused, 10) << "never throttled, or per account instead of per address";
  // Another client behind the same proxy is not locked out by the first one.
  const auto other = proxy.post("/api/login", {{"username", "ghost1"}, {"password", "nope-nope"}},
                                {{"X-Forwarded-For", "203.0.113.8"}});
  EXPECT_EQ(other.status, 401) << other.body;
  // A peer that is not the trusted proxy is not believed.
  Agent direct({server.port(), false, "127.0.0.2"});
  const auto claimed =
      direct.post("/api/login", {{"username", "ghost1"}, {"password", "nope-nope"}},
                  {{"X-Forwarded-For", "203.0.113.7"}});
  EXPECT_EQ(claimed.status, 401) << claimed.body;
  // The proxy's X-Forwarded-Proto decides whether the session cookie is Secure.
  const auto registered =
      proxy.post("/api/register", {{"username", "behindtls"}, {"password", "pw-12345"}},
                 {{"X-Forwarded-Proto", "https"},
                  {"Origin", "https://127.0.0.1:" + std::to_string(server.port())}});
  ASSERT_EQ(registered.status, 201) << registered.body;
  EXPECT_NE(registered.headers.at("set-cookie").find("; Secure"), std::string::npos);
  EXPECT_EQ(server.terminate(), 0);
}

}  // namespace
}  // namespace blockfog::server::testing
