#include "tests/server/test_client.h"

#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <stdexcept>

namespace blockfog::server::testing {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

constexpr auto kTimeout = std::chrono::seconds(30);

// Runs the io_context until `done` or the timeout; throws on timeout.
void run_until(net::io_context& ioc, const bool& done, std::chrono::milliseconds timeout) {
  ioc.restart();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done) {
    if (ioc.run_one_until(deadline) == 0 && !done) throw std::runtime_error("test client timeout");
  }
}

// Connects `socket` to 127.0.0.1:port from the endpoint's source address.
void connect_from(tcp::socket& socket, const Endpoint& endpoint) {
  socket.open(tcp::v4());
  socket.bind(tcp::endpoint(net::ip::make_address(endpoint.source), 0));
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"),
                               static_cast<unsigned short>(endpoint.port)));
  socket.set_option(tcp::no_delay(true));
}

std::shared_ptr<ssl::context> client_tls_context() {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  ctx->set_verify_mode(ssl::verify_none);  // the tests' certificates are self-signed
  return ctx;
}

void tls_handshake(net::io_context& ioc, beast::ssl_stream<beast::tcp_stream>& stream) {
  bool done = false;
  beast::error_code error;
  stream.async_handshake(ssl::stream_base::client, [&](beast::error_code ec) {
    error = ec;
    done = true;
  });
  run_until(ioc, done, kTimeout);
  if (error) throw std::runtime_error("TLS handshake: " + error.message());
}

std::string host(const Endpoint& endpoint) { return "127.0.0.1:" + std::to_string(endpoint.port); }

template <typename Stream>
HttpResult exchange(net::io_context& ioc, Stream& stream, http::request<http::string_body>& req) {
  bool done = false;
  beast::error_code error;
  http::async_write(stream, req, [&](beast::error_code ec, std::size_t) {
    error = ec;
    done = true;
  });
  run_until(ioc, done, kTimeout);
  if (error) throw std::runtime_error("write: " + error.message());
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  // A HEAD answer announces the length of a body it does not send.
  if (req.method() == http::verb::head) parser.skip(true);
  done = false;
  http::async_read(stream, buffer, parser, [&](beast::error_code ec, std::size_t) {
    error = ec;
    done = true;
  });
  run_until(ioc, done, kTimeout);
  if (error) throw std::runtime_error("read: " + error.message());
  const auto& res = parser.get();
  HttpResult result;
  result.status = static_cast<int>(res.result_int());
  result.body = res.body();
  for (const auto& field : res) {
    std::string name(field.name_string());
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto& value = result.headers[name];
    if (!value.empty()) value += "\n";
    value += std::string(field.value());
  }
  return result;
}

}  // namespace

std::string HttpResult::error_code() const {
  const auto j = json();
  if (!j.is_object() || !j.contains("error")) return "";
  return j["error"].value("code", "");
}

std::string Endpoint::origin() const { return (tls ? "https://" : "http://") + host(*this); }

HttpClient::HttpClient(int port, bool tls) : HttpClient(Endpoint{port, tls}) {}
HttpClient::HttpClient(Endpoint endpoint, bool send_origin)
    : endpoint_(std::move(endpoint)), send_origin_(send_origin) {}
HttpClient::~HttpClient() = default;

HttpResult HttpClient::post(const std::string& target, const nlohmann::json& body,
                            const std::map<std::string, std::string>& headers) {
  auto all = headers;
  all.emplace("Content-Type", "application/json");
  return request("POST", target, body.dump(), all);
}

HttpResult HttpClient::request(const std::string& method, const std::string& target,
                               const std::string& body,
                               const std::map<std::string, std::string>& headers) {
  net::io_context ioc;
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, host(endpoint_));
  if (send_origin_ && method != "GET" && method != "HEAD") {
    req.set(http::field::origin, endpoint_.origin());
  }
  if (!cookie_.empty()) req.set(http::field::cookie, cookie_);
  for (const auto& [name, value] : headers) req.set(name, value);
  req.body() = body;
  req.keep_alive(false);
  req.prepare_payload();
  HttpResult result;
  if (endpoint_.tls) {
    const auto ctx = client_tls_context();
    beast::ssl_stream<beast::tcp_stream> stream(ioc, *ctx);
    connect_from(beast::get_lowest_layer(stream).socket(), endpoint_);
    tls_handshake(ioc, stream);
    result = exchange(ioc, stream, req);
  } else {
    beast::tcp_stream stream(ioc);
    connect_from(stream.socket(), endpoint_);
    result = exchange(ioc, stream, req);
  }
  // Keep the session cookie the server sets, and forget it when the server clears it.
  const auto it = result.headers.find("set-cookie");
  if (it != result.headers.end()) {
    const std::string pair = it->second.substr(0, it->second.find(';'));
    cookie_ = pair.size() > std::string("blockfog_session=").size() ? pair : "";
  }
  return result;
}

