#pragma once

// A game between two seats over WebSocket (direct or through a proxy), one action at a time.
// A seat echoes the seq of the view it acts on and nothing else is read from seq: progress is
// judged by the views that arrive and by the store's action log (tests/server/db_peek.h).

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/deploy/web_client.h"

namespace blockfog::server::testing {

struct Seat {
  std::string role;  // from the welcome
  WebSocket ws;
  nlohmann::json view;     // the latest view (null before the first)
  nlohmann::json seq;      // as the latest view gave it
  std::int64_t views = 0;  // view frames received
  std::vector<nlohmann::json> errors;
  bool restarting = false;

  // Reads one frame and records it; false on timeout or close.
  bool read_frame();
  // Reads until a view (true) or an error frame, a timeout or the close (false).
  bool await_view();
  // Sends a ping and reads everything up to the pong.
  bool barrier();
  bool has_legal_actions() const;
  // Takes a view message, completing its log from the one held.
  void apply_view(const nlohmann::json& message);
};

// Creates a braveheart game with `scotland` and has `england` join it; returns its id.
std::int64_t start_game(Agent& scotland, Agent& england);

class Match {
 public:
  Match(Endpoint endpoint, std::int64_t game_id, std::string scotland_cookie,
        std::string england_cookie);

  // Opens both seats (once per Match) and waits for their first views; false (with a test
  // failure) if refused.
  bool connect();
  // One random legal action from a seat that may act; false when neither may (the game is
  // over) or when the action was not answered with a view (a test failure).
  bool play_random(std::mt19937_64& rng);
  // `action` from `role`; false (with a test failure) unless answered with a view.
  bool play(const std::string& role, const nlohmann::json& action);

  Seat& seat(const std::string& role) { return role == "scotland" ? scotland_ : england_; }
  std::int64_t game_id() const { return game_id_; }

 private:
  Endpoint endpoint_;
  std::int64_t game_id_;
  std::string scotland_cookie_;
  std::string england_cookie_;
  Seat scotland_;
  Seat england_;
};

}  // namespace blockfog::server::testing
