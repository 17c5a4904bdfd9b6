#include "tests/server/tournament_helpers.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "tests/server/game_helpers.h"

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

int play_random_actions(int port, std::int64_t game_id, const std::string& scotland_cookie,
                        const std::string& england_cookie, int actions, std::mt19937_64& rng) {
  auto scotland = connect(port, game_id, scotland_cookie);
  auto england = connect(port, game_id, england_cookie);
  if (!scotland || !england || !scotland->read_first_view() || !england->read_first_view()) {
    ADD_FAILURE() << "game " << game_id << ": no views";
    return 0;
  }
  int applied = 0;
  for (int i = 0; i < actions; ++i) {
    std::vector<std::pair<Connection*, json>> choices;
    for (Connection* c : {scotland.get(), england.get()}) {
      if (!c->view.contains("legal_actions")) continue;
      for (const auto& a : c->view["legal_actions"]) choices.emplace_back(c, a);
    }
    if (choices.empty()) break;
    auto& [c, action] =
        choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
    const std::string ref = "t" + std::to_string(i);
    c->send_action(action, c->seq, ref);
    if (!c->read_answer(ref)) {
      ADD_FAILURE() << "game " << game_id << ": no answer";
      break;
    }
    EXPECT_NE(c->last.value("type", ""), "error") << c->last.dump();
    ++applied;
    for (Connection* other : {scotland.get(), england.get()}) EXPECT_TRUE(other->barrier());
  }
  return applied;
}

std::map<std::string, std::string> read_ustar(const std::string& archive) {
  std::map<std::string, std::string> files;
  std::size_t at = 0;
  EXPECT_EQ(archive.size() % 512, 0u);
  while (at + 512 <= archive.size()) {
    const std::string header = archive.substr(at, 512);
    if (header == std::string(512, '\0')) {
      EXPECT_EQ(archive.substr(at), std::string(1024, '\0')) << "two zero blocks end it";
      break;
    }
    EXPECT_EQ(header.substr(257, 6), std::string("ustar\0", 6));
    EXPECT_EQ(header.substr(263, 2), "00");
    EXPECT_EQ(header[156], '0');
    unsigned sum = 0;
    for (std::size_t i = 0; i < 512; ++i) {
      sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(header[i]);
    }
    EXPECT_EQ(std::stoul(header.substr(148, 7), nullptr, 8), sum) << "header checksum";
    const std::string name = header.substr(0, header.find('\0'));
    const auto size = std::stoull(header.substr(124, 11), nullptr, 8);
    files[name] = archive.substr(at + 512, size);
    at += 512 + (size + 511) / 512 * 512;
  }
  return files;
}

}  // namespace blockfog::server::testing
