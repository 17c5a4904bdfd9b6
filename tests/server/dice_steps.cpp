#include "tests/server/dice_steps.h"

#include <gtest/gtest.h>

#include "rules/core/shared_seed.h"
#include "server/crypto.h"

namespace blockfog::server::testing {

using nlohmann::json;

namespace {
std::string dice_path(std::int64_t game_id) {
  return "/api/games/" + std::to_string(game_id) + "/dice";
}
}  // namespace

DiceHand dice_of(const std::string& contribution) {
  return {contribution, core::dice_commitment(contribution).value_or("")};
}

DiceHand draw_dice() { return dice_of(random_hex(32)); }

HttpResult commit_dice(HttpClient& player, std::int64_t game_id, const DiceHand& hand) {
  return player.post(dice_path(game_id), {{"commitment", hand.commitment}});
}

HttpResult reveal_dice(HttpClient& player, std::int64_t game_id, const DiceHand& hand) {
  return player.post(dice_path(game_id), {{"contribution", hand.contribution}});
}

void roll_dice(HttpClient& first, HttpClient& second, std::int64_t game_id) {
  const auto a = draw_dice();
  const auto b = draw_dice();
  for (const auto& [player, hand] : {std::pair{&first, &a}, std::pair{&second, &b}}) {
    const auto committed = commit_dice(*player, game_id, *hand);
    ASSERT_EQ(committed.status, 200) << committed.body;
  }
  const auto revealed = reveal_dice(first, game_id, a);
  ASSERT_EQ(revealed.status, 200) << revealed.body;
  const auto last = reveal_dice(second, game_id, b);
  ASSERT_EQ(last.status, 200) << last.body;
  ASSERT_EQ(last.json()["game"]["status"], "active") << last.body;
}

void roll_dice(HttpClient& player, std::int64_t game_id) {
  const auto hand = draw_dice();
  const auto committed = commit_dice(player, game_id, hand);
  ASSERT_EQ(committed.status, 200) << committed.body;
  const auto revealed = reveal_dice(player, game_id, hand);
  ASSERT_EQ(revealed.status, 200) << revealed.body;
  ASSERT_EQ(revealed.json()["game"]["status"], "active") << revealed.body;
}

void roll_dice_if_awaited(int port, std::int64_t game_id, const std::string& scotland_cookie,
                          const std::string& england_cookie) {
  HttpClient scotland(port);
  HttpClient england(port);
  scotland.set_session_cookie(scotland_cookie);
  england.set_session_cookie(england_cookie);
  const auto game = scotland.get("/api/games/" + std::to_string(game_id)).json()["game"];
  if (game["status"] == "open") roll_dice(scotland, england, game_id);
}

}  // namespace blockfog::server::testing
