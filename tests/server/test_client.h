#pragma once

// A small blocking HTTP and WebSocket client for the server tests (Boost.Beast behind this
// header, in one translation unit). Every call has a timeout, so a broken server fails a test
// instead of hanging it.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace blockfog::server::testing {

struct HttpResult {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-case names; repeated ones joined by '\n'
  nlohmann::json json() const { return nlohmann::json::parse(body, nullptr, false); }
  std::string error_code() const;  // body's error.code, or ""
};

// One user agent: keeps the session cookie it is given, like a browser.
class HttpClient {
 public:
  explicit HttpClient(int port, bool tls = false);
  ~HttpClient();

  HttpResult request(const std::string& method, const std::string& target,
                     const std::string& body = "",
                     const std::map<std::string, std::string>& headers = {});
  HttpResult get(const std::string& target) { return request("GET", target); }
  HttpResult post(const std::string& target, const nlohmann::json& body);

  const std::string& session_cookie() const { return cookie_; }
  void set_session_cookie(std::string cookie) { cookie_ = std::move(cookie); }

 private:
  int port_;
  bool tls_;
  std::string cookie_;  // "blockfog_session=..." or ""
};

class WsClient {
 public:
  WsClient();
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  // Opens ws://127.0.0.1:port/target with the cookie; false (with the HTTP status in
  // refused_status()) if the server refused the upgrade.
  bool connect(int port, const std::string& target, const std::string& cookie,
               const std::string& origin = "");
  int refused_status() const;
  void send(const std::string& text);
  void send_json(const nlohmann::json& message) { send(message.dump()); }
  // The next text frame, or nullopt on timeout or when the connection closed.
  std::optional<std::string> read(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  bool is_closed() const;
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace blockfog::server::testing
