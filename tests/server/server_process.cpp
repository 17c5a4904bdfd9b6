#include "tests/server/server_process.h"

#include "storage/postgres.h"
#include "tests/server/test_client.h"
#include "tests/storage/test_store.h"

#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <cctype>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace blockfog::server::testing {

TempDir::TempDir() {
  std::string pattern = "/tmp/blockfog-server-test-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

namespace {

// The store of the test server in `dir`: its SQLite file, or a database on the run's cluster,
// made at the first start in `dir`.
std::filesystem::path store_of(const std::filesystem::path& dir) {
  // The cluster of a run of the server suites on PostgreSQL, or nothing.
  const auto cluster = storage::testing::scratch_cluster_uri("BLOCKFOG_TEST_SERVER_PG_URI_FILE");
  if (!cluster) return dir / "var" / "blockfog.db";
  // One name per folder: PostgreSQL folds names to lower case, so a capital becomes '_' and the
  // letter, and any other character "__" (mkdtemp's suffix mixes cases).
  std::string name = "server_";
  for (const unsigned char c : dir.filename().string()) {
    if (std::islower(c) || std::isdigit(c)) {
      name += static_cast<char>(c);
    } else if (std::isupper(c)) {
      name += '_';
      name += static_cast<char>(std::tolower(c));
    } else {
      name += "__";
    }
  }
  storage::PgDatabase admin(*cluster);
  auto exists = admin.prepare("SELECT count(*) FROM pg_database WHERE datname = ?1");
  exists.bind(1, name);
  exists.step();
  if (exists.column_int64(0) == 0) admin.exec("CREATE DATABASE " + name);
  return cluster->substr(0, cluster->rfind('/') + 1) + name;
}

std::mutex metrics_ports_mutex;
std::map<int, int> metrics_ports;  // public port -> operator port, of the running servers
}  // namespace

int metrics_port_for(int port) {
  std::lock_guard lock(metrics_ports_mutex);
  const auto it = metrics_ports.find(port);
  return it == metrics_ports.end() ? 0 : it->second;
}

std::string metrics_text(int port) {
  return HttpClient(metrics_port_for(port)).get("/metrics").body;
}

std::int64_t metric_value(const std::string& text, const std::string& name) {
  // A sample is a line of its own: "name value".
  const auto at = text.find("\n" + name + " ");
  return at == std::string::npos ? -1 : std::stoll(text.substr(at + name.size() + 2));
}

std::int64_t metric_value(int port, const std::string& name) {
  return metric_value(metrics_text(port), name);
}

ServerProcess::ServerProcess(const std::filesystem::path& dir, std::vector<std::string> extra_args,
                             std::vector<std::pair<std::string, std::string>> env,
                             const std::function<bool()>& in_child)
    : dir_(dir), db_(store_of(dir)) {
  const auto port_file = dir_ / "port";
  std::filesystem::remove(port_file);
  std::vector<std::string> args = {BLOCKFOG_SERVER_BIN, "--listen", "127.0.0.1:0", "--port-file",
                                   port_file.string(), "--db", db_path().string(), "--web-root",
                                   (dir_ / "web").string(), "--log-level", "info",
                                   // Test clients play far faster than people; the flooding
                                   // tests flood past these (extra flags win).
                                   "--ws-rate", "1000", "--http-rate", "10000",
                                   // The operator's port, for the tests that read /metrics.
                                   "--metrics-listen", "127.0.0.1:0",
                                   // Cheap password hashes: the tests register many accounts.
                                   "--password-cost", "10"};
  // --sync chooses SQLite's durability; a PostgreSQL store always commits durably and refuses it.
  if (storage::is_postgres_uri(db_.string())) {
    for (auto it = extra_args.begin(); it != extra_args.end();) {
      it = *it == "--sync" && it + 1 != extra_args.end() ? extra_args.erase(it, it + 2) : it + 1;
    }
  }
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    const int log = open(log_path().c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (log >= 0) {
      dup2(log, 1);
      dup2(log, 2);
    }
    for (const auto& [name, value] : env) setenv(name.c_str(), value.c_str(), 1);
    if (in_child && !in_child()) _exit(126);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(port_file);
    std::string listening;
    if (std::getline(in, listening) && !listening.empty()) {
      // The port, or unix:PATH when the extra flags chose a Unix-domain socket.
      if (listening.rfind("unix:", 0) == 0) {
        unix_socket_ = listening.substr(5);
        return;
      }
      port_ = std::stoi(listening);
      std::string metrics;
      if (std::getline(in, metrics) && metrics.rfind("metrics ", 0) == 0) {
        metrics_port_ = std::stoi(metrics.substr(8));
        std::lock_guard lock(metrics_ports_mutex);
        metrics_ports[port_] = metrics_port_;
      }
      if (port_ > 0) return;
    }
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
      throw std::runtime_error("server exited at start (status " + std::to_string(code) + "):\n" +
                               log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill9();
  throw std::runtime_error("server did not start:\n" + log());
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) kill9();
}

std::string ServerProcess::log() const {
  std::ifstream in(log_path());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int ServerProcess::wait_exit() {
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  return -1000;
}

int ServerProcess::wait_for_exit(std::chrono::seconds timeout) {
  if (pid_ <= 0) return -1000;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      if (WIFEXITED(status)) return WEXITSTATUS(status);
      return WIFSIGNALED(status) ? -WTERMSIG(status) : -1000;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return -2000;
}

int ServerProcess::terminate() {
  if (pid_ <= 0) return -1000;
  ::kill(pid_, SIGTERM);
  return wait_exit();
}

void ServerProcess::kill9() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  wait_exit();
}

int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("socket failed");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    close(fd);
    throw std::runtime_error("no free port");
  }
  close(fd);
  return ntohs(address.sin_port);
}

}  // namespace blockfog::server::testing