struct WsClient::Impl {
  net::io_context ioc;
  std::shared_ptr<ssl::context> tls_context;
  std::unique_ptr<websocket::stream<beast::tcp_stream>> plain;
  std::unique_ptr<websocket::stream<beast::ssl_stream<beast::tcp_stream>>> secure;
  beast::flat_buffer buffer;
  int refused_status = 0;
  int close_code = 0;  // the code of the server's close frame, once one came
  bool closed = true;

  // Calls `f` with whichever stream is open (connect() made one).
  template <typename F>
  void with_stream(F&& f) {
    if (secure) {
      f(*secure);
    } else {
      f(*plain);
    }
  }
  // Closes the socket without a close handshake.
  void drop() {
    if (!plain && !secure) return;
    beast::error_code ignored;
    with_stream([&](auto& ws) { beast::get_lowest_layer(ws).socket().close(ignored); });
    closed = true;
  }
};

WsClient::WsClient() : impl_(std::make_unique<Impl>()) {}
WsClient::~WsClient() {
  if (!impl_->closed) impl_->drop();
}

bool WsClient::connect(const Endpoint& endpoint, const std::string& target,
                       const std::string& cookie, const std::string& origin) {
  auto& impl = *impl_;
  if (endpoint.tls) {
    impl.tls_context = client_tls_context();
    impl.secure = std::make_unique<websocket::stream<beast::ssl_stream<beast::tcp_stream>>>(
        impl.ioc, *impl.tls_context);
    connect_from(beast::get_lowest_layer(*impl.secure).socket(), endpoint);
    tls_handshake(impl.ioc, impl.secure->next_layer());
  } else {
    impl.plain = std::make_unique<websocket::stream<beast::tcp_stream>>(impl.ioc);
    connect_from(beast::get_lowest_layer(*impl.plain).socket(), endpoint);
  }
  websocket::response_type response;
  bool done = false;
  beast::error_code error;
  impl.with_stream([&](auto& ws) {
    ws.set_option(websocket::stream_base::decorator([cookie, origin](websocket::request_type& req) {
      if (!cookie.empty()) req.set(http::field::cookie, cookie);
      if (!origin.empty()) req.set(http::field::origin, origin);
    }));
    ws.read_message_max(64 * 1024 * 1024);
    ws.async_handshake(response, host(endpoint), target, [&](beast::error_code ec) {
      error = ec;
      done = true;
    });
  });
  run_until(impl.ioc, done, kTimeout);
  if (error) {
    impl.refused_status = static_cast<int>(response.result_int());
    return false;
  }
  impl.closed = false;
  return true;
}

int WsClient::refused_status() const { return impl_->refused_status; }

bool WsClient::send(const std::string& text) {
  if (impl_->closed) return false;
  bool done = false;
  beast::error_code error;
  impl_->with_stream([&](auto& ws) {
    ws.text(true);
    ws.async_write(net::buffer(text), [&](beast::error_code ec, std::size_t) {
      error = ec;
      done = true;
    });
  });
  run_until(impl_->ioc, done, kTimeout);
  if (error) impl_->closed = true;
  return !error;
}

std::optional<std::string> WsClient::read(std::chrono::milliseconds timeout) {
  auto& impl = *impl_;
  if (impl.closed) return std::nullopt;
  bool done = false;
  beast::error_code error;
  impl.with_stream([&](auto& ws) {
    ws.async_read(impl.buffer, [&](beast::error_code ec, std::size_t) {
      error = ec;
      done = true;
    });
  });
  impl.ioc.restart();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done && impl.ioc.run_one_until(deadline) > 0) {
  }
  if (done && error == websocket::error::closed) {
    impl.with_stream([&](auto& ws) { impl.close_code = ws.reason().code; });
  }
  if (!done || error) {
    // A stream whose read was abandoned is not reusable: close it, and let the read finish.
    impl.drop();
    impl.ioc.restart();
    impl.ioc.run_for(std::chrono::seconds(1));
    return std::nullopt;
  }
  std::string text = beast::buffers_to_string(impl.buffer.data());
  impl.buffer.consume(impl.buffer.size());
  return text;
}

bool WsClient::is_closed() const { return impl_->closed; }

int WsClient::close_code() const { return impl_->close_code; }

void WsClient::close() {
  if (impl_->closed) return;
  bool done = false;
  impl_->with_stream([&](auto& ws) {
    ws.async_close(websocket::close_code::normal, [&](beast::error_code) { done = true; });
  });
  try {
    run_until(impl_->ioc, done, std::chrono::seconds(5));
  } catch (const std::exception&) {
  }
  impl_->drop();
}

}  // namespace blockfog::server::testing
