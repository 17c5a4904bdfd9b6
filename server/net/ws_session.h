#pragma once

// A WebSocket session (docs/protocol.md): accepts the upgrade its HTTP session vetted, joins
// the game's room, reads client messages under a rate limit, and writes the room's frames in
// order from a bounded queue. Part of net.cpp's translation unit (server/net/common.h).

#include "server/net/common.h"

namespace blockfog::server::net_internal {

template <typename Stream>
class WsSession : public RoomClient,
                  public Closable,
                  public std::enable_shared_from_this<WsSession<Stream>> {
 public:
  WsSession(Stream&& stream, Shared& shared, WebSocketTicket ticket,
            std::unique_ptr<ConnectionLimiter::Slot> slot)
      : ws_(std::move(stream)),
        shared_(shared),
        ticket_(std::move(ticket)),
        slot_(std::move(slot)),
        limiter_(shared.config.ws_messages_per_second, 2 * shared.config.ws_messages_per_second) {
    ++shared_.metrics.websocket_connections;
  }
  ~WsSession() override { --shared_.metrics.websocket_connections; }

  // Runs the session on its io_context's thread, wherever it is called from (the HTTP
  // session's thread, when the connection moved to its game's thread).
  void start(http::request<http::string_body> req) {
    net::dispatch(ws_.get_executor(),
                  [self = this->shared_from_this(), req = std::move(req)]() mutable {
                    self->run(std::move(req));
                  });
  }

  void run(http::request<http::string_body> req) {
    beast::get_lowest_layer(ws_).expires_never();  // the WebSocket keeps its own timeouts
    websocket::stream_base::timeout timeout{};
    timeout.handshake_timeout = kHandshakeTimeout;
    timeout.idle_timeout = std::chrono::seconds(shared_.config.idle_timeout_seconds);
    timeout.keep_alive_pings = true;
    ws_.set_option(timeout);
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "blockfog"); }));
    ws_.read_message_max(kWsReadMax);
    ws_.text(true);
    // A view (~5 KB) goes out as one frame in one write: Beast's default splits messages into
    // 4 KB fragments, each its own send call here and its own frame for the client to join.
    ws_.auto_fragment(false);
    ws_.async_accept(req,
                     beast::bind_front_handler(&WsSession::on_accept, this->shared_from_this()));
  }

  void send(std::shared_ptr<const std::string> frame) override {
    enqueue(Outgoing{std::move(frame), nullptr});
  }

  void send_view(std::shared_ptr<const std::string> head,
                 std::shared_ptr<const std::string> view) override {
    enqueue(Outgoing{std::move(head), std::move(view)});
  }

  void close() override {
    net::post(ws_.get_executor(), [self = this->shared_from_this()] {
      if (self->closing_ || self->closed_) return;
      self->closing_ = true;
      if (self->queue_.empty()) self->start_close(websocket::close_code::going_away);
    });
  }

  void shutdown() override {
    net::post(ws_.get_executor(), [self = this->shared_from_this()] {
      if (!self->accepted_) {
        beast::get_lowest_layer(self->ws_).close();
        return;
      }
      if (self->closing_ || self->closed_) return;
      self->queue_.push_back(Outgoing{std::make_shared<const std::string>(protocol::encode(
                                          protocol::ServerMessage{protocol::RestartingMessage{}})),
                                      nullptr});
      self->closing_ = true;
      if (self->queue_.size() == 1) self->write_next();
    });
  }

 private:
  // One message: `text`, or a view frame in parts (its head, the view, then the frame's tail).
  struct Outgoing {
    std::shared_ptr<const std::string> text;
    std::shared_ptr<const std::string> view;
  };

  void enqueue(Outgoing frame) {
    net::post(ws_.get_executor(), [self = this->shared_from_this(), frame = std::move(frame)] {
      if (self->closing_ || self->closed_) return;
      if (self->queue_.size() >= kMaxQueuedFrames) {
        // A write is in flight, so no close handshake now: drop the connection.
        log_warn("dropping a WebSocket that does not keep up");
        self->closing_ = true;
        beast::get_lowest_layer(self->ws_).close();
        return;
      }
      self->queue_.push_back(frame);
      if (self->queue_.size() == 1) self->write_next();
    });
  }

  void on_accept(beast::error_code ec) {
    if (ec) return finish();
    accepted_ = true;
    if (ticket_.moved) {
      // Another node holds the game: say where, then close once that frame is written.
      queue_.push_back(Outgoing{std::make_shared<const std::string>(
                                    protocol::encode(protocol::ServerMessage{*ticket_.moved})),
                                nullptr});
      closing_ = true;
      write_next();
      return read_next();
    }
    if (!ticket_.session.empty()) {
      shared_.api.session_sockets().add(ticket_.session, this->shared_from_this());
    }
    ticket_.room->join(this->shared_from_this(), ticket_.role, ticket_.player, ticket_.chat_since,
                       ticket_.updates);
    read_next();
  }

  void read_next() {
    ws_.async_read(buffer_,
                   beast::bind_front_handler(&WsSession::on_read, this->shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec) {
      if (ec == websocket::error::message_too_big) {
        shared_.metrics.count_error(protocol::ErrorCode::FrameTooLarge);
      }
      return finish();
    }
    const std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    // A closing socket (its session ended, or the server drains) acts no more.
    if (closing_) return read_next();
    const auto arrived = std::chrono::steady_clock::now();
    if (!limiter_.allow(arrived)) {
      refuse(protocol::ErrorCode::RateLimited, "too many messages; slow down");
      if (++refused_in_a_row_ >= kMaxRefusedInARow) {
        closing_ = true;
        if (queue_.empty()) start_close(websocket::close_code::policy_error);
        return;
      }
      return read_next();
    }
    if (!ws_.got_text()) {
      refuse(protocol::ErrorCode::MalformedJson, "send JSON in text frames");
      return read_next();
    }
    auto decoded = protocol::decode_client(text);
    if (auto* error = std::get_if<protocol::DecodeError>(&decoded)) {
      refuse(error->code, error->message);
      ++refused_in_a_row_;
    } else {
      refused_in_a_row_ = 0;
      if (ticket_.room) {
        ticket_.room->receive(this, std::move(std::get<protocol::ClientMessage>(decoded)), arrived);
      }
    }
    read_next();
  }

  void refuse(protocol::ErrorCode code, const std::string& message) {
    shared_.metrics.count_error(code);
    send(std::make_shared<const std::string>(protocol::encode(
        protocol::ServerMessage{protocol::ErrorMessage{code, message, std::nullopt}})));
  }

  void write_next() {
    // One gather write (one send call with the frame header) whatever the parts; the queue
    // keeps them alive until on_write.
    const Outgoing& next = queue_.front();
    const std::array<net::const_buffer, 3> parts{
        net::buffer(*next.text), next.view ? net::buffer(*next.view) : net::const_buffer(),
        next.view ? net::buffer(protocol::kViewFrameTail.data(), protocol::kViewFrameTail.size())
                  : net::const_buffer()};
    ws_.async_write(parts,
                    beast::bind_front_handler(&WsSession::on_write, this->shared_from_this()));
  }

  void on_write(beast::error_code ec, std::size_t) {
    if (ec) return finish();
    queue_.pop_front();
    if (!queue_.empty()) return write_next();
    if (closing_) start_close(websocket::close_code::going_away);
  }

  void start_close(websocket::close_code code) {
    if (close_started_ || closed_) return;
    close_started_ = true;
    // A peer that does not answer the close frame soon is not waited for.
    websocket::stream_base::timeout timeout{};
    timeout.handshake_timeout = kCloseTimeout;
    timeout.idle_timeout = kCloseTimeout;
    timeout.keep_alive_pings = false;
    ws_.set_option(timeout);
    ws_.async_close(code, [self = this->shared_from_this()](beast::error_code) {
      // The pending read completes with an error and calls finish().
      beast::get_lowest_layer(self->ws_).close();
    });
  }

  void finish() {
    if (closed_) return;
    closed_ = true;
    queue_.clear();
    if (accepted_ && ticket_.room) ticket_.room->leave(this);
  }

  websocket::stream<Stream> ws_;
  Shared& shared_;
  WebSocketTicket ticket_;
  std::unique_ptr<ConnectionLimiter::Slot> slot_;
  RateLimiter limiter_;
  beast::flat_buffer buffer_;
  std::deque<Outgoing> queue_;
  int refused_in_a_row_ = 0;
  bool accepted_ = false;
  bool closing_ = false;
  bool close_started_ = false;
  bool closed_ = false;
};

}  // namespace blockfog::server::net_internal
