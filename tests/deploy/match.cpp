#include "tests/deploy/match.h"

#include <gtest/gtest.h>

#include "protocol/messages.h"
#include "tests/server/dice_steps.h"

namespace blockfog::server::testing {

using nlohmann::json;

void Seat::apply_view(const json& message) {
  // A pushed view holds only the log lines from log_from on (docs/protocol.md): keep ours
  // before that index and append, so that `view` is always the whole view.
  json next = message.at("view");
  const std::int64_t log_from = message.value("log_from", std::int64_t{0});
  const json held = log_from > 0 && view.is_object() ? view.at("log") : json();
  next["log"] = protocol::merge_log(held, log_from, next.value("log", json::array()));
  view = std::move(next);
  seq = message.at("seq");
  ++views;
}

bool Seat::read_frame() {
  const auto frame = ws.read();
  if (!frame) return false;
  const json j = json::parse(*frame, nullptr, false);
  if (!j.is_object()) {
    ADD_FAILURE() << "not JSON: " << *frame;
    return false;
  }
  const std::string type = j.value("type", "");
  if (type == "view") {
    apply_view(j);
  } else if (type == "welcome") {
    role = j.value("role", "");
  } else if (type == "error") {
    errors.push_back(j);
  } else if (type == "restarting") {
    restarting = true;
  }
  return true;
}

bool Seat::await_view() {
  const auto errors_before = errors.size();
  const auto views_before = views;
  while (views == views_before) {
    if (!read_frame() || errors.size() > errors_before) return false;
  }
  return true;
}

bool Seat::barrier() {
  if (!ws.send(json{{"v", 1}, {"type", "ping"}}.dump())) return false;
  while (true) {
    const auto frame = ws.read();
    if (!frame) return false;
    const json j = json::parse(*frame, nullptr, false);
    if (j.is_object() && j.value("type", "") == "pong") return true;
    if (j.is_object() && j.value("type", "") == "view")
      apply_view(j);
    else if (j.is_object() && j.value("type", "") == "error") {
      errors.push_back(j);
    }
  }
}

bool Seat::has_legal_actions() const {
  return view.is_object() && !view.value("legal_actions", json::array()).empty();
}

std::int64_t start_game(Agent& scotland, Agent& england) {
  const auto created = scotland.post(
      "/api/games", {{"scenario", "braveheart"}, {"side", "scotland"}, {"visibility", "public"}});
  EXPECT_EQ(created.status, 201) << created.body;
  if (created.status != 201) return 0;
  const std::int64_t id = created.json()["game"]["id"];
  const auto joined = england.post("/api/games/" + std::to_string(id) + "/join", json::object());
  EXPECT_EQ(joined.status, 200) << joined.body;
  roll_dice(scotland, england, id);
  return id;
}

Match::Match(Endpoint endpoint, std::int64_t game_id, std::string scotland_cookie,
             std::string england_cookie)
    : endpoint_(std::move(endpoint)),
      game_id_(game_id),
      scotland_cookie_(std::move(scotland_cookie)),
      england_cookie_(std::move(england_cookie)) {}

bool Match::connect() {
  const std::string target = "/ws/games/" + std::to_string(game_id_);
  for (auto [seat, cookie] :
       {std::pair{&scotland_, &scotland_cookie_}, std::pair{&england_, &england_cookie_}}) {
    if (!seat->ws.connect(endpoint_, target, *cookie)) {
      ADD_FAILURE() << "WebSocket refused: " << seat->ws.refused_status();
      return false;
    }
    while (seat->view.is_null()) {
      if (!seat->read_frame()) {
        ADD_FAILURE() << "no first view";
        return false;
      }
    }
  }
  EXPECT_EQ(scotland_.role, "scotland");
  EXPECT_EQ(england_.role, "england");
  return scotland_.role == "scotland" && england_.role == "england";
}

bool Match::play(const std::string& role, const json& action) {
  Seat& actor = seat(role);
  Seat& other = seat(role == "scotland" ? "england" : "scotland");
  if (!actor.ws.send(
          json{{"v", 1}, {"type", "action"}, {"seq", actor.seq}, {"action", action}}.dump()) ||
      !actor.await_view()) {
    ADD_FAILURE() << role << "'s " << action.dump() << " got no view"
                  << (actor.errors.empty() ? "" : ": " + actor.errors.back().dump());
    return false;
  }
  // Both seats' frames of this commit were queued before their pongs: after the barriers each
  // holds the latest view, and nothing of this action is left to be read later.
  for (Seat* s : {&actor, &other}) {
    if (!s->barrier()) {
      ADD_FAILURE() << s->role << " did not answer a ping";
      return false;
    }
  }
  return true;
}

bool Match::play_random(std::mt19937_64& rng) {
  std::vector<std::pair<std::string, json>> choices;
  for (const char* role : {"scotland", "england"}) {
    if (!seat(role).has_legal_actions()) continue;
    for (const auto& action : seat(role).view.at("legal_actions"))
      choices.emplace_back(role, action);
  }
  if (choices.empty()) return false;
  const auto& [role, action] =
      choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
  return play(role, action);
}

}  // namespace blockfog::server::testing
