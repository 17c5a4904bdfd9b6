#pragma once

// One WebSocket connection of the load tool, over a non-blocking socket on an EventLoop: each
// message in costs one recv (often fewer: one read takes whatever has come), each message out
// one send. Opened blocking, off the loop (open_websocket), then handed to the loop.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "tools/blockfog-load/event_loop.h"
#include "tools/blockfog-load/ws_wire.h"

namespace blockfog::load {

// A socket descriptor, closed when dropped.
class SocketFd {
 public:
  SocketFd() = default;
  explicit SocketFd(int fd) : fd_(fd) {}
  SocketFd(SocketFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  SocketFd& operator=(SocketFd&& other) noexcept;
  SocketFd(const SocketFd&) = delete;
  SocketFd& operator=(const SocketFd&) = delete;
  ~SocketFd() { reset(); }
  int get() const { return fd_; }
  void reset();

 private:
  int fd_ = -1;
};

// A socket whose WebSocket handshake is done, in non-blocking mode, and the bytes the server
// sent after its handshake response (its first frames, often).
struct OpenedSocket {
  SocketFd fd;
  std::string early_bytes;
};

// Where the server listens: host:port (a numeric address), or the path of a Unix-domain socket
// (the server's --listen unix:PATH) when `unix_socket` is set.
struct ServerAddress {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string unix_socket;
  // What the Host header says (and the Origin is made from).
  std::string host_header() const;
};

// Connects to the server and opens a WebSocket at `target`, sending `cookie` ("name=value") if
// not empty; blocks, 30 seconds at most for each step. `random` makes the handshake key.
// Throws WireError if the server refuses, std::system_error if it cannot be reached.
OpenedSocket open_websocket(const ServerAddress& server, const std::string& target,
                            const std::string& cookie, std::uint64_t random);

class WsConnection final : public EventLoop::Watcher,
                           public std::enable_shared_from_this<WsConnection> {
 public:
  using OnMessage = std::function<void(std::string_view)>;
  using OnFail = std::function<void(const std::string&)>;

  // `random` seeds the masks of the frames sent (RFC 6455 5.3).
  WsConnection(EventLoop& loop, OpenedSocket socket, std::uint64_t random);
  ~WsConnection() override;

  // Watches the socket and hands out the messages it already holds, then each as it comes.
  // A ping is answered; a close frame, a broken protocol or a dropped connection calls
  // on_fail once and closes.
  void start(OnMessage on_message, OnFail on_fail);
  void send(std::string_view text);
  void close();  // no more callbacks
  bool is_closed() const { return closed_; }

  void on_ready(std::uint32_t events) override;

 private:
  void send_frame(Opcode opcode, std::string_view payload);
  void flush();
  void hand_out();
  void fail(const std::string& why);
  std::uint32_t next_mask();

  EventLoop& loop_;
  SocketFd fd_;
  EventLoop::Watch watch_ = 0;
  FrameReader reader_;
  std::string out_;  // frames not yet all sent, from out_sent_
  std::size_t out_sent_ = 0;
  bool writable_wanted_ = false;
  std::uint64_t mask_state_;
  OnMessage on_message_;
  OnFail on_fail_;
  bool closed_ = false;
};

}  // namespace blockfog::load
