#pragma once

// Starts the real blockfog-server as a child process on a free loopback port, with its own
// temporary directory for the database and the web root.

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace blockfog::server::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The operator's port of the running test server whose public port is `port` (0 if none): for
// helpers that know a game's port only.
int metrics_port_for(int port);
// GET /metrics from the test server whose public port is `port`.
std::string metrics_text(int port);
// The value of the sample `name` (a metric without labels) in a /metrics text, or -1 when the
// text has no such line.
std::int64_t metric_value(const std::string& text, const std::string& name);
// The same, read from the test server whose public port is `port`.
std::int64_t metric_value(int port, const std::string& name);
// A TCP port on 127.0.0.1 that was free a moment ago.
int free_port();

class ServerProcess {
 public:
  // Starts the server on `db` (in `dir`) and waits until it listens. Extra flags are appended;
  // `env` is added to the server's environment. `in_child`, if given, runs in the child just
  // before the server is executed (to take another user's ids, or mount: system calls only,
  // since the test process has threads); when it returns false the child exits 126. Throws if
  // the server exits first (the message gives its exit status and log).
  ServerProcess(const std::filesystem::path& dir, std::vector<std::string> extra_args = {},
                std::vector<std::pair<std::string, std::string>> env = {},
                const std::function<bool()>& in_child = {});
  ~ServerProcess();  // kills the server if still running
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  int port() const { return port_; }  // 0 when listening on a Unix-domain socket
  // The operator's port (--metrics-listen), where GET /metrics is served; 0 if none.
  int metrics_port() const { return metrics_port_; }
  // The socket's path when the extra flags said --listen unix:PATH, else "".
  const std::string& unix_socket() const { return unix_socket_; }
  pid_t pid() const { return pid_; }
  // Where the server's store is: its SQLite file in `dir`; in a run of the server suites on
  // PostgreSQL (BLOCKFOG_TEST_SERVER_PG_URI_FILE names a scripts/pg-scratch.sh state file, as
  // ctest's server.postgres sets it), the URI of a database of its own on that cluster, named
  // after `dir`, so that a server started again in `dir` finds its games.
  const std::filesystem::path& db_path() const { return db_; }
  std::filesystem::path log_path() const { return dir_ / "server.log"; }
  std::string log() const;

  // Sends SIGTERM and waits; returns the exit status (or -signal when killed by a signal).
  int terminate();
  // SIGKILL, then reaps the child.
  void kill9();
  // Waits for the server to exit by itself: its exit status, or -2000 if it still runs after
  // `timeout`.
  int wait_for_exit(std::chrono::seconds timeout);

 private:
  int wait_exit();

  std::filesystem::path dir_;
  std::filesystem::path db_;
  pid_t pid_ = -1;
  int port_ = 0;
  int metrics_port_ = 0;
  std::string unix_socket_;
};

}  // namespace blockfog::server::testing
