#include "server/config.h"

#include <sys/un.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <thread>

#include "storage/postgres.h"

namespace blockfog::server {

std::size_t max_unix_socket_path() { return sizeof(sockaddr_un::sun_path) - 1; }

int default_network_threads() {
  // hardware_concurrency() is 0 when the machine does not say.
  const auto cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::clamp(2 * cores, 2, kMaxNetworkThreads);
}

namespace {

template <typename T>
bool parse_number(const std::string& text, T& out) {
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

// "host:port", "[v6]:port", ":port" or "unix:PATH".
bool parse_listen(const std::string& text, Config& c) {
  if (text.rfind("unix:", 0) == 0) {
    c.unix_socket = text.substr(5);
    return !c.unix_socket.empty() && c.unix_socket.size() <= max_unix_socket_path();
  }
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) return false;
  std::string host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  std::uint16_t port = 0;
  if (!parse_number(text.substr(colon + 1), port)) return false;
  c.host = host.empty() ? "0.0.0.0" : host;
  c.port = port;
  c.unix_socket.clear();  // a flag after BLOCKFOG_LISTEN=unix:... wins
  return true;
}

// "host:port" or "[v6]:port" into `host` and `port`.
bool parse_host_port(const std::string& text, std::string& host, std::uint16_t& port) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return !host.empty() && parse_number(text.substr(colon + 1), port);
}

// A comma-separated list of names without spaces, appended to `out`; false if one is bad.
bool parse_list(const std::string& value, std::vector<std::string>& out) {
  std::size_t start = 0;
  while (start <= value.size()) {
    const auto comma = std::min(value.find(',', start), value.size());
    const auto item = value.substr(start, comma - start);
    if (item.empty() || item.find(' ') != std::string::npos) return false;
    out.push_back(item);
    start = comma + 1;
  }
  return true;
}

// Applies one setting by its flag name (without "--"); returns an error message or "".
std::string apply(Config& c, const std::string& name, const std::string& value) {
  auto bad = [&] { return "bad value '" + value + "' for --" + name; };
  if (name == "listen") return parse_listen(value, c) ? "" : bad();
  if (name == "db") {
    c.db_path = value;
  } else if (name == "node-name") {
    // A path segment of /n/<name>/ (nginx routes by it): letters, digits, '-' and '_'.
    const bool ok = !value.empty() && value.size() <= 63 &&
                    std::all_of(value.begin(), value.end(), [](char ch) {
                      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_';
                    });
    if (!ok) return bad() + " (1 to 63 letters, digits, '-' or '_')";
    c.node_name = value;
  } else if (name == "web-root") {
    c.web_root = value;
  } else if (name == "log-level") {
    const auto level = log_level_from_name(value);
    if (!level) return bad() + " (debug, info, warn, error)";
    c.log_level = *level;
  } else if (name == "tls-cert") {
    c.tls_cert = value;
  } else if (name == "tls-key") {
    c.tls_key = value;
  } else if (name == "threads") {
    if (!parse_number(value, c.threads) || c.threads < 1 || c.threads > kMaxNetworkThreads)
      return bad();
  } else if (name == "poll-us") {
    if (!parse_number(value, c.poll_us) || c.poll_us < 0 || c.poll_us > 100000) return bad();
  } else if (name == "password-cost") {
    if (!parse_number(value, c.password_cost) || c.password_cost < Config::kMinPasswordCost ||
        c.password_cost > Config::kMaxPasswordCost) {
      return bad() + " (10 to 20)";
    }
  } else if (name == "max-connections-per-address") {
    if (!parse_number(value, c.max_connections_per_address) || c.max_connections_per_address < 1) {
      return bad();
    }
  } else if (name == "max-connections") {
    if (!parse_number(value, c.max_connections) || c.max_connections < 1) return bad();
  } else if (name == "ws-rate") {
    int rate = 0;
    if (!parse_number(value, rate) || rate < 1) return bad();
    c.ws_messages_per_second = rate;
  } else if (name == "http-rate") {
    if (!parse_number(value, c.http_requests_per_second) || c.http_requests_per_second < 0) {
      return bad();
    }
  } else if (name == "games-per-hour") {
    if (!parse_number(value, c.games_per_hour) || c.games_per_hour < 0) return bad();
  } else if (name == "http-burst") {
    if (!parse_number(value, c.http_burst) || c.http_burst < 1) return bad();
  } else if (name == "sync") {
    if (value == "full") {
      c.sync = storage::Sync::Full;
    } else if (value == "normal") {
      c.sync = storage::Sync::Normal;
    } else {
      return bad() + " (full or normal)";
    }
  } else if (name == "integrity-check-every") {
    if (!parse_number(value, c.integrity_check_every_seconds) ||
        c.integrity_check_every_seconds < 0) {
      return bad();
    }
  } else if (name == "idle-timeout") {
    if (!parse_number(value, c.idle_timeout_seconds) || c.idle_timeout_seconds < 1) return bad();
  } else if (name == "allowed-origin") {
    c.allowed_origins.push_back(value);
  } else if (name == "port-file") {
    c.port_file = value;
  } else if (name == "drain-timeout") {
    if (!parse_number(value, c.drain_timeout_seconds) || c.drain_timeout_seconds < 1) return bad();
  } else if (name == "trusted-proxy") {
    // A comma-separated list, so that one environment variable can name several.
    if (!parse_list(value, c.trusted_proxies)) return bad();
  } else if (name == "tournament-organiser") {
    if (!parse_list(value, c.tournament_organisers)) return bad();
  } else if (name == "allowed-host") {
    if (!parse_list(value, c.allowed_hosts)) return bad();
  } else if (name == "metrics-listen") {
    std::uint16_t port = 0;
    if (!parse_host_port(value, c.metrics_host, port)) return bad();
    c.metrics_port = port;
  } else if (name == "smtp-host") {
    c.smtp_host = value;
  } else if (name == "smtp-port") {
    if (!parse_number(value, c.smtp_port) || c.smtp_port == 0) return bad();
  } else if (name == "smtp-starttls") {
    if (value != "on" && value != "off") return bad() + " (on or off)";
    c.smtp_starttls = value == "on";
  } else if (name == "smtp-user") {
    c.smtp_user = value;
  } else if (name == "smtp-password") {
    c.smtp_password = value;
  } else if (name == "smtp-from") {
    if (value.find('@') == std::string::npos ||
        value.find_first_of("\r\n<>") != std::string::npos) {
      return bad();
    }
    c.smtp_from = value;
  } else if (name == "notice-ca-file") {
    c.notice_ca_file = value;
  } else if (name == "public-url") {
    if (value.rfind("http://", 0) != 0 && value.rfind("https://", 0) != 0) return bad();
    c.public_url = value;
  } else if (name == "webhook-allow") {
    std::vector<std::string> items;
    if (!parse_list(value, items)) return bad();
    for (const auto& item : items) {
      if (item == "http") {
        c.webhook_allow_http = true;
      } else if (item == "private") {
        c.webhook_allow_private = true;
      } else {
        return bad() + " (http, private)";
      }
    }
  } else if (name == "notice-retry") {
    if (!parse_number(value, c.notice_retry_seconds) || c.notice_retry_seconds < 1) return bad();
  } else if (name == "notice-timeout") {
    if (!parse_number(value, c.notice_timeout_seconds) ||
        c.notice_timeout_seconds < Config::kMinNoticeTimeout ||
        c.notice_timeout_seconds > Config::kMaxNoticeTimeout) {
      return bad() + " (" + std::to_string(Config::kMinNoticeTimeout) + ".." +
             std::to_string(Config::kMaxNoticeTimeout) + " seconds)";
    }
  } else if (name == "notice-give-up") {
    if (!parse_number(value, c.notice_give_up_seconds) || c.notice_give_up_seconds < 1) {
      return bad();
    }
  } else {
    return "unknown option --" + name;
  }
  return "";
}

struct EnvName {
  const char* env;
  const char* flag;
};
constexpr EnvName kEnv[] = {
    {"BLOCKFOG_LISTEN", "listen"},
    {"BLOCKFOG_DB", "db"},
    {"BLOCKFOG_NODE_NAME", "node-name"},
    {"BLOCKFOG_WEB_ROOT", "web-root"},
    {"BLOCKFOG_LOG_LEVEL", "log-level"},
    {"BLOCKFOG_TLS_CERT", "tls-cert"},
    {"BLOCKFOG_TLS_KEY", "tls-key"},
    {"BLOCKFOG_THREADS", "threads"},
    {"BLOCKFOG_POLL_US", "poll-us"},
    {"BLOCKFOG_PASSWORD_COST", "password-cost"},
    {"BLOCKFOG_NOTICE_TIMEOUT", "notice-timeout"},
    {"BLOCKFOG_ALLOWED_ORIGIN", "allowed-origin"},
    {"BLOCKFOG_WS_RATE", "ws-rate"},
    {"BLOCKFOG_MAX_CONNECTIONS_PER_ADDRESS", "max-connections-per-address"},
    {"BLOCKFOG_SYNC", "sync"},
    {"BLOCKFOG_MAX_CONNECTIONS", "max-connections"},
    {"BLOCKFOG_IDLE_TIMEOUT", "idle-timeout"},
    {"BLOCKFOG_DRAIN_TIMEOUT", "drain-timeout"},
    {"BLOCKFOG_TRUSTED_PROXIES", "trusted-proxy"},
    {"BLOCKFOG_HTTP_RATE", "http-rate"},
    {"BLOCKFOG_HTTP_BURST", "http-burst"},
    {"BLOCKFOG_GAMES_PER_HOUR", "games-per-hour"},
    {"BLOCKFOG_ALLOWED_HOSTS", "allowed-host"},
    {"BLOCKFOG_TOURNAMENT_ORGANISERS", "tournament-organiser"},
    {"BLOCKFOG_METRICS_LISTEN", "metrics-listen"},
    {"BLOCKFOG_INTEGRITY_CHECK_EVERY", "integrity-check-every"},
    {"BLOCKFOG_SMTP_HOST", "smtp-host"},
    {"BLOCKFOG_SMTP_PORT", "smtp-port"},
    {"BLOCKFOG_SMTP_STARTTLS", "smtp-starttls"},
    {"BLOCKFOG_SMTP_USER", "smtp-user"},
    {"BLOCKFOG_SMTP_PASSWORD", "smtp-password"},
    {"BLOCKFOG_SMTP_FROM", "smtp-from"},
    {"BLOCKFOG_NOTICE_CA_FILE", "notice-ca-file"},
    {"BLOCKFOG_PUBLIC_URL", "public-url"},
};

}  // namespace

