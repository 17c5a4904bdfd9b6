#include "tests/server/node_clients.h"

#include <algorithm>
#include <exception>
#include <thread>

namespace blockfog::server::testing {

using nlohmann::json;

std::string moved_node(const json& moved) {
  const std::string ws = moved.value("ws", "");
  if (ws.rfind("/n/", 0) != 0) return "";
  const auto end = ws.find('/', 3);
  return end == std::string::npos ? "" : ws.substr(3, end - 3);
}

std::unique_ptr<Connection> open_following_moves(
    const NodePorts& nodes, int port, std::int64_t game_id, const std::string& cookie,
    const std::string& query, std::chrono::steady_clock::time_point deadline,
    std::vector<json>* moves, std::vector<std::chrono::steady_clock::time_point>* unavailable) {
  const std::string target = "/ws/games/" + std::to_string(game_id) + query;
  while (std::chrono::steady_clock::now() < deadline) {
    auto c = std::make_unique<Connection>();
    c->role = "observer";  // until the welcome says which seat this is
    std::int64_t wait_ms = 100;
    bool connected = false;
    try {
      connected = c->ws.connect(port, target, cookie);
    } catch (const std::exception&) {
      // Nothing listens there (a node killed or not started yet): as a refused upgrade.
    }
    if (!connected && unavailable && c->ws.refused_status() == 503) {
      unavailable->push_back(std::chrono::steady_clock::now());
    }
    if (connected) {
      while (c->read_one()) {
        if (c->last.at("type") == "moved") {
          if (moves) moves->push_back(c->last);
          const auto it = nodes.find(moved_node(c->last));
          if (it != nodes.end()) {
            port = it->second;
            wait_ms = 0;
          } else {
            wait_ms = std::max<std::int64_t>(c->last.value("retry_ms", std::int64_t{0}), 20);
          }
          break;
        }
        if (c->seq >= 0) return c;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
  }
  return nullptr;
}

}  // namespace blockfog::server::testing
