#pragma once

// An HTTP session: reads requests (over TLS when the listener has a context), answers them
// through the Api on the worker pools, and hands an accepted WebSocket upgrade to its game's
// thread as a WsSession. Part of net.cpp's translation unit (server/net/common.h).

#include "server/net/ws_session.h"

namespace blockfog::server::net_internal {

template <typename Stream>
class HttpSession : public Closable, public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  HttpSession(Stream&& stream, Shared& shared, std::string address,
              std::unique_ptr<ConnectionLimiter::Slot> slot, Port port)
      : stream_(std::move(stream)),
        shared_(shared),
        address_(std::move(address)),
        slot_(std::move(slot)),
        port_(port) {
    ++shared_.metrics.http_connections;
  }
  ~HttpSession() override { --shared_.metrics.http_connections; }

  void run() {
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      beast::get_lowest_layer(stream_).expires_after(kHandshakeTimeout);
      stream_.async_handshake(ssl::stream_base::server,
                              [self = this->shared_from_this()](beast::error_code ec) {
                                if (!ec) self->read_next();
                              });
    } else {
      read_next();
    }
  }

  void shutdown() override {
    net::post(stream_.get_executor(), [self = this->shared_from_this()] {
      self->stopping_ = true;
      if (!self->busy_) beast::get_lowest_layer(self->stream_).close();
    });
  }

 private:
  static constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

  void read_next() {
    if (stopping_) return beast::get_lowest_layer(stream_).close();
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(protocol::kMaxRequestBodyBytes);
    beast::get_lowest_layer(stream_).expires_after(kHttpReadTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&HttpSession::on_read, this->shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::body_limit || ec == http::error::header_limit) {
      HttpResponse r{413,
                     "application/json",
                     error_json(protocol::ErrorCode::FrameTooLarge, "request too large"),
                     {}};
      shared_.metrics.count_error(protocol::ErrorCode::FrameTooLarge);
      return write(to_response(r, 11, false, false, kTls));
    }
    if (ec) return close();
    auto req = parser_->release();
    busy_ = true;
    const bool upgrade = websocket::is_upgrade(req);
    auto request = std::make_shared<http::request<http::string_body>>(std::move(req));
    auto self = this->shared_from_this();
    if (upgrade && port_ == Port::Public) {
      net::post(shared_.workers, [self, request] {
        std::variant<WebSocketTicket, HttpResponse> resolved;
        try {
          resolved = self->shared_.api.resolve_websocket(
              to_request(*request, self->address_, kTls, self->shared_.config));
        } catch (const std::exception& e) {
          log_error(std::string("WebSocket upgrade: ") + e.what());
          resolved = HttpResponse{500,
                                  "application/json",
                                  error_json(protocol::ErrorCode::Internal, "internal error"),
                                  {}};
        }
        net::post(self->stream_.get_executor(), [self, request,
                                                 resolved = std::move(resolved)]() mutable {
          self->busy_ = false;
          if (auto* ticket = std::get_if<WebSocketTicket>(&resolved)) {
            if (self->shared_.draining) return self->close();
            auto stream = self->take_stream_for(ticket->game_id);
            auto ws = std::make_shared<WsSession<Stream>>(
                std::move(stream), self->shared_, std::move(*ticket), std::move(self->slot_));
            tracker().add(ws);
            ws->start(std::move(*request));
          } else {
            self->write(to_response(std::get<HttpResponse>(resolved), request->version(), false,
                                    false, kTls));
          }
        });
      });
      return;
    }
    auto converted =
        std::make_shared<HttpRequest>(to_request(*request, address_, kTls, shared_.config));
    auto* pool = &shared_.workers;
    std::shared_ptr<KdfBudget::Ticket> ticket;
    if (port_ == Port::Public && shared_.api.runs_kdf(*converted)) {
      // Password hashing waits on a pool of its own, within its budget: a flood of logins
      // delays neither other requests nor WebSocket upgrades.
      HttpResponse refusal;
      ticket = shared_.api.admit_kdf(*converted, refusal);
      if (!ticket) {
        busy_ = false;
        return write(to_response(refusal, request->version(), request->keep_alive(), false, kTls));
      }
      pool = &shared_.kdf_workers;
    }
    net::post(*pool, [self, request, converted, ticket = std::move(ticket)]() mutable {
      const auto response = self->shared_.api.handle(*converted, self->port_);
      ticket.reset();
      net::post(self->stream_.get_executor(), [self, request, response] {
        self->busy_ = false;
        const bool keep_alive = request->keep_alive() && !self->stopping_;
        self->write(to_response(response, request->version(), keep_alive,
                                request->method() == http::verb::head, kTls));
      });
    });
  }

  // The connection, for the WebSocket of a player or observer of game `game_id`: moved to the
  // network thread of the game's room (NetworkContexts). Nothing is in flight on it now (the
  // upgrade request was read, its answer not yet written). A TLS stream stays where it is:
  // its encryption state is not handed over (it works there too, through locked posts).
  Stream take_stream_for(std::int64_t game_id) {
    if constexpr (kTls) {
      return std::move(stream_);
    } else {
      auto& target = shared_.contexts.of_game(game_id);
      if (&stream_.get_executor().context() == &target) return std::move(stream_);
      auto socket = stream_.release_socket();
      beast::error_code ec;
      const auto protocol = socket.local_endpoint(ec).protocol();
      if (ec) return Stream(std::move(socket));  // cannot move it: served from here instead
      const auto handle = socket.release(ec);
      if (ec) return Stream(std::move(socket));
      typename Stream::socket_type moved(target.get_executor());
      moved.assign(protocol, handle, ec);
      if (ec) {
        ::close(handle);  // neither socket owns it now
        log_warn("WebSocket: cannot move a connection to its game's thread: " + ec.message());
      }
      return Stream(std::move(moved));
    }
  }

  void write(http::response<http::string_body> res) {
    auto message = std::make_shared<http::response<http::string_body>>(std::move(res));
    beast::get_lowest_layer(stream_).expires_after(kHttpReadTimeout);
    http::async_write(
        stream_, *message,
        [self = this->shared_from_this(), message](beast::error_code ec, std::size_t) {
          if (ec || !message->keep_alive()) return self->close();
          self->read_next();
        });
  }

  void close() {
    if constexpr (kTls) {
      beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(2));
      stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {
        beast::get_lowest_layer(self->stream_).close();
      });
    } else {
      beast::error_code ignored;
      stream_.socket().shutdown(net::socket_base::shutdown_send, ignored);
      stream_.close();
    }
  }

  Stream stream_;
  Shared& shared_;
  std::string address_;
  std::unique_ptr<ConnectionLimiter::Slot> slot_;
  const Port port_;  // the public one, or the operator's (metrics only)
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  bool busy_ = false;
  bool stopping_ = false;
};

}  // namespace blockfog::server::net_internal
