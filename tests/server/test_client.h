#pragma once

// A small blocking HTTP and WebSocket client for the server and deployment tests (Boost.Beast
// behind this header, in one translation unit): plain or TLS, to any loopback port, from a
// chosen loopback source address. Every call has a timeout, so a broken server fails a test
// instead of hanging it.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace blockfog::server::testing {

// Where a client connects: 127.0.0.1:port, over TLS or not (the tests' certificates are
// self-signed and not verified), from `source` (all of 127.0.0.0/8 is local, so one test can be
// several clients, e.g. behind a proxy).
struct Endpoint {
  int port = 0;
  bool tls = false;
  std::string source = "127.0.0.1";

  std::string origin() const;  // what a browser on this endpoint sends as Origin
};

struct HttpResult {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-case names; repeated ones joined by '\n'
  nlohmann::json json() const { return nlohmann::json::parse(body, nullptr, false); }
  std::string error_code() const;  // body's error.code, or ""
};

// One user agent: keeps the session cookie it is given, like a browser. With `send_origin` it
// also sends the endpoint's Origin on every request that may change state, as browsers do.
class HttpClient {
 public:
  explicit HttpClient(int port, bool tls = false);
  explicit HttpClient(Endpoint endpoint, bool send_origin = false);
  ~HttpClient();

  HttpResult request(const std::string& method, const std::string& target,
                     const std::string& body = "",
                     const std::map<std::string, std::string>& headers = {});
  HttpResult get(const std::string& target) { return request("GET", target); }
  HttpResult post(const std::string& target, const nlohmann::json& body,
                  const std::map<std::string, std::string>& headers = {});

  const Endpoint& endpoint() const { return endpoint_; }
  const std::string& session_cookie() const { return cookie_; }
  void set_session_cookie(std::string cookie) { cookie_ = std::move(cookie); }

 private:
  Endpoint endpoint_;
  bool send_origin_;
  std::string cookie_;  // "blockfog_session=..." or ""
};

class WsClient {
 public:
  WsClient();
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  // Opens ws:// (or wss://) 127.0.0.1:port/target with the cookie and, if not empty, the
  // Origin; false (with the HTTP status in refused_status()) if the server refused the upgrade.
  // Once per client.
  bool connect(const Endpoint& endpoint, const std::string& target, const std::string& cookie,
               const std::string& origin = "");
  bool connect(int port, const std::string& target, const std::string& cookie,
               const std::string& origin = "") {
    return connect(Endpoint{port}, target, cookie, origin);
  }
  int refused_status() const;
  // False (and the client is closed) if the frame could not be written.
  bool send(const std::string& text);
  void send_json(const nlohmann::json& message) { send(message.dump()); }
  // The next text frame, or nullopt on timeout or when the connection closed.
  std::optional<std::string> read(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  bool is_closed() const;
  // The code of the close frame the server sent (RFC 6455 7.4), or 0 if none came.
  int close_code() const;
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace blockfog::server::testing
