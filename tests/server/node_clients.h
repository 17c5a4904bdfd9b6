#pragma once

// Clients of games served by several nodes on one PostgreSQL database (docs/multi-node.md,
// sections 3 and 5): a client follows `moved` to the node that holds its game, as one behind
// the proxy's /n/<name>/ routes would.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/server/game_helpers.h"

namespace blockfog::server::testing {

// Each node of a test by its --node-name: its public port.
using NodePorts = std::map<std::string, int>;

// Opens a connection to the game as `cookie` (with `query`) through `port`, and follows what
// the nodes answer until a view comes: `moved` to /n/<name>/... goes to that node; `moved` with
// retry_ms comes back to the same node after that long (at least 20 ms); a refused or closed
// connection (the database away, a node loading or dead) is tried again after 100 ms. None once
// `deadline` has passed. Every `moved` frame met is added to `moves`, and the time of every
// upgrade a node answered 503 (storage_unavailable: the database away) to `unavailable`.
std::unique_ptr<Connection> open_following_moves(
    const NodePorts& nodes, int port, std::int64_t game_id, const std::string& cookie,
    const std::string& query, std::chrono::steady_clock::time_point deadline,
    std::vector<nlohmann::json>* moves = nullptr,
    std::vector<std::chrono::steady_clock::time_point>* unavailable = nullptr);

// The node name in a `moved` frame's path (/n/<name>/ws/games/<id>), or "".
std::string moved_node(const nlohmann::json& moved);

}  // namespace blockfog::server::testing
