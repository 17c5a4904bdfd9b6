// --listen unix:PATH: the server behind a proxy on the same machine (server/net/unix_socket.h).
// The path is claimed safely (a stale socket replaced, a live one or another file left alone),
// HTTP is served on it, its peers share the address "unix" for the limits unless trusted as a
// proxy, and the socket file goes when the server stops. Games over it: the load client's test
// (tests/tools/load_closed_loop.sh unix).

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "server/config.h"
#include "server/net/unix_socket.h"
#include "tests/server/server_process.h"

namespace blockfog::server {
namespace {

using testing::ServerProcess;
using testing::TempDir;

// A connected client socket, closed on scope exit.
class Connection {
 public:
  explicit Connection(const std::string& path) : fd_(::socket(AF_UNIX, SOCK_STREAM, 0)) {
    const auto address = unix_socket_address(path);
    const timeval timeout{10, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    connected_ = ::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  }
  ~Connection() { ::close(fd_); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  bool connected() const { return connected_; }
  // Sends a GET and reads the answer until the server closes the connection ("" if it closed
  // without one).
  std::string get(const std::string& target) {
    const std::string request =
        "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    if (::send(fd_, request.data(), request.size(), MSG_NOSIGNAL) < 0) return "";
    std::string answer;
    char chunk[4096];
    while (true) {
      const auto n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n <= 0) return answer;
      answer.append(chunk, static_cast<std::size_t>(n));
    }
  }

 private:
  int fd_;
  bool connected_ = false;
};

std::optional<mode_t> socket_mode(const std::filesystem::path& path) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0 || !S_ISSOCK(status.st_mode)) return std::nullopt;
  return status.st_mode & 0777;
}

// A socket bound at `path`: its descriptor.
int bound_socket(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  const auto address = unix_socket_address(path);
  EXPECT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0) << path;
  return fd;
}

// Binds a socket at `path` without listening, then closes it: the file stays, as a killed
// server's does.
void bind_socket_file(const std::string& path) { ::close(bound_socket(path)); }

// A socket listening at `path`: its descriptor.
int listening_socket(const std::string& path) {
  const int fd = bound_socket(path);
  EXPECT_EQ(::listen(fd, 4), 0);
  return fd;
}

std::vector<std::string> listen_on(const std::filesystem::path& path,
                                   std::vector<std::string> more = {}) {
  std::vector<std::string> args{"--listen", "unix:" + path.string()};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Runs the server on `socket` with a database in `dir`, expecting it to refuse to start: its
// exit status and what it printed.
std::pair<int, std::string> run_refused_server(const std::filesystem::path& dir,
                                               const std::filesystem::path& socket) {
  const auto output = dir / "refused.log";
  const std::string command = std::string(BLOCKFOG_SERVER_BIN) +
                              " --listen 'unix:" + socket.string() + "' --db '" +
                              (dir / "refused.db").string() + "' > '" + output.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(output);
  std::stringstream text;
  text << in.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

TEST(UnixSocket, ServesHttpAndRemovesItsSocketWhenStopped) {
  TempDir dir;
  const auto socket = dir.path() / "blockfog.sock";
  ServerProcess server(dir.path(), listen_on(socket));
  EXPECT_EQ(server.unix_socket(), socket.string());
  EXPECT_EQ(server.port(), 0);
  // Owner and group may connect (a proxy is given the server's group), others may not.
  EXPECT_EQ(socket_mode(socket), std::optional<mode_t>(0660));

  Connection client(socket.string());
  ASSERT_TRUE(client.connected());
  const auto answer = client.get("/healthz");
  EXPECT_EQ(answer.rfind("HTTP/1.1 200", 0), 0U) << answer;
  EXPECT_NE(answer.find("\"status\":\"ok\""), std::string::npos) << answer;

  EXPECT_EQ(server.terminate(), 0);
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::symlink_status(socket)));
}

