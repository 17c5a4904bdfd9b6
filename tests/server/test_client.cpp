#include "tests/server/test_client.h"

#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>

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

HttpClient::HttpClient(int port, bool tls) : port_(port), tls_(tls) {}
HttpClient::~HttpClient() = default;

HttpResult HttpClient::post(const std::string& target, const nlohmann::json& body) {
  return request("POST", target, body.dump(), {{"Content-Type", "application/json"}});
}

HttpResult HttpClient::request(const std::string& method, const std::string& target,
                               const std::string& body,
                               const std::map<std::string, std::string>& headers) {
  net::io_context ioc;
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, "127.0.0.1:" + std::to_string(port_));
  if (!cookie_.empty()) req.set(http::field::cookie, cookie_);
  for (const auto& [name, value] : headers) req.set(name, value);
  req.body() = body;
  req.keep_alive(false);
  req.prepare_payload();
  const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"),
                               static_cast<unsigned short>(port_));
  HttpResult result;
  if (tls_) {
    ssl::context ctx(ssl::context::tls_client);
    ctx.set_verify_mode(ssl::verify_none);  // the test server's certificate is self-signed
    beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
    beast::get_lowest_layer(stream).connect(endpoint);
    stream.handshake(ssl::stream_base::client);
    result = exchange(ioc, stream, req);
  } else {
    beast::tcp_stream stream(ioc);
    stream.connect(endpoint);
    result = exchange(ioc, stream, req);
  }
  // Keep the session cookie the server sets, and forget it when the server clears it.
  const auto it = result.headers.find("set-cookie");
  if (it != result.headers.end()) {
    const auto& value = it->second;
    const auto end = value.find(';');
    const std::string pair = value.substr(0, end);
    cookie_ = pair.size() > std::string("blockfog_session=").size() ? pair : "";
  }
  return result;
}

struct WsClient::Impl {
  net::io_context ioc;
  websocket::stream<beast::tcp_stream> ws{ioc};
  beast::flat_buffer buffer;
  int refused_status = 0;
  bool closed = true;
};

WsClient::WsClient() : impl_(std::make_unique<Impl>()) {}
WsClient::~WsClient() {
  if (!impl_->closed) {
    beast::error_code ignored;
    beast::get_lowest_layer(impl_->ws).socket().close(ignored);
  }
}

bool WsClient::connect(int port, const std::string& target, const std::string& cookie,
                       const std::string& origin) {
  const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"),
                               static_cast<unsigned short>(port));
  beast::get_lowest_layer(impl_->ws).connect(endpoint);
  beast::get_lowest_layer(impl_->ws).socket().set_option(tcp::no_delay(true));
  impl_->ws.set_option(
      websocket::stream_base::decorator([cookie, origin](websocket::request_type& req) {
        if (!cookie.empty()) req.set(http::field::cookie, cookie);
        if (!origin.empty()) req.set(http::field::origin, origin);
      }));
  impl_->ws.read_message_max(64 * 1024 * 1024);
  websocket::response_type response;
  bool done = false;
  beast::error_code error;
  impl_->ws.async_handshake(response, "127.0.0.1:" + std::to_string(port), target,
                            [&](beast::error_code ec) {
                              error = ec;
                              done = true;
                            });
  run_until(impl_->ioc, done, kTimeout);
  if (error) {
    impl_->refused_status = static_cast<int>(response.result_int());
    return false;
  }
  impl_->closed = false;
  return true;
}

int WsClient::refused_status() const { return impl_->refused_status; }

void WsClient::send(const std::string& text) {
  bool done = false;
  beast::error_code error;
  impl_->ws.text(true);
  impl_->ws.async_write(net::buffer(text), [&](beast::error_code ec, std::size_t) {
    error = ec;
    done = true;
  });
  run_until(impl_->ioc, done, kTimeout);
  if (error) impl_->closed = true;
}

std::optional<std::string> WsClient::read(std::chrono::milliseconds timeout) {
  if (impl_->closed) return std::nullopt;
  bool done = false;
  beast::error_code error;
  impl_->ws.async_read(impl_->buffer, [&](beast::error_code ec, std::size_t) {
    error = ec;
    done = true;
  });
  impl_->ioc.restart();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done && impl_->ioc.run_one_until(deadline) > 0) {
  }
  if (!done) {
    // Abandon the read: a stream with a cancelled read is not reusable, so close it.
    beast::get_lowest_layer(impl_->ws).cancel();
    impl_->ioc.restart();
    impl_->ioc.run_for(std::chrono::seconds(1));
    impl_->closed = true;
    return std::nullopt;
  }
  if (error) {
    impl_->closed = true;
    return std::nullopt;
  }
  std::string text = beast::buffers_to_string(impl_->buffer.data());
  impl_->buffer.consume(impl_->buffer.size());
  return text;
}

bool WsClient::is_closed() const { return impl_->closed; }

void WsClient::close() {
  if (impl_->closed) return;
  bool done = false;
  impl_->ws.async_close(websocket::close_code::normal, [&](beast::error_code) { done = true; });
  try {
    run_until(impl_->ioc, done, std::chrono::seconds(5));
  } catch (const std::exception&) {
  }
  impl_->closed = true;
}

}  // namespace blockfog::server::testing
