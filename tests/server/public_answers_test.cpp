// RULES 13.1.4 through everything public: whenever a role's view did not move (another seat's
// hidden decision), neither did anything that role can ask the server for, nor what a visitor
// without an account can: with a clock, in a tournament and with turn notices as without.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>

#include "tests/server/game_helpers.h"
#include "tests/server/notice_endpoints.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

// Takes out of every clocks object in `j` what only the passing of time moves: `now`, and the
// remaining time of a running clock, which must be its deadline less `now` (so that nothing
// else moves it).
void strip_the_time(json& j) {
  if (j.is_array()) {
    for (auto& item : j) strip_the_time(item);
    return;
  }
  if (!j.is_object()) return;
  for (auto& [key, value] : j.items()) strip_the_time(value);
  if (!j.contains("now") || !j.contains("scotland") || !j.contains("time_control")) return;
  const std::int64_t now = j.at("now");
  for (const char* side : {"scotland", "england"}) {
    auto& clock = j.at(side);
    if (clock.at("running").get<bool>() && clock.at("vacation_until").is_null()) {
      EXPECT_EQ(clock.at("remaining_ms").get<std::int64_t>(),
                std::max<std::int64_t>(0, clock.at("deadline").get<std::int64_t>() - now))
          << j.dump();
      clock.erase("remaining_ms");
    }
  }
  j.erase("now");
}

// An answer's body as compared: time taken out (strip_the_time).
std::string without_the_time(const std::string& body) {
  auto j = json::parse(body, nullptr, false);
  if (j.is_discarded()) return body;
  strip_the_time(j);
  return j.dump();
}

class PublicAnswersWith : public ::testing::TestWithParam<int> {};

TEST_P(PublicAnswersWith, DoNotMoveWithHiddenDecisions) {
  TempDir dir;
  ServerProcess server(dir.path(), {"--webhook-allow", "http,private"});
  WebhookReceiver hooks;
  const auto features =
      fog_feature_sets("http://127.0.0.1:" + std::to_string(hooks.port()) + "/hook")[GetParam()];
  Table table(server.port(), "fog", features);
  HttpClient visitor(server.port());
  const std::string game = "/api/games/" + std::to_string(table.game_id);
  std::vector<std::string> targets = {"/healthz", "/api/games", game};
  if (table.tournament_id != 0) {
    targets.push_back("/api/tournaments/" + std::to_string(table.tournament_id));
  }
  // What `client` can read about games, headers included (but the clock's Date).
  auto public_answers = [&](HttpClient& client) {
    std::string all;
    for (const auto& target : targets) {
      auto answer = client.get(target);
      answer.headers.erase("date");
      all += target + " " + std::to_string(answer.status) + "\n";
      for (const auto& [name, value] : answer.headers) {
        // The body's length moves with the clock's digits; the body itself is compared.
        if (name != "content-length") all += name + ": " + value + "\n";
      }
      all += without_the_time(answer.body) + "\n";
    }
    return all;
  };
  std::mt19937_64 rng(32);
  std::map<std::string, std::int64_t> checked;
  for (int round = 0; round < 400 && !HasFailure(); ++round) {
    auto quiet_before = table.quiet_rounds;
    const auto england_before = public_answers(table.eng_http) +
                                without_the_time(table.eng_http.get("/api/games/mine").body);
    const auto visitor_before = public_answers(visitor);
    if (!table.play_random(rng)) break;
    if (table.quiet_rounds["england"] > quiet_before["england"]) {
      ++checked["england"];
      EXPECT_EQ(public_answers(table.eng_http) +
                    without_the_time(table.eng_http.get("/api/games/mine").body),
                england_before)
          << "round " << round;
    }
    if (table.quiet_rounds["observer"] > quiet_before["observer"]) {
      ++checked["observer"];
      EXPECT_EQ(public_answers(visitor), visitor_before) << "round " << round;
    }
  }
  // Random play makes hidden decisions on both sides (moves chosen before they show, winter
  // steps): the comparisons above were made, not skipped.
  EXPECT_GT(checked["observer"], 0);
}

INSTANTIATE_TEST_SUITE_P(
    Features, PublicAnswersWith, ::testing::Range(0, 3),
    [](const ::testing::TestParamInfo<int>& param_info) {
      return fog_feature_sets("")[static_cast<std::size_t>(param_info.param)].name;
    });

}  // namespace
}  // namespace blockfog::server::testing
