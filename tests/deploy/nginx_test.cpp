// deploy/nginx/blockfog.conf in front of a real server: nginx from Debian (installed by
// scripts/install-deps.sh) runs the file as shipped, with only its listen ports, certificate
// and upstream address replaced, on loopback with a self-signed certificate made here. Clients
// come from different loopback addresses (127.0.0.2, .3, ...) as different people would. The
// server listens on a loopback port, or on a Unix-domain socket (deploy/README.md, "A Unix
// socket instead of a port").

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "server/auth/login_throttle.h"
#include "tests/deploy/match.h"
#include "tests/deploy/shell.h"
#include "tests/deploy/web_client.h"
#include "tests/server/db_peek.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

namespace fs = std::filesystem;

#ifdef NDEBUG
constexpr int kMaxActions = 100000;  // the whole game
#else
constexpr int kMaxActions = 250;  // sanitizers are slow; the release build plays it all
#endif

std::string nginx_binary() {
  // /usr/sbin is not on an ordinary user's PATH on Debian.
  if (access("/usr/sbin/nginx", X_OK) == 0) return "/usr/sbin/nginx";
  const auto found = run_command("command -v nginx");
  return found.status == 0 ? found.output.substr(0, found.output.find('\n')) : "";
}

// Replaces the one occurrence of `from` in `text`; throws if there is not exactly one (the
// shipped file changed: update the test with it).
void replace_once(std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos || text.find(from, at + 1) != std::string::npos) {
    throw std::runtime_error("deploy/nginx/blockfog.conf has not exactly one: " + from);
  }
  text.replace(at, from.size(), to);
}

bool accepts_connections(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  close(fd);
  return ok;
}

// nginx as a child process, in `dir`, in front of the server at `upstream` (what nginx's
// `server` directive takes: 127.0.0.1:PORT or unix:PATH).
class Nginx {
 public:
  Nginx(const fs::path& dir, const std::string& upstream, const fs::path& cert, const fs::path& key)
      : dir_(dir), http_port_(free_port()), https_port_(free_port()) {
    fs::create_directories(dir_ / "temp");
    std::string site = read_file(source_path("deploy/nginx/blockfog.conf"));
    replace_once(site, "    listen 80;\n",
                 "    listen 127.0.0.1:" + std::to_string(http_port_) + ";\n");
    replace_once(site, "    listen [::]:80;\n", "");
    replace_once(site, "    listen 443 ssl http2;\n",
                 "    listen 127.0.0.1:" + std::to_string(https_port_) + " ssl http2;\n");
    replace_once(site, "    listen [::]:443 ssl http2;\n", "");
    replace_once(site, "/etc/letsencrypt/live/blockfog.example.org/fullchain.pem", cert.string());
    replace_once(site, "/etc/letsencrypt/live/blockfog.example.org/privkey.pem", key.string());
    replace_once(site, "server 127.0.0.1:8080;", "server " + upstream + ";");
    write_file(dir_ / "blockfog.conf", site);
    const std::string d = dir_.string();
    // One process (no master) as whoever runs the test: nothing here needs root, and a worker
    // switching to `nobody` could not read this private directory.
    write_file(dir_ / "nginx.conf",
               "daemon off;\nmaster_process off;\npid " + d + "/nginx.pid;\nerror_log " + d +
                   "/error.log notice;\nevents { worker_connections 512; }\nhttp {\n"
                   "  access_log " +
                   d +
                   "/access.log;\n"
                   "  client_body_temp_path " +
                   d +
                   "/temp/body;\n"
                   "  proxy_temp_path " +
                   d +
                   "/temp/proxy;\n"
                   "  fastcgi_temp_path " +
                   d +
                   "/temp/fastcgi;\n"
                   "  uwsgi_temp_path " +
                   d +
                   "/temp/uwsgi;\n"
                   "  scgi_temp_path " +
                   d +
                   "/temp/scgi;\n"
                   "  include " +
                   d + "/blockfog.conf;\n}\n");
    const std::vector<std::string> args = {nginx_binary(),    "-p", d + "/",         "-c",
                                           d + "/nginx.conf", "-e", d + "/error.log"};
    const auto syntax =
        run_command(shell_quote(args[0]) + " -t -p " + shell_quote(d + "/") + " -c " +
                    shell_quote(d + "/nginx.conf") + " -e " + shell_quote(d + "/error.log"));
    if (syntax.status != 0)
      throw std::runtime_error("nginx -t refuses the config:\n" + syntax.output);
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      const int out = open((d + "/nginx.out").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (out >= 0) {
        dup2(out, 1);
        dup2(out, 2);
      }
      std::vector<char*> argv;
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!accepts_connections(https_port_)) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        throw std::runtime_error("nginx exited at start:\n" + log());
      }
      if (std::chrono::steady_clock::now() > deadline) throw std::runtime_error("nginx: no start");
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ~Nginx() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  Nginx(const Nginx&) = delete;
  Nginx& operator=(const Nginx&) = delete;