std::string usage_text() {
  return "usage: blockfog-server [options]\n"
         "  --listen HOST:PORT      listen address (default 127.0.0.1:8080; port 0 = any free)\n"
         "  --listen unix:PATH      listen on a Unix-domain socket instead (for a proxy on this\n"
         "                          machine; its peers' address is \"unix\")\n"
         "  --db PATH|URI           SQLite database file (default ./var/blockfog.db, created),\n"
         "                          or a postgresql://user@host:port/db URI\n"
         "  --node-name NAME        this node's name when several share one PostgreSQL\n"
         "                          database: its path prefix /n/NAME/ (default: the host's name)\n"
         "  --web-root DIR          static files of the web client (default ./web-client)\n"
         "  --log-level LEVEL       debug, info, warn or error (default info)\n"
         "  --tls-cert FILE         PEM certificate chain: serve https and wss\n"
         "  --tls-key FILE          PEM private key for --tls-cert\n"
         "  --threads N             network threads (default twice the cores, 2 to 64)\n"
         "  --poll-us N             microseconds a network thread out of work polls before it\n"
         "                          sleeps (default 200; 0: sleep at once)\n"
         "  --password-cost N       scrypt cost of new password hashes, N = 2^N (default 15,\n"
         "                          10 to 20; lower only for tests)\n"
         "  --max-connections N     open connections in all (default 20000)\n"
         "  --max-connections-per-address N   (default 256)\n"
         "  --ws-rate N             WebSocket messages per second per connection (default 20)\n"
         "  --http-rate N           API requests per second per client address (default 20;\n"
         "                          0: no limit)\n"
         "  --http-burst N          API requests an idle address may send at once (default 100)\n"
         "  --games-per-hour N      games one account may create after a burst of 20 (default\n"
         "                          60; 0: no limit)\n"
         "  --sync full|normal      full: fsync every action (default); normal: survive a\n"
         "                          server crash, not a power loss (faster)\n"
         "  --read-only             serve from the database without writing to it (reads\n"
         "                          work; every write is refused storage_unavailable)\n"
         "  --check-db              check the database's integrity in full, print the report\n"
         "                          and exit (0: it passed; 1: damaged, not Blockfog's or\n"
         "                          missing; 2: it could not be checked)\n"
         "  --rotate-signing-key    retire the key that signs records and bundles, make a new\n"
         "                          one, print its id and exit (old keys stay published;\n"
         "                          docs/records.md, Signatures)\n"
         "  --integrity-check-every SECONDS  full integrity check while serving (default\n"
         "                          3600; 0: none)\n"
         "  --idle-timeout SECONDS  close idle WebSockets (default 300)\n"
         "  --allowed-origin URL    an extra Origin allowed to make changes (repeatable)\n"
         "  --allowed-host NAME[,NAME...]  host names the server answers to, besides IP\n"
         "                          addresses and localhost (repeatable; e.g. the public name)\n"
         "  --metrics-listen HOST:PORT  serve GET /metrics there, for the operator only\n"
         "                          (default: no metrics; port 0 = any free)\n"
         "  --port-file PATH        write the bound port (or unix:PATH) to PATH once listening\n"
         "  --drain-timeout SECONDS on SIGTERM, longest wait for clients to close (default 5)\n"
         "  --trusted-proxy ADDR[,ADDR...]  reverse proxies whose X-Forwarded-For, X-Real-IP and\n"
         "                          X-Forwarded-Proto are believed (repeatable; default none)\n"
         "  --tournament-organiser NAME[,NAME...]  only these accounts create tournaments\n"
         "                          (repeatable; default: any account)\n"
         "Turn notices (docs/server.md, Turn notices); e-mail is off without --smtp-host:\n"
         "  --smtp-host HOST        the SMTP relay that sends notice e-mails\n"
         "  --smtp-port PORT        (default 587)\n"
         "  --smtp-starttls on|off  STARTTLS before anything else is sent (default on)\n"
         "  --smtp-user NAME        with --smtp-password: AUTH PLAIN (after STARTTLS)\n"
         "  --smtp-password TEXT    (better: BLOCKFOG_SMTP_PASSWORD)\n"
         "  --smtp-from ADDRESS     the notices' sender address (required with --smtp-host)\n"
         "  --notice-ca-file FILE   PEM CA that signs the relay's and webhooks' certificates\n"
         "                          (default: the system's CAs)\n"
         "  --public-url URL        the server's address in notice links (default the listener)\n"
         "  --webhook-allow http,private  allow webhooks over http, or to loopback and private\n"
         "                          addresses (local testing only; default neither)\n"
         "  --notice-retry SECONDS  first retry of a failed notice, doubling to an hour (30)\n"
         "  --notice-give-up SECONDS  a notice not delivered this long fails (default 86400)\n"
         "  --notice-timeout SECONDS  each step of a delivery waits at most this (1..60, 10)\n"
         "Environment: BLOCKFOG_LISTEN, BLOCKFOG_DB, BLOCKFOG_WEB_ROOT, BLOCKFOG_LOG_LEVEL,\n"
         "BLOCKFOG_TLS_CERT, BLOCKFOG_TLS_KEY, BLOCKFOG_THREADS, BLOCKFOG_POLL_US,\n"
         "BLOCKFOG_ALLOWED_ORIGIN, BLOCKFOG_WS_RATE, BLOCKFOG_MAX_CONNECTIONS_PER_ADDRESS,\n"
         "BLOCKFOG_SYNC, BLOCKFOG_MAX_CONNECTIONS, BLOCKFOG_IDLE_TIMEOUT,\n"
         "BLOCKFOG_DRAIN_TIMEOUT, BLOCKFOG_TRUSTED_PROXIES, BLOCKFOG_HTTP_RATE,\n"
         "BLOCKFOG_HTTP_BURST, BLOCKFOG_ALLOWED_HOSTS, BLOCKFOG_METRICS_LISTEN,\n"
         "BLOCKFOG_INTEGRITY_CHECK_EVERY, BLOCKFOG_SMTP_HOST, BLOCKFOG_SMTP_PORT,\n"
         "BLOCKFOG_SMTP_STARTTLS, BLOCKFOG_SMTP_USER, BLOCKFOG_SMTP_PASSWORD,\n"
         "BLOCKFOG_SMTP_FROM, BLOCKFOG_NOTICE_CA_FILE, BLOCKFOG_PUBLIC_URL,\n"
         "BLOCKFOG_PASSWORD_COST, BLOCKFOG_NOTICE_TIMEOUT; flags win over them.\n";
}

