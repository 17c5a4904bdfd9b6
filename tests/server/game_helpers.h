#pragma once

// Helpers for playing games through a running server: accounts, a table of two seated
// clients and an observer, random legal play, and the fog-of-war check on every frame.

#include <cstdint>
#include <functional>
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
// The same for a frame that gives `view` (a view_patch: the view it turns the last one into),
// or null for a frame that gives none.
std::vector<std::string> fog_leaks_given(const std::string& role, const std::string& frame,
                                         const nlohmann::json* view);

HttpClient register_user(int port, const std::string& name,
                         const std::string& password = "correct horse");

// One connection to a game, remembering the last view it got and checking every frame: the
// fog of war, and that the view versions are honest (a new `seq` comes with a changed view,
// the same `seq` with the same view) and the log increments (and patches) add up to the whole
// view and log.
struct Connection {
  std::string role;
  WsClient ws;
  nlohmann::json view;       // the latest view, its log merged from every increment (null before)
  std::int64_t seq = -1;     // the version of that view
  std::int64_t views = 0;    // view and view_patch frames received
  std::int64_t patches = 0;  // of which view_patch frames (a connection opened with ?patches=1)
  std::vector<nlohmann::json> errors;  // error messages received, in order
  std::vector<nlohmann::json> chat;    // chat lines received
  std::string welcome_status;
  std::string seed_sha256;
  std::int64_t frames = 0;
  std::int64_t clocks = 0;     // clocks frames received
  nlohmann::json last_clocks;  // the clocks of the last of them
  bool restarting = false;
  nlohmann::json last;  // the last frame read
  // Text no frame may hold (a test's secrets: the seed before the game ends).
  std::vector<std::string> forbidden;

  // Reads one frame (false on timeout/close), checks it, and records it.
  bool read_one();
  // Reads until the first view arrived (false if the connection ended first).
  bool read_first_view();
  // Reads until the answer to the action sent with `ref` arrived; it is then in `last`.
  bool read_answer(const std::string& ref);
  // Sends a ping and reads everything up to the pong.
  bool barrier();
  void send_action(const nlohmann::json& action, std::int64_t at_seq, const std::string& ref = "");

 private:
  void take(const std::string& frame, const nlohmann::json& parsed);
  void take_view(const nlohmann::json& message);
  void take_view_patch(const nlohmann::json& message);
  // Checks and keeps `next`, the whole view of `version`.
  void accept_view(nlohmann::json next, std::int64_t version);
  // A clocks frame comes only with a change of this connection's view, and its clocks run for
  // exactly the roles that view awaits.
  void take_clocks(const nlohmann::json& message);
  std::int64_t views_at_clocks_ = -1;
};

std::unique_ptr<Connection> connect(int port, std::int64_t game_id, const std::string& cookie,
                                    const std::string& query = "");

// Random legal play, only forward (random_walk.h: the turns come by construction, not as a walk
// that may undo each move the moment it was made), each action from a connection of the acting
// role opened for it (the other role's closed first), so that the role awaited next has nobody
// at the game and is told of its turn. Stops after `max_actions`, at the game's end, or when
// `stop`, asked after each action, says so. Returns the actions played.
int play_forward_away(int port, std::int64_t game_id, const std::string& scotland_cookie,
                      const std::string& england_cookie, std::mt19937_64& rng, int max_actions,
                      const std::function<bool()>& stop = nullptr);

// What a Table's game has on besides its players: each is a place where the server sends or
// stores something per action, so the fog checks run with each on.
struct TableFeatures {
  // The game's time control (docs/protocol.md, "Time controls"); null: none.
  nlohmann::json time_control;
  // The game is the one game of a two-player single elimination, organised by a third account
  // with a seat in no game; the seats are drawn by lot.
  bool tournament = false;
  // Both seats ask for turn notices by webhook to this address (the server must allow it).
  std::string webhook_url;
  // The name of the set, for test parameters.
  std::string name = "plain";
  // The game (its kind, games/registry.h) and scenario, of the game or the tournament.
  std::string kind = "hots";
  std::string scenario = "braveheart";
};
// The sets the fog tests run with: none; a live clock in a tournament with notices; a
// correspondence clock with notices.
std::vector<TableFeatures> fog_feature_sets(const std::string& webhook_url);

// Two players and an observer at one game.
struct Table {
  int port = 0;
  std::int64_t game_id = 0;
  HttpClient scot_http;
  HttpClient eng_http;
  std::optional<HttpClient> organiser_http;  // with TableFeatures::tournament
  std::int64_t tournament_id = 0;
  std::unique_ptr<Connection> scotland;
  std::unique_ptr<Connection> england;
  std::unique_ptr<Connection> observer;
  // Actions applied, as their answers told (a client never learns this number: the test adds
  // up what both seats were told).
  std::int64_t actions = 0;
  // Every applied action at its place in the log, with the action(s) that may be there: both
  // when both seats sent at once and both were applied (their order is the server's).
  struct Acknowledged {
    std::int64_t seq = 0;
    std::vector<std::pair<std::string, nlohmann::json>> candidates;
  };
  std::vector<Acknowledged> acknowledged;
  // Rounds in which a connection that did not act received no view: its role's view did not
  // change (scotland, england, observer). In such a round it received no frame at all.
  std::map<std::string, std::int64_t> quiet_rounds;

  Table(int port, const std::string& prefix, const TableFeatures& features = {});
  // (Re)opens the three connections and waits for their first views.
  void connect_all();
  Connection& seat(const std::string& role) { return role == "scotland" ? *scotland : *england; }
  // The connections that are open: the observer's may be closed (reset) while the seats play.
  std::vector<Connection*> open();

  // Plays one random legal action (sometimes both seats at once when both may act); returns
  // false when nobody has a legal action (the end of what can be played). A connection that
  // did not act and whose view did not change must have received nothing: no clocks, no
  // notice of any kind, whose count or moment would tell of a hidden decision (RULES 13.1.4).
  bool play_random(std::mt19937_64& rng);

 private:
  std::int64_t next_ref_ = 0;
};

}  // namespace blockfog::server::testing
