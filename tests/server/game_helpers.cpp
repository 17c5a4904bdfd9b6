#include "tests/server/game_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <regex>
#include <set>

#include "protocol/messages.h"
#include "tests/server/dice_steps.h"
#include "tests/server/random_walk.h"

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

std::int64_t wall_clock_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

std::vector<std::string> fog_leaks(const std::string& role, const std::string& frame) {
  const json j = json::parse(frame, nullptr, false);
  if (j.is_discarded()) return {"frame is not JSON"};
  return fog_leaks(role, frame, j);
}

std::vector<std::string> fog_leaks(const std::string& role, const std::string& frame,
                                   const json& j) {
  return fog_leaks_given(role, frame, j.value("type", "") == "view" ? &j.at("view") : nullptr);
}

std::vector<std::string> fog_leaks_given(const std::string& role, const std::string& frame,
                                         const json* given) {
  std::vector<std::string> leaks;
  std::set<std::string> allowed;
  if (given) {
    const json& view = *given;
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
  take(*frame, json::parse(*frame));
  return true;
}

void Connection::take(const std::string& frame, const json& j) {
  ++frames;
  last = j;
  for (const auto& secret : forbidden) {
    EXPECT_EQ(frame.find(secret), std::string::npos) << role << " was sent a secret: " << frame;
  }
  const std::string type = j.at("type");
  if (type == "view_patch") {
    // The patch names only what changed: what it may name is what the view it gives shows.
    take_view_patch(j);
    for (const auto& leak : fog_leaks_given(role, frame, &view)) ADD_FAILURE() << leak;
    return;
  }
  for (const auto& leak : fog_leaks(role, frame, j)) ADD_FAILURE() << leak;
  if (type == "view") {
    take_view(j);
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
  } else if (type == "clocks") {
    take_clocks(j);
  }
}

void Connection::take_clocks(const json& message) {
  ++clocks;
  last_clocks = message.at("clocks");
  EXPECT_GT(views, views_at_clocks_)
      << role << ": a clocks frame without a change of this seat's view tells of a decision it "
      << "may not know: " << message.dump();
  views_at_clocks_ = views;
  if (view.is_null() || view.contains("outcome")) return;
  const json awaiting = view.value("awaiting", json::array());
  for (const char* side : {"scotland", "england"}) {
    const bool awaited = std::find(awaiting.begin(), awaiting.end(), side) != awaiting.end();
    EXPECT_EQ(message.at("clocks").at(side).at("running").get<bool>(), awaited)
        << role << ": " << side
        << "'s clock runs other than the view's awaiting: " << message.dump();
  }
}

void Connection::take_view(const json& message) {
  const std::int64_t version = message.at("seq");
  const std::size_t log_from = message.at("log_from");
  json next = message.at("view");
  if (log_from > 0) {
    EXPECT_FALSE(view.is_null()) << role << ": a log increment before any whole view";
  }
  const json held = log_from > 0 && !view.is_null() ? view.at("log") : json();
  next["log"] = protocol::merge_log(held, static_cast<std::int64_t>(log_from), next.at("log"));
  accept_view(std::move(next), version);
}

void Connection::take_view_patch(const json& message) {
  const protocol::ViewPatchMessage patch{message.at("seq"), message.at("view_patch"),
                                         message.at("log_from"), std::nullopt};
  ++patches;
  // Sent only to a connection that holds the version before (docs/protocol.md).
  EXPECT_EQ(patch.seq, seq + 1) << role << ": a patch for a version this connection lacks";
  json next = view;
  EXPECT_TRUE(protocol::apply_view_patch(next, patch)) << role << ": " << message.dump();
  accept_view(std::move(next), patch.seq);
}

void Connection::accept_view(json next, std::int64_t version) {
  // The merged log is the whole log: lines 0 .. log_size-1, each once, in order.
  const auto& merged = next["log"];
  EXPECT_EQ(merged.size(), next.at("log_size").get<std::size_t>()) << role;
  for (std::size_t i = 0; i < merged.size(); ++i) {
    // A plain text line (a module whose lines carry nothing else) is numbered by its place.
    if (merged[i].is_string()) continue;
    EXPECT_EQ(merged[i].at("i").get<std::size_t>(), i) << role << ": log line out of place";
  }
  if (!view.is_null() && seq >= 0) {
    EXPECT_GE(version, seq) << role << ": the view version went back";
    if (version == seq) {
      EXPECT_EQ(next, view) << role << ": a changed view kept its version";
    } else {
      EXPECT_NE(next, view) << role << ": a new version of the same view";
    }
  }
  view = std::move(next);
  seq = version;
  ++views;
}

bool Connection::read_first_view() {
  while (views == 0) {
    if (!read_one()) return false;
  }
  return true;
}

bool Connection::read_answer(const std::string& ref) {
  while (true) {
    if (!read_one()) return false;
    if (last.value("ref", "") == ref) return true;
  }
}

bool Connection::barrier() {
  ws.send_json({{"v", 1}, {"type", "ping"}});
  while (true) {
    const auto frame = ws.read();
    if (!frame) return false;
    const json j = json::parse(*frame);
    if (j.value("type", "") == "pong") return true;
    take(*frame, j);
  }
}

void Connection::send_action(const json& action, std::int64_t at_seq, const std::string& ref) {
  json message = {{"v", 1}, {"type", "action"}, {"seq", at_seq}, {"action", action}};
  if (!ref.empty()) message["ref"] = ref;
  ws.send_json(message);
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

int play_forward_away(int port, std::int64_t game_id, const std::string& scotland_cookie,
                      const std::string& england_cookie, std::mt19937_64& rng, int max_actions,
                      const std::function<bool()>& stop) {
  std::unique_ptr<Connection> current;
  const auto open_as = [&](const std::string& role) {
    if (current) current->ws.close();
    current = connect(port, game_id, role == "scotland" ? scotland_cookie : england_cookie);
    EXPECT_TRUE(current && current->read_first_view());
  };
  open_as("scotland");
  int played = 0;
  while (played < max_actions) {
    if (!current || current->view.is_null() || current->view.contains("outcome")) break;
    const auto awaiting = current->view["awaiting"];
    if (awaiting.empty()) break;
    const std::string role = awaiting[rng() % awaiting.size()];
    if (current->role != role) open_as(role);
    const auto legal = forward_actions(current->view["legal_actions"]);
    if (legal.empty()) break;
    const std::string ref = "forward" + std::to_string(played);
    current->send_action(legal[rng() % legal.size()], current->seq, ref);
    if (!current->read_answer(ref)) break;
    EXPECT_NE(current->last.value("type", ""), "error") << current->last.dump();
    ++played;
    if (stop && stop()) break;
  }
  if (current) current->ws.close();
  return played;
}

std::vector<TableFeatures> fog_feature_sets(const std::string& webhook_url) {
  TableFeatures plain;
  TableFeatures live;
  live.time_control = {{"kind", "live"}, {"minutes", 60}, {"increment_seconds", 30}};
  live.tournament = true;
  live.webhook_url = webhook_url;
  live.name = "LiveClockTournamentNotices";
  TableFeatures correspondence;
  correspondence.time_control = {
      {"kind", "correspondence"}, {"days_per_turn", 3}, {"bank_days", 7}, {"vacation", true}};
  correspondence.webhook_url = webhook_url;
  correspondence.name = "CorrespondenceClockNotices";
  return {plain, live, correspondence};
}

Table::Table(int p, const std::string& prefix, const TableFeatures& features)
    : port(p),
      scot_http(register_user(p, prefix + "_scot")),
      eng_http(register_user(p, prefix + "_eng")) {
  if (!features.webhook_url.empty()) {
    for (auto* http : {&scot_http, &eng_http}) {
      const auto r =
          http->post("/api/notices", {{"webhook_url", features.webhook_url}, {"webhook", true}});
      EXPECT_EQ(r.status, 200) << r.body;
    }
  }
  if (features.tournament) {
    organiser_http = register_user(p, prefix + "_org");
    json request = {{"name", prefix + " cup"},
                    {"kind", features.kind},
                    {"scenario", features.scenario},
                    {"format", "single_elimination"},
                    {"sides", "lot"},
                    {"round_deadline_minutes", 60 * 24 * 7},
                    {"rated", false},
                    {"registration_closes_at", wall_clock_ms() + 3600 * 1000},
                    {"max_players", 2}};
    if (!features.time_control.is_null()) request["time_control"] = features.time_control;
    const auto created = organiser_http->post("/api/tournaments", request);
    EXPECT_EQ(created.status, 201) << created.body;
    tournament_id = created.json()["tournament"]["id"];
    const std::string path = "/api/tournaments/" + std::to_string(tournament_id);
    for (auto* http : {&scot_http, &eng_http}) {
      EXPECT_EQ(http->post(path + "/register", json::object()).status, 200);
    }
    const auto started = organiser_http->post(path + "/start", json::object());
    EXPECT_EQ(started.status, 200) << started.body;
    const auto pairing = started.json()["tournament"]["rounds_played"][0]["games"][0];
    game_id = pairing["game_id"];
    // The lot may have seated the first account as England.
    if (pairing["scotland"] != prefix + "_scot") std::swap(scot_http, eng_http);
  } else {
    json request = {{"kind", features.kind},
                    {"scenario", features.scenario},
                    {"side", "scotland"},
                    {"visibility", "public"}};
    if (!features.time_control.is_null()) request["time_control"] = features.time_control;
    const auto created = scot_http.post("/api/games", request);
    EXPECT_EQ(created.status, 201) << created.body;
    game_id = created.json()["game"]["id"];
    const auto joined =
        eng_http.post("/api/games/" + std::to_string(game_id) + "/join", json::object());
    EXPECT_EQ(joined.status, 200) << joined.body;
    EXPECT_EQ(joined.json()["game"]["status"], "open");
  }
  // Both seats taken: the game starts once both players rolled (docs/records.md, "Dice").
  roll_dice(scot_http, eng_http, game_id);
  connect_all();
}

void Table::connect_all() {
  // Scotland and the observer take patches, England whole views: both kinds in every game.
  scotland = connect(port, game_id, scot_http.session_cookie(), "?patches=1");
  england = connect(port, game_id, eng_http.session_cookie());
  observer = connect(port, game_id, "", "?patches=1");
  ASSERT_TRUE(scotland && england && observer);
  for (Connection* c : {scotland.get(), england.get(), observer.get()}) {
    ASSERT_TRUE(c->read_first_view());
  }
  EXPECT_EQ(scotland->role, "scotland");
  EXPECT_EQ(england->role, "england");
  EXPECT_EQ(observer->role, "observer");
}

std::vector<Connection*> Table::open() {
  std::vector<Connection*> out;
  for (Connection* c : {scotland.get(), england.get(), observer.get()}) {
    if (c) out.push_back(c);
  }
  return out;
}

bool Table::play_random(std::mt19937_64& rng) {
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
    // Both seats act at the same moment (the card phase): the first is applied; the second is
    // stale, and answered with the new view, if the first changed what its seat sees.
    sent.push_back(pick("scotland"));
    sent.push_back(pick("england"));
  } else {
    sent.push_back(pick(""));
  }
  std::map<std::string, std::int64_t> views_before;
  std::map<std::string, std::int64_t> frames_before;
  for (Connection* c : open()) {
    views_before[c->role] = c->views;
    frames_before[c->role] = c->frames;
  }
  std::vector<std::string> refs;
  for (const auto& [role, action] : sent) {
    refs.push_back("a" + std::to_string(++next_ref_));
    seat(role).send_action(action, seat(role).seq, refs.back());
  }
  std::vector<std::pair<std::string, json>> applied;
  for (std::size_t i = 0; i < sent.size(); ++i) {
    Connection& c = seat(sent[i].first);
    if (!c.read_answer(refs[i])) {
      ADD_FAILURE() << c.role << " got no answer to " << sent[i].second.dump();
      return false;
    }
    if (c.last.at("type") != "view" && c.last.at("type") != "view_patch") {
      ADD_FAILURE() << "a legal action was refused: " << c.last.dump();
      return false;
    }
    if (!c.last.value("stale", false)) applied.push_back(sent[i]);
  }
  EXPECT_FALSE(applied.empty()) << "every action sent was answered as stale";
  // Whatever the actions caused has reached every connection once each has answered a ping.
  for (Connection* c : open()) EXPECT_TRUE(c->barrier());
  for (std::size_t k = 0; k < applied.size(); ++k) {
    acknowledged.push_back({actions + static_cast<std::int64_t>(k) + 1, applied});
  }
  actions += static_cast<std::int64_t>(applied.size());
  for (Connection* c : open()) {
    const bool acted =
        std::any_of(sent.begin(), sent.end(), [&](const auto& s) { return s.first == c->role; });
    if (!acted && c->views == views_before[c->role]) {
      ++quiet_rounds[c->role];
      EXPECT_EQ(c->frames, frames_before[c->role])
          << c->role << " got a frame although its view did not change: " << c->last.dump();
    }
  }
  return !::testing::Test::HasFailure();
}

}  // namespace blockfog::server::testing
