#include "tests/server/game_helpers.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace blockfog::server::testing {

using nlohmann::json;

namespace {

// Every quoted block id ("sco_..." or "eng_...") in the text; a scan, not a regex, because
// frames are large and this runs on every one of them.
std::vector<std::string> quoted_block_ids(const std::string& text) {
  std::vector<std::string> ids;
  for (std::size_t at = text.find("\"", 0); at != std::string::npos; at = text.find('"', at + 1)) {
    if (text.compare(at + 1, 4, "sco_") != 0 && text.compare(at + 1, 4, "eng_") != 0) continue;
    const auto end = text.find('"', at + 1);
    if (end == std::string::npos) break;
    ids.push_back(text.substr(at + 1, end - at - 1));
    at = end;
  }
  return ids;
}

}  // namespace

std::vector<std::string> fog_leaks(const std::string& role, const std::string& frame) {
  const json j = json::parse(frame, nullptr, false);
  if (j.is_discarded()) return {"frame is not JSON"};
  return fog_leaks(role, frame, j);
}

std::vector<std::string> fog_leaks(const std::string& role, const std::string& frame,
                                   const json& j) {
  std::vector<std::string> leaks;
  std::set<std::string> allowed;
  if (j.value("type", "") == "view") {
    const json& view = j.at("view");
    if (view.contains("outcome")) return leaks;  // the game is over: all may be shown
    for (const char* list : {"dead", "not_in_play"}) {
      const json ids = view.value(list, json::array());
      for (const auto& id : ids) allowed.insert(id.get<std::string>());
    }
    if (view.contains("battle")) {
      const json revealed = view["battle"].value("revealed", json::object());
      for (const auto& [side, blocks] : revealed.items()) {
        for (const auto& b : blocks) allowed.insert(b.at("block").get<std::string>());
      }
    }
    const json areas = view.value("areas", json::array());
    for (const auto& area : areas) {
      for (const char* side : {"scotland", "england"}) {
        if (side == role) continue;
        for (const auto& [key, value] : area.at(side).items()) {
          if (key != "count" && key != "moved" && key != "reserves") {
            leaks.push_back(role + " sees '" + key + "' of " + side + " blocks in " +
                            area.value("id", "?"));
          }
        }
      }
    }
  }
  for (const auto& id : quoted_block_ids(frame)) {
    const std::string owner = id.rfind("sco_", 0) == 0 ? "scotland" : "england";
    if (owner != role && !allowed.contains(id)) {
      const auto at = frame.find('"' + id + '"');
      leaks.push_back(role + " frame names " + id + " in ..." +
                      frame.substr(at > 300 ? at - 300 : 0, 400) + "...");
    }
  }
  return leaks;
}

HttpClient register_user(int port, const std::string& name, const std::string& password) {
  HttpClient client(port);
  const auto r = client.post("/api/register", {{"username", name}, {"password", password}});
  EXPECT_EQ(r.status, 201) << r.body;
  return client;
}

bool Connection::read_one() {
  const auto frame = ws.read();
  if (!frame) return false;
  ++frames;
  const json j = json::parse(*frame);
  for (const auto& leak : fog_leaks(role, *frame, j)) ADD_FAILURE() << leak;
  const std::string type = j.at("type");
  if (type == "view") {
    seq = j.at("seq");
    view = j.at("view");
  } else if (type == "error") {
    errors.push_back(j);
  } else if (type == "chat") {
    chat.push_back(j);
  } else if (type == "welcome") {
    welcome_status = j.at("status");
    seed_sha256 = j.at("seed_sha256");
    role = j.at("role");
  } else if (type == "restarting") {
    restarting = true;
  }
  return true;
}

bool Connection::read_until_seq(std::int64_t target) {
  while (seq < target) {
    if (!read_one()) return false;
  }
  return true;
}

bool Connection::barrier() {
  ws.send_json({{"v", 1}, {"type", "ping"}});
  while (true) {
    const auto frame = ws.read();
    if (!frame) return false;
    const json j = json::parse(*frame);
    if (j.value("type", "") == "pong") return true;
    // Not a pong: process it like any frame (re-parse is cheap enough for tests).
    ++frames;
    for (const auto& leak : fog_leaks(role, *frame, j)) ADD_FAILURE() << leak;
    const std::string type = j.at("type");
    if (type == "view") {
      seq = j.at("seq");
      view = j.at("view");
    } else if (type == "error") {
      errors.push_back(j);
    } else if (type == "chat") {
      chat.push_back(j);
    } else if (type == "restarting") {
      restarting = true;
    }
  }
}