TEST(UnixSocket, ReplacesAStaleSocketButNeverALiveOneOrAnotherFile) {
  TempDir dir;
  const auto socket = dir.path() / "blockfog.sock";
  {
    ServerProcess killed(dir.path(), listen_on(socket));
    killed.kill9();  // leaves its socket file behind
  }
  ASSERT_TRUE(socket_mode(socket));

  ServerProcess server(dir.path(), listen_on(socket));  // the stale file is replaced
  EXPECT_EQ(Connection(socket.string()).get("/healthz").rfind("HTTP/1.1 200", 0), 0U);

  TempDir other_dir;
  const auto [status, log] = run_refused_server(other_dir.path(), socket);
  EXPECT_EQ(status, 1);
  EXPECT_NE(log.find("another server is listening there"), std::string::npos) << log;
  // The first server still has its socket and answers.
  EXPECT_EQ(Connection(socket.string()).get("/healthz").rfind("HTTP/1.1 200", 0), 0U);

  const auto file = dir.path() / "notes.txt";
  std::ofstream(file) << "not a socket";
  TempDir third_dir;
  const auto [file_status, file_log] = run_refused_server(third_dir.path(), file);
  EXPECT_EQ(file_status, 1);
  EXPECT_NE(file_log.find("a file that is not a socket is in the way"), std::string::npos)
      << file_log;
  std::ifstream kept(file);
  std::string text;
  std::getline(kept, text);
  EXPECT_EQ(text, "not a socket");
}

// Every peer of a Unix socket has the address "unix": one per-address connection limit for all
// of them, unless --trusted-proxy unix says they are a proxy's connections.
TEST(UnixSocket, PeersShareTheAddressUnixUnlessTrustedAsAProxy) {
  TempDir dir;
  const auto socket = dir.path() / "blockfog.sock";
  {
    ServerProcess server(dir.path(), listen_on(socket, {"--max-connections-per-address", "2"}));
    Connection first(socket.string());
    Connection second(socket.string());
    ASSERT_TRUE(first.connected() && second.connected());
    Connection third(socket.string());
    EXPECT_EQ(third.get("/healthz"), "");  // closed unanswered: the address has its two
    EXPECT_EQ(first.get("/healthz").rfind("HTTP/1.1 200", 0), 0U);
  }
  ServerProcess server(dir.path(), listen_on(socket, {"--max-connections-per-address", "2",
                                                      "--trusted-proxy", "unix"}));
  Connection first(socket.string());
  Connection second(socket.string());
  Connection third(socket.string());
  EXPECT_EQ(third.get("/healthz").rfind("HTTP/1.1 200", 0), 0U);
  EXPECT_EQ(first.get("/healthz").rfind("HTTP/1.1 200", 0), 0U);
}

TEST(UnixSocketPath, ClaimsOnlyWhatIsFreeOrStale) {
  TempDir dir;
  const auto path = (dir.path() / "s.sock").string();
  EXPECT_NO_THROW(claim_unix_socket_path(path));  // nothing there
  EXPECT_THROW(claim_unix_socket_path(""), UnixSocketPathError);
  EXPECT_THROW(claim_unix_socket_path("/tmp/" + std::string(max_unix_socket_path(), 'x')),
               UnixSocketPathError);

  // A socket bound but not listening: what a killed server leaves.
  bind_socket_file(path);
  ASSERT_TRUE(socket_mode(path));
  EXPECT_NO_THROW(claim_unix_socket_path(path));
  EXPECT_FALSE(socket_mode(path));

  const auto file = dir.path() / "plain";
  std::ofstream(file) << "x";
  EXPECT_THROW(claim_unix_socket_path(file.string()), UnixSocketPathError);
}

// At exit a server removes its own socket file, not one another server has put at its path
// since (even where the freed inode was reused for it), nor any other file.
TEST(UnixSocketPath, RemovesOnlyItsOwnSocketFile) {
  TempDir dir;
  const auto path = (dir.path() / "s.sock").string();
  bind_socket_file(path);
  const auto first = take_unix_socket(path);
  EXPECT_EQ(socket_mode(path), std::optional<mode_t>(0660));
  ::unlink(path.c_str());
  {
    const int later = listening_socket(path);  // a later server, live
    remove_unix_socket(path, first);
    EXPECT_TRUE(socket_mode(path));
    remove_unix_socket(path, take_unix_socket(path));  // its own, but it still listens
    EXPECT_TRUE(socket_mode(path));
    ::close(later);
  }
  struct stat status {};
  ASSERT_EQ(::lstat(path.c_str(), &status), 0);
  remove_unix_socket(path, {status.st_dev, status.st_ino});  // closed: gone
  EXPECT_FALSE(socket_mode(path));

  const auto file = dir.path() / "plain";
  std::ofstream(file) << "x";
  ASSERT_EQ(::lstat(file.c_str(), &status), 0);
  remove_unix_socket(file.string(), {status.st_dev, status.st_ino});
  EXPECT_TRUE(std::filesystem::exists(file));
}

}  // namespace
}  // namespace blockfog::server
