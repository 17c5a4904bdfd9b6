#pragma once

// The server's settings: defaults, then environment variables, then command-line flags
// (docs/server.md lists them).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "server/log.h"
#include "storage/sqlite.h"

namespace blockfog::server {

// The longest path a Unix-domain socket address holds (sockaddr_un::sun_path, without its NUL).
std::size_t max_unix_socket_path();

// What --threads accepts at most.
constexpr int kMaxNetworkThreads = 64;

// Twice the machine's cores, at least 2 and at most kMaxNetworkThreads. A game's
// connections and room run on one io_context, which only its own thread runs, so a thread
// whose games all wait cannot take another's work; with more threads than cores, the kernel
// gives the cores to the threads that have some. On the 2-core development machine, 4 threads
// instead of 2 cut the cores' idle time at 100 busy games by about a third and raised the
// actions per second by ~5% at 100 and 1,000 games.
int default_network_threads();

struct Config {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;  // 0: any free port (printed on start)
  // --listen unix:PATH: a Unix-domain socket at PATH instead of host:port
  // (server/net/unix_socket.h).
  std::string unix_socket;
  std::string db_path = "./var/blockfog.db";
  // This node's name among several sharing one PostgreSQL database (docs/multi-node.md): its
  // path prefix /n/<name>/ and the first part of its node id. Empty: the host's name.
  std::string node_name;
  std::string web_root = "./web-client";
  LogLevel log_level = LogLevel::Info;
  std::string tls_cert;  // both set: serve https and wss
  std::string tls_key;
  // Network threads, an io_context each: by default twice the cores (default_network_threads).
  int threads = default_network_threads();
  // How long a network thread that ran out of work keeps polling for more before it sleeps:
  // waking sleeping threads was a third of the server's CPU per action at one game (net.cpp).
  int poll_us = 200;
  int max_connections_per_address = 256;
  int max_connections = 20000;
  double ws_messages_per_second = 20;  // per connection, with a burst of twice as many
  int http_requests_per_second = 20;   // API requests per client address; 0: no limit
  int http_burst = 100;                // requests an idle address may send at once
  int games_per_hour = 60;         // games one account may create after a burst of 20; 0: no limit
  int idle_timeout_seconds = 300;  // a WebSocket with no traffic (pings count) is closed
  std::vector<std::string> allowed_origins;  // besides the server's own (scheme://Host)
  // Host names the server answers to besides IP literals and localhost (host_names.h): a name
  // not listed is refused, so that a DNS-rebinding page cannot pass as the server's own.
  std::vector<std::string> allowed_hosts;
  // Where GET /metrics is served (HOST:PORT; port 0: any free one): never on the public
  // listener, since its counters move with hidden actions. Empty: no metrics at all.
  std::string metrics_host;
  std::optional<std::uint16_t> metrics_port;
  std::optional<std::string> port_file;      // write the bound port here once listening
  int drain_timeout_seconds = 5;             // on SIGTERM: longest wait for sessions to close
  std::vector<std::string> trusted_proxies;  // peers whose X-Forwarded-For/-Proto are believed
  // full: every action is fsynced before it is acknowledged (survives power loss); normal: it
  // survives kill -9 and any crash of the server, not a power loss (docs/storage.md).
  storage::Sync sync = storage::Sync::Full;
  // Serve from the database without writing anything to it, e.g. one that failed its
  // integrity check: reads work, every write is answered storage_unavailable.
  bool read_only = false;
  // Check the database's integrity in full, print the report, and exit (0: it passed).
  bool check_db = false;
  // Retire the signing key, make a new one, print its id, and exit (docs/records.md).
  bool rotate_signing_key = false;
  // Seconds between full integrity checks while serving (0: none).
  int integrity_check_every_seconds = 3600;
  // scrypt's N = 2^password_cost for passwords set from now on (kMinPasswordCost..
  // kMaxPasswordCost). Each hash keeps its own cost, so changing it leaves every account able to
  // log in. Lower than the default only for tests, whose servers register many accounts.
  int password_cost = 15;
  static constexpr int kMinPasswordCost = 10;
  static constexpr int kMaxPasswordCost = 20;

  // Turn notices (docs/server.md, "Turn notices"). E-mail is off unless smtp_host is set.
  std::string smtp_host;
  std::uint16_t smtp_port = 587;
  bool smtp_starttls = true;  // STARTTLS before AUTH and the message; off only for a local relay
  std::string smtp_user;      // both set: AUTH PLAIN after STARTTLS
  std::string smtp_password;
  std::string smtp_from;       // the sender address; required with smtp_host
  std::string notice_ca_file;  // trust this CA for the relay and webhooks (default: system CAs)
  std::string public_url;      // the links in notices; default http(s)://HOST:PORT
  bool webhook_allow_http = false;     // for local testing only
  bool webhook_allow_private = false;  // loopback and private addresses (for local testing)
  int notice_retry_seconds = 30;       // first retry; doubles up to an hour
  int notice_give_up_seconds = 86400;  // a notice undelivered this long after it was written fails
  // Each step of a delivery (resolve, connect, TLS handshake, write, read a reply) waits at
  // most this long; a step timed out is a failed attempt, retried like any other.
  int notice_timeout_seconds = 10;
  static constexpr int kMinNoticeTimeout = 1;
  static constexpr int kMaxNoticeTimeout = 60;

  // Who may organise tournaments (docs/tournaments.md): these user names (any case); anybody
  // when empty.
  std::vector<std::string> tournament_organisers;

  bool tls() const { return !tls_cert.empty(); }
  bool smtp() const { return !smtp_host.empty(); }
};

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

// The parsed config, or a message for the user (usage errors). "--help" yields the usage text
// in `help`.
struct ConfigResult {
  std::optional<Config> config;
  std::string error;
  bool help = false;
};

ConfigResult parse_config(const std::vector<std::string>& args, const EnvLookup& env);
std::string usage_text();

}  // namespace blockfog::server