void Connection::send_action(const json& action, std::int64_t at_seq) {
  ws.send_json({{"v", 1}, {"type", "action"}, {"seq", at_seq}, {"action", action}});
}

std::unique_ptr<Connection> connect(int port, std::int64_t game_id, const std::string& cookie,
                                    const std::string& query) {
  auto c = std::make_unique<Connection>();
  c->role = "observer";
  if (!c->ws.connect(port, "/ws/games/" + std::to_string(game_id) + query, cookie)) {
    ADD_FAILURE() << "WebSocket refused: " << c->ws.refused_status();
    return nullptr;
  }
  return c;
}

Table::Table(int p, const std::string& prefix)
    : port(p),
      scot_http(register_user(p, prefix + "_scot")),
      eng_http(register_user(p, prefix + "_eng")) {
  const auto created = scot_http.post(
      "/api/games", {{"scenario", "braveheart"}, {"side", "scotland"}, {"visibility", "public"}});
  EXPECT_EQ(created.status, 201) << created.body;
  game_id = created.json()["game"]["id"];
  const auto joined =
      eng_http.post("/api/games/" + std::to_string(game_id) + "/join", json::object());
  EXPECT_EQ(joined.status, 200) << joined.body;
  EXPECT_EQ(joined.json()["game"]["status"], "active");
  connect_all();
}

void Table::connect_all() {
  scotland = connect(port, game_id, scot_http.session_cookie());
  england = connect(port, game_id, eng_http.session_cookie());
  observer = connect(port, game_id, "");
  ASSERT_TRUE(scotland && england && observer);
  for (Connection* c : {scotland.get(), england.get(), observer.get()}) {
    ASSERT_TRUE(c->read_until_seq(0));
  }
  EXPECT_EQ(scotland->role, "scotland");
  EXPECT_EQ(england->role, "england");
  EXPECT_EQ(observer->role, "observer");
}

bool Table::play_random(std::mt19937_64& rng) {
  const std::int64_t at = seq();
  // Every client must be at the same seq before a choice is made.
  EXPECT_EQ(scotland->seq, at);
  EXPECT_EQ(england->seq, at);
  std::vector<std::pair<std::string, json>> choices;
  std::set<std::string> acting;
  for (const char* role : {"scotland", "england"}) {
    for (const auto& a : seat(role).view.at("legal_actions")) {
      choices.emplace_back(role, a);
      acting.insert(role);
    }
  }
  if (choices.empty()) return false;
  auto pick = [&](const std::string& only) {
    std::vector<std::size_t> indices;
    for (std::size_t i = 0; i < choices.size(); ++i) {
      if (only.empty() || choices[i].first == only) indices.push_back(i);
    }
    return choices[indices[std::uniform_int_distribution<std::size_t>(0, indices.size() - 1)(rng)]];
  };
  std::vector<std::pair<std::string, json>> sent;
  if (acting.size() == 2 && rng() % 2 == 0) {
    // Both seats act at the same moment (the card phase): one is applied, the other is stale
    // and answered with the new view.
    sent.push_back(pick("scotland"));
    sent.push_back(pick("england"));
  } else {
    sent.push_back(pick(""));
  }
  const auto errors_before = scotland->errors.size() + england->errors.size();
  for (const auto& [role, action] : sent) seat(role).send_action(action, at);
  for (Connection* c : {scotland.get(), england.get(), observer.get()}) {
    if (!c->read_until_seq(at + 1)) {
      std::string sent_text;
      for (const auto& [role, action] : sent) sent_text += role + ": " + action.dump() + "; ";
      std::string errors_text;
      for (Connection* e : {scotland.get(), england.get()}) {
        for (const auto& error : e->errors) errors_text += e->role + ": " + error.dump() + "; ";
      }
      ADD_FAILURE() << c->role << " got no view after seq " << at << "; sent " << sent_text
                    << "errors " << errors_text;
      return false;
    }
  }
  EXPECT_EQ(scotland->errors.size() + england->errors.size(), errors_before)
      << "a legal action was refused: "
      << (scotland->errors.empty() ? england->errors.back() : scotland->errors.back()).dump();
  acknowledged.push_back({at + 1, sent});
  // Drain the stale seat's resync so every client is at the same point.
  if (sent.size() == 2) {
    for (Connection* c : {scotland.get(), england.get()}) EXPECT_TRUE(c->barrier());
  }
  return true;
}

}  // namespace blockfog::server::testing
