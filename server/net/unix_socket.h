#pragma once

// The file of the Unix-domain socket the server listens on with --listen unix:PATH. A reverse
// proxy on the same machine (deploy/nginx/) then reaches the server without the TCP stack's
// work at both ends of the connection: on this project's machine a message over a Unix socket
// cost less than half the CPU of one over TCP loopback.

#include <sys/types.h>
#include <sys/un.h>

#include <stdexcept>
#include <string>

namespace blockfog::server {

// A path that cannot be listened on, with the reason in what().
class UnixSocketPathError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The address of the socket at `path`; UnixSocketPathError if the path is longer than that.
sockaddr_un unix_socket_address(const std::string& path);

// Makes `path` free for a new socket. A socket file that nobody listens on (a server killed
// before it could remove it) is removed; a live server's socket, or any file that is not a
// socket, is left alone and reported with UnixSocketPathError.
void claim_unix_socket_path(const std::string& path);

// Which file a socket is: at exit the server removes its own socket file only, not one that a
// server started after it put at the same path (a freed inode may be reused at once, so a
// file with the same identity that a server listens on is not removed either).
struct SocketFileId {
  dev_t device = 0;
  ino_t inode = 0;
};

// Once the socket is bound: owner and group may connect (a proxy running as another user is
// given the server's group), others may not. Returns the file's identity.
SocketFileId take_unix_socket(const std::string& path);

// Removes the socket file at `path` if it is still the one `id` names and nobody listens on it
// (at exit, once the server's own listener is closed); never throws.
void remove_unix_socket(const std::string& path, SocketFileId id) noexcept;

}  // namespace blockfog::server
