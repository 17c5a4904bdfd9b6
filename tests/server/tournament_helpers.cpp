#include "tests/server/tournament_helpers.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <thread>

#include "protocol/tar.h"
#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/random_walk.h"

namespace blockfog::server::testing {

using nlohmann::json;

json swiss_request(int rounds, int max_players, const std::string& sides, std::int64_t now) {
  if (now == 0) {
    now = std::chrono::duration_cast<std::chrono::milliseconds>(
              std::chrono::system_clock::now().time_since_epoch())
              .count();
  }
  return {{"name", "Winter Swiss"},
          {"description", "five rounds"},
          {"scenario", "braveheart"},
          {"format", "swiss"},
          {"rounds", rounds},
          {"sides", sides},
          {"round_deadline_minutes", 60 * 24 * 7},
          {"rated", true},
          {"registration_closes_at", now + 3600 * 1000},
          {"max_players", max_players}};
}

std::string tournament_path(std::int64_t id, const std::string& rest) {
  return "/api/tournaments/" + std::to_string(id) + rest;
}

json await_round_after(HttpClient& client, std::int64_t id, std::int64_t round) {
  json t;
  for (int i = 0; i < 200; ++i) {
    t = client.get(tournament_path(id)).json()["tournament"];
    if (t["current_round"].get<std::int64_t>() > round || t["status"] == "finished") return t;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ADD_FAILURE() << "round " << round << " was not followed: " << t.dump();
  return t;
}

RandomPlay play_random_actions(int port, std::int64_t game_id, const std::string& scotland_cookie,
                               const std::string& england_cookie, int actions,
                               std::mt19937_64& rng) {
  RandomPlay play;
  roll_dice_if_awaited(port, game_id, scotland_cookie, england_cookie);
  // View patches, as the web client asks: smaller frames, each checked like a whole view.
  auto scotland = connect(port, game_id, scotland_cookie, "?patches=1");
  auto england = connect(port, game_id, england_cookie, "?patches=1");
  if (!scotland || !england || !scotland->read_first_view() || !england->read_first_view()) {
    ADD_FAILURE() << "game " << game_id << ": no views";
    return play;
  }
  for (int i = 0; i < actions; ++i) {
    std::vector<std::pair<Connection*, const json*>> choices;
    for (Connection* c : {scotland.get(), england.get()}) {
      if (!c->view.contains("legal_actions")) continue;
      for (const auto& a : c->view["legal_actions"]) {
        if (!steps_back(a)) choices.emplace_back(c, &a);
      }
    }
    if (choices.empty()) break;
    const auto [c, action] =
        choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
    const std::string ref = "t" + std::to_string(i);
    c->send_action(*action, c->seq, ref);
    if (!c->read_answer(ref)) {
      ADD_FAILURE() << "game " << game_id << ": no answer";
      return play;
    }
    if (c->last.value("type", "") == "error" || c->last.value("stale", false)) {
      ADD_FAILURE() << "game " << game_id << ": " << c->last.dump();
      return play;
    }
    ++play.actions;
    // The answer is the sender's view after the action; the other seat reads up to a pong, so
    // that its view is the one after the action too before the next choice.
    Connection* other = c == scotland.get() ? england.get() : scotland.get();
    if (!other->barrier()) {
      ADD_FAILURE() << "game " << game_id << ": the other seat's connection ended";
      return play;
    }
  }
  // The rules ended the game when both seats' views hold its outcome (RULES 12).
  play.ended = scotland->view.contains("outcome") && england->view.contains("outcome");
  return play;
}

namespace {

// One seat of a game played to its end: only what choosing the next action needs (its legal
// actions, the outcome, the view's version), kept from whole views and view patches without
// rebuilding the view (docs/protocol.md, view_patch).
struct LeanSeat {
  WsClient ws;
  json legal = json::array();
  std::int64_t seq = -1;
  bool over = false;
  json last;

  bool read_one() {
    const auto frame = ws.read();
    if (!frame) return false;
    last = json::parse(*frame);
    const std::string type = last.value("type", "");
    if (type == "view") {
      seq = last.at("seq");
      const auto& view = last.at("view");
      legal = view.value("legal_actions", json::array());
      over = view.contains("outcome");
    } else if (type == "view_patch") {
      seq = last.at("seq");
      const auto& patch = last.at("view_patch");
      const auto set = patch.value("set", json::object());
      if (set.contains("legal_actions")) legal = set.at("legal_actions");
      // An array of unchanged length may change element by element instead.
      const auto elements = patch.value("elements", json::object());
      if (elements.contains("legal_actions")) {
        for (const auto& change : elements.at("legal_actions")) {
          legal.at(change.at(0).get<std::size_t>()) = change.at(1);
        }
      }
      for (const auto& name : patch.value("unset", json::array())) {
        if (name == "legal_actions") legal = json::array();
      }
      over = over || set.contains("outcome");
    }
    return true;
  }
  bool read_until(const std::function<bool()>& done) {
    while (true) {
      if (!read_one()) return false;
      if (done()) return true;
    }
  }
};

}  // namespace

RandomPlay play_random_to_end(int port, std::int64_t game_id, const std::string& scotland_cookie,
                              const std::string& england_cookie, int max_actions,
                              std::mt19937_64& rng) {
  RandomPlay play;
  roll_dice_if_awaited(port, game_id, scotland_cookie, england_cookie);
  LeanSeat seats[2];
  const std::string target = "/ws/games/" + std::to_string(game_id) + "?patches=1";
  for (auto* seat : {&seats[0], &seats[1]}) {
    const auto& cookie = seat == &seats[0] ? scotland_cookie : england_cookie;
    if (!seat->ws.connect(port, target, cookie) ||
        !seat->read_until([seat] { return seat->seq >= 0; })) {
      ADD_FAILURE() << "game " << game_id << ": no view";
      return play;
    }
  }
  for (int i = 0; i < max_actions; ++i) {
    std::vector<std::pair<LeanSeat*, const json*>> choices;
    for (auto* seat : {&seats[0], &seats[1]}) {
      for (const auto& a : seat->legal) {
        if (!steps_back(a)) choices.emplace_back(seat, &a);
      }
    }
    if (choices.empty()) break;
    const auto& choice =
        choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
    LeanSeat* seat = choice.first;
    const json* action = choice.second;
    const std::string ref = "e" + std::to_string(i);
    seat->ws.send_json(
        {{"v", 1}, {"type", "action"}, {"seq", seat->seq}, {"action", *action}, {"ref", ref}});
    if (!seat->read_until([seat, &ref] { return seat->last.value("ref", "") == ref; })) {
      ADD_FAILURE() << "game " << game_id << ": no answer";
      return play;
    }
    if (seat->last.value("type", "") == "error" || seat->last.value("stale", false)) {
      ADD_FAILURE() << "game " << game_id << ": " << seat->last.dump();
      return play;
    }
    ++play.actions;
    // The other seat reads up to a pong: its view is then the one after the action.
    LeanSeat* other = seat == &seats[0] ? &seats[1] : &seats[0];
    other->ws.send_json({{"v", 1}, {"type", "ping"}});
    if (!other->read_until([other] { return other->last.value("type", "") == "pong"; })) {
      ADD_FAILURE() << "game " << game_id << ": the other seat's connection ended";
      return play;
    }
  }
  play.ended = seats[0].over && seats[1].over;
  return play;
}

std::map<std::string, std::string> bundle_files(const std::string& archive,
                                                std::vector<std::string>* order) {
  std::string error;
  const auto entries = protocol::read_tar(archive, error);
  if (!entries) {
    ADD_FAILURE() << "the bundle does not read as a ustar archive: " << error;
    return {};
  }
  std::map<std::string, std::string> files;
  for (const auto& entry : *entries) {
    files[entry.name] = entry.data;
    if (order) order->push_back(entry.name);
  }
  return files;
}

HttpResult decide_early(int kind, std::map<std::string, HttpClient>& players, HttpClient& organiser,
                        std::int64_t tournament_id, std::int64_t game_id,
                        const std::string& scotland, const std::string& england,
                        const std::string& winner) {
  // Decided once under way: its players have rolled (docs/records.md, "Dice").
  const auto game = organiser.get("/api/games/" + std::to_string(game_id)).json()["game"];
  if (game["status"] == "open") roll_dice(players.at(scotland), players.at(england), game_id);
  switch (kind % 3) {
    case 0:
      return players.at(winner == "scotland" ? england : scotland)
          .post("/api/games/" + std::to_string(game_id) + "/resign", nlohmann::json::object());
    case 1:
      return organiser.post(tournament_path(tournament_id, "/forfeit"),
                            {{"game_id", game_id}, {"winner", winner}});
    default:
      return organiser.post(tournament_path(tournament_id, "/forfeit"),
                            {{"game_id", game_id}, {"reason", "adjudicated"}});
  }
}

}  // namespace blockfog::server::testing
