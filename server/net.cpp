#include "server/net.h"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <deque>
#include <fstream>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include <unistd.h>

#include "protocol/http.h"
#include "protocol/messages.h"
#include "protocol/view_frame.h"
#include "server/api.h"
#include "server/db_worker.h"
#include "server/forwarded.h"
#include "server/limits.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/room_registry.h"
#include "server/unix_socket.h"

namespace blockfog::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

constexpr auto kHandshakeTimeout = std::chrono::seconds(10);
constexpr auto kHttpReadTimeout = std::chrono::seconds(30);
constexpr auto kCloseTimeout = std::chrono::seconds(1);
constexpr std::size_t kHeaderLimit = 8 * 1024;
// Frames up to this size are read and answered with frame_too_large; bigger ones close the
// connection (WebSocket close code 1009) without being buffered.
constexpr std::size_t kWsReadMax = 64 * 1024;
constexpr std::size_t kMaxQueuedFrames = 256;  // a client this far behind is too slow: closed
constexpr int kMaxRefusedInARow = 50;          // then a flooding client is closed

// Each connection runs on the executor of its io_context, named by its concrete type: with
// Beast's default (a type-erased any_io_executor) every operation converted the executor,
// allocating a copy of it on the heap and freeing it again (~4% of the server's CPU at 100 busy
// games: bench/RESULTS.md, session 11). No strand: one thread runs each io_context
// (NetworkContexts), so a connection's handlers, and a room's tasks, never overlap. A strand
// cost a lock, a shared counter and a second queue per handler (bench/RESULTS.md, session 19).
using Executor = net::io_context::executor_type;
using TcpStream = beast::basic_stream<tcp, Executor>;
using TlsStream = beast::ssl_stream<TcpStream>;
// What a peer of --listen unix:PATH (server/unix_socket.h) is called for the limits and
// --trusted-proxy: it has no address of its own.
constexpr std::string_view kUnixPeer = "unix";

class NetworkContexts;

// What every session needs, shared by the whole server.
struct Shared {
  const Config& config;
  Metrics& metrics;
  Api& api;
  net::thread_pool& workers;      // blocking API handlers and WebSocket upgrades run here
  net::thread_pool& kdf_workers;  // password hashing (logins, registrations) runs here
  ConnectionLimiter& limiter;
  NetworkContexts& contexts;
  std::atomic<bool> draining{false};
};

// Sessions that a drain must close, held weakly.
class Closable {
 public:
  virtual ~Closable() = default;
  virtual void shutdown() = 0;
};

class Tracker {
 public:
  void add(const std::shared_ptr<Closable>& c) {
    std::lock_guard lock(mutex_);
    std::erase_if(items_, [](const auto& w) { return w.expired(); });
    items_.push_back(c);
  }
  void shutdown_all() {
    std::vector<std::shared_ptr<Closable>> alive;
    {
      std::lock_guard lock(mutex_);
      for (auto& w : items_) {
        if (auto c = w.lock()) alive.push_back(std::move(c));
      }
    }
    for (auto& c : alive) c->shutdown();
  }
  std::size_t live() {
    std::lock_guard lock(mutex_);
    std::erase_if(items_, [](const auto& w) { return w.expired(); });
    return items_.size();
  }

 private:
  std::mutex mutex_;
  std::list<std::weak_ptr<Closable>> items_;
};

Tracker& tracker() {
  static Tracker instance;
  return instance;
}

// One io_context per network thread, each run by that thread alone. A game's room and the
// WebSockets of its players share one (the game's id picks it), so an action's path (read,
// the room's strand, the writes of both seats' frames) stays on one thread: Asio queues what
// that thread posts to itself without a lock. With one io_context for all threads every post
// and every poll took its one mutex, and the two threads contended for it: ~1.6 futex calls
// per action at 100 busy games (bench/RESULTS.md, session 18).
class NetworkContexts {
 public:
  explicit NetworkContexts(int threads) {
    for (int i = 0; i < threads; ++i) {
      // 1: only this context's own thread runs it (other threads still post into it, locked).
      contexts_.push_back(std::make_unique<net::io_context>(1));
      // Every context but the first (which holds the listener and the signals) would find no
      // work before its first connection; the guard keeps its thread until the drain is done.
      if (i > 0) guards_.emplace_back(contexts_.back()->get_executor());
    }
  }