  // Graceful stop (SIGQUIT); the exit status.
  int stop() {
    ::kill(pid_, SIGQUIT);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  int http_port() const { return http_port_; }
  int https_port() const { return https_port_; }
  std::string log() const {
    std::string text;
    for (const char* name : {"nginx.out", "error.log"}) {
      if (fs::exists(dir_ / name)) text += read_file(dir_ / name);
    }
    return text;
  }

 private:
  fs::path dir_;
  int http_port_;
  int https_port_;
  pid_t pid_ = -1;
};

// nginx reaches the server at a loopback port, or at a Unix-domain socket; either way the
// server trusts it (its address, or "unix") and no other.
enum class Upstream { kTcp, kUnixSocket };

void proxies_a_whole_game(Upstream upstream) {
  ASSERT_FALSE(nginx_binary().empty()) << "nginx is missing: scripts/install-deps.sh installs it";
  TempDir dir;
  const auto cert = dir.path() / "cert.pem";
  const auto key = dir.path() / "key.pem";
  const auto made = run_command(
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1"
      " -addext subjectAltName=IP:127.0.0.1 -keyout " +
      shell_quote(key.string()) + " -out " + shell_quote(cert.string()));
  ASSERT_EQ(made.status, 0) << made.output;
  // ServerProcess serves the web client from <dir>/web.
  const std::string index = "<!doctype html><title>Blockfog</title>\n";
  fs::create_directories(dir.path() / "web");
  write_file(dir.path() / "web" / "index.html", index);
  const auto socket = dir.path() / "blockfog.sock";
  ServerProcess server(dir.path(),
                       upstream == Upstream::kTcp
                           ? std::vector<std::string>{"--trusted-proxy", "127.0.0.1"}
                           : std::vector<std::string>{"--listen", "unix:" + socket.string(),
                                                      "--trusted-proxy", "unix"});
  Nginx nginx(dir.path() / "nginx",
              upstream == Upstream::kTcp ? "127.0.0.1:" + std::to_string(server.port())
                                         : "unix:" + server.unix_socket(),
              cert, key);

  // Plain HTTP is redirected to HTTPS, path and query kept.
  Agent plain({nginx.http_port(), false, "127.0.0.2"});
  auto redirect = plain.get("/lobby?from=mail");
  EXPECT_EQ(redirect.status, 301);
  EXPECT_EQ(redirect.headers.at("location"), "https://127.0.0.1/lobby?from=mail");

  const Endpoint scot_end{nginx.https_port(), true, "127.0.0.2"};
  const Endpoint eng_end{nginx.https_port(), true, "127.0.0.3"};
  Agent scot(scot_end);
  Agent eng(eng_end);
  const auto health = scot.get("/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_NE(health.body.find("ok"), std::string::npos);
  EXPECT_TRUE(health.headers.contains("strict-transport-security"));
  EXPECT_EQ(scot.get("/metrics").status, 403) << "metrics are not for the internet";
  EXPECT_EQ(scot.get("/").body, index) << "the web client is served";

  // The server trusts nginx's X-Forwarded-Proto: Secure cookies, and https:// passes the
  // Origin check of state-changing requests.
  for (auto [agent, name] : {std::pair{&scot, "wallace"}, std::pair{&eng, "longshanks"}}) {
    const auto r = agent->post("/api/register", {{"username", name}, {"password", "pw-123456"}});
    ASSERT_EQ(r.status, 201) << r.body;
    EXPECT_NE(r.headers.at("set-cookie").find("; Secure"), std::string::npos);
  }
  const auto game_id = start_game(scot, eng);
  ASSERT_GT(game_id, 0);

  // A game over wss through nginx.
  Match match(scot_end, game_id, scot.cookie(), eng.cookie());
  ASSERT_TRUE(match.connect());
  std::mt19937_64 rng(2026);
  int played = 0;
  while (played < kMaxActions && match.play_random(rng)) ++played;
  ASSERT_FALSE(::testing::Test::HasFailure()) << "after " << played << " actions\n" << nginx.log();
  ASSERT_GT(played, 0);
#ifdef NDEBUG
  EXPECT_TRUE(match.seat("scotland").view.contains("outcome")) << "the game did not finish";
  EXPECT_EQ(scot.get("/api/games/" + std::to_string(game_id) + "/record").status, 200);
#endif
  const auto log = logged_actions(server.db_path(), game_id);
  EXPECT_EQ(static_cast<int>(log.size()), played);
  const auto replayed = replay_record(stored_record(server.db_path(), game_id));
  ASSERT_TRUE(replayed);
  EXPECT_EQ(replayed->state_hash(), log.back().state_hash);

  // Failed logins are limited per client behind the proxy, whatever the client claims in its
  // own X-Forwarded-For.
  Agent attacker({nginx.https_port(), true, "127.0.0.4"});
  int refused = 0;
  const int attempts = LoginThrottle::Limits{}.free_address_failures + 20;
  for (int i = 1; i <= attempts; ++i) {
    const auto r = attacker.post(
        "/api/login", {{"username", "ghost" + std::to_string(i)}, {"password", "guess-guess"}},
        {{"X-Forwarded-For", "198.51.100." + std::to_string(i)}});
    if (r.status == 429) break;
    EXPECT_EQ(r.status, 401) << r.body;
    ++refused;
  }
  EXPECT_GE(refused, 10) << "throttled per account, not per address?";
  EXPECT_LT(refused, attempts)
      << "the attacker was never throttled: the server saw other addresses";
  // Others behind the same proxy are not locked out, even when they claim the locked address.
  Agent bystander({nginx.https_port(), true, "127.0.0.5"});
  const auto other =
      bystander.post("/api/login", {{"username", "wallace"}, {"password", "wrong-password"}},
                     {{"X-Forwarded-For", "127.0.0.4"}});
  EXPECT_EQ(other.status, 401) << other.body;
  const auto ok =
      bystander.post("/api/login", {{"username", "wallace"}, {"password", "pw-123456"}});
  EXPECT_EQ(ok.status, 200) << ok.body;

  EXPECT_EQ(nginx.stop(), 0);
  EXPECT_EQ(server.terminate(), 0) << server.log();
}

TEST(Nginx, ProxiesAWholeGameOverWssAndPassesOnTheClientsAddress) {
  proxies_a_whole_game(Upstream::kTcp);
}

TEST(Nginx, ProxiesToTheServersUnixSocketTheSameWay) {
  proxies_a_whole_game(Upstream::kUnixSocket);
}

}  // namespace
}  // namespace blockfog::server::testing
