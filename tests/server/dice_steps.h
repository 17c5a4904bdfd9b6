#pragma once

// A player's side of the dice exchange (docs/records.md, "Dice") as a client other than the
// browser takes it over the API: a random contribution, its commitment, then its reveal.

#include <cstdint>
#include <string>

#include "tests/server/test_client.h"

namespace blockfog::server::testing {

struct DiceHand {
  std::string contribution;  // 64 hex
  std::string commitment;    // SHA-256 of its bytes, 64 hex
};

// A fresh random contribution and its commitment.
DiceHand draw_dice();
// A contribution of the given hex (tests that fix one).
DiceHand dice_of(const std::string& contribution);

HttpResult commit_dice(HttpClient& player, std::int64_t game_id, const DiceHand& hand);
HttpResult reveal_dice(HttpClient& player, std::int64_t game_id, const DiceHand& hand);

// Both players of a game whose seats are taken roll: each commits, then each reveals, and the
// game has started (checked).
void roll_dice(HttpClient& first, HttpClient& second, std::int64_t game_id);
// The one player of a game against the computer rolls: commits, then reveals (the computer's
// part is the server's).
void roll_dice(HttpClient& player, std::int64_t game_id);

// Rolls for both players (by their session cookies) if the game waits for its dice; nothing
// for a game that has started.
void roll_dice_if_awaited(int port, std::int64_t game_id, const std::string& scotland_cookie,
                          const std::string& england_cookie);

}  // namespace blockfog::server::testing
