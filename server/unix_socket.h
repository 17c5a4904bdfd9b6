#pragma once

// The file of the Unix-domain socket the server listens on with --listen unix:PATH. A reverse
// proxy on the same machine (deploy/nginx/) then reaches the server without the TCP stack's
// work at both ends of the connection: on this project's machine a message over a Unix socket
// cost less than half the CPU of one over TCP loopback (bench/RESULTS.md, session 15).

#include <stdexcept>
#include <string>

namespace blockfog::server {

// A path that cannot be listened on, with the reason in what().
class UnixSocketPathError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The longest path a Unix-domain socket address holds (sockaddr_un::sun_path, without its NUL).
std::size_t max_unix_socket_path();

// Makes `path` free for a new socket. A socket file that nobody listens on (a server killed
// before it could remove it) is removed; a live server's socket, or any file that is not a
// socket, is left alone and reported with UnixSocketPathError.
void claim_unix_socket_path(const std::string& path);

// Once the socket is bound: owner and group may connect (a proxy running as another user is
// given the server's group), others may not.
void restrict_unix_socket(const std::string& path);

// Removes the socket file at `path` if it is still a socket (at exit); never throws.
void remove_unix_socket(const std::string& path) noexcept;

}  // namespace blockfog::server
