#pragma once

// Helpers for playing games through a running server: accounts, a table of two seated
// clients and an observer, random legal play, and the fog-of-war check on every frame.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/server/test_client.h"

namespace blockfog::server::testing {

// Facts in one frame that `role` ("scotland", "england", "observer") may not know: ids of the
// other side's blocks that are not dead, not out of play and not revealed in the battle of
// that view; fields of enemy blocks beyond anonymous counts. A view of a finished game may
// show everything (RULES 13.1.6). Empty when clean.
std::vector<std::string> fog_leaks(const std::string& role, const std::string& frame);
std::vector<std::string> fog_leaks(const std::string& role, const std::string& frame,
                                   const nlohmann::json& parsed);

HttpClient register_user(int port, const std::string& name,
                         const std::string& password = "correct horse");

// One connection to a game, remembering the last view it got and checking every frame.
struct Connection {
  std::string role;
  WsClient ws;
  nlohmann::json view;  // the latest view (null before the first)
  std::int64_t seq = -1;
  std::vector<nlohmann::json> errors;  // error messages received, in order
  std::vector<nlohmann::json> chat;    // chat lines received
  std::string welcome_status;
  std::string seed_sha256;
  std::int64_t frames = 0;
  bool restarting = false;

  // Reads one frame (false on timeout/close), checks it for leaks, and records it.
  bool read_one();
  // Reads until a view with seq >= `seq` arrived (false if the connection ended first).
  bool read_until_seq(std::int64_t seq);
  // Sends a ping and reads everything up to the pong.
  bool barrier();
  void send_action(const nlohmann::json& action, std::int64_t seq);
};

std::unique_ptr<Connection> connect(int port, std::int64_t game_id, const std::string& cookie,
                                    const std::string& query = "");

// Two players and an observer at one game.
struct Table {
  int port = 0;
  std::int64_t game_id = 0;
  HttpClient scot_http;
  HttpClient eng_http;
  std::unique_ptr<Connection> scotland;
  std::unique_ptr<Connection> england;
  std::unique_ptr<Connection> observer;
  // Every acknowledged seq with the action(s) that may have been applied there: two when both
  // seats sent at once and the stale one was answered with the new view.
  struct Acknowledged {
    std::int64_t seq = 0;
    std::vector<std::pair<std::string, nlohmann::json>> candidates;
  };
  std::vector<Acknowledged> acknowledged;

  Table(int port, const std::string& prefix);
  // (Re)opens the three connections and waits for their first views.
  void connect_all();
  Connection& seat(const std::string& role) { return role == "scotland" ? *scotland : *england; }

  // Plays one random legal action (sometimes both seats at once when both may act); returns
  // false when nobody has a legal action (the end of what can be played).
  bool play_random(std::mt19937_64& rng);
  std::int64_t seq() const { return observer->seq; }
};

}  // namespace blockfog::server::testing
