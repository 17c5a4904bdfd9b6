// The server's parts without sockets: configuration, passwords, limits, the storage thread,
// HTTP helpers.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "server/api/http_types.h"
#include "server/cluster/node_leases.h"
#include "server/config.h"
#include "server/crypto.h"
#include "server/db_worker.h"
#include "server/limits.h"
#include "server/play/game_loader.h"

namespace blockfog::server {
namespace {

ConfigResult parse(std::vector<std::string> args, std::map<std::string, std::string> env = {}) {
  return parse_config(args, [&](const std::string& name) -> std::optional<std::string> {
    const auto it = env.find(name);
    return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
  });
}

TEST(Config, DefaultsEnvironmentAndFlags) {
  const auto defaults = parse({});
  ASSERT_TRUE(defaults.config);
  EXPECT_EQ(defaults.config->host, "127.0.0.1");
  EXPECT_EQ(defaults.config->port, 8080);
  EXPECT_EQ(defaults.config->db_path, "./var/blockfog.db");
  EXPECT_EQ(defaults.config->web_root, "./web-client");
  EXPECT_FALSE(defaults.config->tls());
  // Twice the cores, so that a core whose threads' games all wait finds another thread's work.
  EXPECT_EQ(defaults.config->threads, default_network_threads());
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  EXPECT_EQ(default_network_threads(), std::clamp(2 * cores, 2, kMaxNetworkThreads));
  EXPECT_EQ(parse({"--threads", "3"}).config->threads, 3);
  EXPECT_EQ(parse({}, {{"BLOCKFOG_THREADS", "5"}}).config->threads, 5);
  EXPECT_FALSE(parse({"--threads", "0"}).config);
  EXPECT_FALSE(parse({"--threads", "65"}).config);

  const auto env = parse({"--db", "/data/x.db"}, {{"BLOCKFOG_DB", "/env.db"},
                                                  {"BLOCKFOG_LISTEN", "0.0.0.0:9000"},
                                                  {"BLOCKFOG_LOG_LEVEL", "debug"}});
  ASSERT_TRUE(env.config) << env.error;
  EXPECT_EQ(env.config->db_path, "/data/x.db");  // the flag wins
  EXPECT_EQ(env.config->port, 9000);
  EXPECT_EQ(env.config->log_level, LogLevel::Debug);

  EXPECT_TRUE(
      parse({"--listen=[::1]:8443", "--tls-cert", "c.pem", "--tls-key", "k.pem"}).config->tls());
  EXPECT_FALSE(parse({"--tls-cert", "c.pem"}).config);
  EXPECT_FALSE(parse({"--listen", "nowhere"}).config);
  EXPECT_FALSE(parse({"--log-level", "loud"}).config);
  EXPECT_FALSE(parse({"--frobnicate", "1"}).config);

  EXPECT_EQ(defaults.config->sync, storage::Sync::Full);  // power-loss safe unless told
  EXPECT_EQ(parse({"--sync", "normal"}).config->sync, storage::Sync::Normal);
  EXPECT_EQ(parse({}, {{"BLOCKFOG_SYNC", "normal"}}).config->sync, storage::Sync::Normal);
  EXPECT_FALSE(parse({"--sync", "sometimes"}).config);
  EXPECT_TRUE(parse({"--help"}).help);

  EXPECT_EQ(defaults.config->poll_us, 200);
  EXPECT_EQ(parse({"--poll-us", "0"}).config->poll_us, 0);  // sleep as soon as out of work
  EXPECT_EQ(parse({}, {{"BLOCKFOG_POLL_US", "50"}}).config->poll_us, 50);
  EXPECT_FALSE(parse({"--poll-us", "-1"}).config);
  EXPECT_FALSE(parse({"--poll-us", "100001"}).config);

  EXPECT_EQ(defaults.config->password_cost, 15);  // scrypt N = 32768: 32 MiB per hash
  EXPECT_EQ(parse({"--password-cost", "12"}).config->password_cost, 12);
  EXPECT_EQ(parse({}, {{"BLOCKFOG_PASSWORD_COST", "18"}}).config->password_cost, 18);
  EXPECT_FALSE(parse({"--password-cost", "9"}).config);  // too cheap to protect anything
  EXPECT_FALSE(parse({"--password-cost", "21"}).config);
}

TEST(Config, ReadOnlyAndCheckDbTakeNoValueAndIntegrityChecksAreHourly) {
  const auto defaults = parse({});
  EXPECT_FALSE(defaults.config->read_only);
  EXPECT_FALSE(defaults.config->check_db);
  EXPECT_EQ(defaults.config->integrity_check_every_seconds, 3600);
  // A flag without a value does not take the next flag as its value.
  const auto both = parse({"--read-only", "--db", "x.db", "--check-db"});
  ASSERT_TRUE(both.config) << both.error;
  EXPECT_TRUE(both.config->read_only);
  EXPECT_TRUE(both.config->check_db);
  EXPECT_EQ(both.config->db_path, "x.db");
  EXPECT_EQ(parse({"--integrity-check-every", "0"}).config->integrity_check_every_seconds, 0);
  EXPECT_EQ(
      parse({}, {{"BLOCKFOG_INTEGRITY_CHECK_EVERY", "60"}}).config->integrity_check_every_seconds,
      60);
  EXPECT_FALSE(parse({"--integrity-check-every", "-1"}).config);
  const auto valued = parse({"--read-only=yes"});
  EXPECT_FALSE(valued.config);
  EXPECT_EQ(valued.error, "--read-only takes no value");
}

TEST(Config, ListensOnAUnixSocketInsteadOfAPort) {
  const auto unix_socket = parse({"--listen", "unix:/run/blockfog/blockfog.sock"});
  ASSERT_TRUE(unix_socket.config) << unix_socket.error;
  EXPECT_EQ(unix_socket.config->unix_socket, "/run/blockfog/blockfog.sock");
  EXPECT_EQ(parse({}, {{"BLOCKFOG_LISTEN", "unix:/s"}}).config->unix_socket, "/s");
  // The last --listen wins, as for every flag.
  EXPECT_EQ(
      parse({"--listen", "127.0.0.1:9000"}, {{"BLOCKFOG_LISTEN", "unix:/s"}}).config->unix_socket,
      "");
  EXPECT_FALSE(parse({"--listen", "unix:"}).config);
  EXPECT_FALSE(parse({"--listen", "unix:/" + std::string(200, 'x')}).config);  // > sun_path
  const auto tls = parse({"--listen", "unix:/s", "--tls-cert", "c.pem", "--tls-key", "k.pem"});
  EXPECT_FALSE(tls.config);  // the proxy that reaches a Unix socket terminates TLS itself
  EXPECT_NE(tls.error.find("unix"), std::string::npos);
  EXPECT_EQ(parse({}).config->unix_socket, "");
}

TEST(Crypto, PasswordHashesVerifyOnlyTheirPassword) {
  const ScryptParams cheap{1024, 8, 1};  // the format, not the cost, is under test
  const auto hash = hash_password("bannockburn", cheap);
  EXPECT_EQ(hash.rfind("scrypt$1024$8$1$", 0), 0U);
  EXPECT_TRUE(verify_password("bannockburn", hash));
  EXPECT_FALSE(verify_password("Bannockburn", hash));
  EXPECT_NE(hash_password("bannockburn", cheap), hash);  // salted
  EXPECT_FALSE(verify_password("x", "scrypt$1024$8$1$zz$zz"));
  EXPECT_FALSE(verify_password("x", "scrypt$1000$8$1$00$00"));        // N not a power of 2
  EXPECT_FALSE(verify_password("x", "scrypt$1073741824$8$1$00$00"));  // too costly to try
  EXPECT_FALSE(verify_password("x", "plain"));
  EXPECT_EQ(random_hex(32).size(), 64U);
  EXPECT_NE(random_hex(16), random_hex(16));
}

TEST(Crypto, SeedCommitmentIsTheHashOfTheSeedBytes) {
  // SHA-256 of 32 zero bytes.
  EXPECT_EQ(seed_commitment(std::string(64, '0')),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925");
}

TEST(Limits, RateLimiterAllowsABurstThenTheRate) {
  using namespace std::chrono;
  const auto t0 = steady_clock::now();
  RateLimiter limiter(10, 20, t0);
  int allowed = 0;
  for (int i = 0; i < 100; ++i) allowed += limiter.allow(t0);
  EXPECT_EQ(allowed, 20);
  EXPECT_FALSE(limiter.allow(t0 + milliseconds(50)));
  EXPECT_TRUE(limiter.allow(t0 + milliseconds(150)));
}

TEST(Limits, AddressRateLimiterKeepsABucketPerAddress) {
  using namespace std::chrono;
  const auto t0 = steady_clock::now();
  AddressRateLimiter limiter(10, 3);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.allow("a", t0));
  EXPECT_FALSE(limiter.allow("a", t0));
  EXPECT_TRUE(limiter.allow("b", t0));  // another address, another bucket
  EXPECT_FALSE(limiter.allow("a", t0 + milliseconds(50)));
  EXPECT_TRUE(limiter.allow("a", t0 + milliseconds(150)));
  EXPECT_EQ(limiter.tracked(), 2U);
}

TEST(Limits, AddressRateLimiterForgetsIdleAddressesAndStaysBounded) {
  using namespace std::chrono;
  const auto t0 = steady_clock::now();
  AddressRateLimiter limiter(10, 3, 100);
  for (int i = 0; i < 50; ++i) limiter.allow("idle-" + std::to_string(i), t0);
  for (int i = 0; i < 3; ++i) limiter.allow("busy", t0 + milliseconds(250));
  EXPECT_EQ(limiter.tracked(), 51U);
  // 0.3 s refills a bucket of 3 at 10/s: the idle ones are gone, the busy one is not yet full.
  EXPECT_FALSE(limiter.allow("busy", t0 + milliseconds(300)));
  EXPECT_EQ(limiter.tracked(), 1U);
  // Never more than max_addresses, however many addresses come at once.
  for (int i = 0; i < 1000; ++i) limiter.allow("flood-" + std::to_string(i), t0 + seconds(1));
  EXPECT_EQ(limiter.tracked(), 100U);
}

// Each step of a notice's delivery waits 10 s unless the operator says otherwise, within
// 1..60 s; a value out of range is refused with the range.
TEST(Config, ANodeNameIsAPathSegmentAndDefaultsToTheHostsName) {
  EXPECT_EQ(parse({}).config->node_name, "");  // the host's name, chosen at start
  EXPECT_EQ(parse({"--node-name", "node-2"}).config->node_name, "node-2");
  EXPECT_EQ(parse({}, {{"BLOCKFOG_NODE_NAME", "n_3"}}).config->node_name, "n_3");
  for (const char* bad : {"", "a/b", "a b", "..", "n%2F"}) {
    const auto refused = parse({"--node-name", bad});
    EXPECT_FALSE(refused.config) << bad;
    EXPECT_NE(refused.error.find("--node-name"), std::string::npos) << refused.error;
  }
  EXPECT_FALSE(parse({"--node-name", std::string(64, 'n')}).config);
  const auto host = default_node_name();
  EXPECT_FALSE(host.empty());
  EXPECT_EQ(
      host.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"),
      std::string::npos)
      << host;
}

TEST(Config, NoticeTimeoutFlagAndEnvironment) {
  EXPECT_EQ(parse({}).config->notice_timeout_seconds, 10);
  EXPECT_EQ(parse({"--notice-timeout", "2"}).config->notice_timeout_seconds, 2);
  EXPECT_EQ(parse({}, {{"BLOCKFOG_NOTICE_TIMEOUT", "60"}}).config->notice_timeout_seconds, 60);
  for (const char* bad : {"0", "61", "soon"}) {
    const auto refused = parse({"--notice-timeout", bad});
    EXPECT_FALSE(refused.config) << bad;
    EXPECT_NE(refused.error.find("1..60"), std::string::npos) << refused.error;
  }
}

TEST(Config, HttpRateFlags) {
  const auto defaults = parse({});
  EXPECT_EQ(defaults.config->http_requests_per_second, 20);
  EXPECT_EQ(defaults.config->http_burst, 100);
  const auto set = parse({"--http-rate", "0"}, {{"BLOCKFOG_HTTP_BURST", "7"}});
  ASSERT_TRUE(set.config) << set.error;
  EXPECT_EQ(set.config->http_requests_per_second, 0);  // no limit
  EXPECT_EQ(set.config->http_burst, 7);
  EXPECT_FALSE(parse({"--http-rate", "-1"}).config);
  EXPECT_FALSE(parse({"--http-burst", "0"}).config);
  EXPECT_FALSE(parse({}, {{"BLOCKFOG_HTTP_RATE", "fast"}}).config);
}

TEST(DbWorker, PeriodicTasksRunBetweenPostedOnesUntilStopped) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("blockfog-dbworker-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::atomic<int> runs = 0;
  {
    DbWorker db(dir / "db.sqlite", storage::Sync::Normal);
    db.every(std::chrono::milliseconds(10), [&](storage::Store&) { ++runs; });
    // A queue kept busy does not hold the periodic task back.
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
    while (std::chrono::steady_clock::now() < until) {
      db.call([](storage::Store&) { std::this_thread::sleep_for(std::chrono::milliseconds(1)); });
    }
    EXPECT_GE(runs.load(), 3);
    db.stop();
    const int at_stop = runs.load();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(runs.load(), at_stop);
  }
  std::filesystem::remove_all(dir);
}

TEST(Limits, ConnectionsPerAddressAndInAll) {
  ConnectionLimiter limiter(2, 3);
  auto a1 = limiter.acquire("a");
  auto a2 = limiter.acquire("a");
  EXPECT_TRUE(a1 && a2);
  EXPECT_FALSE(limiter.acquire("a"));
  auto b1 = limiter.acquire("b");
  EXPECT_TRUE(b1);
  EXPECT_FALSE(limiter.acquire("c"));  // 3 in all
  a1.reset();
  auto a3 = limiter.acquire("a");
  EXPECT_TRUE(a3);
  EXPECT_EQ(limiter.open(), 3);
}

TEST(HttpTypes, PathsAndQueries) {
  EXPECT_EQ(target_path("/ws/games/3?observe=1"), "/ws/games/3");
  EXPECT_EQ(query_param("/x?a=1&chat_since=42", "chat_since"), "42");
  EXPECT_EQ(query_param("/x?a=%41", "a"), "A");
  EXPECT_EQ(query_param("/x", "a"), "");
  std::string out;
  EXPECT_FALSE(percent_decode("%G0", out));
  EXPECT_FALSE(percent_decode("%4", out));
}

}  // namespace
}  // namespace blockfog::server
