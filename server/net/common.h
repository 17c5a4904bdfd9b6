#pragma once

// What the network layer's parts share (server/net/net.cpp): the Boost names, the limits of a
// connection, the server-wide state every session reaches (Shared), the drain's list of
// sessions, the network threads' io_contexts, and the translation between Beast's HTTP
// messages and the API's. The headers of server/net/ are parts of the one translation unit
// that includes Boost.Beast (net.cpp), so that the rest of the server builds without it.

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
#include "server/api/api.h"
#include "server/api/forwarded.h"
#include "server/db_worker.h"
#include "server/limits.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/net/unix_socket.h"
#include "server/play/room_registry.h"

namespace blockfog::server::net_internal {

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
// games). No strand: one thread runs each io_context
// (NetworkContexts), so a connection's handlers, and a room's tasks, never overlap. A strand
// cost a lock, a shared counter and a second queue per handler.
using Executor = net::io_context::executor_type;
using TcpStream = beast::basic_stream<tcp, Executor>;
using TlsStream = beast::ssl_stream<TcpStream>;
// What a peer of --listen unix:PATH (server/net/unix_socket.h) is called for the limits and
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

inline Tracker& tracker() {
  static Tracker instance;
  return instance;
}

// One io_context per network thread, each run by that thread alone. A game's room and the
// WebSockets of its players share one (the game's id picks it), so an action's path (read,
// the room's strand, the writes of both seats' frames) stays on one thread: Asio queues what
// that thread posts to itself without a lock. With one io_context for all threads every post
// and every poll took its one mutex, and the two threads contended for it: ~1.6 futex calls
// per action at 100 busy games.
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

inline HttpRequest to_request(const http::request<http::string_body>& req,
                              const std::string& address, bool tls, const Config& config) {
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

inline http::response<http::string_body> to_response(const HttpResponse& response, unsigned version,
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

inline std::string error_json(protocol::ErrorCode code, const std::string& message) {
  return protocol::error_body(code, message).dump();
}

}  // namespace blockfog::server::net_internal
