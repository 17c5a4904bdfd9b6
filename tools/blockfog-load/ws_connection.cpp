#include "tools/blockfog-load/ws_connection.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "tools/blockfog-load/errno_error.h"

namespace blockfog::load {
namespace {

// What one recv asks for: a patch is a few hundred bytes, a whole view some kilobytes; a
// bigger message takes more reads of this size at once.
constexpr std::size_t kReadSize = 16 * 1024;

void send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const auto n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("send");
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

// Each blocking step of the opening (connect, the handshake's send and reads) waits 30 s at most.
void limit_opening_steps(int fd) {
  const timeval timeout{30, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
}

SocketFd connect_to(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const auto service = std::to_string(port);
  if (const int error = getaddrinfo(host.c_str(), service.c_str(), &hints, &found); error != 0) {
    throw WireError("bad address " + host + ": " + gai_strerror(error));
  }
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owned(found, freeaddrinfo);
  SocketFd fd(socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) throw_errno("socket");
  limit_opening_steps(fd.get());
  while (connect(fd.get(), found->ai_addr, found->ai_addrlen) != 0) {
    if (errno != EINTR) throw_errno("connect to " + host + ":" + service);
  }
  const int one = 1;  // a frame goes out when it is sent, as the server's do
  setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

// A blocking connection to the Unix-domain socket at `path`.
SocketFd connect_unix(const std::string& path) {
  sockaddr_un address{};
  if (path.size() >= sizeof address.sun_path) throw WireError("socket path too long: " + path);
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  SocketFd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) throw_errno("socket");
  limit_opening_steps(fd.get());
  while (connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    if (errno != EINTR) throw_errno("connect to unix:" + path);
  }
  return fd;
}

}  // namespace

SocketFd& SocketFd::operator=(SocketFd&& other) noexcept {
  if (this != &other) {
    reset();
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

void SocketFd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::string ServerAddress::host_header() const {
  return unix_socket.empty() ? host + ":" + std::to_string(port) : "localhost";
}

OpenedSocket open_websocket(const ServerAddress& server, const std::string& target,
                            const std::string& cookie, std::uint64_t random) {
  OpenedSocket opened{server.unix_socket.empty() ? connect_to(server.host, server.port)
                                                 : connect_unix(server.unix_socket),
                      {}};
  const int fd = opened.fd.get();
  const auto key = websocket_key(random, random * 0x9E3779B97F4A7C15ull + 1);
  send_all(fd, upgrade_request(server.host_header(), target, cookie, key));
  std::string received;
  std::optional<std::size_t> head_end;
  while (!head_end) {
    char chunk[4096];
    const auto n = recv(fd, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_errno("reading the handshake response");
    if (n == 0) throw WireError("connection closed during the handshake");
    received.append(chunk, static_cast<std::size_t>(n));
    if (received.size() > 64 * 1024) throw WireError("handshake response too long");
    head_end = response_head_end(received);
  }
  check_upgrade_response(std::string_view(received).substr(0, *head_end), key);
  opened.early_bytes = received.substr(*head_end);
  if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) throw_errno("fcntl");
  return opened;
}

WsConnection::WsConnection(EventLoop& loop, OpenedSocket socket, std::uint64_t random)
    : loop_(loop), fd_(std::move(socket.fd)), mask_state_(random | 1) {
  reader_.append(socket.early_bytes);
}

WsConnection::~WsConnection() { close(); }

void WsConnection::start(OnMessage on_message, OnFail on_fail) {
  on_message_ = std::move(on_message);
  on_fail_ = std::move(on_fail);
  watch_ = loop_.watch(fd_.get(), *this);
  auto self = shared_from_this();  // a message handed out may drop the last other owner
  hand_out();
}

void WsConnection::send(std::string_view text) { send_frame(Opcode::text, text); }

void WsConnection::close() {
  if (closed_) return;
  closed_ = true;
  if (watch_ != 0) loop_.unwatch(watch_);
  fd_.reset();
}

void WsConnection::on_ready(std::uint32_t events) {
  auto self = shared_from_this();
  if ((events & EPOLLOUT) != 0) flush();
  if (closed_ || (events & (EPOLLIN | EPOLLERR | EPOLLHUP)) == 0) return;
  // One read takes what has come; a read that fills the room may have left more, so it reads
  // again (an empty socket is reported again by epoll, level-triggered, when bytes come).
  while (true) {
    const auto room = reader_.prepare(kReadSize);
    const auto n = recv(fd_.get(), room.data(), room.size(), 0);
    if (n > 0) {
      reader_.commit(static_cast<std::size_t>(n));
      if (static_cast<std::size_t>(n) < room.size()) break;
      continue;
    }
    if (n == 0) return fail("closed by the server");
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) break;
    return fail(std::strerror(errno));
  }
  hand_out();
}

void WsConnection::hand_out() {
  try {
    while (!closed_) {
      const auto frame = reader_.next();
      if (!frame) return;
      switch (frame->opcode) {
        case Opcode::text:
        case Opcode::binary:
          on_message_(frame->payload);
          break;
        case Opcode::ping:
          send_frame(Opcode::pong, frame->payload);
          break;
        case Opcode::close:
          return fail("closed by the server");
        default:  // a pong: nothing to do
          break;
      }
    }
  } catch (const WireError& error) {
    fail(error.what());
  }
}

void WsConnection::send_frame(Opcode opcode, std::string_view payload) {
  if (closed_) return;
  const bool was_idle = out_sent_ == out_.size();
  append_client_frame(out_, opcode, payload, next_mask());
  if (was_idle) flush();
}

void WsConnection::flush() {
  while (!closed_ && out_sent_ < out_.size()) {
    const auto n = ::send(fd_.get(), out_.data() + out_sent_, out_.size() - out_sent_,
                          MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n >= 0) {
      out_sent_ += static_cast<std::size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (!writable_wanted_) loop_.want_writable(watch_, writable_wanted_ = true);
      return;
    }
    return fail(std::strerror(errno));
  }
  out_.clear();
  out_sent_ = 0;
  if (writable_wanted_) loop_.want_writable(watch_, writable_wanted_ = false);
}

void WsConnection::fail(const std::string& why) {
  if (closed_) return;
  close();
  if (on_fail_) on_fail_(why);
}

std::uint32_t WsConnection::next_mask() {
  // xorshift64: a mask need only vary from frame to frame here (RFC 6455 10.3 guards
  // browsers' scripts against proxies; this client sends only what it chose).
  mask_state_ ^= mask_state_ << 13;
  mask_state_ ^= mask_state_ >> 7;
  mask_state_ ^= mask_state_ << 17;
  return static_cast<std::uint32_t>(mask_state_ >> 32);
}

}  // namespace blockfog::load
