#include "server/net/unix_socket.h"

#include "server/config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace blockfog::server {
namespace {

std::string reason(const std::string& path, const std::string& what) {
  return "cannot listen on unix:" + path + ": " + what;
}

// Whether a server accepts connections on the socket at `path`.
bool someone_listens(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw UnixSocketPathError(reason(path, std::strerror(errno)));
  const auto address = unix_socket_address(path);
  int result = 0;
  do {
    result = ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
  } while (result != 0 && errno == EINTR);
  const int error = errno;
  ::close(fd);
  if (result == 0) return true;
  // Refused: the file outlived its server. A full backlog (EAGAIN) means a live, busy one.
  if (error == ECONNREFUSED) return false;
  if (error == EAGAIN) return true;
  throw UnixSocketPathError(reason(path, std::strerror(error)));
}

}  // namespace

sockaddr_un unix_socket_address(const std::string& path) {
  if (path.size() > max_unix_socket_path()) {
    throw UnixSocketPathError(reason(
        path, "the path is longer than " + std::to_string(max_unix_socket_path()) + " bytes"));
  }
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  return address;
}

void claim_unix_socket_path(const std::string& path) {
  if (path.empty()) throw UnixSocketPathError(reason(path, "the path is empty"));
  unix_socket_address(path);  // throws if the path is too long for one
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) {
    if (errno == ENOENT) return;
    throw UnixSocketPathError(reason(path, std::strerror(errno)));
  }
  if (!S_ISSOCK(status.st_mode)) {
    throw UnixSocketPathError(reason(path, "a file that is not a socket is in the way"));
  }
  if (someone_listens(path)) {
    throw UnixSocketPathError(reason(path, "another server is listening there"));
  }
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    throw UnixSocketPathError(
        reason(path, std::string("removing the stale socket: ") + std::strerror(errno)));
  }
}

SocketFileId take_unix_socket(const std::string& path) {
  if (::chmod(path.c_str(), 0660) != 0) {
    throw UnixSocketPathError(reason(path, std::string("chmod: ") + std::strerror(errno)));
  }
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) {
    throw UnixSocketPathError(reason(path, std::string("stat: ") + std::strerror(errno)));
  }
  return {status.st_dev, status.st_ino};
}

void remove_unix_socket(const std::string& path, SocketFileId id) noexcept {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0 || !S_ISSOCK(status.st_mode) ||
      status.st_dev != id.device || status.st_ino != id.inode) {
    return;
  }
  try {
    if (!someone_listens(path)) ::unlink(path.c_str());
  } catch (const UnixSocketPathError&) {
    // Cannot tell: leave it. A stale file is replaced at the next start.
  }
}

}  // namespace blockfog::server