  net::io_context& first() { return *contexts_.front(); }
  net::io_context& at(std::size_t i) { return *contexts_[i]; }
  std::size_t size() const { return contexts_.size(); }
  // Where a game's room and its players' connections run.
  net::io_context& of_game(std::int64_t game_id) {
    return *contexts_[static_cast<std::uint64_t>(game_id) % contexts_.size()];
  }
  // Where a new connection starts (its HTTP requests), in turn.
  net::io_context& next() {
    return *contexts_[next_.fetch_add(1, std::memory_order_relaxed) % contexts_.size()];
  }
  // Every session is closed: the threads may end when their contexts run out of work.
  void release() {
    for (auto& guard : guards_) guard.reset();
  }
  void stop() {
    for (auto& context : contexts_) context->stop();
  }

 private:
  std::vector<std::unique_ptr<net::io_context>> contexts_;
  std::vector<net::executor_work_guard<net::io_context::executor_type>> guards_;
  std::atomic<std::size_t> next_{0};
};

HttpRequest to_request(const http::request<http::string_body>& req, const std::string& address,
                       bool tls, const Config& config) {
  HttpRequest r;
  r.method = std::string(req.method_string());
  r.target = std::string(req.target());
  for (const auto& field : req) {
    std::string name(field.name_string());
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.headers[name] = std::string(field.value());
  }
  r.body = req.body();
  r.remote_address = address;
  r.tls = tls;
  apply_forwarded_headers(r, config.trusted_proxies);
  return r;
}

http::response<http::string_body> to_response(const HttpResponse& response, unsigned version,
                                              bool keep_alive, bool head, bool tls) {
  http::response<http::string_body> res{static_cast<http::status>(response.status), version};
  res.set(http::field::server, "blockfog");
  res.set(http::field::content_type, response.content_type);
  res.set("X-Content-Type-Options", "nosniff");
  res.set("X-Frame-Options", "DENY");
  res.set("Referrer-Policy", "same-origin");
  // The client has no inline script or style and talks only to this server.
  res.set("Content-Security-Policy",
          "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
          "frame-ancestors 'none'");
  if (tls) res.set("Strict-Transport-Security", "max-age=31536000");
  for (const auto& [name, value] : response.headers) res.insert(name, value);
  // API answers are not cached unless their handler says how (a finished game's replay steps).
  if (response.content_type == "application/json" && res.count(http::field::cache_control) == 0) {
    res.set(http::field::cache_control, "no-store");
  }
  res.keep_alive(keep_alive);
  if (head) {
    res.content_length(response.body.size());
  } else {
    res.body() = response.body;
    res.prepare_payload();
  }
  return res;
}

std::string error_json(protocol::ErrorCode code, const std::string& message) {
  return protocol::error_body(code, message).dump();
}

// --- WebSocket -------------------------------------------------------------------------------

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
      ticket_.room->receive(this, std::move(std::get<protocol::ClientMessage>(decoded)), arrived);
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
    if (accepted_) ticket_.room->leave(this);
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

// --- HTTP ------------------------------------------------------------------------------------

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
            auto stream = self->take_stream_for(ticket->room->id());
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

// --- listening -------------------------------------------------------------------------------

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

std::unique_ptr<ssl::context> make_tls_context(const Config& config) {
  if (!config.tls()) return nullptr;
  auto ctx = std::make_unique<ssl::context>(ssl::context::tls_server);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                   ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                   ssl::context::single_dh_use);
  ctx->use_certificate_chain_file(config.tls_cert);
  ctx->use_private_key_file(config.tls_key, ssl::context::pem);
  return ctx;
}

