#pragma once

// The load generator's network side: accounts and games over HTTP (Boost.Beast, blocking, in
// load_client.cpp only), then N games played in a closed loop over WebSockets on one thread's
// event loop (ws_connection.h), or N idle connections held open.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tools/blockfog-load/ws_connection.h"

namespace blockfog::load {

struct LoadOptions {
  ServerAddress server;    // TCP, or the server's Unix-domain socket
  int games = 1;           // concurrent games, two WebSocket clients each
  double duration = 10.0;  // seconds measured, after the warm-up
  // > 0: the measured window also ends once this many actions were accepted. A test that needs
  // enough actions to judge asks for them, and a busy machine only takes longer to give them.
  std::int64_t actions = 0;
  int warmup = 0;  // each game first plays a random number of actions below this
  std::uint64_t seed = 1;
  std::string scenario = "braveheart";
  int idle = 0;  // > 0: hold this many idle connections instead of playing
  // Seats ask for view_patch frames after actions (docs/protocol.md), as the web client does;
  // false: whole views.
  bool patches = true;
};

struct LoadResult {
  double seconds = 0;                          // the measured window
  std::int64_t accepted = 0;                   // actions applied in the window
  std::int64_t stale = 0;                      // answered with the current view instead
  std::map<std::string, std::int64_t> errors;  // error frames by code, and client-side errors
  std::vector<double> latencies_us;            // send -> the sender's answer, applied actions
  std::int64_t games_finished = 0;             // games played to the end (and replaced)
  std::int64_t games_started = 0;
  int idle_connected = 0;  // idle mode: connections that got their view
};

// Called once the warm-up is over and the measured window starts, and once it ends (so the
// caller can sample the server's CPU time and memory at the right moments).
struct WindowHooks {
  virtual ~WindowHooks() = default;
  virtual void window_started() {}
  virtual void window_ended() {}
};

// Plays until `duration` seconds after every game's warm-up (or `actions` accepted); throws
// std::runtime_error when the server cannot be reached or refuses the set-up.
LoadResult run_games(const LoadOptions& options, WindowHooks& hooks);
// Opens `idle` observer connections to one game and keeps them open until all have their view;
// calls window_started() then, holds them a moment, and window_ended().
LoadResult run_idle(const LoadOptions& options, WindowHooks& hooks);

}  // namespace blockfog::load
