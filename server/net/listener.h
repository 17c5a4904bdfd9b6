#pragma once

// The listeners: a TCP port (plain or TLS) or a Unix-domain socket, each starting an HTTP
// session per accepted connection within the connection limits. Part of net.cpp's
// translation unit (server/net/common.h).

#include "server/net/http_session.h"

namespace blockfog::server::net_internal {

// Accepts connections on a TCP port, or on a Unix-domain socket (Protocol is tcp or
// net::local::stream_protocol), and starts an HTTP session for each.
class Listener {
 public:
  virtual ~Listener() = default;
  virtual void run() = 0;
  virtual void stop() = 0;
};

template <typename Protocol>
class ProtocolListener : public Listener,
                         public std::enable_shared_from_this<ProtocolListener<Protocol>> {
 public:
  static constexpr bool kTcp = std::is_same_v<Protocol, tcp>;
  using Socket = typename Protocol::socket::template rebind_executor<Executor>::other;
  using PlainStream = beast::basic_stream<Protocol, Executor>;

  // `prepare` runs between bind and listen: nobody can connect before it is done.
  ProtocolListener(Shared& shared, ssl::context* tls, const typename Protocol::endpoint& endpoint,
                   const std::function<void()>& prepare = nullptr, Port port = Port::Public)
      : shared_(shared), tls_(tls), port_(port), acceptor_(shared.contexts.first().get_executor()) {
    acceptor_.open(endpoint.protocol());
    if constexpr (kTcp) acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    if (prepare) prepare();
    acceptor_.listen(net::socket_base::max_listen_connections);
  }

  std::uint16_t port() const requires kTcp { return acceptor_.local_endpoint().port(); }

  void run() override { accept_next(); }

  void stop() override {
    net::post(acceptor_.get_executor(), [self = this->shared_from_this()] {
      beast::error_code ignored;
      self->acceptor_.close(ignored);
    });
  }

 private:
  void accept_next() {
    acceptor_.async_accept(
        shared_.contexts.next().get_executor(),
        beast::bind_front_handler(&ProtocolListener::on_accept, this->shared_from_this()));
  }

  void on_accept(beast::error_code ec, Socket socket) {
    if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
    if (!ec && !shared_.draining) {
      std::string address(kUnixPeer);
      if constexpr (kTcp) {
        beast::error_code endpoint_error;
        const auto remote = socket.remote_endpoint(endpoint_error);
        address = endpoint_error ? "?" : remote.address().to_string();
        // Views are pushed as soon as they exist: no Nagle delay behind a delayed ACK.
        beast::error_code ignored_option;
        socket.set_option(tcp::no_delay(true), ignored_option);
      }
      // A trusted proxy carries many clients on its connections: only the total limits it.
      auto slot = shared_.limiter.acquire(
          address, !is_trusted_proxy(address, shared_.config.trusted_proxies));
      if (!slot) {
        shared_.metrics.count_error(protocol::ErrorCode::TooManyConnections);
        beast::error_code ignored;
        socket.close(ignored);
      } else if (tls_) {
        if constexpr (kTcp) {  // config.cpp refuses TLS on a Unix socket
          auto session = std::make_shared<HttpSession<TlsStream>>(
              TlsStream(std::move(socket), *tls_), shared_, address, std::move(slot), port_);
          tracker().add(session);
          session->run();
        }
      } else {
        auto session = std::make_shared<HttpSession<PlainStream>>(
            PlainStream(std::move(socket)), shared_, address, std::move(slot), port_);
        tracker().add(session);
        session->run();
      }
    }
    accept_next();
  }

  Shared& shared_;
  ssl::context* tls_;
  const Port port_;
  typename Protocol::acceptor acceptor_;
};

}  // namespace blockfog::server::net_internal
