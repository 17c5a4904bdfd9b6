#pragma once

// HTTP and WebSocket clients for the deployment tests: plain or TLS, to any loopback port, from
// a chosen loopback source address (all of 127.0.0.0/8 is local), so that one test can be
// several clients behind nginx. Blocking, and every call has a timeout.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/server/test_client.h"

namespace blockfog::server::testing {

struct Endpoint {
  int port = 0;
  bool tls = false;
  std::string source = "127.0.0.1";  // the client's own address

  std::string origin() const;  // what a browser on this endpoint sends as Origin
};

// One user agent: sends Origin like a browser and keeps the session cookie it is given.
class Agent {
 public:
  explicit Agent(Endpoint endpoint) : endpoint_(std::move(endpoint)) {}

  HttpResult request(const std::string& method, const std::string& target,
                     const std::string& body = "",
                     const std::map<std::string, std::string>& headers = {});
  HttpResult get(const std::string& target) { return request("GET", target); }
  HttpResult post(const std::string& target, const nlohmann::json& body,
                  const std::map<std::string, std::string>& headers = {});

  const Endpoint& endpoint() const { return endpoint_; }
  const std::string& cookie() const { return cookie_; }

 private:
  Endpoint endpoint_;
  std::string cookie_;
};

class WebSocket {
 public:
  WebSocket();
  ~WebSocket();
  WebSocket(const WebSocket&) = delete;
  WebSocket& operator=(const WebSocket&) = delete;

  // Opens ws:// or wss://127.0.0.1:port/target; false (see refused_status()) if refused.
  bool connect(const Endpoint& endpoint, const std::string& target, const std::string& cookie);
  int refused_status() const;
  bool send(const std::string& text);
  // The next text frame, or nullopt on timeout or when the connection closed.
  std::optional<std::string> read(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace blockfog::server::testing