ConfigResult parse_config(const std::vector<std::string>& args, const EnvLookup& env) {
  ConfigResult result;
  Config c;
  for (const auto& [env_name, flag] : kEnv) {
    if (const auto value = env(env_name)) {
      if (auto error = apply(c, flag, *value); !error.empty()) {
        result.error = std::string(env_name) + ": " + error;
        return result;
      }
    }
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      result.help = true;
      return result;
    }
    if (arg.rfind("--", 0) != 0) {
      result.error = "unexpected argument '" + arg + "'";
      return result;
    }
    std::string name = arg.substr(2);
    // The flags that take no value.
    const auto flag_name = name.substr(0, name.find('='));
    if (flag_name == "read-only" || flag_name == "check-db" || flag_name == "rotate-signing-key") {
      if (flag_name != name) {
        result.error = "--" + flag_name + " takes no value";
        return result;
      }
      (name == "read-only"  ? c.read_only
       : name == "check-db" ? c.check_db
                            : c.rotate_signing_key) = true;
      continue;
    }
    std::string value;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      result.error = "--" + name + " needs a value";
      return result;
    }
    if (auto error = apply(c, name, value); !error.empty()) {
      result.error = error;
      return result;
    }
  }
  if (c.tls_cert.empty() != c.tls_key.empty()) {
    result.error = "--tls-cert and --tls-key go together";
    return result;
  }
  if (c.tls() && !c.unix_socket.empty()) {
    // Only a proxy on this machine reaches a Unix socket, and that proxy terminates TLS.
    result.error = "--tls-cert cannot be used with --listen unix:PATH";
    return result;
  }
  if (c.smtp() && c.smtp_from.empty()) {
    result.error = "--smtp-host needs --smtp-from";
    return result;
  }
  if (c.smtp_user.empty() != c.smtp_password.empty()) {
    result.error = "--smtp-user and --smtp-password go together";
    return result;
  }
  if (storage::is_postgres_uri(c.db_path)) {
    // PostgreSQL always commits with synchronous_commit = on: its "off" loses the last commits
    // when the database process dies, which kill -9 of the server must never do (docs/storage.md).
    if (c.sync == storage::Sync::Normal) {
      result.error =
          "--sync normal is for an SQLite database only: a PostgreSQL store always "
          "waits for its WAL at COMMIT (docs/storage.md, Two backends)";
      return result;
    }
    if (c.read_only) {
      result.error = "--read-only is for an SQLite database file only, not a postgresql:// URI";
      return result;
    }
  }
  result.config = c;
  return result;
}

}  // namespace blockfog::server