// Runs `ioc` on this thread like io_context::run(), but a thread that runs out of work polls
// for more (yielding the core to any other thread that wants it) for `poll` before it sleeps.
// On this project's virtual machine a sleeping thread took tens of microseconds to wake: at one
// game, with each action waking the network threads several times, the switches were a third
// of the server's CPU per action, and on the action's path. Polling 200 us bridges the client's
// turn-around: p50 190-240 -> 115-140 us at one game, no change at 100 or 1,000 games
// (bench/RESULTS.md, session 12). A busy server never runs out of work; an idle one sleeps.
void run_network_thread(net::io_context& ioc, std::chrono::microseconds poll) {
  if (poll.count() == 0) return (void)ioc.run();
  using Clock = std::chrono::steady_clock;
  auto last_work = Clock::now();
  for (;;) {
    if (ioc.poll() > 0) {  // runs every ready handler, and checks the sockets without waiting
      last_work = Clock::now();
    } else if (ioc.stopped()) {
      return;  // stop(), or no work left: as run() returns
    } else if (Clock::now() - last_work < poll) {
      std::this_thread::yield();
    } else {
      if (ioc.run_one() == 0) return;  // sleeps until there is work
      last_work = Clock::now();
    }
  }
}

}  // namespace

int run_server(const Config& config, DbWorker& db, Metrics& metrics) {
  NetworkContexts contexts(config.threads);
  net::io_context& ioc = contexts.first();
  net::thread_pool workers(2);
  // One thread: at most one core hashes passwords, whatever the flood (kdf_budget.h).
  net::thread_pool kdf_workers(1);
  // A failed store (a lost write: storage/faults.h) stops the server as SIGTERM does, but with
  // exit status 1, so that its supervisor restarts it and recovery decides from what is on disk.
  int exit_code = 0;
  std::function<void(const std::string&)> drain;  // set below, before the network runs
  db.on_failure([&ioc, &exit_code, &drain](const std::string&) {
    net::post(ioc, [&exit_code, &drain] {
      exit_code = 1;
      drain("the store failed");
    });
  });
  metrics.storage_writable = [&db] { return db.health() == StorageHealth::Ok; };
  RoomRegistry rooms(db, metrics, [&contexts](std::int64_t game_id) -> Strand {
    // The game's io_context is the room's strand: one thread runs it.
    return [executor = contexts.of_game(game_id).get_executor()](std::function<void()> task) {
      net::post(executor, std::move(task));
    };
  });
  const auto resumed = rooms.resume_all();
  log_info("resumed " + std::to_string(resumed) + " unfinished games from the log");

  Api api(config, db, rooms, metrics);
  ConnectionLimiter limiter(config.max_connections_per_address, config.max_connections);
  Shared shared{config, metrics, api, workers, kdf_workers, limiter, contexts};
  const auto tls = make_tls_context(config);
  std::shared_ptr<Listener> listener;
  std::string where;  // what the port file says: the port, or unix:PATH
  std::string url;
  // Removes the socket file when the server ends, however it ends after this point.
  struct SocketFile {
    std::string path;
    SocketFileId id;
    void remove() const {
      if (!path.empty()) remove_unix_socket(path, id);
    }
    ~SocketFile() { remove(); }
  } socket_file;
  if (config.unix_socket.empty()) {
    const tcp::endpoint endpoint(net::ip::make_address(config.host), config.port);
    auto tcp_listener = std::make_shared<ProtocolListener<tcp>>(shared, tls.get(), endpoint);
    where = std::to_string(tcp_listener->port());
    url = std::string(tls ? "https://" : "http://") + config.host + ":" + where;
    listener = std::move(tcp_listener);
  } else {
    claim_unix_socket_path(config.unix_socket);
    const net::local::stream_protocol::endpoint endpoint(config.unix_socket);
    listener = std::make_shared<ProtocolListener<net::local::stream_protocol>>(
        shared, nullptr, endpoint, [&] {
          socket_file.id = take_unix_socket(config.unix_socket);
          socket_file.path = config.unix_socket;
        });
    where = "unix:" + config.unix_socket;
    url = "http+" + where;
  }
  // The operator's port: /metrics (and /healthz) only, plain HTTP, never the public listener.
  std::shared_ptr<ProtocolListener<tcp>> metrics_listener;
  if (config.metrics_port) {
    const tcp::endpoint endpoint(net::ip::make_address(config.metrics_host), *config.metrics_port);
    metrics_listener =
        std::make_shared<ProtocolListener<tcp>>(shared, nullptr, endpoint, nullptr, Port::Operator);
  }
  // Caught from here on: whoever sees the port (or the port file) may already send SIGTERM, and
  // it must drain, not kill.
  net::signal_set signals(ioc, SIGINT, SIGTERM);
  listener->run();
  log_info("listening on " + url + ", database " + config.db_path + ", web root " +
           config.web_root);
  if (metrics_listener) {
    metrics_listener->run();
    log_info("metrics on http://" + config.metrics_host + ":" +
             std::to_string(metrics_listener->port()) + "/metrics");
  }
  if (config.port_file) {
    // Line 1: where the server listens; line 2, with --metrics-listen: "metrics PORT".
    const std::string tmp = *config.port_file + ".tmp";
    {
      std::ofstream out(tmp);
      out << where << "\n";
      if (metrics_listener) out << "metrics " << metrics_listener->port() << "\n";
    }
    std::filesystem::rename(tmp, *config.port_file);  // readers never see a half-written file
  }

  // Drain: stop accepting, tell every client, wait for the sessions to close (bounded).
  net::steady_timer drain_timer(ioc);
  const auto drain_started = std::make_shared<std::chrono::steady_clock::time_point>();
  bool forced = false;
  std::function<void()> wait_for_sessions = [&] {
    // When every session is gone, each network thread returns by itself once its last
    // handlers are done.
    if (tracker().live() == 0) return contexts.release();
    if (std::chrono::steady_clock::now() - *drain_started >
        std::chrono::seconds(config.drain_timeout_seconds)) {
      forced = true;
      contexts.stop();
      return;
    }
    drain_timer.expires_after(std::chrono::milliseconds(50));
    drain_timer.async_wait([&](beast::error_code) { wait_for_sessions(); });
  };
  drain = [&](const std::string& why) {
    if (shared.draining.exchange(true)) return;
    log_info(why + ": draining");
    signals.cancel();  // its wait would keep the first network thread from returning
    *drain_started = std::chrono::steady_clock::now();
    listener->stop();
    if (metrics_listener) metrics_listener->stop();
    rooms.drain_all();
    tracker().shutdown_all();
    wait_for_sessions();
  };
  signals.async_wait([&](beast::error_code ec, int signal) {
    if (!ec) drain("signal " + std::to_string(signal));
  });

  std::vector<std::thread> threads;
  const auto poll = std::chrono::microseconds(config.poll_us);
  for (std::size_t i = 1; i < contexts.size(); ++i) {
    threads.emplace_back([&contexts, i, poll] { run_network_thread(contexts.at(i), poll); });
  }
  run_network_thread(ioc, poll);
  for (auto& t : threads) t.join();
  workers.join();
  kdf_workers.join();
  // Commits already queued finish before the process exits.
  db.stop();
  if (forced) {
    // Handlers still queued reference sessions and rooms whose teardown order no longer
    // matters: everything durable is written, so leave without unwinding them.
    log_warn("drain deadline passed: exiting with connections still open");
    socket_file.remove();
    std::_Exit(exit_code);
  }
  return exit_code;
}

}  // namespace blockfog::server
