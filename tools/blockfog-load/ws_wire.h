#pragma once

// The client's side of the WebSocket wire (RFC 6455) for the load tool's closed loop, without
// sockets: the opening handshake's text, masked frames out, and frames in. The loop's
// connections read and write their sockets themselves (ws_connection.h) so that a frame costs
// one recv and one send, and nothing else: on this machine the load client shares the cores
// with the server it measures.

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace blockfog::load {

// The peer broke the protocol, or the handshake was refused: the connection is unusable.
class WireError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A fresh Sec-WebSocket-Key (16 random bytes, base64) from `random`.
std::string websocket_key(std::uint64_t random_high, std::uint64_t random_low);

// The GET request that asks `host` to open a WebSocket at `target` (RFC 6455 4.1); `cookie`
// ("name=value") is sent when not empty, with an Origin of the same host.
std::string upgrade_request(std::string_view host, std::string_view target, std::string_view cookie,
                            std::string_view key);

// Where the response's head ends (past its blank line) in `received`, or nullopt while it has
// not all come.
std::optional<std::size_t> response_head_end(std::string_view received);

// Checks a response head against the request's key: status 101 and the Sec-WebSocket-Accept
// that proves the server read this key (RFC 6455 4.2.2). Throws WireError with the status line
// otherwise (a refused upgrade answers with HTTP status and a JSON error body).
void check_upgrade_response(std::string_view head, std::string_view key);

enum class Opcode : std::uint8_t {
  continuation = 0,
  text = 1,
  binary = 2,
  close = 8,
  ping = 9,
  pong = 10
};

// Appends one final, masked client frame (RFC 6455 5.2, 5.3) carrying `payload` to `out`.
void append_client_frame(std::string& out, Opcode opcode, std::string_view payload,
                         std::uint32_t mask);

// What the server sent, one frame or whole message at a time.
struct ServerFrame {
  Opcode opcode = Opcode::text;  // text or binary for a whole (reassembled) message
  std::string_view payload;      // valid until the reader's next call
};

// Reassembles the server's frames from the bytes read off its socket. Control frames come out
// as they arrive, between the fragments of a message if need be (RFC 6455 5.4).
class FrameReader {
 public:
  explicit FrameReader(std::size_t max_message = 16u << 20) : max_message_(max_message) {}

  // Room for at least `n` more bytes to be read into; commit() says how many were.
  std::span<char> prepare(std::size_t n);
  void commit(std::size_t n);
  void append(std::string_view bytes);

  // The next whole message or control frame, or nullopt until more bytes come. Throws
  // WireError for a masked or reserved-bit frame, an unknown opcode, a control frame that is
  // fragmented or longer than 125 bytes, a continuation with no message begun, or a message
  // over the limit.
  std::optional<ServerFrame> next();

 private:
  std::string buffer_;     // bytes read in [begin_, end_); its size is only room
  std::size_t begin_ = 0;  // past the frames handed out
  std::size_t end_ = 0;
  std::string message_;  // a fragmented message's parts so far
  std::optional<Opcode> message_opcode_;
  std::size_t max_message_;
};

}  // namespace blockfog::load
