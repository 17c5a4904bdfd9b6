#pragma once

// The deployment tests' clients are the server tests' (tests/server/test_client.h: plain or
// TLS, any loopback port, any loopback source address) acting as a browser would: sending
// Origin on every request that may change state and on the WebSocket upgrade.

#include <string>
#include <utility>

#include "tests/server/test_client.h"

namespace blockfog::server::testing {

// One user agent: sends Origin like a browser and keeps the session cookie it is given.
class Agent : public HttpClient {
 public:
  explicit Agent(Endpoint endpoint) : HttpClient(std::move(endpoint), /*send_origin=*/true) {}

  const std::string& cookie() const { return session_cookie(); }
};

// A browser's WebSocket: its upgrade carries the endpoint's Origin.
class WebSocket : public WsClient {
 public:
  bool connect(const Endpoint& endpoint, const std::string& target, const std::string& cookie) {
    return WsClient::connect(endpoint, target, cookie, endpoint.origin());
  }
};

}  // namespace blockfog::server::testing
