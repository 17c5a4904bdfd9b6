#pragma once

// The network shell (the only part that includes Boost.Beast): listens, speaks HTTP and
// WebSocket (over TLS when configured), hands requests to the Api and frames to game rooms,
// and drains on SIGTERM/SIGINT.

#include "server/config.h"

namespace blockfog::server {

class DbWorker;
class Metrics;

// Runs until SIGTERM or SIGINT, then drains: stops accepting, tells clients the server is
// restarting, closes them, finishes the storage thread's queue. Returns the exit code.
int run_server(const Config& config, DbWorker& db, Metrics& metrics);

}  // namespace blockfog::server
